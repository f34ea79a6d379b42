/**
 * `skillgate hook <name>`: runs one hook on stdin, as the host would, from the CLI (for compiled
 * binaries and manual checks). The hook's spec is the same one its entry file runs.
 *
 * @module
 */

import type { HookSpec } from "../hook/runner.ts";

/** Each hook name's spec, loaded on demand. */
const SPECS: Record<string, () => Promise<HookSpec>> = {
  "skill-route": async () => (await import("../routing/hook.ts")).SKILL_ROUTE_HOOK,
  "skill-contract": async () => (await import("../contracts/hook.ts")).skillContractHook(),
  "skill-redirect": async () => (await import("../redirect/hook.ts")).SKILL_REDIRECT_HOOK,
  "skill-redirect-stop": async () => (await import("../redirect/hook.ts")).SKILL_REDIRECT_HOOK,
};

/**
 * Runs the named hook.
 *
 * @param args `[name]`.
 * @returns The exit code (always 0 for a known hook; 2 for an unknown one).
 */
export async function main(args: string[]): Promise<number> {
  const name = args[0] ?? "";
  if (!Object.hasOwn(SPECS, name)) {
    console.error(
      `skillgate: unknown hook ${JSON.stringify(name.slice(0, 40))}; one of ${
        Object.keys(SPECS).join(", ")
      }`,
    );
    return 2;
  }
  const [spec, { runHook }] = await Promise.all([SPECS[name](), import("../hook/runner.ts")]);
  await runHook(spec);
  return 0;
}

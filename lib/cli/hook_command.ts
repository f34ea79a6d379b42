/**
 * `skillgate hook <name>`: runs one hook on stdin, as the host would, from the CLI (for compiled
 * binaries and manual checks). The hook's spec is the same one its entry file runs. A known hook
 * always exits 0 (it fails open); only a bad argument exits 2.
 *
 * @module
 */

import type { HookSpec } from "../hook/runner.ts";
import type { CommandSpec } from "./args.ts";

/** Each hook name's spec, loaded on demand. */
const SPECS: Record<string, () => Promise<HookSpec>> = {
  "skill-route": async () => (await import("../routing/route_core.ts")).SKILL_ROUTE_HOOK,
  "skill-contract": async () => (await import("../contracts/contract_core.ts")).skillContractHook(),
  "skill-contract-subagent": async () =>
    (await import("../contracts/contract_core.ts")).skillContractHook(),
  "skill-redirect": async () => (await import("../redirect/redirect_core.ts")).SKILL_REDIRECT_HOOK,
  "skill-redirect-stop": async () =>
    (await import("../redirect/redirect_core.ts")).SKILL_REDIRECT_HOOK,
};

/** `skillgate hook`. */
export const HOOK_SPEC: CommandSpec = {
  name: "hook",
  usage: ["<name> < payload.json"],
  description: "Runs one hook on the payload read from stdin and prints its answer, as the host " +
    "would run it (for compiled binaries and manual checks). A hook always exits 0: on any " +
    "error it prints nothing and one stderr line.",
  arguments: [{
    name: "<name>",
    description: `The hook: ${Object.keys(SPECS).join(", ")}`,
  }],
};

/**
 * Runs the named hook.
 *
 * @param args `[name]`.
 * @returns The exit code (always 0 for a known hook; 2 for a bad argument).
 */
export async function main(args: string[]): Promise<number> {
  const name = args.length === 1 ? args[0] : "";
  if (!Object.hasOwn(SPECS, name)) {
    // Only a bad command line gets here (and loads the parser): help, a flag, a wrong name.
    const { parseCommand, shownArg, usageError } = await import("./args.ts");
    const { didYouMean } = await import("./did_you_mean.ts");
    const parsed = parseCommand(HOOK_SPEC, args);
    if (!parsed.ok) return parsed.exit;
    const given = parsed.args.positionals;
    if (given.length !== 1) {
      return usageError(HOOK_SPEC, given.length === 0 ? "Missing <name>" : "Give one hook name");
    }
    return usageError(
      HOOK_SPEC,
      `Unknown hook '${shownArg(given[0])}'${didYouMean(given[0], Object.keys(SPECS))} (one of ${
        Object.keys(SPECS).join(", ")
      })`,
    );
  }
  const [spec, { runHook }] = await Promise.all([SPECS[name](), import("../hook/runner.ts")]);
  await runHook(spec);
  return 0;
}

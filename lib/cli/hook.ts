/**
 * `skillgate hook <name>`: runs one hook on stdin, as the host would, from the CLI (for compiled
 * binaries and manual checks). The hook's logic is the same module its entry file runs.
 *
 * @module
 */

/**
 * Runs the named hook.
 *
 * @param args `[name]`.
 * @returns The exit code (always 0 for a known hook; 2 for an unknown one).
 */
export async function main(args: string[]): Promise<number> {
  const entries: Record<string, () => Promise<unknown>> = {
    "skill-route": () => import("../../hooks/skill_route.ts"),
    "skill-contract": () => import("../../hooks/skill_contract.ts"),
    "skill-redirect": () => import("../../hooks/skill_redirect.ts"),
    "skill-redirect-stop": () => import("../../hooks/skill_redirect.ts"),
  };
  const name = args[0] ?? "";
  if (!Object.hasOwn(entries, name)) {
    console.error(
      `skillgate: unknown hook ${JSON.stringify(name.slice(0, 40))}; one of ${
        Object.keys(entries).join(", ")
      }`,
    );
    return 2;
  }
  const mod = await entries[name]() as { run?: () => Promise<void> };
  await mod.run?.();
  return 0;
}

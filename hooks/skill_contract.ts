/**
 * The skill contract Stop hook (Claude Code `Stop`).
 *
 * At the end of a final turn it checks the contract of the most recently loaded skill that
 * declares one (`contract:` in its SKILL.md frontmatter) against the session transcript. When an
 * item is unmet it blocks the stop once with `SKILL_CONTRACT_UNMET <skill> (contract v1): missing
 * …`, naming each item's fix and the `skillgate contract waive` escape; the next stop is always
 * allowed. Outcomes go to `<state root>/skill-contracts/<session id>.json`, decisions to
 * `<state root>/hooks/skill-contract.log`.
 *
 * It fails open: any problem lets the stop through with exit 0 and one stderr line, such as
 * `skillgate: SKILL_CONTRACT_STATE_ERROR <path>: <cause>; stop allowed, miss not recorded (see README#state-error)`.
 *
 * Run it with the flags of the hook table (`skillgate setup` writes them), for example:
 * `deno run --no-prompt --no-config --allow-read=… --allow-write=… --allow-env=… hooks/skill_contract.ts`
 *
 * @module
 */

import { runFront } from "../lib/hook/front.ts";

/**
 * Runs the hook on stdin and prints its answer (always exit 0). The hook's core (the runner and
 * the checker) is loaded only once the switch is known to be on.
 *
 * @param guard Arm the process's guard (`armGuard`): the entry's own process does.
 * @returns When the answer is printed.
 */
export function run(guard = false): Promise<void> {
  return runFront(
    { switchName: "skill_contracts" },
    () => import("../lib/contracts/contract_core.ts"),
    guard,
  );
}

if (import.meta.main) {
  await run(true);
  // The answer is written: end now. Letting the runtime wind down by itself costs several ms of a
  // short hook process, and work still pending (logic past its deadline) must not hold it open.
  Deno.exit(0);
}

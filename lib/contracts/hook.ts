/**
 * The skill contract Stop hook's spec (Claude Code `Stop`), run by the hook entry
 * `hooks/skill_contract.ts` and by `skillgate hook skill-contract`.
 *
 * @module
 */

import type { HookSpec } from "../hook/runner.ts";
import { formatContractFailure } from "./state_error.ts";
import type { StopProgress } from "./stop.ts";

/**
 * The skill contract Stop hook for one run: blocks a stop once when the loaded skill's contract is
 * unmet. What its logic notes it is working on (the progress) is what a failure line names, so a
 * spec serves one run.
 *
 * @returns The hook spec.
 */
export function skillContractHook(): HookSpec {
  const progress: StopProgress = {};
  return {
    ids: ["skill-contract"],
    // The checker is loaded only after the switch check, so a switched-off hook stays cheap.
    run: async (ev, ctx) => (await import("./stop.ts")).runContractStop(ev, ctx, { progress }),
    formatFailure: (failure) => formatContractFailure(failure, progress.path),
  };
}

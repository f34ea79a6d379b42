/**
 * The skill contract Stop hook's spec (Claude Code `Stop`), run by the hook entry
 * `hooks/skill_contract.ts` and by `skillgate hook skill-contract`. It is the contract hook's
 * core: the entry's front loads it (bundled as `hooks/dist/skill_contract_core.js`) when the
 * switch is on.
 *
 * @module
 */

import type { ConfigState } from "../base/config.ts";
import { type HookSpec, runHook } from "../hook/runner.ts";
import type { StdinError } from "../hook/io.ts";
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
    ids: ["skill-contract", "skill-contract-subagent"],
    // The checker is loaded only after the switch check, so a switched-off hook stays cheap.
    run: async (ev, ctx) => (await import("./stop.ts")).runContractStop(ev, ctx, { progress }),
    formatFailure: (failure) => formatContractFailure(failure, progress.path),
  };
}

/**
 * Runs the contract hook on what the entry's front read and prints its answer.
 *
 * @param input The payload's text, or why it could not be read.
 * @param config The config file, when the front read it.
 * @returns When the answer is printed.
 */
export function run(input: string | StdinError, config?: ConfigState): Promise<void> {
  return runHook(skillContractHook(), input, config);
}

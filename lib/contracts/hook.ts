/**
 * The skill contract Stop hook's spec (Claude Code `Stop`), run by the hook entry
 * `hooks/skill_contract.ts` and by `skillgate hook skill-contract`.
 *
 * @module
 */

import type { HookSpec } from "../hook/runner.ts";
import { formatContractFailure } from "./records.ts";

/** The skill contract Stop hook: blocks a stop once when the loaded skill's contract is unmet. */
export const SKILL_CONTRACT_HOOK: HookSpec = {
  ids: ["skill-contract"],
  // The checker is loaded only after the switch check, so a switched-off hook stays cheap.
  run: async (ev, ctx) => (await import("./stop.ts")).runContractStop(ev, ctx),
  formatFailure: formatContractFailure,
};

/**
 * The skill routing hook's spec (Claude Code `UserPromptSubmit`, Copilot CLI
 * `userPromptSubmitted`), run by the hook entry `hooks/skill_route.ts` and by
 * `skillgate hook skill-route`. The routing logic is loaded only once the switch is known to be on.
 *
 * @module
 */

import type { HookSpec } from "../hook/runner.ts";

/** The skill routing hook: adds one line of context naming the skill a prompt fits. */
export const SKILL_ROUTE_HOOK: HookSpec = {
  ids: ["skill-route"],
  run: async (ev, ctx) => (await import("./route.ts")).runRouteHook(ev, ctx),
};

/**
 * The skill routing hook's spec (Claude Code `UserPromptSubmit`, Copilot CLI
 * `userPromptSubmitted`), run by the hook entry `hooks/skill_route.ts` and by
 * `skillgate hook skill-route`. It is the routing hook's core: the entry's front loads it (bundled
 * as `hooks/dist/skill_route_core.js`) only once the switch is known to be on.
 *
 * @module
 */

import type { ConfigState } from "../base/config.ts";
import { type HookSpec, runHook } from "../hook/runner.ts";
import type { StdinError } from "../hook/io.ts";

/** The skill routing hook: adds one line of context naming the skill a prompt fits. */
export const SKILL_ROUTE_HOOK: HookSpec = {
  ids: ["skill-route"],
  run: async (ev, ctx) => (await import("./route.ts")).routeOnPrompt(ev, ctx),
};

/**
 * Runs the routing hook on what the entry's front read and prints its answer.
 *
 * @param input The payload's text, or why it could not be read.
 * @param config The config file, when the front read it.
 * @returns When the answer is printed.
 */
export function run(input: string | StdinError, config?: ConfigState): Promise<void> {
  return runHook(SKILL_ROUTE_HOOK, input, config);
}

/**
 * The skill-to-agent redirect hook's spec (each host's tool event for its skill calls, and its
 * stop event where the host declares an unknown-skill error),
 * run by the hook entry `hooks/skill_redirect.ts` and by `skillgate hook skill-redirect`. It is
 * the redirect hook's core: the entry's front loads it (bundled as
 * `hooks/dist/skill_redirect_core.js`) only for a payload that may concern the redirect (see
 * `mayConcern` in the entry) while the switch is on.
 *
 * @module
 */

import type { ConfigState } from "../base/config.ts";
import { type HookSpec, runHook } from "../hook/runner.ts";
import type { StdinError } from "../hook/io.ts";
import { hostFor } from "../host/mod.ts";
import { isSkillCall } from "../host/skill_calls.ts";

/** The skill-to-agent redirect hook: denies (or, on Stop, blocks once for) a Skill call of an agent. */
export const SKILL_REDIRECT_HOOK: HookSpec = {
  ids: ["skill-redirect", "skill-redirect-stop"],
  // Only a skill call of the sending host (`isSkillCall`) or a stop concerns it; any other tool
  // call ends here, before any file is read.
  relevant: (ev) => ev.eventName === "Stop" || isSkillCall(hostFor(ev.host), ev.toolName),
  // The redirect logic is loaded only once the switch is known to be on.
  run: async (ev, ctx) => (await import("./redirect.ts")).redirectOnEvent(ev, ctx),
};

/**
 * Runs the redirect hook on what the entry's front read and prints its answer.
 *
 * @param input The payload's text, or why it could not be read.
 * @param config The config file, when the front read it.
 * @returns When the answer is printed.
 */
export function run(input: string | StdinError, config?: ConfigState): Promise<void> {
  return runHook(SKILL_REDIRECT_HOOK, input, config);
}

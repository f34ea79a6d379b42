/**
 * The skill-to-agent redirect hook's spec (Claude Code `PreToolUse` for `Skill` and `Stop`,
 * Copilot CLI `preToolUse` for `skill`, Codex CLI `PreToolUse` for a shell read of a SKILL.md),
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
import { hostFor, toolNamesOf } from "../host/mod.ts";

const SKILL_TOOLS = toolNamesOf("skill");

/** A shell call of a host whose model loads skills by reading their SKILL.md (Codex CLI). */
function isShellSkillRead(host: Parameters<typeof hostFor>[0], toolName: string): boolean {
  const h = hostFor(host);
  return h.skillLoad === "shell-read" && h.tools.shell.includes(toolName);
}

/** The skill-to-agent redirect hook: denies (or, on Stop, blocks once for) a Skill call of an agent. */
export const SKILL_REDIRECT_HOOK: HookSpec = {
  ids: ["skill-redirect", "skill-redirect-stop"],
  // Only a Skill call (the skill tool of any host: `Skill` in Claude Code, `skill` in Copilot CLI)
  // or a stop concerns it; any other tool call ends here, before any file is read.
  relevant: (ev) =>
    ev.eventName === "Stop" ||
    (ev.toolName !== undefined &&
      (SKILL_TOOLS.includes(ev.toolName) || isShellSkillRead(ev.host, ev.toolName))),
  // The redirect logic is loaded only once the switch is known to be on.
  run: async (ev, ctx) => (await import("./redirect.ts")).redirectHook(ev, ctx),
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

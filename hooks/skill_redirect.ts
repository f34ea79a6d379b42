/**
 * The skill-to-agent redirect hook, one entry for two events:
 *
 * - PreToolUse (Claude Code `Skill`, Copilot CLI `skill`): a Skill call that names an installed
 *   agent that is not also a skill is denied with the host's own deny answer, whose reason says
 *   the name is an agent and that agents are started with the Agent tool (`subagent_type`).
 * - Stop (Claude Code): current Claude Code rejects such a call as `Unknown skill` before any
 *   PreToolUse hook runs, so at the end of the turn the hook blocks once with the same text when
 *   the agent was not dispatched afterwards.
 *
 * Everything else passes with no output. The hook fails open: any error gives no output, exit 0
 * and one stderr line `skillgate: <CODE> <detail>`.
 *
 * Run it with the flags of the hook table (`skillgate setup` writes them), for example:
 * `deno run --no-prompt --no-config --allow-read=… --allow-write=… --allow-env=… hooks/skill_redirect.ts`
 *
 * @module
 */

import { runHook } from "../lib/hook_runner.ts";

/**
 * Runs the hook on stdin and prints its answer (always exit 0).
 *
 * @returns When the answer is printed.
 */
export function run(): Promise<void> {
  return runHook({
    ids: ["skill-redirect", "skill-redirect-stop"],
    // Only a Skill call (`Skill` in Claude Code, `skill` in Copilot CLI; see SKILL_TOOL_NAMES in
    // lib/redirect.ts) or a stop concerns it; any other tool call ends here, before any file is read.
    relevant: (ev) => ev.eventName === "Stop" || ev.toolName === "Skill" || ev.toolName === "skill",
    // The redirect logic is loaded only once the switch is known to be on.
    run: async (ev, ctx) => (await import("../lib/redirect.ts")).redirectHook(ev, ctx),
  });
}

if (import.meta.main) await run();

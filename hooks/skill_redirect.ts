/**
 * The skill-to-agent redirect hook, one entry for two events:
 *
 * - PreToolUse (Claude Code `Skill`, Copilot CLI `skill`, Codex CLI `Bash` reading
 *   `<skills root>/<name>/SKILL.md`): a Skill call that names an installed agent that is not also
 *   a skill is denied with the host's own deny answer, whose reason says the name is an agent and
 *   how that host starts agents (the Agent tool, `task`, `spawn_agent`).
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

import { runFront } from "../lib/hook/front.ts";
import { stopSettles } from "../lib/redirect/stop_front.ts";

/**
 * Whether a payload may concern the redirect: anything but a well-formed JSON object that names
 * neither the Skill tool nor a stop. A cheap look, before any module is loaded; a false "may"
 * only costs the full check, which decides (and reports a malformed payload). It knows each host's
 * tool-name field and skill tool names (`lib/host/`); a test checks it against every host's
 * sample Skill call, so a new host whose names it misses fails that test.
 *
 * @param raw The payload text.
 * @returns `false` when the payload certainly is another tool's call.
 */
export function mayConcern(raw: string): boolean {
  if (/"(?:tool_name|toolName)"\s*:\s*"[Ss]kill"/.test(raw) || /stop/i.test(raw)) return true;
  // Codex CLI has no skill tool: its model reads a skill's SKILL.md with a shell command.
  if (raw.includes("SKILL.md")) return true;
  try {
    const value = JSON.parse(raw);
    return value === null || typeof value !== "object" || Array.isArray(value);
  } catch {
    return true;
  }
}

/**
 * Runs the hook on stdin and prints its answer (always exit 0). A call of any other tool ends
 * right after stdin is read, with no output: Copilot CLI before 1.0.63 calls preToolUse hooks for
 * every tool, and loading the hook's core would be most of such a call's cost. So does a Claude
 * Code Stop whose current turn holds no failed Skill call (`stopSettles`), nearly every stop.
 *
 * @returns When the answer is printed.
 */
export function run(): Promise<void> {
  return runFront(
    { switchName: "skill_redirect", mayConcern, settles: stopSettles },
    () => import("../lib/redirect/hook.ts"),
  );
}

if (import.meta.main) {
  await run();
  // The answer is written: end now. Letting the runtime wind down by itself costs several ms of a
  // short hook process, and work still pending (logic past its deadline) must not hold it open.
  Deno.exit(0);
}

/**
 * The skill-to-agent redirect hook, one entry for two events:
 *
 * - PreToolUse (Claude Code `Skill`, Copilot CLI `skill`, Codex CLI `Bash` reading
 *   `<skills root>/<name>/SKILL.md`): a Skill call that names an installed agent that is not also
 *   a skill is denied with the host's own deny answer, whose reason says the name is an agent and
 *   how that host starts agents (the Agent tool, `task`, `spawn_agent`).
 * - Stop, for a host that rejects a skill call of an unknown name before any tool hook runs (its
 *   `unknownSkill` error, declared on its host object): at the end of the turn the hook blocks
 *   once with the same text when the agent was not dispatched afterwards.
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
import { mayConcernRedirect } from "../lib/host/skill_calls.ts";

/**
 * Whether a payload may concern the redirect, from its text alone (see `mayConcernRedirect`):
 * a cheap look before any module of the core is loaded.
 *
 * @param raw The payload text.
 * @returns `false` when the payload certainly is another tool's call.
 */
export function mayConcern(raw: string): boolean {
  return mayConcernRedirect(raw);
}

/**
 * Runs the hook on stdin and prints its answer (always exit 0). A call of any other tool ends
 * right after stdin is read, with no output: Copilot CLI before 1.0.63 calls preToolUse hooks for
 * every tool, and loading the hook's core would be most of such a call's cost. So does a stop
 * whose current turn holds no failed skill call (`stopSettles`), nearly every stop.
 *
 * @param guard Arm the process's guard (`armGuard`): the entry's own process does.
 * @returns When the answer is printed.
 */
export function run(guard = false): Promise<void> {
  return runFront(
    { switchName: "skill_redirect", mayConcern, settles: stopSettles },
    () => import("../lib/redirect/redirect_core.ts"),
    guard,
  );
}

if (import.meta.main) {
  await run(true);
  // The answer is written: end now. Letting the runtime wind down by itself costs several ms of a
  // short hook process, and work still pending (logic past its deadline) must not hold it open.
  Deno.exit(0);
}

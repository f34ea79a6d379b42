/**
 * The skill routing hook (Claude Code `UserPromptSubmit`, Copilot CLI `userPromptSubmitted`).
 *
 * When a prompt fits an installed routable skill's `triggers:`, it adds one line of context
 * naming that skill, its source and its off switch (`skillgate config set skill_routing off`).
 * Deterministic: no model call, no network. On any error it prints nothing and exits 0.
 *
 * Run it with the flags of the hook table (`skillgate setup` writes them), for example:
 * `deno run --no-prompt --no-config --allow-read=… --allow-write=… --allow-env=… hooks/skill_route.ts`
 *
 * @module
 */

import { runFront } from "../lib/hook/front.ts";

/**
 * Runs the hook on stdin and prints its answer (always exit 0). The hook's core (the runner and
 * the routing logic) is loaded only once the switch is known to be on.
 *
 * @param guard Arm the process's guard (`armGuard`): the entry's own process does.
 * @returns When the answer is printed.
 */
export function run(guard = false): Promise<void> {
  return runFront(
    { switchName: "skill_routing" },
    () => import("../lib/routing/route_core.ts"),
    guard,
  );
}

if (import.meta.main) {
  await run(true);
  // The answer is written: end now. Letting the runtime wind down by itself costs several ms of a
  // short hook process, and work still pending (logic past its deadline) must not hold it open.
  Deno.exit(0);
}

/**
 * `skillgate session-kind [--json]`: prints `spawned`, `headless` or `interactive`, decided from
 * environment markers only (see `session_kind.ts`), `interactive` on any doubt.
 *
 * @module
 */

import { detectSessionKind } from "../contracts/session_kind.ts";
import { type CommandSpec, parseCommand } from "./args.ts";

/** `skillgate session-kind`. */
export const SESSION_KIND_SPEC: CommandSpec = {
  name: "session-kind",
  usage: ["[--json]"],
  description: "Prints spawned, headless or interactive, decided from environment markers only " +
    "(SKILLGATE_HEADLESS, CLAUDE_CODE_ENTRYPOINT, CI, GITHUB_ACTIONS); interactive on any doubt. " +
    "The contract Stop hook checks a headless or spawned session's turn even when it ends on a " +
    "question.",
  options: {
    json: {
      type: "boolean",
      description: "Print one JSON object: kind and the marker that decided",
    },
  },
};

/**
 * Runs `skillgate session-kind`.
 *
 * @param args The arguments after `session-kind`.
 * @returns 0, or 2 for an unknown argument.
 */
export function main(args: string[]): Promise<number> {
  const parsed = parseCommand(SESSION_KIND_SPEC, args);
  if (!parsed.ok) return Promise.resolve(parsed.exit);
  const r = detectSessionKind();
  console.log(parsed.args.json ? JSON.stringify(r) : r.kind);
  return Promise.resolve(0);
}

/**
 * `skillgate session-kind [--json]`: prints `spawned`, `headless` or `interactive`, decided from
 * environment markers only (see `session_kind.ts`), `interactive` on any doubt.
 *
 * @module
 */

import { detectSessionKind } from "../contracts/session_kind.ts";

const USAGE = "Usage: skillgate session-kind [--json]";

/**
 * Runs `skillgate session-kind`.
 *
 * @param args The arguments after `session-kind`.
 * @returns 0, or 2 for an unknown argument.
 */
export function main(args: string[]): Promise<number> {
  let json = false;
  for (const a of args) {
    if (a === "--json") json = true;
    else if (a === "--help" || a === "-h") {
      console.log(USAGE);
      return Promise.resolve(0);
    } else {
      console.error(`Unknown argument ${a.replace(/[^A-Za-z0-9:_-]/g, "").slice(0, 40)}\n${USAGE}`);
      return Promise.resolve(2);
    }
  }
  const r = detectSessionKind();
  console.log(json ? JSON.stringify(r) : r.kind);
  return Promise.resolve(0);
}

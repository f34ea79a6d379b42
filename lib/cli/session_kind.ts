/**
 * `skillgate session-kind [--json]`: prints `spawned`, `headless` or `interactive`, decided from
 * environment markers only (see `session_kind.ts`), `interactive` on any doubt.
 *
 * @module
 */

import { detectSessionKind } from "../contracts/session_kind.ts";
import { printHelp, printUsageError, shownArg } from "./args.ts";

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
    else if (a === "--help" || a === "-h") return Promise.resolve(printHelp(USAGE));
    else return Promise.resolve(printUsageError(`Unknown argument ${shownArg(a)}`, USAGE));
  }
  const r = detectSessionKind();
  console.log(json ? JSON.stringify(r) : r.kind);
  return Promise.resolve(0);
}

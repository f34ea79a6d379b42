/**
 * `skillgate contract report [--json] [--session <id>]`: the command line of the contract report
 * (`buildReport` and `formatReport` in lib/contracts/report.ts).
 *
 * Exit codes: 0 done; 2 for a bad argument; 3 when the state root, a record or the records
 * directory cannot be read (the other sessions are still reported), or `--session` names a session
 * with no record.
 *
 * @module
 */

import { exists } from "../base/fs.ts";
import { errorCause } from "../base/errors.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { isSafeFileStem } from "../base/state_file.ts";
import { EXIT_CODES, EXIT_WORDS } from "../contracts/exit_codes.ts";
import { CONTRACT_EXIT_NOTES } from "./contract_exits.ts";
import { listSessionRecords, type RecordFile, recordPath } from "../contracts/records.ts";
import {
  buildReport,
  defaultRechecker,
  formatReport,
  type Rechecker,
} from "../contracts/report.ts";
import { commandError, type CommandSpec, parseCommand, usageError } from "./args.ts";

/** `skillgate contract report`. */
export const CONTRACT_REPORT_SPEC: CommandSpec = {
  name: "contract report",
  usageWord: "SKILL_CONTRACT_USAGE",
  usage: ["[--json] [--session <id>]"],
  description: "Lists the contract misses of the recorded sessions by skill and item, then each " +
    "missed run. A miss is a run blocked and never fixed, stopped again unmet, or met only " +
    "through a waiver. A run still marked blocked is re-checked against its transcript when the " +
    "file is still there.",
  options: {
    json: {
      type: "boolean",
      description: "Print one JSON object: exit, misses (the number of missed runs), sessions, " +
        "runs, byItem, errors",
    },
    session: { type: "string", value: "<id>", description: "Report this session only" },
  },
  notes: CONTRACT_EXIT_NOTES,
};

/**
 * Runs `skillgate contract report`.
 *
 * @param args The arguments after `report`.
 * @param opts Test seams: the state root and the re-check.
 * @returns The exit code.
 */
export async function main(
  args: string[],
  opts: { stateRoot?: string; recheck?: Rechecker } = {},
): Promise<number> {
  const spec = CONTRACT_REPORT_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json } = parsed.args;
  const fail = (code: number, message: string) =>
    commandError(spec, code, EXIT_WORDS[code], message, json);
  const session = parsed.args.string("session");
  if (session !== undefined && !isSafeFileStem(session)) {
    return usageError(spec, "--session takes a session id ([A-Za-z0-9_-])", json);
  }
  let root: string;
  try {
    root = opts.stateRoot ?? (await import("../host/places.ts")).stateRoot();
  } catch (e) {
    return fail(EXIT_CODES.STATE_ERROR, `State root: ${errorCause(e)}`);
  }
  let files: RecordFile[];
  try {
    files = session !== undefined
      ? [{ session, path: recordPath(root, session) }]
      : listSessionRecords(root);
  } catch (e) {
    return fail(EXIT_CODES.STATE_ERROR, `${sanitizeLine(root, 300)}: ${errorCause(e)}`);
  }
  if (session !== undefined && !exists(files[0].path)) {
    return fail(
      EXIT_CODES.STATE_ERROR,
      `No such session: ${session} (no record ${sanitizeLine(files[0].path, 300)})`,
    );
  }
  const report = await buildReport(files, opts.recheck ?? await defaultRechecker());
  const code = report.errors.length > 0 ? EXIT_CODES.STATE_ERROR : 0;
  if (json) {
    // No word when the report is done: the seed's exit-0 word, SKILL_CONTRACT_MET, says a run met
    // its contract, which a report with misses would contradict. `misses` says how many there are.
    const misses = report.runs.filter((r) => r.miss).length;
    console.log(JSON.stringify({
      ...(code !== 0 ? { word: EXIT_WORDS[code] } : {}),
      exit: code,
      misses,
      ...report,
    }));
  } else {
    console.log(formatReport(report));
  }
  return code;
}

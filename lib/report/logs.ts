/**
 * Reading skillgate's own hook logs back (`<state root>/hooks/<log>` and its rotated `<log>.1`,
 * written by `lib/hook/log.ts`): one `key=value` field list per line, oldest first. Only names,
 * ids, counts and paths are in them, never prompt text.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { errorCause } from "../base/errors.ts";

/** One parsed log line. */
export interface LogLine {
  /** Its `time` field, in ms since the epoch. */
  readonly time: number;
  /** Its fields (`session`, `hook`, `event`, `outcome`, …), `time` included. */
  readonly fields: Readonly<Record<string, string>>;
}

/** What {@link readLogLines} read. */
export interface LogRead {
  /** The lines at or after the window's start, oldest first. */
  readonly lines: LogLine[];
  /** Files that exist but could not be read, with why. */
  readonly problems: { path: string; cause: string }[];
}

/**
 * Parses one log line.
 *
 * @param line The line.
 * @returns The line, or `undefined` when it has no valid `time` field.
 */
export function parseLogLine(line: string): LogLine | undefined {
  const fields: Record<string, string> = {};
  for (const part of line.split(" ")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    fields[part.slice(0, eq)] = part.slice(eq + 1);
  }
  const time = Date.parse(fields.time ?? "");
  return Number.isNaN(time) ? undefined : { time, fields };
}

/**
 * Reads one log and its rotated older part, oldest first, keeping the lines at or after `since`.
 *
 * @param root The state root.
 * @param file The log's name (`skill-route.log`, …).
 * @param since The window's start in ms (0: everything).
 * @returns The lines, and the files that could not be read.
 */
export function readLogLines(root: string, file: string, since = 0): LogRead {
  const lines: LogLine[] = [];
  const problems: { path: string; cause: string }[] = [];
  for (const path of [join(root, "hooks", `${file}.1`), join(root, "hooks", file)]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) problems.push({ path, cause: errorCause(e) });
      continue;
    }
    for (const raw of text.split("\n")) {
      if (raw === "") continue;
      const l = parseLogLine(raw);
      if (l && l.time >= since) lines.push(l);
    }
  }
  return { lines, problems };
}

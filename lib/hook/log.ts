/**
 * One line per hook decision under `<state root>/hooks/`: time, session, hook, event, outcome and
 * reason as `key=value` fields. Values are sanitised; prompt text and tool input are never passed
 * here. Logging is best effort: it never throws and never blocks a hook.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { sanitizeLogValue } from "../base/sanitize.ts";
import { openStateFile } from "../base/state_file.ts";

/** The log files skillgate writes, one per capability. */
export type LogFile = "skill-route.log" | "skill-contract.log" | "skill-redirect.log";

/** The fields of one decision line. */
export interface LogFields {
  /** The session id from the payload. */
  readonly session?: string;
  /** The hook id, such as `skill-route`. */
  readonly hook: string;
  /** The host event, such as `UserPromptSubmit`. */
  readonly event: string;
  /** What the hook decided, such as `routed` or `no-route`. */
  readonly outcome: string;
  /** Why, in a few words. */
  readonly reason?: string;
  /** Further fields: names and counts only, never prompt text. */
  readonly [key: string]: string | number | boolean | undefined;
}

/** Log files larger than this are rotated to `<file>.1` before the next line is added. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * Formats one log line.
 *
 * @param fields The decision.
 * @param now The time (default: now).
 * @returns The line, without its newline.
 */
export function formatLogLine(fields: LogFields, now: Date = new Date()): string {
  const parts = [`time=${isoTime(now)}`];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`${key.replace(/[^A-Za-z0-9_]/g, "_")}=${sanitizeLogValue(value)}`);
  }
  return parts.join(" ");
}

/**
 * `Date.prototype.toISOString`'s text (years 0–9999), from the UTC getters: the first
 * `toISOString` of a process costs about 0.7 ms, the getters next to nothing.
 */
function isoTime(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.` +
    `${p(d.getUTCMilliseconds(), 3)}Z`;
}

/**
 * Appends one decision line to a log under `<root>/hooks/` (folder 0700 and file 0600 when it
 * makes them). A log that is a symbolic link is refused (nothing is written). Never throws.
 *
 * @param root The state root.
 * @param file The log file.
 * @param fields The decision.
 * @returns `true` when the line was written.
 */
export function logDecision(root: string, file: LogFile, fields: LogFields): boolean {
  try {
    const dir = join(root, "hooks");
    const path = join(dir, file);
    const line = new TextEncoder().encode(formatLogLine(fields) + "\n");
    // Never through a symbolic link: a log planted as one is refused, and the line is dropped.
    const open = () => openStateFile(path, { append: true, create: true, mode: 0o600 });
    let f: Deno.FsFile;
    try {
      f = open();
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      f = open();
    }
    try {
      // The size from the open file, which needs no read grant. Renaming needs a read grant on
      // the log (every hook has one); without it, the line is appended to what is there.
      if (f.seekSync(0, Deno.SeekMode.End) > MAX_LOG_BYTES) {
        try {
          Deno.renameSync(path, `${path}.1`);
          f.close();
          f = open();
        } catch {
          // Rotation not permitted: append to what is there.
        }
      }
      for (let offset = 0; offset < line.length;) offset += f.writeSync(line.subarray(offset));
    } finally {
      f.close();
    }
    return true;
  } catch {
    return false;
  }
}

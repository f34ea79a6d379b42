/**
 * One line per hook decision under `<state root>/hooks/`: time, session, hook, event, outcome and
 * reason as `key=value` fields. Values are sanitised; prompt text and tool input are never passed
 * here. Logging is best effort: it never throws and never blocks a hook.
 *
 * @module
 */

import { join } from "./path.ts";
import { sanitizeLogValue } from "./sanitize.ts";

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
  const parts = [`time=${now.toISOString()}`];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`${key.replace(/[^A-Za-z0-9_]/g, "_")}=${sanitizeLogValue(value)}`);
  }
  return parts.join(" ");
}

/**
 * Appends one decision line to a log under `<root>/hooks/` (folder 0700 and file 0600 when it
 * makes them). Never throws.
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
    // As few distinct Deno ops as possible: the first call of each costs a hook process up to a
    // millisecond. `lstatSync` is warm after a catalog read; the folder is made only when missing.
    let size = -1;
    try {
      size = Deno.lstatSync(path).size;
    } catch {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    if (size > MAX_LOG_BYTES) {
      try {
        Deno.renameSync(path, `${path}.1`);
      } catch {
        // Rotation not permitted: append to what is there.
      }
    }
    const line = new TextEncoder().encode(formatLogLine(fields) + "\n");
    const f = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
    try {
      for (let offset = 0; offset < line.length;) offset += f.writeSync(line.subarray(offset));
    } finally {
      f.close();
    }
    return true;
  } catch {
    return false;
  }
}

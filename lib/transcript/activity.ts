/**
 * A session's skill activity, for `skillgate report`: the prompts that start its turns (their
 * times) and every main-session load of a skill (its name, who loaded it, its turn and time), read
 * forward through the whole transcript. Each format's module says what its lines hold (an
 * {@link ActivityFormat}, named by its reader in `readers.ts`); only lines that may hold a prompt
 * or a load are parsed (a substring pre-filter); no text of a prompt or a message is kept.
 *
 * @module
 */

import type { LoadVia } from "./model.ts";
import type { RawLoad } from "./loads.ts";
import { parseLine, type Rec, str } from "./record.ts";
import { openRegularFile, readSizeSync, statOpenFile } from "../base/fs.ts";

/** One load of a skill in a session. */
export interface ActivityLoad {
  /** The skill's name without a `plugin:` prefix. */
  readonly name: string;
  /** How it was loaded: `command` is the user's `/name` (or `$name`), the others the model's. */
  readonly via: LoadVia;
  /** The turn it happened in: the index of the last prompt before it (-1: before any). */
  readonly turn: number;
  /** Its record's time (ms since the epoch), when the record has one. */
  readonly time?: number;
}

/** What a session's transcript says about its skills. */
export interface SessionActivity {
  /** Each prompt that starts a turn, in order: its time (ms), or `undefined` without one. */
  readonly prompts: (number | undefined)[];
  /** Every main-session load, in order. */
  readonly loads: ActivityLoad[];
}

/** The most bytes of one transcript read for the report (a bigger one is not read). */
export const MAX_ACTIVITY_BYTES: number = 64 * 1024 * 1024;

/** A record's `timestamp` (an ISO time or ms), in ms since the epoch. */
function recordTime(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  const s = str(v);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * One format's view of a session's activity (each format's module declares its own, and its
 * reader in `readers.ts` names it): which lines may hold a prompt or a load, and what a record holds.
 */
export interface ActivityFormat {
  /**
   * Strings one of which every line that may hold a prompt or a load contains, each searched once
   * over the whole text. Leave out a leading `"`: a search starting with the commonest character
   * of JSON is several times slower (the parse decides anyway).
   */
  readonly needles: readonly string[];
  /** Whether a line the needles found is worth parsing (cheap, no parse). */
  mayHold?(line: string): boolean;
  /**
   * A reader of one file's records, fed in file order (it may keep what it needs between them).
   *
   * @param skillsDirs Installed skills directories (a read of a SKILL.md under one is a load).
   * @returns For each record: whether it is a prompt that starts a turn, and the loads it holds.
   */
  reader(
    skillsDirs: readonly string[] | undefined,
  ): (rec: Rec) => { prompt: boolean; loads: readonly RawLoad[] };
}

/**
 * The activity of a transcript text.
 *
 * @param format The transcript's format (its reader's `activity`).
 * @param text The whole transcript.
 * @param skillsDirs Installed skills directories (a Read of a SKILL.md under one is a load).
 * @returns The prompts and loads.
 */
export function activityOfText(
  format: ActivityFormat,
  text: string,
  skillsDirs?: readonly string[],
): SessionActivity {
  const read = format.reader(skillsDirs);
  const prompts: (number | undefined)[] = [];
  const loads: ActivityLoad[] = [];
  // Each needle searched once over the whole text; only the lines holding one are looked at.
  const starts = new Set<number>();
  for (const n of format.needles) {
    for (let p = text.indexOf(n); p >= 0; p = text.indexOf(n, p + n.length)) {
      starts.add(text.lastIndexOf("\n", p) + 1);
    }
  }
  for (const start of [...starts].sort((a, b) => a - b)) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (format.mayHold && !format.mayHold(line)) continue;
    const rec = parseLine(line);
    if (!rec) continue;
    const r = read(rec);
    if (!r.prompt && r.loads.length === 0) continue;
    const time = recordTime(rec.timestamp);
    if (r.prompt) prompts.push(time);
    for (const l of r.loads) {
      loads.push({
        name: l.name,
        via: l.via,
        turn: prompts.length - 1,
        ...(time !== undefined ? { time } : {}),
      });
    }
  }
  return { prompts, loads };
}

/**
 * Reads a transcript's activity. Only a regular file is opened (`openRegularFile`): a FIFO,
 * socket or device is refused at once, never waited on.
 *
 * @param path The transcript.
 * @param format Its format (its reader's `activity`).
 * @param skillsDirs Installed skills directories.
 * @returns The prompts and loads.
 * @throws {NotRegularFileError} When it is no regular file.
 * @throws {Error} When the file cannot be read or is larger than {@link MAX_ACTIVITY_BYTES}.
 */
export async function readActivity(
  path: string,
  format: ActivityFormat,
  skillsDirs?: readonly string[],
): Promise<SessionActivity> {
  using file = await openRegularFile(path);
  const size = statOpenFile(file, path).size;
  if (size > MAX_ACTIVITY_BYTES) {
    throw new Error(`Larger than ${MAX_ACTIVITY_BYTES / 1024 / 1024} MiB`);
  }
  // Read at once (a report reads a thousand files in a row: the synchronous read is several times
  // faster than the asynchronous one there).
  const text = new TextDecoder().decode(readSizeSync(file, size));
  return activityOfText(format, text, skillsDirs);
}

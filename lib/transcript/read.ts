/**
 * Reading a skill run from a transcript file: the bytes are scanned backward from the end for the
 * last load (a substring pre-filter, no parse), then only the run's bytes are parsed forward into
 * a {@link RunBuilder} by the shared run read (`run_driver.ts`).
 *
 * @module
 */

import type { ReadRunOptions, RunRead, RunTail } from "./model.ts";
import { LOAD_NEEDLES, loadsOfRecord, type RawLoad, selects } from "./loads.ts";
import { RunBuilder } from "./builder.ts";
import { type ByteRequests, concat, decoder, EMPTY, segments } from "./bytes.ts";
import { KNOWN_TYPES, parseLine, str } from "./record.ts";
import type { ActivityFormat } from "./activity.ts";
import { isTurnStart } from "./turn_read.ts";
import {
  findLoad,
  type LoadScan,
  type LoadSearch,
  parseRunText,
  readRun,
  type RunFormat,
  type ScanRequest,
} from "./run_driver.ts";

export type { LoadSearch } from "./run_driver.ts";

const USER_OR_ASSISTANT_RE = /"type"\s*:\s*"(?:user|assistant)"/;

/** The `type` values of a line too long to parse just to learn its type. */
const TYPE_VALUE_RE = /"type"\s*:\s*"([^"\\]{1,64})"/g;

/**
 * Whether a JSONL line is something this reader does not know: not a JSON object, or a record
 * whose `type` is not one Claude Code writes (`KNOWN_TYPES`). Blank lines are not. A line over
 * 1 MiB is judged by the `type` values in it, unparsed.
 */
function isUnknownRecord(line: string): boolean {
  if (line.trim() === "") return false;
  if (line.length > 1024 * 1024) {
    for (const m of line.matchAll(TYPE_VALUE_RE)) if (KNOWN_TYPES.has(m[1])) return false;
    return true;
  }
  const rec = parseLine(line);
  const type = rec === undefined ? undefined : str(rec.type);
  return type === undefined || !KNOWN_TYPES.has(type);
}

/** The reason an unknown shape gives for a file whose records are none of the known ones. */
const NO_KNOWN_RECORDS =
  "no user or assistant records, and records of a type this reader does not know";

/** The decoded complete lines of one chunk of the backward scan, kept for the run's parse. */
interface KeptLines {
  lines: string[];
  /** Byte offset of each line in the file (only those from `first` on are kept lines). */
  offsets: number[];
  first: number;
  /** The indexes of the lines that hold a load needle, ascending (none: no line holds one). */
  hits: readonly number[];
}

/** The backward scan's first chunk (the next ones grow fourfold up to the chunk size). */
const FIRST_CHUNK = 16 * 1024;

/** How many bytes of lines the backward scan keeps for the run's parse (beyond that it re-reads). */
const KEEP_BYTES = 4 * 1024 * 1024;

/**
 * Scans backward from the end for the last selected load. Only lines that pass the substring
 * pre-filter are parsed. Drives a generator so the same code serves sync and async sources.
 *
 * A chunk's lines are decoded in one go (its text split at `\n`, which UTF-8 never uses inside a
 * character, gives the lines of its byte segments), and the {@link LOAD_NEEDLES} are searched in
 * the chunk's text, so only a line holding one is looked at (and, until a message is seen, the
 * lines from the end). The decoded lines from the load found to the end are returned as its run's
 * {@link RunTail} when they are at most {@link KEEP_BYTES}.
 */
function* scanBackward(req: ScanRequest): ByteRequests<LoadScan> {
  const { size, chunkSize, maxLine, selector, skillsDirs, stats, floor } = req;
  let pos = size;
  // Bytes [pos, …) up to the end of the line that starts before pos, in parts (the lowest first)
  // while that line spans chunks without a line break: joined once, when the line's start is read.
  let parts: Uint8Array[] = [];
  let partsLen = 0;
  const carryBytes = (): Uint8Array => {
    if (parts.length > 1) {
      const all = new Uint8Array(partsLen);
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      parts = [all];
    }
    return parts[0] ?? EMPTY;
  };
  const setCarry = (bytes: Uint8Array) => {
    parts = bytes.length ? [bytes] : [];
    partsLen = bytes.length;
  };
  let sawMessages = false;
  let sawUnknown = false;
  let giant = false; // the line being assembled is longer than maxLine: discard its bytes
  // Chunks' lines, the last chunk of the file first; undefined once they exceed KEEP_BYTES.
  let kept: KeptLines[] | undefined = [];
  let end: RunTail | undefined;
  // The first chunks are smaller: a load near the end (a short run) is found in a small read.
  let step = Math.min(chunkSize, FIRST_CHUNK);
  while (pos > floor) {
    const start = Math.max(floor, pos - step);
    step = Math.min(chunkSize, step * 4);
    const chunk: Uint8Array = yield [start, pos - start];
    stats.bytesScanned += chunk.length;
    if (!giant && start > 0 && partsLen > 0 && chunk.indexOf(10) < 0) {
      // Inside one long line: its bytes are kept as a part, with no copy of the parts after it
      // and no second look for a line break in them (that made a long line's search quadratic:
      // 7 s for an 8 MiB line).
      parts.unshift(chunk.slice());
      partsLen += chunk.length;
      if (kept && size - start > KEEP_BYTES) kept = undefined;
      if (partsLen > maxLine) {
        // The line's first MiB only (the lowest parts): the whole line is never joined.
        let head: Uint8Array = EMPTY;
        for (let k = 0; k < parts.length && head.length < 1 << 20; k++) {
          head = concat(head, parts[k]);
        }
        const found = giantLineLoad(head.subarray(0, Math.min(head.length, 1 << 20)), selector);
        if (found) return { found: { offset: start, load: found }, sawMessages, sawUnknown };
        setCarry(EMPTY);
        giant = true;
      }
      pos = start;
      continue;
    }
    // This chunk's last line is the tail of a giant line: the lines kept would miss it.
    const cut = giant;
    const combined = giant ? chunk : concat(chunk, carryBytes());
    const seg = segments(combined);
    const starts = seg.starts;
    // The first segment may continue before `start`; keep it unless we reached the file start.
    const lastIndex = seg.count - 1;
    const firstComplete = start === 0 ? 0 : 1;
    // The file's last segment, when it does not end with a newline, may still be being written.
    const tail = pos === size ? lastIndex : -1;
    // A chunk inside one long line has no complete line: nothing to decode.
    const text = lastIndex >= firstComplete ? decoder.decode(combined) : "";
    const lines = text.split("\n");
    // The byte offset of each line, computed once, when a tail needs them.
    let offsets: number[] | undefined;
    const offsetsOf = () => offsets ??= starts.map((s) => start + s);
    // The first chunk with a complete line: its lines run to the end of the file.
    if (end === undefined && !cut && lastIndex >= firstComplete) {
      end = tailOf([{ lines, offsets: offsetsOf(), first: firstComplete, hits: [] }], size, false);
    }
    let top = lastIndex;
    if (giant && lastIndex >= firstComplete) {
      // The tail of a giant line (already given up on).
      if (lastIndex > 0 || start === 0) giant = false;
      top = lastIndex - 1;
    }
    for (let k = top; !sawMessages && k >= firstComplete; k--) {
      const line = lines[k];
      if (USER_OR_ASSISTANT_RE.test(line)) sawMessages = true;
      else if (!sawUnknown && k !== tail && isUnknownRecord(line)) sawUnknown = true;
    }
    // The lines holding a needle: only they can hold a load (the search's rule, and the run's
    // parse skips looking for loads in the others).
    const hits = top >= firstComplete ? linesWithNeedles(text, lines) : [];
    for (let h = hits.length - 1; h >= 0; h--) {
      const k = hits[h];
      if (k > top) continue;
      if (k < firstComplete) break;
      const rec = parseLine(lines[k]);
      const loads = rec ? loadsOfRecord(rec, skillsDirs, req.agent !== undefined) : [];
      for (let j = loads.length - 1; j >= 0; j--) {
        const offset = start + starts[k];
        if (selects(selector, { ...loads[j], seq: 0, offset })) {
          const found = { offset, load: loads[j] };
          if (!kept || cut) return { found, end, sawMessages, sawUnknown };
          kept.push({ lines, offsets: offsetsOf(), first: k, hits });
          return { found, tail: tailOf(kept, size), end, sawMessages, sawUnknown };
        }
      }
    }
    if (kept) {
      if (size - start > KEEP_BYTES || cut) kept = undefined;
      else kept.push({ lines, offsets: offsetsOf(), first: firstComplete, hits });
    }
    if (start > 0) {
      const first = combined.subarray(0, starts.length > 1 ? starts[1] - 1 : combined.length);
      if (giant && seg.count === 1) {
        setCarry(EMPTY);
      } else if (first.length > maxLine) {
        const found = giantLineLoad(first.subarray(0, Math.min(first.length, 1 << 20)), selector);
        if (found) return { found: { offset: start, load: found }, sawMessages, sawUnknown };
        setCarry(EMPTY);
        giant = true;
      } else {
        setCarry(first.slice());
      }
    }
    pos = start;
  }
  return { end, sawMessages, sawUnknown };
}

/**
 * A line longer than the parse limit cannot be parsed: if its first bytes may hold a load of the
 * skill, the run is too large for sure (a load with no name stands for it); otherwise the line is
 * skipped.
 *
 * @param head The line's first bytes (up to 1 MiB).
 * @param selector Which loads count.
 * @returns The stand-in load, or `undefined` when the line holds none.
 */
function giantLineLoad(head: Uint8Array, selector: ScanRequest["selector"]): RawLoad | undefined {
  const text = decoder.decode(head);
  const named = typeof selector !== "string" ||
    text.toLowerCase().includes(selector.replace(/^.*:/, "").toLowerCase());
  return named && LOAD_NEEDLES.some((n) => text.includes(n))
    ? { qualifiedName: "", name: "", via: "read" }
    : undefined;
}

/**
 * The indexes of the lines of `text` (split at `\n` into `lines`) that hold one of the
 * {@link LOAD_NEEDLES}, in ascending order. Each needle is searched forward once (a backward
 * `lastIndexOf` per line and needle costs several times more, and most needles are absent).
 *
 * @param text The chunk's text.
 * @param lines Its lines.
 * @returns The line indexes.
 */
export function linesWithNeedles(text: string, lines: readonly string[]): number[] {
  const positions: number[] = [];
  for (const n of LOAD_NEEDLES) {
    for (let p = text.indexOf(n); p >= 0; p = text.indexOf(n, p + 1)) positions.push(p);
  }
  if (positions.length === 0) return [];
  positions.sort((a, b) => a - b);
  const out: number[] = [];
  let k = 0;
  let end = lines[0].length; // the end of line k in the text
  for (const p of positions) {
    while (p > end) end += lines[++k].length + 1;
    if (out[out.length - 1] !== k) out.push(k);
  }
  return out;
}

/**
 * The run's lines from the chunks a scan kept (the last chunk of the file first, the load's last),
 * with the lines that hold a needle when `withNeedles`.
 */
function tailOf(kept: readonly KeptLines[], size: number, withNeedles = true): RunTail {
  const lines: string[] = [];
  const offsets: number[] = [];
  const needles: number[] = [];
  for (let c = kept.length - 1; c >= 0; c--) {
    const { lines: l, offsets: o, first, hits } = kept[c];
    for (const h of hits) if (h >= first) needles.push(lines.length + h - first);
    for (let k = first; k < l.length; k++) {
      lines.push(l[k]);
      offsets.push(o[k]);
    }
  }
  return withNeedles
    ? { size, offset: offsets[0], lines, offsets, needles }
    : { size, offset: offsets[0], lines, offsets };
}

/** The Claude Code transcript as the shared run read sees it. */
const CLAUDE_FORMAT: RunFormat<RunBuilder> = {
  noKnownRecords: NO_KNOWN_RECORDS,
  badContent: "with content that is neither text nor a block list",
  keepsLines: true,
  forward: "chunk",
  scan: scanBackward,
  builder: (options, size) =>
    new RunBuilder(options.skill, options.skillsDirs, size, options.agent !== undefined),
  judge: (s) =>
    s.userOrAssistantRecords > 0
      ? undefined
      : s.unknownTypes > 0 || s.skippedLines > 0
      ? "unknown_shape"
      : "not_loaded",
  // deno-lint-ignore require-yield
  *finish(builder) {
    return builder.finish();
  },
};

/**
 * Reads one run of a skill from a transcript file, parsing only the bytes of that run.
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readTranscriptRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return readRun(CLAUDE_FORMAT, path, options);
}

/**
 * Finds the last selected load of a transcript by the same backward search as
 * {@link readTranscriptRun}, without parsing the run after it: for a caller that may already
 * know the run's outcome. Read the run afterwards with `fromOffset: load.offset` and the `tail`
 * found (the run's lines, decoded by the search, when they are at most 4 MiB).
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories, search floor, chunk size and parse limit (the
 * longest line searched); `fromOffset` and `tail` are ignored.
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return findLoad(CLAUDE_FORMAT, path, options);
}

/**
 * The same as {@link readTranscriptRun} for a transcript already in memory (tests, small inputs).
 * Never throws.
 *
 * @param text The whole JSONL text.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 */
export function parseTranscriptText(text: string, options: ReadRunOptions): RunRead {
  return parseRunText(CLAUDE_FORMAT, text, options);
}

/**
 * What a Claude Code transcript's lines hold for `skillgate report` (`activity.ts`): a prompt is a
 * record that starts a turn (`isTurnStart`), a load one {@link loadsOfRecord} finds.
 */
export const CLAUDE_ACTIVITY: ActivityFormat = {
  // A user record's `type` covers the loads a user record holds (a typed `/name`, the skill body's
  // base directory line); the other needles, an assistant's Skill call and Read of a SKILL.md.
  needles: ['type":"user"', 'Skill"', "SKILL.md"],
  // A tool result's user record names its block's type early: found at once.
  mayHold: (line) => !line.includes('"tool_result"') || LOAD_NEEDLES.some((n) => line.includes(n)),
  reader: (dirs) => (rec) => ({ prompt: isTurnStart(rec), loads: loadsOfRecord(rec, dirs) }),
};

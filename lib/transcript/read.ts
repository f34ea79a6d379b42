/**
 * Reading a skill run from a transcript file: the bytes are scanned backward from the end for the
 * last load (a substring pre-filter, no parse), then only the run's bytes are parsed forward into
 * a {@link RunBuilder}. One generator of byte requests serves the file (async) and a text in
 * memory (sync).
 *
 * @module
 */

import { errorCause } from "../base/errors.ts";
import {
  MAX_PARSE_BYTES,
  type ReadRunOptions,
  type ReadStats,
  type RunRead,
  type RunTail,
  type SkillLoad,
  type SkillSelector,
} from "./model.ts";
import { LOAD_NEEDLES, loadsOfRecord, type RawLoad, selects } from "./loads.ts";
import { RunBuilder } from "./builder.ts";
import {
  concat,
  decoder,
  driveAsync,
  driveSync,
  EMPTY,
  segments,
  type Source,
  withFileSource,
} from "./bytes.ts";
import { emptyStats, KNOWN_TYPES, parseLine, str } from "./record.ts";

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
interface FoundLoad {
  offset: number;
  load: RawLoad;
}

/** What the backward scan found. */
interface BackwardScan {
  /** The last selected load, if any. */
  found?: FoundLoad;
  /** The lines from the load found to the end, when the scan kept them (see `keepBytes`). */
  tail?: RunTail;
  /** The lines of the first chunk read that has a complete line (to the file's end). */
  end?: RunTail;
  /** Whether a user or assistant record was seen. */
  sawMessages: boolean;
  /** Whether, before any message was seen, a line was no record this reader knows. */
  sawUnknown: boolean;
}

/** The decoded complete lines of one chunk of the backward scan, kept for the run's parse. */
interface KeptLines {
  lines: string[];
  /** Byte offset of each line in the file (only those from `first` on are kept lines). */
  offsets: number[];
  first: number;
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
 * lines from the end). With `keepBytes`, the decoded lines from the load found to the end are
 * returned as its run's {@link RunTail} when they are at most that many bytes.
 */
function* scanBackward(
  size: number,
  chunkSize: number,
  maxLine: number,
  selector: SkillSelector,
  skillsDirs: readonly string[] | undefined,
  stats: ReadStats,
  floor = 0,
  keepBytes = 0,
): Generator<[number, number], BackwardScan, Uint8Array> {
  let pos = size;
  let carry: Uint8Array = EMPTY; // bytes [pos, …) up to the end of the line that starts before pos
  let sawMessages = false;
  let sawUnknown = false;
  let giant = false; // the line being assembled is longer than maxLine: discard its bytes
  // Chunks' lines, the last chunk of the file first; undefined once they exceed keepBytes.
  let kept: KeptLines[] | undefined = keepBytes > 0 ? [] : undefined;
  let end: RunTail | undefined;
  // The first chunks are smaller: a load near the end (a short run) is found in a small read.
  let step = Math.min(chunkSize, FIRST_CHUNK);
  while (pos > floor) {
    const start = Math.max(floor, pos - step);
    step = Math.min(chunkSize, step * 4);
    const chunk: Uint8Array = yield [start, pos - start];
    stats.bytesScanned += chunk.length;
    // This chunk's last line is the tail of a giant line: the lines kept would miss it.
    const cut = giant;
    const combined = giant ? chunk : concat(chunk, carry);
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
    // The first chunk with a complete line: its lines run to the end of the file.
    if (end === undefined && !cut && lastIndex >= firstComplete) {
      end = tailOf([{ lines, offsets: starts.map((s) => start + s), first: firstComplete }], size);
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
    if (top >= firstComplete && LOAD_NEEDLES.some((n) => text.includes(n))) {
      // Each line's start in the text; then the lines holding a needle, from the last one back.
      const at: number[] = new Array(lines.length);
      for (let k = 0, c = 0; k < lines.length; k++) {
        at[k] = c;
        c += lines[k].length + 1;
      }
      let k = top;
      while (k >= firstComplete) {
        const before = at[k] + lines[k].length;
        let p = -1;
        for (const n of LOAD_NEEDLES) p = Math.max(p, text.lastIndexOf(n, before));
        if (p < 0) break;
        while (at[k] > p) k--;
        if (k < firstComplete) break;
        const rec = parseLine(lines[k]);
        const loads = rec ? loadsOfRecord(rec, skillsDirs) : [];
        for (let j = loads.length - 1; j >= 0; j--) {
          const offset = start + starts[k];
          if (selects(selector, { ...loads[j], seq: 0, offset })) {
            const found = { offset, load: loads[j] };
            if (!kept || cut) return { found, end, sawMessages, sawUnknown };
            kept.push({ lines, offsets: starts.map((s) => start + s), first: k });
            return { found, tail: tailOf(kept, size), end, sawMessages, sawUnknown };
          }
        }
        k--;
      }
    }
    if (kept) {
      if (size - start > keepBytes || cut) kept = undefined;
      else kept.push({ lines, offsets: starts.map((s) => start + s), first: firstComplete });
    }
    if (start > 0) {
      const first = combined.subarray(0, starts.length > 1 ? starts[1] - 1 : combined.length);
      if (giant && seg.count === 1) {
        carry = EMPTY;
      } else if (first.length > maxLine) {
        // A line longer than the parse limit cannot be parsed; if it may hold a load, the run is
        // too large for sure, otherwise it is skipped.
        const text = decoder.decode(first.subarray(0, Math.min(first.length, 1 << 20)));
        const named = typeof selector !== "string" ||
          text.toLowerCase().includes(selector.replace(/^.*:/, "").toLowerCase());
        if (named && LOAD_NEEDLES.some((n) => text.includes(n))) {
          return {
            found: { offset: start, load: { qualifiedName: "", name: "", via: "read" } },
            sawMessages,
            sawUnknown,
          };
        }
        carry = EMPTY;
        giant = true;
      } else {
        carry = first.slice();
      }
    }
    pos = start;
  }
  return { end, sawMessages, sawUnknown };
}

/** The run's lines from the chunks a scan kept (the last chunk of the file first, the load's last). */
function tailOf(kept: readonly KeptLines[], size: number): RunTail {
  const lines: string[] = [];
  const offsets: number[] = [];
  for (let c = kept.length - 1; c >= 0; c--) {
    const { lines: l, offsets: o, first } = kept[c];
    for (let k = first; k < l.length; k++) {
      lines.push(l[k]);
      offsets.push(o[k]);
    }
  }
  return { size, offset: offsets[0], lines, offsets };
}

/**
 * Feeds a run's lines kept by the search to the builder, as {@link parseForward} feeds the bytes
 * it reads (the caller has checked that they are within the parse limit).
 */
function feedTail(tail: RunTail, builder: RunBuilder, stopAtNextRun: boolean): number {
  for (let k = 0; k < tail.lines.length; k++) {
    if (builder.feed(tail.lines[k], tail.offsets[k], stopAtNextRun) === "stop") {
      return tail.offsets[k];
    }
  }
  return tail.size;
}

/** Parses forward from `from`, feeding complete lines to the builder. */
function* parseForward(
  size: number,
  from: number,
  chunkSize: number,
  limit: number,
  builder: RunBuilder,
  stopAtNextRun: boolean,
): Generator<[number, number], { end: number; tooLarge: boolean }, Uint8Array> {
  let pos = from;
  let carry: Uint8Array = EMPTY;
  let carryStart = from;
  while (pos < size) {
    const len = Math.min(chunkSize, size - pos);
    const chunk: Uint8Array = yield [pos, len];
    if (chunk.length === 0) break;
    const combined = concat(carry, chunk);
    const seg = segments(combined);
    const starts = seg.starts;
    const complete = seg.count - 1;
    // The complete lines decoded in one go (see scanBackward: the text's lines are the segments').
    const lines = complete > 0
      ? decoder.decode(combined.subarray(0, starts[complete] - 1)).split("\n")
      : [];
    for (let k = 0; k < complete; k++) {
      const offset = carryStart + starts[k];
      if (offset - from > limit) return { end: offset, tooLarge: true };
      if (builder.feed(lines[k], offset, stopAtNextRun) === "stop") {
        return { end: offset, tooLarge: false };
      }
    }
    pos += chunk.length;
    const lastStart = starts[starts.length - 1];
    carry = combined.slice(lastStart);
    carryStart = carryStart + lastStart;
    if (carry.length > limit) return { end: pos, tooLarge: true };
  }
  if (carry.length > 0) {
    if (size - from > limit) return { end: size, tooLarge: true };
    if (builder.feed(decoder.decode(carry), carryStart, stopAtNextRun) === "stop") {
      return { end: carryStart, tooLarge: false };
    }
  }
  if (size - from > limit) return { end: size, tooLarge: true };
  return { end: size, tooLarge: false };
}

/** The whole read as one generator of byte requests, so sync and async sources share it. */
function* readRunGen(
  size: number,
  options: ReadRunOptions,
): Generator<[number, number], RunRead, Uint8Array> {
  const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
  const chunkSize = Math.max(16, options.chunkSize ?? 256 * 1024);
  const stats = emptyStats(size);
  // A session with no turns yet (an empty file, or only records such as `summary`) is no shape
  // problem: nothing is loaded in it yet.
  if (size === 0) return { kind: "not_loaded", stats };
  let from: number;
  let tail: RunTail | undefined;
  if (options.fromOffset !== undefined) {
    from = Math.max(0, Math.min(Math.floor(options.fromOffset), size));
    // The lines the search kept, while the file has the size it had then.
    const t = options.tail;
    if (t && t.size === size && t.offset === from && size - from <= limit) tail = t;
  } else {
    // A floor past the end means the file is not the one searched before: search it all.
    const asked = Math.floor(options.scanFloor ?? 0);
    const floor = asked > 0 && asked <= size ? asked : 0;
    const scan = yield* scanBackward(
      size,
      chunkSize,
      limit,
      options.skill,
      options.skillsDirs,
      stats,
      floor,
      KEEP_BYTES,
    );
    if (!scan.found) {
      // Below a floor the file was searched before and had messages: nothing new is not a shape.
      // Nor is a file with no turns yet; only a record this reader does not know is.
      return scan.sawMessages || floor > 0 || !scan.sawUnknown
        ? { kind: "not_loaded", stats }
        : { kind: "unknown_shape", reason: NO_KNOWN_RECORDS, stats };
    }
    from = scan.found.offset;
    if (size - from > limit) {
      stats.startOffset = from;
      return { kind: "too_large", bytes: size - from, limit, stats };
    }
    tail = scan.tail;
  }
  const builder = new RunBuilder(options.skill, options.skillsDirs, size);
  builder.stats.bytesScanned = stats.bytesScanned;
  const stopAtNextRun = options.fromOffset !== undefined;
  const fwd = tail
    ? { end: feedTail(tail, builder, stopAtNextRun), tooLarge: false }
    : yield* parseForward(size, from, chunkSize, limit, builder, stopAtNextRun);
  const s = builder.stats;
  s.startOffset = from;
  s.endOffset = fwd.end;
  s.bytesParsed = fwd.end - from;
  if (fwd.tooLarge) {
    return { kind: "too_large", bytes: Math.max(fwd.end - from, limit + 1), limit, stats: s };
  }
  if (s.badContent > 0) {
    return {
      kind: "unknown_shape",
      reason: `${s.badContent} message(s) with content that is neither text nor a block list`,
      stats: s,
    };
  }
  if (s.userOrAssistantRecords === 0) {
    return s.unknownTypes > 0 || s.skippedLines > 0
      ? { kind: "unknown_shape", reason: NO_KNOWN_RECORDS, stats: s }
      : { kind: "not_loaded", stats: s };
  }
  const run = builder.finish();
  if (!run) return { kind: "not_loaded", stats: s };
  return { kind: "ok", run };
}

/**
 * Reads one run of a skill from a transcript file, parsing only the bytes of that run.
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readTranscriptRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return withFileSource(path, (src) => driveAsync(readRunGen(src.size, options), src));
}

/** Where the last selected load of a transcript is, without reading its run. */
export type LoadSearch =
  | { kind: "found"; load: SkillLoad; tail?: RunTail; end?: RunTail }
  | { kind: "not_loaded"; fileSize: number; end?: RunTail }
  | { kind: "unknown_shape"; reason: string };

/**
 * Finds the last selected load of a transcript by the same backward search as
 * {@link readTranscriptRun}, without parsing the run after it: for a caller that may already
 * know the run's outcome. Read the run afterwards with `fromOffset: load.offset` and the `tail`
 * found (the run's lines, decoded by the search, when they are at most 4 MiB).
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories and search floor (`maxParseBytes`,
 * `fromOffset` and `chunkSize` other than the default are ignored, but for `chunkSize`).
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return withFileSource(path, async (src) => {
    const stats = emptyStats(src.size);
    if (src.size === 0) return { kind: "not_loaded", fileSize: 0 };
    const asked = Math.floor(options.scanFloor ?? 0);
    const floor = asked > 0 && asked <= src.size ? asked : 0;
    const chunkSize = Math.max(16, options.chunkSize ?? 256 * 1024);
    const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
    const scan = await driveAsync(
      scanBackward(
        src.size,
        chunkSize,
        limit,
        options.skill,
        options.skillsDirs,
        stats,
        floor,
        KEEP_BYTES,
      ),
      src,
    );
    if (scan.found) {
      const load = { ...scan.found.load, seq: 0, offset: scan.found.offset };
      return { kind: "found", load, tail: scan.tail, end: scan.end };
    }
    if (scan.sawMessages || floor > 0 || !scan.sawUnknown) {
      return { kind: "not_loaded", fileSize: src.size, end: scan.end };
    }
    return { kind: "unknown_shape", reason: NO_KNOWN_RECORDS };
  });
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
  const bytes = new TextEncoder().encode(text);
  const src: Source = {
    size: bytes.length,
    read: (pos, len) => bytes.subarray(pos, pos + len),
  };
  try {
    return driveSync(readRunGen(bytes.length, options), src);
  } catch (e) {
    return {
      kind: "unknown_shape",
      reason: `reader failure: ${errorCause(e)}`,
      stats: emptyStats(bytes.length),
    };
  }
}

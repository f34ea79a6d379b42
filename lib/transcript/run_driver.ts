/**
 * The bounded read of one skill run, shared by the transcript formats whose readers search
 * tail-first (Claude Code's transcript, Copilot CLI's `events.jsonl`): a format's backward search
 * finds the last selected load, then only the run's bytes are parsed forward into the format's
 * builder, and the outcome (`ok`, `not_loaded`, `too_large`, `unknown_shape`) and the read's
 * counters are decided the same way for every format. What a format does differently (its
 * backward search, its records, its builder, what it calls an unknown shape) is its
 * {@link RunFormat}.
 *
 * One generator of byte requests serves the file (async) and a text in memory (sync).
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
  type TranscriptRun,
} from "./model.ts";
import type { RawLoad } from "./loads.ts";
import {
  type ByteRequests,
  concat,
  decoder,
  driveAsync,
  driveSync,
  EMPTY,
  segments,
  textSource,
  withFileSource,
} from "./bytes.ts";
import { emptyStats } from "./record.ts";

/** Where the last selected load of a transcript is, without reading its run. */
export type LoadSearch =
  | { kind: "found"; load: SkillLoad; tail?: RunTail; end?: RunTail }
  | {
    kind: "not_loaded";
    fileSize: number;
    end?: RunTail;
    /** The search stopped at its byte budget (`scanBudget`) before the floor. */
    budget?: true;
  }
  | { kind: "unknown_shape"; reason: string };

/** What a format's backward search found. */
export interface LoadScan {
  /** The last selected load, if any, and its line's byte offset. */
  found?: { offset: number; load: RawLoad };
  /** The lines from the load found to the end, when the search kept them. */
  tail?: RunTail;
  /** The lines of the first chunk read that has a complete line (to the file's end). */
  end?: RunTail;
  /** Whether a user or assistant message was seen. */
  sawMessages: boolean;
  /** Whether, before any message was seen, a line was no record the format knows. */
  sawUnknown: boolean;
}

/** What a format's backward search is asked for. */
export interface ScanRequest {
  /** The file's size. */
  size: number;
  /** Read size of one chunk. */
  chunkSize: number;
  /** The parse limit (a longer line cannot be parsed). */
  maxLine: number;
  /** Which loads count. */
  selector: SkillSelector;
  /** Installed skills directories. */
  skillsDirs: readonly string[] | undefined;
  /** The read's counters (`bytesScanned`). */
  stats: ReadStats;
  /** The byte offset the search stops at (0: the whole file). */
  floor: number;
  /** The sub-agent whose records are the run's (`ReadRunOptions.agent`). */
  agent?: string;
}

/** A format's run builder as the driver feeds it: one line at a time, in file order. */
export interface LineFeeder {
  /** The read's counters. */
  readonly stats: ReadStats;
  /**
   * Feeds one line; `stop` when `stopAtNextRun` is set and the line starts the next run.
   *
   * @param line The line (without its newline).
   * @param offset The line's byte offset.
   * @param stopAtNextRun Whether a new run of the selected skill ends this one.
   * @param mayLoad False when the line is known to hold no load (default true).
   * @returns `stop` when the line starts the next run, else `ok`.
   */
  feed(line: string, offset: number, stopAtNextRun: boolean, mayLoad?: boolean): "ok" | "stop";
}

/** What one transcript format brings to the shared read. */
export interface RunFormat<B extends LineFeeder> {
  /** The reason an unknown shape gives for a file with none of the format's records. */
  readonly noKnownRecords: string;
  /** What a message whose content the format cannot read is (`N message(s) <this>`). */
  readonly badContent: string;
  /**
   * Whether a caller's `ReadRunOptions.tail` (the lines its search kept) may stand in for the
   * run's bytes in the forward parse: true for a format whose lines the builder parses as the
   * search decoded them.
   */
  readonly keepsLines: boolean;
  /**
   * How the forward parse decodes lines and treats a last line with no newline: `chunk` decodes
   * a chunk's complete lines in one go and feeds the last line; `line` decodes each line alone
   * and leaves the last line out (it may be half written).
   */
  readonly forward: "chunk" | "line";
  /**
   * Searches backward for the last selected load.
   *
   * @param req What to search.
   * @returns What the search found.
   */
  scan(req: ScanRequest): ByteRequests<LoadScan>;
  /**
   * A builder for the run.
   *
   * @param options The read's options.
   * @param size The file's size.
   * @returns The builder.
   */
  builder(options: ReadRunOptions, size: number): B;
  /**
   * The outcome the counters of a parsed run give before the run is built, if they decide one.
   *
   * @param stats The counters after the forward parse.
   * @returns `unknown_shape` (no known records), `not_loaded`, or undefined to build the run.
   */
  judge(stats: ReadStats): "unknown_shape" | "not_loaded" | undefined;
  /**
   * The run, once every line is fed (it may read more of the file).
   *
   * @param builder The builder fed.
   * @param size The file's size.
   * @returns The run, or undefined when no selected load was fed.
   */
  finish(builder: B, size: number): ByteRequests<TranscriptRun | undefined>;
}

/**
 * The parse limit of a read ({@link MAX_PARSE_BYTES} by default).
 *
 * @param options The read's options.
 * @returns The limit in bytes.
 */
export function limitOf(options: ReadRunOptions): number {
  return options.maxParseBytes ?? MAX_PARSE_BYTES;
}

/**
 * The chunk size of a read (at least 16 bytes; 256 KiB by default).
 *
 * @param options The read's options.
 * @returns The chunk size.
 */
export function chunkSizeOf(options: ReadRunOptions): number {
  return Math.max(16, options.chunkSize ?? 256 * 1024);
}

/**
 * The search floor of a read: 0 unless one was asked within the file (a floor past the end
 * means the file is not the one searched before: search it all).
 *
 * @param options The read's options.
 * @param size The file's size.
 * @returns The floor.
 */
export function floorOf(options: ReadRunOptions, size: number): number {
  const asked = Math.floor(options.scanFloor ?? 0);
  return Math.max(asked > 0 && asked <= size ? asked : 0, budgetFloorOf(options, size));
}

/** Where the search's byte budget (`scanBudget`) stops it: 0 when the budget covers the file. */
function budgetFloorOf(options: ReadRunOptions, size: number): number {
  const budget = options.scanBudget;
  return budget === undefined || budget <= 0 ? 0 : Math.max(0, size - Math.floor(budget));
}

/**
 * Feeds a run's lines kept by the search to the builder, as {@link parseForward} feeds the bytes
 * it reads (the caller has checked that they are within the parse limit).
 */
function feedTail(tail: RunTail, builder: LineFeeder, stopAtNextRun: boolean): number {
  const needles = tail.needles;
  let n = 0;
  for (let k = 0; k < tail.lines.length; k++) {
    // Only a line the search saw a load needle in may hold a load.
    let mayLoad = true;
    if (needles) {
      mayLoad = needles[n] === k;
      if (mayLoad) n++;
    }
    if (builder.feed(tail.lines[k], tail.offsets[k], stopAtNextRun, mayLoad) === "stop") {
      return tail.offsets[k];
    }
  }
  return tail.size;
}

/** Parses forward from `from`, feeding complete lines to the builder (see `RunFormat.forward`). */
function* parseForward(
  size: number,
  from: number,
  chunkSize: number,
  limit: number,
  builder: LineFeeder,
  stopAtNextRun: boolean,
  style: "chunk" | "line",
): ByteRequests<{ end: number; tooLarge: boolean }> {
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
    // The complete lines decoded in one go (the text's lines are the segments'), or one by one.
    const lines = style === "line"
      ? undefined
      : complete > 0
      ? decoder.decode(combined.subarray(0, starts[complete] - 1)).split("\n")
      : [];
    for (let k = 0; k < complete; k++) {
      const offset = carryStart + starts[k];
      if (offset - from > limit) return { end: offset, tooLarge: true };
      const line = lines ? lines[k] : seg.line(k);
      if (builder.feed(line, offset, stopAtNextRun) === "stop") {
        return { end: offset, tooLarge: false };
      }
    }
    pos += chunk.length;
    const lastStart = starts[starts.length - 1];
    carry = combined.slice(lastStart);
    carryStart = carryStart + lastStart;
    if (carry.length > limit) return { end: pos, tooLarge: true };
  }
  if (style === "line") {
    // A last line with no newline yet may be half written: it is not fed.
    if (size - from > limit) return { end: size, tooLarge: true };
    return { end: carry.length > 0 ? carryStart : size, tooLarge: false };
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

/** The backward search of a format with the read's options. */
function scanOf<B extends LineFeeder>(
  format: RunFormat<B>,
  size: number,
  options: ReadRunOptions,
  stats: ReadStats,
  floor: number,
): ByteRequests<LoadScan> {
  return format.scan({
    size,
    chunkSize: chunkSizeOf(options),
    maxLine: limitOf(options),
    selector: options.skill,
    skillsDirs: options.skillsDirs,
    stats,
    floor,
    agent: options.agent,
  });
}

/** Whether a search that found no load found nothing loaded (else: a shape it does not know). */
function nothingLoaded(scan: LoadScan, floor: number): boolean {
  // Below a floor the file was searched before and had messages: nothing new is not a shape.
  // Nor is a file with no turns yet; only a record the format does not know is.
  return scan.sawMessages || floor > 0 || !scan.sawUnknown;
}

/** The whole read as one generator of byte requests, so sync and async sources share it. */
function* readRunGen<B extends LineFeeder>(
  format: RunFormat<B>,
  size: number,
  options: ReadRunOptions,
): ByteRequests<RunRead> {
  const limit = limitOf(options);
  const chunkSize = chunkSizeOf(options);
  const stats = emptyStats(size);
  // A session with no turns yet (an empty file) is no shape problem: nothing is loaded in it yet.
  if (size === 0) return { kind: "not_loaded", stats };
  let from: number;
  let tail: RunTail | undefined;
  if (options.fromOffset !== undefined) {
    from = Math.max(0, Math.min(Math.floor(options.fromOffset), size));
    // The lines the search kept, while the file has the size it had then.
    const t = options.tail;
    if (format.keepsLines && t && t.size === size && t.offset === from && size - from <= limit) {
      tail = t;
    }
  } else {
    const floor = floorOf(options, size);
    const scan = yield* scanOf(format, size, options, stats, floor);
    if (!scan.found) {
      return nothingLoaded(scan, floor)
        ? { kind: "not_loaded", stats }
        : { kind: "unknown_shape", reason: format.noKnownRecords, stats };
    }
    from = scan.found.offset;
    if (size - from > limit) {
      stats.startOffset = from;
      return { kind: "too_large", bytes: size - from, limit, stats };
    }
    tail = scan.tail;
  }
  const builder = format.builder(options, size);
  builder.stats.bytesScanned = stats.bytesScanned;
  const stopAtNextRun = options.fromOffset !== undefined;
  const fwd = tail
    ? { end: feedTail(tail, builder, stopAtNextRun), tooLarge: false }
    : yield* parseForward(size, from, chunkSize, limit, builder, stopAtNextRun, format.forward);
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
      reason: `${s.badContent} message(s) ${format.badContent}`,
      stats: s,
    };
  }
  const judged = format.judge(s);
  if (judged === "unknown_shape") {
    return { kind: "unknown_shape", reason: format.noKnownRecords, stats: s };
  }
  if (judged === "not_loaded") return { kind: "not_loaded", stats: s };
  const run = yield* format.finish(builder, size);
  return run ? { kind: "ok", run } : { kind: "not_loaded", stats: s };
}

/**
 * Reads one run of a skill from a transcript file of a format, parsing only the bytes of that run.
 *
 * @param format The transcript's format.
 * @param path The transcript path.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readRun<B extends LineFeeder>(
  format: RunFormat<B>,
  path: string,
  options: ReadRunOptions,
): Promise<RunRead> {
  return withFileSource(path, (src) => driveAsync(readRunGen(format, src.size, options), src));
}

/**
 * Finds the last selected load of a transcript of a format by the same backward search as
 * {@link readRun}, without parsing the run after it.
 *
 * @param format The transcript's format.
 * @param path The transcript path.
 * @param options Which skill, skills directories, search floor, chunk size and parse limit (the
 * longest line searched).
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findLoad<B extends LineFeeder>(
  format: RunFormat<B>,
  path: string,
  options: ReadRunOptions,
): Promise<LoadSearch> {
  return withFileSource(path, async (src): Promise<LoadSearch> => {
    if (src.size === 0) return { kind: "not_loaded", fileSize: 0 };
    const floor = floorOf(options, src.size);
    const scan = await driveAsync(
      scanOf(format, src.size, options, emptyStats(src.size), floor),
      src,
    );
    if (scan.found) {
      const load = { ...scan.found.load, seq: 0, offset: scan.found.offset };
      return { kind: "found", load, tail: scan.tail, end: scan.end };
    }
    if (nothingLoaded(scan, floor)) {
      const budget = budgetFloorOf(options, src.size);
      return {
        kind: "not_loaded",
        fileSize: src.size,
        end: scan.end,
        ...(budget > 0 && budget === floor ? { budget: true as const } : {}),
      };
    }
    return { kind: "unknown_shape", reason: format.noKnownRecords };
  });
}

/**
 * {@link readRun} for a transcript of a format in memory (tests, small inputs). Never throws.
 *
 * @param format The transcript's format.
 * @param text The whole JSONL text.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 */
export function parseRunText<B extends LineFeeder>(
  format: RunFormat<B>,
  text: string,
  options: ReadRunOptions,
): RunRead {
  const src = textSource(text);
  try {
    return driveSync(readRunGen(format, src.size, options), src);
  } catch (e) {
    return {
      kind: "unknown_shape",
      reason: `reader failure: ${errorCause(e)}`,
      stats: emptyStats(src.size),
    };
  }
}

/**
 * Reading a skill run from GitHub Copilot CLI's `events.jsonl`, tail first and bounded like the
 * Claude Code reader (`read.ts`): the bytes are scanned backward from the end for the last load
 * (a substring pre-filter, no parse), then only the run's bytes are parsed forward into a
 * {@link CopilotRunBuilder} by the shared run read (`run_driver.ts`). The file's head is looked at
 * once more, for the system prompt that marks a `-p` (non-interactive) run and the session's
 * directory.
 *
 * The transcript-currency rule at `agentStop`: Copilot CLI writes the stop's own `hook.start`
 * record (`hookType: "agentStop"`, or `"subagentStop"` at a sub-agent's stop; `input.timestamp` the
 * payload's `timestamp`) before it runs the hook, after every record of the turn. A file that holds that record holds the whole turn
 * ({@link awaitCopilotStop}); the turn's final text is then the file's, with no payload field to
 * stand in for it (agentStop has no `last_assistant_message`).
 *
 * @module
 */

import { NotRegularFileError, openRegularFile, statOpenFile } from "../base/fs.ts";
import type { ReadRunOptions, RunRead } from "./model.ts";
import { selects } from "./loads.ts";
import { type ByteRequests, concat, decoder, EMPTY, segments } from "./bytes.ts";
import { parseLine } from "./record.ts";
import type { CurrencyOptions, TurnCurrency } from "./currency.ts";
import { catchUpBudget } from "./currency.ts";
import {
  COPILOT_LOAD_NEEDLES,
  copilotLoadsOf,
  CopilotRunBuilder,
  isCopilotRecord,
} from "./copilot_events.ts";
import {
  findLoad,
  type LoadScan,
  type LoadSearch,
  parseRunText,
  readRun,
  type RunFormat,
  type ScanRequest,
} from "./run_driver.ts";

const MESSAGE_RE = /"type"\s*:\s*"(?:user|assistant)\.message"/;
const COPILOT_TYPE_RE = /"type"\s*:\s*"[a-z_]+\.[a-z_.]+"/;

/** Whether a line is a Copilot event (parsed; a line over 1 MiB judged by its `type` unparsed). */
function isCopilotLine(line: string): boolean {
  if (line.length > 1024 * 1024) return COPILOT_TYPE_RE.test(line);
  const rec = parseLine(line);
  return rec !== undefined && isCopilotRecord(rec);
}

/** The reason an unknown shape gives for a file with no Copilot records. */
const NO_KNOWN_RECORDS = "no user or assistant messages, and lines that are no Copilot event";

/** How far into the file the head look searches for the session's system prompt. */
const HEAD_BYTES = 128 * 1024;

/** Scans backward from the end for the last selected load; only pre-filtered lines are parsed. */
function* scanBackward(req: ScanRequest): ByteRequests<LoadScan> {
  const { size, chunkSize, maxLine, selector, skillsDirs, stats, floor } = req;
  let pos = size;
  let carry: Uint8Array = EMPTY;
  let sawMessages = false;
  let sawUnknown = false;
  while (pos > floor) {
    const start = Math.max(floor, pos - chunkSize);
    const chunk: Uint8Array = yield [start, pos - start];
    stats.bytesScanned += chunk.length;
    const combined = concat(chunk, carry);
    const seg = segments(combined);
    const first = start === 0 ? 0 : 1;
    for (let k = seg.count - 1; k >= first; k--) {
      // The file's last segment is empty, or a line with no newline yet, maybe half written.
      if (pos === size && k === seg.count - 1) continue;
      const line = seg.line(k);
      if (line.trim() === "") continue;
      if (!sawMessages) {
        if (MESSAGE_RE.test(line)) sawMessages = true;
        else if (!sawUnknown && !isCopilotLine(line)) sawUnknown = true;
      }
      if (!COPILOT_LOAD_NEEDLES.some((n) => line.includes(n))) continue;
      const rec = parseLine(line);
      if (!rec) continue;
      const loads = copilotLoadsOf(rec, skillsDirs, req.agent);
      for (let j = loads.length - 1; j >= 0; j--) {
        const offset = start + seg.starts[k];
        if (selects(selector, { ...loads[j], seq: 0, offset })) {
          return { found: { offset, load: loads[j] }, sawMessages, sawUnknown };
        }
      }
    }
    // Keep the first (maybe partial) line for the next chunk, unless it is too long to matter.
    const head = combined.subarray(0, seg.count > 1 ? seg.starts[1] - 1 : combined.length);
    carry = start > 0 && head.length <= maxLine ? head.slice() : EMPTY;
    pos = start;
  }
  return { sawMessages, sawUnknown };
}

/** What the file's head says of the session: a `-p` (non-interactive) run, and its directory. */
interface HeadFacts {
  nonInteractive: boolean;
  cwd?: string;
}

/**
 * Reads the file's head: the system prompt of a non-interactive (`-p`) session, and
 * `session.start`'s `context.cwd`.
 */
function* headFacts(size: number): ByteRequests<HeadFacts> {
  const facts: HeadFacts = { nonInteractive: false };
  if (size === 0) return facts;
  const bytes: Uint8Array = yield [0, Math.min(size, HEAD_BYTES)];
  for (const line of decoder.decode(bytes).split("\n")) {
    if (facts.cwd === undefined && line.includes('"session.start"')) {
      const data = parseLine(line)?.data as Record<string, unknown> | undefined;
      const context = data?.context as Record<string, unknown> | undefined;
      if (typeof context?.cwd === "string") facts.cwd = context.cwd;
      continue;
    }
    if (!line.includes('"system.message"') || line.includes('"parentToolCallId"')) continue;
    facts.nonInteractive = line.includes("You are running in non-interactive mode");
    break;
  }
  return facts;
}

/** Copilot CLI's `events.jsonl` as the shared run read sees it. */
const COPILOT_FORMAT: RunFormat<CopilotRunBuilder> = {
  noKnownRecords: NO_KNOWN_RECORDS,
  badContent: "whose content is not text",
  keepsLines: false,
  forward: "line",
  scan: scanBackward,
  builder: (options, size) =>
    new CopilotRunBuilder(options.skill, options.skillsDirs, size, options.agent),
  judge: (s) =>
    s.records === 0 && (s.unknownTypes > 0 || s.skippedLines > 0) ? "unknown_shape" : undefined,
  *finish(builder, size) {
    const head = yield* headFacts(size);
    builder.nonInteractive ||= head.nonInteractive;
    builder.cwd ??= head.cwd;
    return builder.finish();
  },
};

/**
 * Reads one run of a skill from a Copilot CLI `events.jsonl`, parsing only the bytes of that run.
 *
 * @param path The `events.jsonl` path.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readCopilotRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return readRun(COPILOT_FORMAT, path, options);
}

/**
 * Finds the last selected load of a Copilot CLI `events.jsonl` without reading its run.
 *
 * @param path The `events.jsonl` path.
 * @param options Which skill, skills directories and search floor.
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findLastCopilotLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return findLoad(COPILOT_FORMAT, path, options);
}

/**
 * {@link readCopilotRun} for an `events.jsonl` text in memory (tests, small inputs). Never throws.
 *
 * @param text The whole JSONL text.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 */
export function parseCopilotText(text: string, options: ReadRunOptions): RunRead {
  return parseRunText(COPILOT_FORMAT, text, options);
}

/** The tail looked at for the stop's own `hook.start` record. */
const STOP_TAIL_BYTES = 256 * 1024;

/**
 * Whether a text (the tail of an `events.jsonl`) holds the `hook.start` record of the agentStop
 * (or subagentStop) whose payload carried `timestamp`.
 *
 * @param tail The text.
 * @param timestamp The agentStop payload's `timestamp`.
 * @returns True when the record is there.
 */
export function holdsStopMarker(tail: string, timestamp: number): boolean {
  for (const line of tail.split("\n")) {
    if (!line.includes('"hook.start"') || !/"(?:agentStop|subagentStop)"/.test(line)) continue;
    const rec = parseLine(line);
    const data = rec?.data as Record<string, unknown> | undefined;
    const input = data?.input as Record<string, unknown> | undefined;
    const stop = data?.hookType === "agentStop" || data?.hookType === "subagentStop";
    if (rec?.type === "hook.start" && stop && input) {
      if (input.timestamp === timestamp) return true;
    }
  }
  return false;
}

async function readTail(path: string): Promise<string> {
  // Only a regular file is opened, and never so that the process blocks (a FIFO, say).
  const file = await openRegularFile(path);
  try {
    const st = statOpenFile(file, path);
    const from = Math.max(0, st.size - STOP_TAIL_BYTES);
    const buf = new Uint8Array(st.size - from);
    file.seekSync(from, Deno.SeekMode.Start);
    let got = 0;
    while (got < buf.length) {
      const n = file.readSync(buf.subarray(got));
      if (n === null || n === 0) break;
      got += n;
    }
    return decoder.decode(buf.subarray(0, got));
  } finally {
    file.close();
  }
}

/** Whether an error is a missing permission (Deno's `NotCapable`, or the OS's denial). */
function notGranted(err: unknown): boolean {
  const errors = Deno.errors as Record<string, unknown>;
  return [errors.NotCapable, errors.PermissionDenied].some((E) =>
    typeof E === "function" && err instanceof (E as new () => Error)
  );
}

/**
 * Waits until a Copilot CLI `events.jsonl` holds the stop's own `hook.start` record (see the
 * module doc), polling with a backoff of 10, 20, 40 … 200 ms within the budget. A file this
 * process is not granted is behind at once; a missing one is waited for.
 *
 * @param path The `events.jsonl`.
 * @param timestamp The agentStop payload's `timestamp` (undefined: nothing to compare).
 * @param options The budget, an abort signal, and a sleep seam.
 * @returns Whether the file holds the turn, and how long it took.
 */
export async function awaitCopilotStop(
  path: string,
  timestamp: number | undefined,
  options: CurrencyOptions = {},
): Promise<TurnCurrency> {
  if (timestamp === undefined) return { state: "unverified", reason: "no-final-text" };
  const budget = options.budgetMs ?? catchUpBudget(options.deadlineMs ?? 5000);
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const started = performance.now();
  let polls = 0;
  let pause = 10;
  for (;;) {
    try {
      const waitedMs = polls === 0 ? 0 : Math.round(performance.now() - started);
      if (holdsStopMarker(await readTail(path), timestamp)) {
        return { state: "current", waitedMs, polls };
      }
    } catch (err) {
      if (err instanceof NotRegularFileError) return { state: "unverified", reason: "not-a-file" };
      // A file this process may not read will not hold the stop by waiting. One that is not there
      // yet may: Copilot CLI 1.0.102 has been seen to run the first agentStop before it wrote
      // events.jsonl at all.
      if (notGranted(err)) {
        return { state: "behind", waitedMs: Math.round(performance.now() - started), polls };
      }
    }
    const left = budget - (performance.now() - started);
    if (left <= 0 || options.signal?.aborted) {
      return { state: "behind", waitedMs: Math.round(performance.now() - started), polls };
    }
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, 200);
    polls++;
  }
}

/**
 * Whether a transcript holds the whole turn a Stop payload speaks of.
 *
 * Claude Code fires Stop before it has flushed the turn's last records to the transcript
 * (`reference/hosts-observed.md`; upstream anthropics/claude-code #15812, #15813, #40655), while
 * the payload's `last_assistant_message` is always the turn's final text block. The file holds the
 * whole turn once its last decisive main-chain record is an assistant text whose last text block
 * equals that field (normalised). Records after it that do not move the conversation (attachments,
 * `system`, meta user records, thinking-only assistant records) do not matter; an assistant
 * `tool_use`, a tool result or a new prompt after the text means the text was not the turn's end.
 *
 * {@link awaitTurnInTranscript} checks the file's tail and, while it is behind, polls what is
 * appended (never the whole file again) with a short backoff, within a budget.
 *
 * @module
 */

import { NotRegularFileError, openRegularFile, statOpenFile } from "../base/fs.ts";

/** The most a Stop hook waits for the transcript to catch up, in milliseconds. */
export const MAX_CATCH_UP_MS = 2000;

/** The share of a hook's deadline the wait may take at the most. */
const DEADLINE_SHARE = 0.4;

/** The tail read first: the final records are small, the final text may not be. */
const FIRST_TAIL_BYTES = 64 * 1024;

/** The furthest back the first look searches for the last decisive record. */
const MAX_TAIL_BYTES = 4 * 1024 * 1024;

/** What {@link awaitTurnInTranscript} found. */
export type TurnCurrency =
  /** The file holds the turn (`waitedMs` is 0 when it did at once). */
  | { readonly state: "current"; readonly waitedMs: number; readonly polls: number }
  /** The file did not catch up within the budget (or it cannot be read). */
  | { readonly state: "behind"; readonly waitedMs: number; readonly polls: number }
  /**
   * Nothing to compare (the payload has no final text: an older client), the path is no regular
   * file (a FIFO would hang a read), or it leads out of the grants (a transcript linked to a file
   * elsewhere; waiting changes nothing): the readers take the file as it is, and say why not.
   */
  | {
    readonly state: "unverified";
    readonly reason: "no-final-text" | "not-a-file" | "not-granted";
  };

/** Options of {@link awaitTurnInTranscript}. */
export interface CurrencyOptions {
  /** How long to wait at the most (default: {@link catchUpBudget} of `deadlineMs`). */
  readonly budgetMs?: number;
  /** The hook's deadline, which sets the default budget (default 5 s). */
  readonly deadlineMs?: number;
  /** Stops the wait early (the hook's deadline). */
  readonly signal?: AbortSignal;
  /** Test seam: waits `ms` milliseconds. */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * What one line says of the turn's end (the transcript format's rule): an assistant text, `null`
   * (the conversation moved on), `undefined` (it does not matter). Default: Claude Code's.
   */
  readonly verdict?: (line: string) => string | null | undefined;
}

/**
 * The wait budget of a hook with the given deadline: {@link MAX_CATCH_UP_MS}, or 40 % of a shorter
 * deadline, so that the check that follows still fits.
 *
 * @param deadlineMs The hook's deadline.
 * @returns The budget in milliseconds.
 */
export function catchUpBudget(deadlineMs: number): number {
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) return 0;
  return Math.min(MAX_CATCH_UP_MS, Math.floor(deadlineMs * DEADLINE_SHARE));
}

/**
 * A final text as compared: line ends unified, white space runs folded, trimmed.
 *
 * @param text A final text.
 * @returns The normalised text.
 */
export function normalizeFinalText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * What one record says of the turn's end: the text it ends on (an assistant text), `null` (the
 * conversation moved on after any earlier text), or `undefined` (it does not matter).
 */
function claudeVerdictOf(line: string, agentFile = false): string | null | undefined {
  if (!line.includes('"assistant"') && !line.includes('"user"')) return undefined;
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRec(rec) || (rec.isSidechain === true && !agentFile)) return undefined;
  const msg = rec.message;
  const content = isRec(msg) ? msg.content : undefined;
  if (rec.type === "assistant") {
    if (typeof content === "string") return content;
    if (!Array.isArray(content)) return undefined;
    let out: string | null | undefined;
    for (const b of content) {
      if (!isRec(b)) continue;
      if (b.type === "text" && typeof b.text === "string") out = b.text;
      else if (b.type === "tool_use") out = null;
    }
    return out;
  }
  if (rec.type === "user") {
    if (rec.isMeta === true) return undefined;
    if (typeof content === "string") return content.trim() === "" ? undefined : null;
    if (!Array.isArray(content)) return undefined;
    for (const b of content) {
      if (!isRec(b)) continue;
      if (b.type === "tool_result") return null;
      if (b.type === "text" && typeof b.text === "string" && b.text.trim() !== "") return null;
    }
  }
  return undefined;
}

const decoder = new TextDecoder();

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null || n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** The tail of one transcript, followed as it grows. */
class TailWatch {
  /** The offset just past the last complete line looked at. */
  private end = 0;
  /** What the last decisive record said (see {@link claudeVerdictOf}); `undefined`: none seen. */
  private last: string | null | undefined;
  /** Set when the file shrank: the next look starts again from its end. */
  rewind = true;

  constructor(
    private readonly path: string,
    private readonly window: number,
    private readonly verdictOf: (line: string) => string | null | undefined = claudeVerdictOf,
  ) {}

  /** Looks at the file: from its end the first time, else at what was appended. */
  async look(): Promise<void> {
    // Only a regular file is opened, and never so that the process blocks (a FIFO, say).
    const file = await openRegularFile(this.path);
    try {
      if (this.rewind) {
        this.first(file);
        this.rewind = false;
      } else this.more(file);
    } finally {
      file.close();
    }
  }

  /** The first look: backward from the end until a decisive record, within the tail bounds. */
  private first(file: Deno.FsFile): void {
    {
      const size = statOpenFile(file, this.path).size;
      for (let window = this.window;; window *= 4) {
        const from = Math.max(0, size - window);
        const bytes = readAt(file, from, size - from);
        const nl = bytes.lastIndexOf(10);
        this.end = from + nl + 1;
        if (nl < 0 && from === 0) return;
        const lines = decoder.decode(bytes.subarray(0, nl + 1)).split("\n");
        // The first line of a window that does not start the file may be cut.
        for (let i = lines.length - 1; i >= (from === 0 ? 0 : 1); i--) {
          const v = this.verdictOf(lines[i]);
          if (v !== undefined) {
            this.last = v;
            return;
          }
        }
        if (from === 0 || window >= MAX_TAIL_BYTES) return;
      }
    }
  }

  /** Looks at what was appended since the last look. */
  more(file: Deno.FsFile): void {
    {
      const size = statOpenFile(file, this.path).size;
      if (size < this.end) {
        // Not append-only after all: look again from the end.
        this.last = undefined;
        this.rewind = true;
        return;
      }
      if (size === this.end) return;
      const bytes = readAt(file, this.end, size - this.end);
      const nl = bytes.lastIndexOf(10);
      if (nl < 0) return;
      for (const line of decoder.decode(bytes.subarray(0, nl + 1)).split("\n")) {
        const v = this.verdictOf(line);
        if (v !== undefined) this.last = v;
      }
      this.end += nl + 1;
    }
  }

  /** Whether the last decisive record is an assistant text equal to `expected` (normalised). */
  holds(expected: string): boolean {
    return typeof this.last === "string" && normalizeFinalText(this.last) === expected;
  }
}

/**
 * {@link awaitTurnInTranscript}'s view of one line of a Claude Code sub-agent's own file
 * (`subagents/agent-<id>.jsonl`), whose records are all `isSidechain`: the main chain's rule.
 *
 * @param line One JSONL line.
 * @returns The text the turn may end on, `null` for a record that moves it on, else undefined.
 */
export function agentFileVerdict(line: string): string | null | undefined {
  return claudeVerdictOf(line, true);
}

/**
 * Whether a turn read already shows the file holding the turn, as the first look of
 * {@link awaitTurnInTranscript} would see it: the last decisive Claude Code record among the
 * turn's complete lines (a last line the file does not end yet is left out) is an assistant text
 * equal to `finalText`, within the bytes that look reads. False means only "not shown here": the
 * caller then waits with {@link awaitTurnInTranscript}.
 *
 * @param turn The turn's lines (or the file's last lines) and their byte offsets.
 * @param fileSize The file's size when they were read.
 * @param finalText The payload's `last_assistant_message`.
 * @returns True when the file held the turn when it was read.
 */
export function turnShowsFinalText(
  turn: { readonly lines: readonly string[]; readonly offsets: readonly number[] },
  fileSize: number,
  finalText: string | undefined,
): boolean {
  const expected = normalizeFinalText(finalText ?? "");
  if (expected === "") return false;
  let k = turn.lines.length - 1;
  if (k >= 0 && turn.offsets[k] + encoder.encode(turn.lines[k]).length >= fileSize) k--;
  // The widest window of the first look: a line starting at or below its start is not seen.
  const floor = fileSize - MAX_TAIL_BYTES;
  for (; k >= 0 && turn.offsets[k] > floor; k--) {
    const v = claudeVerdictOf(turn.lines[k]);
    if (v !== undefined) return typeof v === "string" && normalizeFinalText(v) === expected;
  }
  return false;
}

const encoder = new TextEncoder();

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until the transcript holds the turn whose final text the Stop payload gave, reading only
 * the file's tail and then what is appended, with a backoff of 10, 20, 40 … 200 ms, within the
 * budget. A file that cannot be read counts as behind.
 *
 * @example The usual case: the file already holds the turn
 * ```ts ignore
 * const c = await awaitTurnInTranscript(ev.transcriptPath, ev.lastAssistantMessage);
 * if (c.state === "behind") return null; // decide nothing on a stale file
 * ```
 *
 * @param path The transcript.
 * @param finalText The payload's `last_assistant_message`.
 * @param options The budget, an abort signal, and a sleep seam.
 * @returns Whether the file holds the turn, and how long it took.
 */
export async function awaitTurnInTranscript(
  path: string,
  finalText: string | undefined,
  options: CurrencyOptions = {},
): Promise<TurnCurrency> {
  const expected = normalizeFinalText(finalText ?? "");
  if (expected === "") return { state: "unverified", reason: "no-final-text" };
  const budget = options.budgetMs ?? catchUpBudget(options.deadlineMs ?? 5000);
  const sleep = options.sleep ?? defaultSleep;
  // A JSON-escaped text can take more bytes than characters: the window widens if it must.
  const watch = new TailWatch(
    path,
    FIRST_TAIL_BYTES + 2 * (finalText ?? "").length,
    options.verdict,
  );
  const started = performance.now();
  let polls = 0;
  let pause = 10;
  for (;;) {
    try {
      await watch.look();
    } catch (err) {
      if (err instanceof NotRegularFileError) return { state: "unverified", reason: "not-a-file" };
      if (err instanceof Deno.errors.NotCapable) {
        return { state: "unverified", reason: "not-granted" };
      }
      // Not there yet, or unreadable: wait like for a file that is behind.
    }
    // The first look is no wait: a file current at once reports 0.
    const waitedMs = polls === 0 ? 0 : Math.round(performance.now() - started);
    if (watch.holds(expected)) return { state: "current", waitedMs, polls };
    const left = budget - (performance.now() - started);
    if (left <= 0 || options.signal?.aborted) return { state: "behind", waitedMs, polls };
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, 200);
    polls++;
  }
}

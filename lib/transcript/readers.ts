/**
 * The transcript readers, one per transcript format a host writes (`Host.transcript`), behind one
 * interface: find the last load of a skill, read its run, and wait for the file to hold the turn
 * a stop is about. The Stop hook picks the reader by the sending host's format; `contract check
 * --transcript` and `contract report` by the file's own first record ({@link formatOfFile}).
 *
 * @module
 */

import type { TranscriptFormat } from "../host/host.ts";
import type { ReadRunOptions, RunRead } from "./model.ts";
import { findLastLoad, type LoadSearch, parseTranscriptText, readTranscriptRun } from "./read.ts";
import { awaitTurnInTranscript, type CurrencyOptions, type TurnCurrency } from "./currency.ts";
import {
  awaitCopilotStop,
  findLastCopilotLoad,
  parseCopilotText,
  readCopilotRun,
} from "./copilot_read.ts";
import { isCopilotRecord } from "./copilot_events.ts";
import { isRec, parseLine } from "./record.ts";

/** What a stop payload says about the turn's end, for the currency check. */
export interface StopFacts {
  /** The payload's final text (Claude Code's `last_assistant_message`). */
  readonly finalText?: string;
  /** The payload's `timestamp` (Copilot CLI's agentStop). */
  readonly timestamp?: number;
}

/** One transcript format's reader. */
export interface TranscriptReader {
  /** Finds the last selected load without reading its run. */
  findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch>;
  /** Reads one run of a skill, parsing only its bytes. */
  readRun(path: string, options: ReadRunOptions): Promise<RunRead>;
  /** The same for a text in memory; never throws. */
  parseText(text: string, options: ReadRunOptions): RunRead;
  /** Waits until the file holds the turn the stop is about (the transcript-currency rule). */
  awaitTurn(path: string, stop: StopFacts, options?: CurrencyOptions): Promise<TurnCurrency>;
  /**
   * Whether the payload's final text stands for the turn's final text (Claude Code: the file
   * can lag behind `last_assistant_message`); else the file's last message is the final text.
   */
  readonly payloadFinalText: boolean;
}

/** Every format's reader. */
export const TRANSCRIPT_READERS: Readonly<Record<TranscriptFormat, TranscriptReader>> = {
  "claude-code-jsonl": {
    findLastLoad,
    readRun: readTranscriptRun,
    parseText: parseTranscriptText,
    awaitTurn: (path, stop, options) => awaitTurnInTranscript(path, stop.finalText, options),
    payloadFinalText: true,
  },
  "copilot-events-jsonl": {
    findLastLoad: findLastCopilotLoad,
    readRun: readCopilotRun,
    parseText: parseCopilotText,
    awaitTurn: (path, stop, options) => awaitCopilotStop(path, stop.timestamp, options),
    payloadFinalText: false,
  },
};

/**
 * The format of a transcript text, from its first record: a Copilot CLI event (`{"type":
 * "session.start", "data": {…}}`) or else Claude Code's JSONL.
 *
 * @param head The file's first bytes, decoded (its first line is enough).
 * @returns The format.
 */
export function formatOfText(head: string): TranscriptFormat {
  for (const line of head.split("\n", 8)) {
    const rec = parseLine(line);
    if (!rec) continue;
    return isRec(rec.data) && isCopilotRecord(rec) ? "copilot-events-jsonl" : "claude-code-jsonl";
  }
  return "claude-code-jsonl";
}

/**
 * The format of a transcript file, from its first record ({@link formatOfText}); Claude Code's
 * when the file cannot be read (its reader then reports the error).
 *
 * @param path The transcript.
 * @returns The format.
 */
export async function formatOfFile(path: string): Promise<TranscriptFormat> {
  try {
    using file = await Deno.open(path, { read: true });
    const buf = new Uint8Array(64 * 1024);
    const n = await file.read(buf);
    return formatOfText(new TextDecoder().decode(buf.subarray(0, n ?? 0)));
  } catch {
    return "claude-code-jsonl";
  }
}

/**
 * The reader of a format.
 *
 * @param format The transcript format.
 * @returns Its reader.
 */
export function readerFor(format: TranscriptFormat): TranscriptReader {
  return TRANSCRIPT_READERS[format];
}

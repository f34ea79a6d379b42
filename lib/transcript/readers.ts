/**
 * The transcript readers, one per transcript format a host writes (`Host.transcript`), behind one
 * interface: find the last load of a skill, read its run, and wait for the file to hold the turn
 * a stop is about. The map is total over {@link TranscriptFormat} (a new format does not compile
 * without its reader), and each reader is loaded when first asked for, so a hook loads only the
 * reader of its host's format. The Stop hook picks the reader by the sending host's format;
 * `contract check --transcript` and `contract report` by the file itself ({@link formatOfFile}).
 *
 * @module
 */

import type { TranscriptFormat } from "../host/host.ts";
import type { ReadRunOptions, RunRead } from "./model.ts";
import type { LoadSearch } from "./read.ts";
import type { CurrencyOptions, TurnCurrency } from "./currency.ts";
import type { ActivityFormat } from "./activity.ts";
import { COPILOT_ACTIVITY, isCopilotRecord } from "./copilot_events.ts";
import { isRec, parseLine } from "./record.ts";
import { openRegularFile } from "../base/fs.ts";

/**
 * What a stop payload says about the turn's end, for the currency check: each format's reader
 * uses what its host sends.
 */
export interface StopFacts {
  /** The payload's final text (`last_assistant_message`: Claude Code, Codex CLI). */
  readonly finalText?: string;
  /** The payload's `timestamp` (Copilot CLI's agentStop, which has no final text). */
  readonly timestamp?: number;
  /** The sub-agent whose stop this is (`ReadRunOptions.agent`), for a SubagentStop. */
  readonly agent?: string;
}

/** One transcript format's reader. */
export interface TranscriptReader {
  /** Finds the last selected load without reading its run. */
  findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch>;
  /** Reads one run of a skill (`fromOffset`, or the last selected load), parsing only its bytes. */
  readRun(path: string, options: ReadRunOptions): Promise<RunRead>;
  /** Waits until the file holds the turn the stop is about (the transcript-currency rule). */
  awaitTurn(path: string, stop: StopFacts, options?: CurrencyOptions): Promise<TurnCurrency>;
  /**
   * Whether a search's own lines already show the file holding the turn, as the first look of
   * `awaitTurn` would (so the search stands without a wait); absent when the format has no such
   * shortcut.
   */
  searchShowsTurn?(search: LoadSearch, stop: StopFacts): boolean;
  /**
   * Whether the payload's final text stands for the turn's final text (Claude Code, Codex CLI:
   * the file can lag behind `last_assistant_message`); else the file's last message is the final
   * text (Copilot CLI).
   */
  readonly payloadFinalText: boolean;
  /** What the format's lines hold for `skillgate report`: its prompts and loads (`activity.ts`). */
  readonly activity: ActivityFormat;
}

/** Every format's reader, each loaded when first asked for. */
export const TRANSCRIPT_READERS: Readonly<
  Record<TranscriptFormat, () => Promise<TranscriptReader>>
> = {
  "claude-code-jsonl": async () => {
    const [read, currency] = await Promise.all([import("./read.ts"), import("./currency.ts")]);
    return {
      findLastLoad: read.findLastLoad,
      readRun: read.readTranscriptRun,
      // A sub-agent's own file: its records are all `isSidechain`, its main chain.
      awaitTurn: (path, stop, options) =>
        currency.awaitTurnInTranscript(
          path,
          stop.finalText,
          stop.agent === undefined ? options : { ...options, verdict: currency.agentFileVerdict },
        ),
      searchShowsTurn: (search, stop) =>
        stop.agent === undefined && search.kind !== "unknown_shape" && search.end !== undefined &&
        currency.turnShowsFinalText(search.end, search.end.size, stop.finalText),
      payloadFinalText: true,
      activity: read.CLAUDE_ACTIVITY,
    };
  },
  "copilot-events-jsonl": async () => {
    const copilot = await import("./copilot_read.ts");
    return {
      findLastLoad: copilot.findLastCopilotLoad,
      readRun: copilot.readCopilotRun,
      awaitTurn: (path, stop, options) => copilot.awaitCopilotStop(path, stop.timestamp, options),
      payloadFinalText: false,
      activity: COPILOT_ACTIVITY,
    };
  },
  "codex-rollout-jsonl": async () => {
    const [codex, currency] = await Promise.all([
      import("./codex_rollout.ts"),
      import("./currency.ts"),
    ]);
    return {
      findLastLoad: codex.findCodexLoad,
      readRun: codex.readCodexRun,
      awaitTurn: (path, stop, options) =>
        currency.awaitTurnInTranscript(path, stop.finalText, {
          ...options,
          verdict: codex.rolloutVerdict,
        }),
      payloadFinalText: true,
      activity: codex.CODEX_ACTIVITY,
    };
  },
  "gemini-chat-jsonl": async () => {
    const [gemini, currency] = await Promise.all([
      import("./gemini_chat.ts"),
      import("./currency.ts"),
    ]);
    return {
      findLastLoad: gemini.findGeminiLoad,
      readRun: gemini.readGeminiRun,
      awaitTurn: (path, stop, options) =>
        currency.awaitTurnInTranscript(path, stop.finalText, {
          ...options,
          verdict: gemini.geminiVerdictFor(stop.finalText),
        }),
      // AfterAgent's `prompt_response` joins every text of the prompt: the chat's last text is the
      // turn's final text.
      payloadFinalText: false,
      activity: gemini.GEMINI_ACTIVITY,
    };
  },
};

/**
 * The reader of a format.
 *
 * @param format The transcript format.
 * @returns Its reader.
 */
export function readerFor(format: TranscriptFormat): Promise<TranscriptReader> {
  return TRANSCRIPT_READERS[format]();
}

/**
 * The format of a transcript text, from its first record: a Gemini CLI chat's header (`{sessionId,
 * projectHash, …}`), a Copilot CLI event (`{"type":
 * "session.start", "data": {…}}`), a Codex CLI rollout's `{"type": "session_meta", "payload":
 * {…}}`, or else Claude Code's JSONL.
 *
 * @param head The file's first bytes, decoded (its first line is enough).
 * @returns The format.
 */
export function formatOfText(head: string): TranscriptFormat {
  for (const line of head.split("\n", 8)) {
    const rec = parseLine(line);
    if (!rec) continue;
    if (rec.type === "session_meta" && isRec(rec.payload)) return "codex-rollout-jsonl";
    if (typeof rec.projectHash === "string" && typeof rec.sessionId === "string") {
      return "gemini-chat-jsonl";
    }
    return isRec(rec.data) && isCopilotRecord(rec) ? "copilot-events-jsonl" : "claude-code-jsonl";
  }
  return "claude-code-jsonl";
}

/**
 * The format of a transcript file: a Codex CLI rollout by its name (`rollout-<time>-<id>.jsonl`),
 * else by its first record ({@link formatOfText}); Claude Code's when the file cannot be read
 * or is no regular file (its reader then reports the error): a FIFO, socket or device is refused at
 * once, never waited on (`openRegularFile`).
 *
 * @param path The transcript.
 * @returns The format.
 */
export async function formatOfFile(path: string): Promise<TranscriptFormat> {
  if (/(?:^|[\\/])rollout-[^\\/]*\.jsonl$/.test(path)) return "codex-rollout-jsonl";
  if (/(?:^|[\\/])chats[\\/]session-[^\\/]*\.jsonl$/.test(path)) return "gemini-chat-jsonl";
  try {
    using file = await openRegularFile(path);
    const buf = new Uint8Array(64 * 1024);
    const n = await file.read(buf);
    return formatOfText(new TextDecoder().decode(buf.subarray(0, n ?? 0)));
  } catch {
    return "claude-code-jsonl";
  }
}

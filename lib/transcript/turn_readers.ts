/**
 * The turn readers: for each transcript format that has one, how to read a transcript's current
 * turn (backward from the end to the turn's prompt, bounded whatever the session's size), wait for
 * the file to hold it, and parse it into the run model's messages and tool calls. The redirect's
 * Stop fallback reads a turn with the reader of the sending host's format; a format without one
 * gets no fallback. A registry beside the run readers (`readers.ts`), kept apart so that the
 * redirect's core bundles no run reader.
 *
 * @module
 */

import type { TranscriptFormat } from "../host/host.ts";
import type { ReadTurnOptions, TurnRead, TurnRecords } from "./model.ts";
import type { CurrencyOptions, TurnCurrency } from "./currency.ts";
import type { StopFacts } from "./readers.ts";

/** One format's current-turn reader. */
export interface TurnReader {
  /** Reads the current turn's lines, at most `maxBytes` back from the end. */
  read(path: string, options?: ReadTurnOptions): Promise<TurnRead>;
  /** Whether the turn read shows the payload's final text (the file holds the whole turn). */
  showsFinalText(turn: TurnRead, finalText: string | undefined): boolean;
  /** Waits until the file holds the turn the stop is about (the transcript-currency rule). */
  awaitTurn(path: string, stop: StopFacts, options?: CurrencyOptions): Promise<TurnCurrency>;
  /** Parses the turn's lines into the run model's messages and tool calls. */
  records(turn: TurnRead): TurnRecords;
}

/** The formats with a turn reader, each loaded when first asked for. */
export const TURN_READERS: Readonly<Partial<Record<TranscriptFormat, () => Promise<TurnReader>>>> =
  {
    "claude-code-jsonl": async () => {
      const [turn, currency, builder] = await Promise.all([
        import("./turn_read.ts"),
        import("./currency.ts"),
        import("./builder.ts"),
      ]);
      return {
        read: turn.readCurrentTurn,
        showsFinalText: (t, finalText) => currency.turnShowsFinalText(t, t.fileSize, finalText),
        awaitTurn: (path, stop, options) =>
          currency.awaitTurnInTranscript(path, stop.finalText, options),
        records: builder.turnRecords,
      };
    },
    "gemini-chat-jsonl": async () => {
      const [gemini, currency] = await Promise.all([
        import("./gemini_chat.ts"),
        import("./currency.ts"),
      ]);
      return {
        read: gemini.readGeminiTurn,
        showsFinalText: (t, finalText) => gemini.geminiTurnShowsFinalText(t, finalText),
        awaitTurn: (path, stop, options) =>
          currency.awaitTurnInTranscript(path, stop.finalText, {
            ...options,
            verdict: gemini.geminiVerdictFor(stop.finalText),
          }),
        records: gemini.geminiTurnRecords,
      };
    },
  };

/**
 * The turn reader of a format, when it has one.
 *
 * @param format The transcript format.
 * @returns Its turn reader, or `undefined`.
 */
export function turnReaderFor(format: TranscriptFormat): Promise<TurnReader> | undefined {
  return TURN_READERS[format]?.();
}

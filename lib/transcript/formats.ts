/**
 * The transcript readers by format: one small map from a host's {@link TranscriptFormat} to the
 * reader of that format, loaded when first asked for. A Stop hook asks for the reader of the
 * sending host's format and reads the run, the load and the turn's currency through it; a format
 * with no reader here is not read (its hooks are not registered: `lib/hook/table.ts`).
 *
 * Adding a format is one line in {@link TRANSCRIPT_READERS}.
 *
 * @module
 */

import type { TranscriptFormat } from "../host/host.ts";
import type { ReadRunOptions, RunRead } from "./model.ts";
import type { LoadSearch } from "./read.ts";
import type { CurrencyOptions, TurnCurrency } from "./currency.ts";

/** What a Stop hook reads of a transcript, in one format. */
export interface TranscriptReader {
  /**
   * Where the last selected load is, without reading its run.
   *
   * @param path The transcript.
   * @param options Which skill, skills directories, search floor.
   * @returns The load, or why there is none.
   */
  findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch>;
  /**
   * The run of a load (`fromOffset`), or of the last selected load.
   *
   * @param path The transcript.
   * @param options Which skill, skills directories, limits.
   * @returns The run, or why there is none.
   */
  readRun(path: string, options: ReadRunOptions): Promise<RunRead>;
  /**
   * Waits until the transcript holds the turn whose final text a Stop payload gives.
   *
   * @param path The transcript.
   * @param finalText The payload's `last_assistant_message`.
   * @param options The budget and an abort signal.
   * @returns Whether the file holds the turn.
   */
  awaitTurn(
    path: string,
    finalText: string | undefined,
    options: CurrencyOptions,
  ): Promise<TurnCurrency>;
}

/** The readers, by format, each loaded when first asked for. */
export const TRANSCRIPT_READERS: Readonly<
  Partial<Record<TranscriptFormat, () => Promise<TranscriptReader>>>
> = {
  "claude-code-jsonl": async () => {
    const [read, currency] = await Promise.all([import("./read.ts"), import("./currency.ts")]);
    return {
      findLastLoad: read.findLastLoad,
      readRun: read.readTranscriptRun,
      awaitTurn: currency.awaitTurnInTranscript,
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
      awaitTurn: (path, finalText, options) =>
        currency.awaitTurnInTranscript(path, finalText, {
          ...options,
          verdict: codex.rolloutVerdict,
        }),
    };
  },
};

/**
 * The reader of a format.
 *
 * @param format The transcript format.
 * @returns The reader, or `undefined` when skillgate reads no transcript of that format.
 */
export async function transcriptReader(
  format: TranscriptFormat,
): Promise<TranscriptReader | undefined> {
  const load = TRANSCRIPT_READERS[format];
  return load ? await load() : undefined;
}

/**
 * The format of a transcript named by path alone (the CLI's `--transcript`): a Codex CLI rollout
 * is named `rollout-<time>-<id>.jsonl`; anything else is read as Claude Code's.
 *
 * @param path The transcript path.
 * @returns Its format.
 */
export function formatOfPath(path: string): TranscriptFormat {
  return /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/.test(path)
    ? "codex-rollout-jsonl"
    : "claude-code-jsonl";
}

/**
 * The tool calls and results of a turn, in order, from the run model (any format's reader): what
 * the redirect's Stop fallback looks at.
 *
 * @module
 */

import type { TranscriptRun } from "./model.ts";

/** A tool call of the current turn, in transcript order. */
export interface TurnToolUse {
  /** Record kind. */
  kind: "tool_use";
  /** The tool-use id (`toolu_…`). */
  id: string;
  /** The tool's name. */
  name: string;
  /** The tool input as recorded. */
  input: unknown;
}

/** A tool result of the current turn, in transcript order. */
export interface TurnToolResult {
  /** Record kind. */
  kind: "tool_result";
  /** The id of the call this answers. */
  toolUseId: string;
  /** Whether the host marked it as an error. */
  isError: boolean;
  /** The result text (tool_result content, or the record's `toolUseResult` string). */
  text: string;
}

/** One event of the current turn that the Stop path looks at. */
export type TurnEvent = TurnToolUse | TurnToolResult;

/**
 * The tool calls and results of the run's current turn, in order: everything after the last user
 * message that the user (or the host, for a task notification) wrote. Stop-hook feedback and other
 * `isMeta` records do not start a turn; calls made inside subagents are left out.
 *
 * @param run A transcript run, or the records of a turn (a reader's `TurnReader.records`)
 * @returns The turn's events, for the redirect's Stop fallback.
 */
export function currentTurnEvents(run: Pick<TranscriptRun, "messages" | "toolCalls">): TurnEvent[] {
  let start = -1;
  for (const m of run.messages) {
    if (m.role === "user" && !m.isMeta && !m.sidechain && m.text.trim() !== "") {
      start = Math.max(start, m.seq);
    }
  }
  const ordered: Array<{ seq: number; ev: TurnEvent }> = [];
  for (const call of run.toolCalls) {
    if (call.sidechain || call.seq < start) continue;
    ordered.push({
      seq: call.seq,
      ev: { kind: "tool_use", id: call.id, name: call.name, input: call.input },
    });
    const r = call.result;
    if (r) {
      const structured = typeof r.structured === "string" ? `\n${r.structured}` : "";
      ordered.push({
        seq: r.seq,
        ev: {
          kind: "tool_result",
          toolUseId: call.id,
          isError: r.isError,
          text: r.text + structured,
        },
      });
    }
  }
  ordered.sort((a, b) => a.seq - b.seq);
  return ordered.map((o) => o.ev);
}

/**
 * Questions about the turn a run ends with: its final text, its STATUS line, whether it ends on
 * a question to the user, and which subagent dispatches are still running.
 *
 * @module
 */

import type { TranscriptRun } from "./model.ts";
import { AGENT_TOOLS } from "./tool_groups.ts";
import { cap } from "./record.ts";

/** A STATUS line of a message (`STATUS: DONE`, `**Status:** BLOCKED`, `- status: NEEDS_CONTEXT`). */
export interface StatusLine {
  /** The status word, upper case: `DONE`, `DONE_WITH_CONCERNS`, `BLOCKED`, `NEEDS_CONTEXT`. */
  value: string;
  /** The whole line, trimmed. */
  line: string;
}

const STATUS_RE = /^[\s>*_#|-]*status[\s*_`]*:[\s*_`]*([A-Za-z_]+)/i;
const STATUS_WORDS = new Set(["DONE_WITH_CONCERNS", "DONE", "BLOCKED", "NEEDS_CONTEXT"]);

/**
 * The last STATUS line of a text, if any.
 *
 * @param text A message text.
 * @returns The status line, or undefined.
 */
export function findStatusLine(text: string): StatusLine | undefined {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.length > 400) continue;
    const m = STATUS_RE.exec(line);
    if (!m) continue;
    const value = m[1].toUpperCase();
    if (STATUS_WORDS.has(value)) return { value, line: line.trim() };
  }
  return undefined;
}

/**
 * The turn's final text: the override (the Stop payload's `last_assistant_message`, since the file
 * can lag) when given and non-empty, else the last main-chain assistant message with text.
 *
 * @param run The run.
 * @param override The Stop payload's `last_assistant_message`.
 * @returns The final text ("" when there is none).
 */
export function finalAssistantText(run: TranscriptRun, override?: string): string {
  if (typeof override === "string" && override.trim() !== "") return cap(override);
  for (let i = run.messages.length - 1; i >= 0; i--) {
    const m = run.messages[i];
    if (m.role === "assistant" && !m.sidechain && m.text.trim() !== "") return m.text;
  }
  return "";
}

/**
 * Whether a text's last paragraph ends in a question mark (markdown emphasis, quotes and closing
 * brackets after it ignored).
 *
 * @param text A message text.
 * @returns True when it ends on a question.
 */
export function endsWithQuestion(text: string): boolean {
  const paragraphs = text.trim().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? "";
  return /\?[\s*_`"'’”)\]]*$/.test(last);
}

/**
 * Whether the turn ends on a question to the user: the final text's last paragraph ends in `?`,
 * its STATUS is `NEEDS_CONTEXT`, or the last main-chain tool call is an `AskUserQuestion` with no
 * answer yet.
 *
 * @param run The run.
 * @param finalText The final text override (`last_assistant_message`).
 * @returns True when the model is waiting on the user.
 */
export function endsOnQuestion(run: TranscriptRun, finalText?: string): boolean {
  const text = finalAssistantText(run, finalText);
  if (endsWithQuestion(text)) return true;
  if (findStatusLine(text)?.value === "NEEDS_CONTEXT") return true;
  for (let i = run.toolCalls.length - 1; i >= 0; i--) {
    const c = run.toolCalls[i];
    if (c.sidechain) continue;
    return c.name === "AskUserQuestion" && !c.result;
  }
  return false;
}

/** An Agent/Task dispatch that has not finished. */
export interface PendingAgent {
  /** The dispatch's tool-use id. */
  toolUseId: string;
  /** `input.description`. */
  description: string;
  /** `input.subagent_type`. */
  subagentType?: string;
  /** `no_result` (the call has no result yet) or `async_running` (background, no notice yet). */
  state: "no_result" | "async_running";
  /** Position in the run's event order. */
  seq: number;
}

/**
 * Main-chain Agent/Task dispatches still running: no result yet, or launched in the background
 * (`async_launched`) with no `<task-notification>` naming its tool-use id (or agent id) later.
 *
 * @param run The run.
 * @returns The running dispatches, in order.
 */
export function pendingAgentDispatches(run: TranscriptRun): PendingAgent[] {
  const out: PendingAgent[] = [];
  for (const c of run.toolCalls) {
    if (c.sidechain || !AGENT_TOOLS.includes(c.name)) continue;
    let state: PendingAgent["state"] | undefined;
    if (!c.result) state = "no_result";
    else if (c.result.asyncLaunched) {
      const r = c.result;
      const done = run.notifications.some((n) =>
        n.seq > r.seq &&
        (n.toolUseId === c.id || (r.agentId !== undefined && n.taskId === r.agentId))
      );
      if (!done) state = "async_running";
    }
    if (!state) continue;
    const p: PendingAgent = {
      toolUseId: c.id,
      description: typeof c.input.description === "string" ? c.input.description : "",
      state,
      seq: c.seq,
    };
    if (typeof c.input.subagent_type === "string") p.subagentType = c.input.subagent_type;
    out.push(p);
  }
  return out;
}

/**
 * How a shell command ended, read from each host's transcript (observed on Claude Code 2.1.328,
 * Copilot CLI 1.0.102 and Codex CLI 0.169.0): the {@link CommandStatus} and exit code of a shell
 * call's result in the run model.
 *
 * - Claude Code: a failed Bash result has `is_error: true`, content `Exit code N\n…` and
 *   `toolUseResult: "Error: Exit code N\n…"`; a passing one is not `is_error` and has
 *   `toolUseResult: {stdout, stderr, interrupted, …}`. A `<tool_use_error>`, a denial or a
 *   rejection did not run; an interrupted command, or one sent to the background
 *   (`backgroundTaskId`), has no status.
 * - Copilot CLI: `tool.execution_complete` has `success: true` whatever the exit code, and
 *   `shellExecution: {exitCode}` (also `<shellId: N completed with exit code N>` in the result);
 *   a command started in the background (`<command started in background …>`) has none.
 * - Codex CLI: an `exec_command` output starts `Chunk ID: …\nWall time: …\nProcess exited with
 *   code N`; a call a PreToolUse hook refused starts `Command blocked by PreToolUse hook`; one still
 *   running (`Process running with session ID N`) has no status.
 *
 * @module
 */

import type { CommandStatus } from "./model.ts";

/** A shell call's end: its status and, when the host wrote one, its exit code. */
export interface CommandEnd {
  /** Passed, failed, not run, or unknown. */
  status: CommandStatus;
  /** The exit code, when written. */
  exitCode?: number;
}

const NOT_RUN_RE = /doesn't want to proceed|was rejected|User rejected|denied|blocked by/i;

function fromCode(code: number): CommandEnd {
  return { status: code === 0 ? "passed" : "failed", exitCode: code };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A Claude Code Bash result's end.
 *
 * @param isError The `tool_result` block's `is_error`.
 * @param text The result's text.
 * @param structured The record's `toolUseResult`.
 * @returns The status and exit code.
 */
export function claudeCommandEnd(isError: boolean, text: string, structured: unknown): CommandEnd {
  const head = text.trimStart().slice(0, 400);
  if (head.startsWith("<tool_use_error>")) return { status: "not_run" };
  if (isError) {
    const m = /^Exit code (-?\d+)/.exec(head) ??
      (typeof structured === "string" ? /^Error: Exit code (-?\d+)/.exec(structured) : null);
    if (m) return fromCode(Number(m[1]));
    if (NOT_RUN_RE.test(head)) return { status: "not_run" };
    return { status: "failed" };
  }
  if (isObject(structured)) {
    if (structured.interrupted === true) return { status: "unknown" };
    if (typeof structured.backgroundTaskId === "string") return { status: "unknown" };
  }
  return { status: "passed" };
}

/**
 * A Copilot CLI shell result's end, from its `tool.execution_complete` data.
 *
 * @param data The record's `data`.
 * @returns The status and exit code.
 */
export function copilotCommandEnd(data: Record<string, unknown>): CommandEnd {
  const shell = data.shellExecution;
  if (isObject(shell) && typeof shell.exitCode === "number" && Number.isInteger(shell.exitCode)) {
    return fromCode(shell.exitCode);
  }
  const content = isObject(data.result) && typeof data.result.content === "string"
    ? data.result.content
    : "";
  const m = /<shellId: [^>\n]{1,40} completed with exit code (-?\d+)>\s*$/.exec(content);
  if (m) return fromCode(Number(m[1]));
  if (data.success === false) {
    const msg = isObject(data.error) && typeof data.error.message === "string"
      ? data.error.message
      : "";
    return { status: NOT_RUN_RE.test(msg.slice(0, 400)) ? "not_run" : "failed" };
  }
  return { status: "unknown" };
}

/**
 * A Codex CLI `exec_command` output's end.
 *
 * @param output The `function_call_output`'s text.
 * @returns The status and exit code.
 */
export function codexCommandEnd(output: string): CommandEnd {
  const head = output.slice(0, 600);
  if (/^Command blocked by PreToolUse hook/.test(head)) return { status: "not_run" };
  const m = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/m.exec(head);
  if (m) return fromCode(Number(m[1]));
  return { status: "unknown" };
}

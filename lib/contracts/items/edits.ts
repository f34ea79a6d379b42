/**
 * What the edit and check kinds read of a run: the calls that ran, the edits and the files they
 * wrote (on every host: Claude Code's Write, Edit, MultiEdit and NotebookEdit, Copilot CLI's
 * `create` and `edit`, Codex CLI's `apply_patch`, and shell redirects where they are plain), and
 * the test, check or repro commands with whether they passed.
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import type { ToolCall, TranscriptRun } from "../../transcript/model.ts";
import { EDIT_TOOLS, SHELL_TOOLS } from "../../transcript/tool_groups.ts";
import { isCheckCommand, statusIsCheck } from "../commands/classify.ts";
import { shellWrittenPaths } from "../commands/redirects.ts";

/**
 * Whether a tool call ran: not refused by the host, a hook or the user.
 *
 * @param call The call.
 * @returns False for a refused, denied or rejected call.
 */
export function callRan(call: ToolCall): boolean {
  const r = call.result;
  if (!r) return true;
  if (r.status === "not_run") return false;
  const t = r.text.trimStart();
  if (t.startsWith("<tool_use_error>")) return false;
  if (r.isError && /doesn't want to proceed|was rejected|denied/i.test(t.slice(0, 300))) {
    return false;
  }
  return true;
}

/**
 * Whether an edit call changed a file: it ran and did not fail (Claude Code's `<tool_use_error>File
 * has not been read yet`, a Copilot CLI edit with `success: false`).
 *
 * @param call An edit call.
 * @returns True when the edit went through.
 */
function editWent(call: ToolCall): boolean {
  return callRan(call) && call.result?.isError !== true;
}

/**
 * The edits of a run that changed a file (Edit, Write, MultiEdit, NotebookEdit, `apply_patch`, …),
 * in order.
 *
 * @param run The run.
 * @returns The calls.
 */
export function editCalls(run: TranscriptRun): ToolCall[] {
  return run.toolCalls.filter((c) => EDIT_TOOLS.includes(c.name) && editWent(c));
}

/** The file headers of an `apply_patch` patch that write a file (added, updated, moved to). */
const PATCH_FILE_RE = /^\*\*\* (?:Add File|Update File|Move to): (.+)$/gm;

/**
 * The files an edit call writes, as the call names them.
 *
 * @param call An edit call.
 * @returns Its paths (an `apply_patch` may write several).
 */
export function editedPaths(call: ToolCall): string[] {
  for (const k of ["file_path", "notebook_path", "path"]) {
    const v = call.input[k];
    if (typeof v === "string" && v !== "") return [v];
  }
  const patch = call.input.command;
  if (typeof patch !== "string" || !patch.includes("*** ")) return [];
  return [...patch.slice(0, 256 * 1024).matchAll(PATCH_FILE_RE)].map((m) => m[1].trim()).filter(
    (p) => p !== "",
  );
}

/**
 * The files a call writes: an edit's, or a shell command's plain redirects and `tee`.
 *
 * @param call Any call.
 * @returns The paths, as written.
 */
export function writtenPaths(call: ToolCall): string[] {
  if (EDIT_TOOLS.includes(call.name)) return editWent(call) ? editedPaths(call) : [];
  if (!callRan(call)) return [];
  const cmd = call.input.command;
  if (SHELL_TOOLS.includes(call.name) && typeof cmd === "string") return shellWrittenPaths(cmd);
  return [];
}

/** A check command's end, as the kinds read it. */
export type CheckEnd = "passed" | "failed" | "unknown";

/** A test, check or repro command of a run, and how it ended. */
export interface CheckCall {
  /** The call. */
  readonly call: ToolCall;
  /** `passed` or `failed` when its exit status is the check's, else `unknown`. */
  readonly end: CheckEnd;
}

/**
 * The test, check or repro commands of a run that ran, in order, each with its end: the host's
 * status when the command's exit status is the check's (`statusIsCheck`), else `unknown`.
 *
 * @param run The run.
 * @param match The item's `match` (replaces the command classifier).
 * @param command The installed skillgate command (never a check).
 * @returns The checks.
 */
export function checkCalls(run: TranscriptRun, match?: UserRegex, command?: string): CheckCall[] {
  const out: CheckCall[] = [];
  for (const c of run.toolCalls) {
    const cmd = c.input.command;
    if (!SHELL_TOOLS.includes(c.name) || typeof cmd !== "string" || !callRan(c)) continue;
    if (!isCheckCommand(cmd, match, command)) continue;
    const status = c.result?.status;
    const end: CheckEnd = (status === "passed" || status === "failed") &&
        statusIsCheck(cmd, match, command)
      ? status
      : "unknown";
    out.push({ call: c, end });
  }
  return out;
}

/**
 * The last check after a position, and a verdict on it for the block line's detail.
 *
 * @param checks The run's checks.
 * @param after The sequence number after which checks count.
 * @param editName The name of the edit the checks follow (for the detail).
 * @returns Met when the last such check passed.
 */
export function lastCheckPassed(
  checks: readonly CheckCall[],
  after: number,
  editName: string,
): { met: boolean; detail: string } {
  const later = checks.filter((c) => c.call.seq > after);
  const last = later.at(-1);
  if (!last) return { met: false, detail: `no test or check ran after the last ${editName}` };
  if (last.end === "passed") {
    return { met: true, detail: `the last check after the last ${editName} passed` };
  }
  if (last.end === "failed") {
    const code = last.call.result?.exitCode;
    return {
      met: false,
      detail: `the last check after the last ${editName} failed${
        code === undefined ? "" : ` (exit ${code})`
      }`,
    };
  }
  return {
    met: false,
    detail:
      `the last check after the last ${editName} has no pass or fail of its own (background, interrupted, or its exit status is another command's)`,
  };
}

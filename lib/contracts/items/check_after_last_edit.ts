/**
 * The `check_after_last_edit` item kind: no Edit, Write, MultiEdit or NotebookEdit happened, or a
 * shell command that runs a test or repro ran after the last one. The command classifier
 * (`../commands/classify.ts`) decides what counts; an item's `match` replaces it.
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import type { ToolCall } from "../../transcript/model.ts";
import { EDIT_TOOLS, SHELL_TOOLS } from "../../transcript/tool_groups.ts";
import { isCheckCommand } from "../commands/classify.ts";
import {
  type CheckInput,
  compilePattern,
  type ItemBase,
  type ItemKind,
  matcherOf,
  optionalString,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `check_after_last_edit`: a test or repro command ran after the last edit (or nothing was edited). */
export interface CheckAfterLastEditItem extends ItemBase {
  /** The kind. */
  kind: "check_after_last_edit";
  /**
   * A regular expression (RE2 syntax, case-sensitive) that replaces the default command
   * classifier.
   */
  match?: string;
  /** `match`, compiled by `validateContract` (present exactly when `match` is). */
  matcher?: UserRegex;
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  scope: ValidationScope,
): CheckAfterLastEditItem | Error {
  const match = optionalString(raw, "match", scope.where);
  if (match instanceof Error) return match;
  if (match !== undefined) {
    const matcher = compilePattern(match, "match", false, scope);
    if (matcher instanceof Error) return matcher;
    return { ...base, kind: "check_after_last_edit", match, matcher };
  }
  return { ...base, kind: "check_after_last_edit" };
}

/** Whether a tool call ran: not refused by the host, denied or rejected by the user. */
function resultRan(call: ToolCall): boolean {
  if (!call.result) return true;
  const t = call.result.text.trimStart();
  if (t.startsWith("<tool_use_error>")) return false;
  if (call.result.isError && /doesn't want to proceed|was rejected|denied/i.test(t.slice(0, 300))) {
    return false;
  }
  return true;
}

function check(item: CheckAfterLastEditItem, { run, command }: CheckInput): Verdict {
  const match = matcherOf(item);
  let lastEdit: ToolCall | undefined;
  for (const c of run.toolCalls) {
    if (EDIT_TOOLS.includes(c.name) && resultRan(c)) lastEdit = c;
  }
  if (!lastEdit) return { met: true, detail: "no edit in this run" };
  const edit = lastEdit;
  const ran = run.toolCalls.find((c) =>
    c.seq > edit.seq && SHELL_TOOLS.includes(c.name) && typeof c.input.command === "string" &&
    resultRan(c) && isCheckCommand(c.input.command, match, command)
  );
  if (ran) return { met: true, detail: "a test or repro ran after the last edit" };
  return { met: false, detail: `no test or repro ran after the last ${edit.name}` };
}

/** The `check_after_last_edit` kind. */
export const checkAfterLastEdit: ItemKind<CheckAfterLastEditItem> = {
  kind: "check_after_last_edit",
  keys: ["match"],
  validate,
  check,
  fix: () => "run the test or repro again after your last edit and show its result",
};

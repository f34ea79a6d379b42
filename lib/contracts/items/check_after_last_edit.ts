/**
 * The `check_after_last_edit` item kind: no Edit, Write, MultiEdit or NotebookEdit happened, or a
 * shell command that runs a test or repro ran after the last one. The command classifier
 * (`../commands/classify.ts`) decides what counts; an item's `match` replaces it.
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import { SHELL_TOOLS } from "../../transcript/tool_groups.ts";
import { callRan, editCalls } from "./edits.ts";
import { isCheckCommand } from "../commands/classify.ts";
import {
  type CheckInput,
  type ItemBase,
  type ItemKind,
  matcherOf,
  optionalMatch,
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
  const m = optionalMatch(raw, scope);
  if (m instanceof Error) return m;
  return { ...base, kind: "check_after_last_edit", ...m };
}

function check(item: CheckAfterLastEditItem, { run, command }: CheckInput): Verdict {
  const match = matcherOf(item);
  const edit = editCalls(run).at(-1);
  if (!edit) return { met: true, detail: "no edit in this run" };
  const ran = run.toolCalls.find((c) =>
    c.seq > edit.seq && SHELL_TOOLS.includes(c.name) && typeof c.input.command === "string" &&
    callRan(c) && isCheckCommand(c.input.command, match, command)
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

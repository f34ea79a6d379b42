/**
 * The `check_passed_after_last_edit` item kind: no edit happened, or a test, check or repro
 * command ran after the last one and the last such command passed. A later failing command that
 * is no check (`git push`) does not matter; an install or a build is no check (the command
 * classifier's rules, `../commands/classify.ts`); an item's `match` replaces the classifier.
 * Whether a command passed is the host's exit status (`lib/transcript/command_status.ts`), and
 * only when that status is the check's own (`npm test | tail` exits as `tail` does).
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import { sanitizeName } from "../../base/sanitize.ts";
import { checkCalls, editCalls, lastCheckPassed } from "./edits.ts";
import {
  type CheckInput,
  type ItemBase,
  type ItemKind,
  matcherOf,
  optionalMatch,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `check_passed_after_last_edit`: the last check after the last edit passed (or nothing was edited). */
export interface CheckPassedAfterLastEditItem extends ItemBase {
  /** The kind. */
  kind: "check_passed_after_last_edit";
  /** A regular expression (RE2 syntax, case-sensitive) that replaces the command classifier. */
  match?: string;
  /** `match`, compiled by `validateContract` (present exactly when `match` is). */
  matcher?: UserRegex;
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  scope: ValidationScope,
): CheckPassedAfterLastEditItem | Error {
  const m = optionalMatch(raw, scope);
  if (m instanceof Error) return m;
  return { ...base, kind: "check_passed_after_last_edit", ...m };
}

function check(item: CheckPassedAfterLastEditItem, { run, command }: CheckInput): Verdict {
  const last = editCalls(run).at(-1);
  if (!last) return { met: true, detail: "no edit in this run" };
  const checks = checkCalls(run, matcherOf(item), command);
  return lastCheckPassed(checks, last.seq, sanitizeName(last.name, 40));
}

/** The `check_passed_after_last_edit` kind. */
export const checkPassedAfterLastEdit: ItemKind<CheckPassedAfterLastEditItem> = {
  kind: "check_passed_after_last_edit",
  keys: ["match"],
  validate,
  check,
  fix: () =>
    "run the tests after your last edit until they pass, and show the passing run (its exit status must be the test's: no | tail, || true or ; after it)",
};

/**
 * Helpers the command classifier tests share (a `_test.ts` name keeps it out of the package).
 *
 * @module
 */
import assert from "node:assert/strict";
import { classifyCommand } from "./classify.ts";
import { isRegexError, loadUserRegexEngine, type UserRegex } from "../../base/user_regex.ts";

/** Asserts that a command counts as a check. */
export function counts(cmd: string): void {
  const v = classifyCommand(cmd);
  assert.equal(v.counts, true, `expected ${JSON.stringify(cmd)} to count (${v.reason})`);
}

/** Asserts that a command does not count as a check. */
export function never(cmd: string): void {
  const v = classifyCommand(cmd);
  assert.equal(v.counts, false, `expected ${JSON.stringify(cmd)} not to count (${v.reason})`);
}

/** A contract's `match` as `validateContract` compiles it (RE2, case-sensitive). */
export async function match(source: string): Promise<UserRegex> {
  const re = (await loadUserRegexEngine()).compile(source);
  if (isRegexError(re)) throw new Error(re.error);
  return re;
}

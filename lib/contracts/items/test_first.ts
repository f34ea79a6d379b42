/**
 * The `test_first` item kind (test-driven development): before the run's first edit of a file
 * that is not a test, a test file was written or edited and a test, check or repro command then
 * failed; and after the run's last edit the last such command passed. A run with no edit meets
 * it. Which files are tests is a path rule ({@link DEFAULT_TEST_PATHS}), replaced by an item's
 * `test_paths`; which commands are checks is the command classifier's, replaced by its `match`.
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import { sanitizeName } from "../../base/sanitize.ts";
import { checkCalls, editCalls, editedPaths, lastCheckPassed } from "./edits.ts";
import { globProblem, nameGlob, pathMatches } from "./glob.ts";
import {
  type CheckInput,
  type ItemBase,
  type ItemKind,
  matcherOf,
  optionalMatch,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/**
 * The default test-file rule, as globs: a file under a `test`, `tests`, `__tests__`, `spec` or
 * `specs` folder, or named `*.test.*`, `*.spec.*`, `*_test.*`, `*_spec.*`, `test_*.py`, `*Test.*`,
 * `*Tests.*` or `conftest.py`.
 */
export const DEFAULT_TEST_PATHS: readonly string[] = [
  "**/test/**",
  "**/tests/**",
  "**/__tests__/**",
  "**/spec/**",
  "**/specs/**",
  "*.test.*",
  "*.spec.*",
  "*_test.*",
  "*_spec.*",
  "test_*.py",
  "*Test.*",
  "*Tests.*",
  "conftest.py",
];

/** The most globs `test_paths` may list. */
const MAX_TEST_PATHS = 20;

/** `test_first`: a failing test before the code, a passing check after the last edit. */
export interface TestFirstItem extends ItemBase {
  /** The kind. */
  kind: "test_first";
  /** A regular expression (RE2 syntax, case-sensitive) that replaces the command classifier. */
  match?: string;
  /** `match`, compiled by `validateContract` (present exactly when `match` is). */
  matcher?: UserRegex;
  /** Globs of the test files (relative to the project, or absolute; a bare name matches anywhere). */
  test_paths?: string[];
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  scope: ValidationScope,
): TestFirstItem | Error {
  const item: TestFirstItem = { ...base, kind: "test_first" };
  const paths = raw.test_paths;
  if (paths !== undefined && paths !== null) {
    if (
      !Array.isArray(paths) || paths.length === 0 || paths.length > MAX_TEST_PATHS ||
      !paths.every((p) => typeof p === "string" && p.trim() !== "")
    ) {
      return new Error(
        `${scope.where}: test_paths must be a list of 1 to ${MAX_TEST_PATHS} non-empty globs`,
      );
    }
    for (const p of paths as string[]) {
      const problem = globProblem(p);
      if (problem) {
        return new Error(
          `${scope.where}: test_paths glob ${JSON.stringify(p.slice(0, 60))} ${problem}`,
        );
      }
    }
    item.test_paths = [...paths as string[]];
  }
  const m = optionalMatch(raw, scope);
  if (m instanceof Error) return m;
  return { ...item, ...m };
}

/**
 * Whether a path is a test file by a list of globs.
 *
 * @param path The file, as the edit named it.
 * @param globs The test-file globs ({@link DEFAULT_TEST_PATHS} by default).
 * @param projectDir The session's project directory, when known.
 * @returns True for a test file.
 */
export function isTestPath(
  path: string,
  globs: readonly string[] = DEFAULT_TEST_PATHS,
  projectDir?: string,
): boolean {
  return globs.some((g) => pathMatches(nameGlob(g), path, projectDir));
}

function check(item: TestFirstItem, { run, command }: CheckInput): Verdict {
  const edits = editCalls(run);
  if (edits.length === 0) return { met: true, detail: "no edit in this run" };
  const globs = item.test_paths ?? DEFAULT_TEST_PATHS;
  const checks = checkCalls(run, matcherOf(item), command);
  let testWritten: number | undefined;
  for (const e of edits) {
    const paths = editedPaths(e);
    const code = paths.find((p) => !isTestPath(p, globs, run.cwd));
    if (code === undefined && paths.length > 0) {
      testWritten ??= e.seq;
      continue;
    }
    // The first edit of a file that is no test: a test must have failed before it.
    if (testWritten === undefined) {
      return { met: false, detail: "code was edited before any test file was written" };
    }
    const red = checks.some((c) =>
      c.call.seq > testWritten! && c.call.seq < e.seq && c.end === "failed"
    );
    if (!red) {
      return {
        met: false,
        detail: "no check failed between writing the test and the first edit of the code",
      };
    }
    break;
  }
  const last = edits[edits.length - 1];
  return lastCheckPassed(checks, last.seq, sanitizeName(last.name, 40));
}

/** The `test_first` kind. */
export const testFirst: ItemKind<TestFirstItem> = {
  kind: "test_first",
  keys: ["match", "test_paths"],
  validate,
  check,
  fix: () =>
    "write the test first and run it to see it fail, then change the code and run the tests until they pass",
};

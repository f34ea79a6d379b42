/**
 * The words and phrases the symptom, review and lint rules of routing read in a prompt (see
 * `score.ts`): reports of a malfunction, requests to look at a change, and lint, type-check or
 * compile complaints. Prompt-side only: nothing here is compiled into a trigger.
 *
 * @module
 */

/**
 * Words that report a malfunction outright, compared as written (lower-case, no stemming, so
 * `freeze edits` is a command and `the app freezes` a report). A prompt that reports one asks for
 * it to be fixed: it counts as `bug` and `fix` (see `preparePrompt` in `score.ts`). Weak words that name
 * a failure without reporting one ("error", "fails", "broken", "test") are not here: "add error
 * handling" and "check for broken links" ask for something else.
 */
export const SYMPTOM_WORDS: ReadonlySet<string> = new Set([
  "crashes",
  "crashed",
  "crashing",
  "panics",
  "panicked",
  "panicking",
  "segfault",
  "segfaults",
  "hangs",
  "hanging",
  "hung",
  "freezes",
  "freezing",
  "froze",
  "flaky",
  "regression",
  "regressed",
  "throws",
  "threw",
  "thrown",
  "throwing",
  "oom",
  "deadlock",
  "deadlocks",
  "deadlocked",
  "leak",
  "leaks",
  "leaking",
  "anymore",
  "uncaught",
]);

/** Phrases that report a malfunction outright, like {@link SYMPTOM_WORDS} (apostrophes gone). */
export const SYMPTOM_PHRASES: readonly string[] = Object.freeze([
  "stopped working",
  "stops working",
  "not working",
  "isnt working",
  "arent working",
  "doesnt work",
  "dont work",
  "does not work",
  "do not work",
  "is not working",
  "no longer works",
  "is broken",
  "are broken",
  "fails with",
  "failed with",
  "failing with",
  "times out",
  "timed out",
  "timing out",
  "segmentation fault",
  "infinite loop",
  "out of memory",
  // investigate: "it was working yesterday", "unexpected behavior", "500 errors" (see
  // SERVER_ERROR); general: a regression or a race.
  "was working",
  "used to work",
  "worked before",
  "unexpected behavior",
  "unexpected behaviour",
  "no longer",
  "race condition",
  "nothing happens",
  "does nothing",
]);

/**
 * Phrases that ask to read something and judge it. With a change named in the prompt (the `pr`
 * key: a PR, a diff, changes) they count as `review`: "take a look at PR #231" asks for a review,
 * "take a look at the logs" does not.
 */
export const REVIEW_ACTIONS: readonly string[] = Object.freeze([
  "look at",
  "take a look",
  "look through",
  "go over",
  "go through",
  "read through",
  "read over",
  "point out",
  "leave comments",
  "comment on",
  "feedback",
  "thoughts on",
  // review: "when the user is about to merge or land code changes".
  "before i merge",
  "before we merge",
  "before merging",
  "before i land",
  "before we land",
  "before landing",
  "ready to merge",
  "ready to land",
  "good to go",
  "safe to merge",
  // General: asking for a reader's judgement.
  "have a look",
  "have a read",
  "critical look",
  "critical read",
  "what you think",
  "what do you think",
]);

/**
 * Lint, type-check and compile complaints: with one of these words (or {@link LINT_PHRASES}, or an
 * error code such as `TS2322`), and nothing reported broken ({@link isBreakage}), weak failure
 * words (`error`, `fails`) are not a bug and no symptom is inferred.
 */
export const LINT_WORDS: ReadonlySet<string> = new Set([
  "lint",
  "linter",
  "linting",
  "eslint",
  "tslint",
  "biome",
  "clippy",
  "ruff",
  "flake8",
  "pylint",
  "rubocop",
  "golangci",
  "vet",
  "mypy",
  "pyright",
  "tsc",
  "typecheck",
  "warning",
  "warnings",
  "deprecation",
  "deprecated",
  "prettier",
  "formatter",
]);

/** Phrases of a lint, type-check or compile complaint, like {@link LINT_WORDS}. */
export const LINT_PHRASES: readonly string[] = Object.freeze([
  "type check",
  "type checker",
  "type checking",
  "type error",
  "type errors",
  "typing error",
  "typing errors",
  "compile error",
  "compile errors",
  "compiler error",
  "compiler errors",
  "compiler warning",
  "compiler warnings",
  "compilation error",
  "compilation errors",
]);

/** Words and phrases that say something broke: a lint or type complaint with one is a bug report. */
const BREAKAGE_WORDS: ReadonlySet<string> = new Set([
  "broke",
  "broken",
  "breaks",
  "hang",
  "hangs",
  "hung",
  "froze",
  "anymore",
]);
const BREAKAGE_PREFIXES: readonly string[] = ["crash", "panic", "segfault", "freez", "regress"];
const BREAKAGE_PHRASES: readonly string[] = [
  "stopped working",
  "no longer",
  "doesnt work",
  "dont work",
  "not working",
  "isnt working",
];

/**
 * True when the words name a lint, type-check or compile complaint.
 *
 * @param words The text's lower-case words.
 * @param phrase The words joined by spaces, with a space at each end.
 * @returns Whether they do.
 */
export function isLintComplaint(words: readonly string[], phrase: string): boolean {
  return words.some((w) => LINT_WORDS.has(w) || /^ts\d{4}$/.test(w)) ||
    LINT_PHRASES.some((p) => phrase.includes(` ${p} `));
}

/**
 * True when the words say something broke (a crash, a hang, "stopped working", …).
 *
 * @param words The text's lower-case words.
 * @param phrase The words joined by spaces, with a space at each end.
 * @returns Whether they do.
 */
export function isBreakage(words: readonly string[], phrase: string): boolean {
  return words.some((w) =>
    BREAKAGE_WORDS.has(w) || BREAKAGE_PREFIXES.some((p) => w.startsWith(p))
  ) ||
    BREAKAGE_PHRASES.some((p) => phrase.includes(` ${p} `));
}

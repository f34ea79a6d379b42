/**
 * The words and phrases the symptom, review and lint rules of routing read in a prompt (see
 * `score.ts`): reports of a malfunction, requests to look at a change, and lint, type-check or
 * compile complaints. Prompt-side only: nothing here is compiled into a trigger.
 *
 * @module
 */

/**
 * A phrase list padded with a space at each end, once, for `includes` on a padded text (building
 * the padded string on every call costs the hook's first prompt).
 *
 * @param list Phrases of lower-case words.
 * @returns The padded phrases.
 */
export function padded(list: readonly string[]): readonly string[] {
  return list.map((p) => ` ${p} `);
}

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
/**
 * Phrases that ask for a report and rule out changes ("QA the app but don't change any code, just
 * report what's broken"): a skill whose own text sends report-only requests elsewhere (/qa: "For
 * report-only mode, use /qa-only") does not take such a request (`routePrompt`). Compared on the
 * prose's lower-case words, apostrophes dropped.
 */
export const REPORT_ONLY: readonly string[] = Object.freeze([
  "dont change any code",
  "dont change the code",
  "dont change anything",
  "dont touch the code",
  "dont touch any code",
  "dont modify",
  "without changing",
  "no code changes",
  "no changes to the code",
  "dont fix",
  "do not fix",
  "dont fix anything",
  "no fixes",
  "without fixing",
  "fix them myself",
  "fix it myself",
  "just report",
  "only report",
  "report only",
  "report back",
  "just a report",
  "only a report",
  "only give me a report",
  "write up what you find",
  "write up what you found",
  "read only",
]);

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
  "ok to merge",
  "okay to merge",
  "fine to merge",
  "ready to land",
  "good to go",
  "safe to merge",
  "safe to land",
  "good to merge",
  "about to merge",
  "about to land",
  "hit merge",
  "what did i miss",
  "audit",
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
const LINT_PADDED = padded(LINT_PHRASES);

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

/** A TypeScript error code such as `ts2322`, without a regular expression. */
function isErrorCode(w: string): boolean {
  return w.length === 6 && w.startsWith("ts") && isNumber(w.slice(2));
}

/**
 * True when the words name a lint, type-check or compile complaint.
 *
 * @param words The text's lower-case words.
 * @param phrase The words joined by spaces, with a space at each end.
 * @returns Whether they do.
 */
export function isLintComplaint(words: readonly string[], phrase: string): boolean {
  return words.some((w) => LINT_WORDS.has(w) || isErrorCode(w)) ||
    LINT_PADDED.some((p) => phrase.includes(p));
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
    BREAKAGE_PADDED.some((p) => phrase.includes(p));
}

/**
 * Words that describe unexpected behaviour in plain words, read only in a statement or a question
 * (never in an order: "empty the cache" is an order), compared as written. From investigate's
 * "unexpected behavior" and "why something stopped working", and general words for it: something
 * happens more than once, is slow, shows nothing or the wrong thing, or silently loses data.
 */
export const PLAIN_SYMPTOM_WORDS: ReadonlySet<string> = new Set([
  "twice",
  "duplicate",
  "duplicates",
  "duplicated",
  "doubled",
  "slow",
  "slower",
  "sluggish",
  "laggy",
  "wrong",
  "stale",
  "garbled",
  "sideways",
  "silently",
  "stuck",
  "stall",
  "stalls",
  "stalled",
  "forever",
  "dies",
  "died",
  "disappears",
  "disappeared",
  "vanish",
  "vanishes",
  "vanished",
  "disappear",
  "wipes",
  "wiped",
  "resets",
  "randomly",
  "intermittently",
  "intermittent",
  "sporadically",
  "suddenly",
]);
const BREAKAGE_PADDED = padded(BREAKAGE_PHRASES);

/** Phrases like {@link PLAIN_SYMPTOM_WORDS} (lower-case words, apostrophes gone). */
export const PLAIN_SYMPTOM_PHRASES: readonly string[] = Object.freeze([
  // It happens more than once, or at random.
  "two times",
  "more than once",
  "multiple times",
  "at random",
  "every time",
  "for some users",
  "for some customers",
  "for some people",
  // It differs from what it should do.
  "than expected",
  "off by",
  "something is off",
  "somethings off",
  "out of date",
  "out of sync",
  "goes missing",
  "went missing",
  "is missing",
  "are missing",
  "goes negative",
  "go negative",
  "pile up",
  "piles up",
  "logged out",
  "no idea why",
  "not sure why",
  "dont know why",
  // It happens in one place only, or not in another.
  "only when",
  "only after",
  "but not in",
  "but not on",
  "but not locally",
  "works locally",
  "fine locally",
  "passes locally",
  "works on my machine",
  "all of a sudden",
]);
const PLAIN_PADDED = padded(PLAIN_SYMPTOM_PHRASES);

/**
 * Phrases that say something differs from what it should do, read in a statement only (a question
 * with one asks what should happen: "is the email supposed to include the tax?").
 */
export const MISMATCH_PHRASES: readonly string[] = Object.freeze([
  "supposed to",
  "even though",
  "instead of",
]);
const STATEMENT_PADDED = padded(MISMATCH_PHRASES);

/** Words for nothing or a wrong state: after a {@link SHOWS} word, "comes out blank". */
const EMPTY_STATES: ReadonlySet<string> = new Set([
  "blank",
  "empty",
  "nothing",
  "null",
  "undefined",
  "nan",
  "0",
  "zero",
  "gray",
  "grey",
]);
/** Verbs that say what a thing shows or is: "shows 0", "returns empty", "goes blank". */
const SHOWS: ReadonlySet<string> = new Set([
  "is",
  "are",
  "was",
  "were",
  "out",
  "goes",
  "went",
  "turns",
  "shows",
  "show",
  "showing",
  "renders",
  "render",
  "returns",
  "return",
  "displays",
  "display",
  "see",
  "sees",
  "get",
  "gets",
  "just",
  "stays",
  "stay",
]);
/** Units of a stated time: "takes 12 seconds", "4s per query". */
const TIME_UNIT = /^(?:ms|s|secs?|seconds?|mins?|minutes?|hours?)$/;
/** A number with a time unit in one word: "12s", "80ms". */
const TIME_WORD = /^\d+(?:ms|s|secs?|mins?)$/;
/** Places a behaviour may be limited to: "on safari only", "prod only". */
const ONLY_PLACES: ReadonlySet<string> = new Set([
  "safari",
  "firefox",
  "chrome",
  "edge",
  "ios",
  "android",
  "iphone",
  "ipad",
  "prod",
  "production",
  "staging",
  "mobile",
  "windows",
  "linux",
  "ci",
]);
/** Subjects that make a clause the speaker's own state ("i am stuck", "we are supposed to"). */
const SPEAKERS: ReadonlySet<string> = new Set([
  "i",
  "im",
  "ive",
  "id",
  "we",
  "were",
  "weve",
  "you",
  "youre",
]);
/** Verbs of a speaker who reports what they see: "we get duplicate rows". */
const SEEING: ReadonlySet<string> = new Set(["get", "got", "getting", "see", "saw", "seeing"]);

function isNumber(w: string | undefined): boolean {
  if (w === undefined || w.length === 0) return false;
  const c = w.charCodeAt(0);
  return c >= 48 && c <= 57 && !Number.isNaN(Number(w));
}

/**
 * True when the words say a thing shows nothing ("comes out blank", "shows 0"), takes a stated
 * time ("takes 12 seconds to load", "4s per query"), exits with an error code, runs a CPU at full
 * load, happens a counted number of times, or only in one browser or place ("safari only"). Word
 * by word, without a large regular expression: compiling one costs the hook's first prompt.
 */
function statesSymptom(ws: readonly string[]): boolean {
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    const a = ws[i - 1] ?? "";
    if (EMPTY_STATES.has(w)) {
      if (SHOWS.has(a)) return true;
      if ((a === "a" || a === "an" || a === "up") && SHOWS.has(ws[i - 2] ?? "")) return true;
    } else if (w === "takes" || w === "taking" || w === "take") {
      for (let j = i + 1; j <= i + 3 && j < ws.length; j++) {
        if (TIME_WORD.test(ws[j]) || (isNumber(ws[j]) && TIME_UNIT.test(ws[j + 1] ?? ""))) {
          return true;
        }
      }
    } else if (w === "per" || w === "each") {
      if (TIME_WORD.test(a) || (TIME_UNIT.test(a) && isNumber(ws[i - 2]))) return true;
    } else if (w === "code" || w === "status") {
      const exits = ws.slice(Math.max(0, i - 3), i).some((x) => /^exit(?:s|ed)?$/.test(x));
      if (exits && isNumber(ws[i + 1]) && ws[i + 1] !== "0") return true;
    } else if (w === "cpu") {
      if (a === "100" || (a.length === 2 && a[0] === "9" && isNumber(a))) return true;
    } else if (w === "times") {
      if (a === "three" || a === "several" || (isNumber(a) && Number(a) >= 2)) return true;
    } else if (w === "only") {
      // "on safari only", "only in prod", "only on android phones"; not "only in the EU".
      if (ONLY_PLACES.has(a)) return true;
      const at = ws[i + 1] === "in" || ws[i + 1] === "on" || ws[i + 1] === "with";
      if (at && (ONLY_PLACES.has(ws[i + 2] ?? "") || ONLY_PLACES.has(ws[i + 3] ?? ""))) {
        return true;
      }
    } else if (w.endsWith("x") && isNumber(w.slice(0, -1))) {
      if (/^(?:more|fewer|less|slower|longer|bigger)$/.test(ws[i + 1] ?? "")) return true;
    }
  }
  return false;
}

/**
 * True when a statement or question clause (lower-case words joined by spaces, apostrophes gone)
 * describes unexpected behaviour in plain words ({@link PLAIN_SYMPTOM_WORDS},
 * {@link PLAIN_SYMPTOM_PHRASES}, a blank or empty result, a stated slowness, an exit code, a
 * behaviour in one browser or environment only). Not the speaker's own state ("i am stuck"),
 * unless the speaker reports what they see or get ("we get duplicate rows").
 *
 * A statement (not a question) may also say it happens "instead of" what should, or start where
 * the last one left off with "but not locally" ("but" separates clauses).
 *
 * @param text The clause's words joined by spaces.
 * @param statement True for a statement, false for a question.
 * @returns Whether it describes one.
 */
export function describesSymptom(text: string, statement = true): boolean {
  const ws = text.split(" ");
  if (SPEAKERS.has(ws[0]) && !SEEING.has(ws[1]) && !SEEING.has(ws[2])) return false;
  const phrase = ` ${text} `;
  // A question may ask what should happen: "is the email supposed to include the tax?"
  if (statement && STATEMENT_PADDED.some((p) => phrase.includes(p))) return true;
  if (statement && ws[0] === "not" && /^(?:locally|in|on|for)$/.test(ws[1] ?? "")) return true;
  if (ws.some((w) => PLAIN_SYMPTOM_WORDS.has(w))) return true;
  if (PLAIN_PADDED.some((p) => phrase.includes(p))) return true;
  return statesSymptom(ws);
}

/**
 * Verbs that, opening a request clause, ask to look for something: with a cause as their object
 * ({@link CAUSE_OBJECTS}) the clause asks for a root cause (investigate: "root cause analysis",
 * "troubleshooting why something stopped working").
 */
export const CAUSE_VERBS: ReadonlySet<string> = new Set([
  "find",
  "figure",
  "work",
  "track",
  "dig",
  "look",
  "sort",
  "get",
  "see",
  "check",
  "hunt",
  "pin",
  "narrow",
  "investigate",
  "debug",
  "diagnose",
  "troubleshoot",
]);

/** What a {@link CAUSE_VERBS} verb looks for when it asks for a cause ("find out why …"). */
export const CAUSE_OBJECTS: readonly string[] = Object.freeze([
  "why",
  "whats causing",
  "what is causing",
  "what causes",
  "what caused",
  "what happened",
  "whats happening",
  "what is happening",
  "whats going on",
  "what is going on",
  "whats up",
  "whats wrong",
  "what went wrong",
  "what broke",
  "the cause",
  "root cause",
  "the reason",
  "the culprit",
  "come from",
  "comes from",
  "coming from",
]);
const CAUSE_PADDED = padded(CAUSE_OBJECTS);

/**
 * True when a request clause (its words from the opening verb on) asks to find the cause of
 * something: a {@link CAUSE_VERBS} verb with a {@link CAUSE_OBJECTS} object ("can you figure out
 * why the export has duplicate rows", "track down where these 401s come from").
 *
 * @param words The clause's words from its opening verb on.
 * @returns Whether it asks for a cause.
 */
export function asksForCause(words: readonly string[]): boolean {
  return CAUSE_VERBS.has(words[0] ?? "") && namesCause(words);
}

/**
 * True when words ask for the cause of something ({@link CAUSE_OBJECTS}), whatever verb opens
 * them: "tell me why it broke", "catch where it comes from"; not "why we chose postgres".
 *
 * @param words Lower-case words.
 * @returns Whether they name a cause.
 */
export function namesCause(words: readonly string[]): boolean {
  let phrase = ` ${words.join(" ")} `;
  // "find out why we chose postgres" asks about a decision, not a malfunction.
  const why = words.indexOf("why");
  const who = words[why + 1] ?? "";
  if (why >= 0 && (SPEAKERS.has(who) || who === "they")) {
    if (!SEEING.has(words[why + 2] ?? "") && !SEEING.has(words[why + 3] ?? "")) {
      phrase = phrase.replace(" why ", " ");
    }
  }
  return CAUSE_PADDED.some((o) => phrase.includes(o));
}

/**
 * Verbs and verb phrases that open a request to try a product by hand (qa: "Systematically QA
 * test a web application", "test the app", "does this work?"; general: click through, play
 * around, poke around, run through, exercise). Each is the words from the opening verb on.
 */
export const HANDS_ON_OPENERS: readonly string[] = Object.freeze([
  "test",
  "qa",
  "smoke test",
  "click through",
  "click around",
  "click every",
  "click all",
  "play around",
  "play with",
  "poke around",
  "poke at",
  "run through",
  "go through",
  "walk through",
  "try out",
  "try to break",
  "kick the tires",
  "take it for a spin",
  "browse",
  "use the app",
  "use the site",
  "use it like",
  "quality check",
  "play through",
  "make sure",
  "exercise",
  "dogfood",
  // qa: "find bugs", "does this work?"
  "find bugs",
  "hunt for bugs",
  "look for bugs",
  "check for bugs",
  "hunt for problems",
  "look for problems",
  "check for problems",
  "check that",
  "check if",
  "check whether",
  "check it",
  "check everything",
  "see if",
]);

const HANDS_ON_PADDED = padded(HANDS_ON_OPENERS);

/**
 * The {@link HANDS_ON_OPENERS} opener a clause starts with, if any.
 *
 * @param words The clause's words from its opening verb on.
 * @returns The opener, or `undefined`.
 */
export function handsOnOpener(words: readonly string[]): string | undefined {
  const phrase = ` ${words.slice(0, 5).join(" ")} `;
  const i = HANDS_ON_PADDED.findIndex((o) => phrase.startsWith(o));
  return i < 0 ? undefined : HANDS_ON_OPENERS[i];
}

/** Things a user tries by hand (qa: "a web application"): a hands-on request on one is QA. */
export const UI_WORDS: ReadonlySet<string> = new Set([
  "site",
  "website",
  "webapp",
  "app",
  "page",
  "pages",
  "screen",
  "screens",
  "form",
  "forms",
  "flow",
  "flows",
  "layout",
  "ui",
  "staging",
  "preview",
  "beta",
  "dashboard",
  "panel",
  "browser",
  "button",
  "buttons",
  "menu",
  "menus",
  "modal",
  "wizard",
]);

/** Words that make a test request about code, not about a product used by hand. */
const CODE_TEST_WORDS: ReadonlySet<string> = new Set([
  "code",
  "diff",
  "pr",
  "changes",
  "commits",
  "branch",
  "logs",
  "unit",
  "tests",
  "suite",
  "spec",
  "specs",
  "function",
  "helper",
  "api",
  "endpoint",
  "parser",
  "cli",
]);

/**
 * True when a request clause (its words from the opening verb on) asks to try a product by hand:
 * a {@link HANDS_ON_OPENERS} opener and a {@link UI_WORDS} object in the clause or in the prose
 * before it ("the signup flow is on staging, click through it"), and no word of a code test in
 * the clause ("test the parser", "run through the unit tests").
 *
 * @param words The clause's words from its opening verb on.
 * @param uiBefore Whether the prose before the clause has a {@link UI_WORDS} word.
 * @returns Whether it asks for hands-on testing.
 */
export function asksHandsOn(words: readonly string[], uiBefore = false): boolean {
  const phrase = ` ${words.join(" ")} `;
  const opener = handsOnOpener(words);
  if (opener === undefined) return false;
  // "check that …", "see if …" ask whether it works: "check that the pages still work".
  if (
    /^(?:check (?:that|if|whether|it|everything)|see if|make sure)$/.test(opener) &&
    !/ (?:works?|working|broken|breaks) /.test(phrase)
  ) {
    return false;
  }
  return (uiBefore || words.some((w) => UI_WORDS.has(w))) &&
    !words.some((w) => CODE_TEST_WORDS.has(w));
}

/** "does this work", "does the reset flow still work", "do the new pages actually work". */
const WORKS_QUESTION =
  /^(?:does|do) (?:(?:this|it|that|everything|all)|(?:the|my|our|this) (?:\w+ ){0,3}?\w+) (?:still |actually |really |now )?work\b/;

/**
 * True when a question asks whether a product works, with a {@link UI_WORDS} word in the prompt and
 * no word of a code test in the question: qa's "Proactively suggest when the user … asks 'does
 * this work?'".
 *
 * @param question The question's words.
 * @param ui Whether the prompt's prose has a {@link UI_WORDS} word.
 * @returns Whether it asks for a hands-on check.
 */
export function asksIfWorks(question: readonly string[], ui: boolean): boolean {
  return ui && WORKS_QUESTION.test(question.join(" ")) &&
    !question.some((w) => CODE_TEST_WORDS.has(w));
}

/**
 * A pasted error: `Error:`, `exception:`, `FATAL:` or Go's `panic:`.
 */
export const PASTED_ERROR = /\b(?:error|exception|fatal|panic)\s*:/i;
/** An error class name such as `TypeError`. */
export const ERROR_CLASS = /[A-Za-z0-9](?:Error|Exception)\b/;
/**
 * POSIX error codes, as Node.js, Python and Go print them (`ECONNRESET`, `EADDRINUSE`), compared
 * as written words: a set, not a regular expression, whose compiling costs the first prompt.
 */
export const ERRNO: ReadonlySet<string> = new Set(
  (
    "EACCES EADDRINUSE EADDRNOTAVAIL ECONNABORTED ECONNREFUSED ECONNRESET EEXIST EHOSTUNREACH " +
    "EISDIR EMFILE ENETUNREACH ENOENT ENOMEM ENOSPC ENOTDIR ENOTEMPTY ENOTFOUND EPERM EPIPE " +
    "EPROTO ETIMEDOUT"
  ).split(" "),
);
/** A server error reported by its HTTP status (the investigate skill's "500 errors"). */
export const SERVER_ERROR =
  /\b(?:returns?|returning|returned|respond(?:s|ed|ing)?|with|gets?|got|getting|throws?|an?|http|status)\s+(?:an?\s+)?5\d\d\b|\b5\d\d\s*(?:errors?|status|responses?|internal|bad gateway|gateway)\b/i;

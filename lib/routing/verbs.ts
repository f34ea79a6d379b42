/**
 * The verb tables the request reader (`request.ts`) reads an order by, and the edits a request
 * states ({@link statesEdit}).
 *
 * @module
 */

/** Lead words that ask for something: "can we vendor it?" orders an unknown verb. */
export const ASKING_WORDS: ReadonlySet<string> = new Set([
  "please",
  "pls",
  "plz",
  "can",
  "could",
  "would",
  "will",
  "should",
  "lets",
  "let",
  "need",
  "want",
  "like",
]);

/** Words that may come before the opening verb of an order ("can you please add", "I need to add"). */
export const LEAD_WORDS: ReadonlySet<string> = new Set([
  ...ASKING_WORDS,
  "you",
  "u",
  "us",
  "i",
  "id",
  "we",
  "to",
  "ahead",
  "and",
  "but",
  "me",
  "now",
  "also",
  "just",
  "then",
  "so",
  "ok",
  "okay",
  "hey",
  "hi",
  "claude",
  "first",
  "quickly",
  "maybe",
  "anyway",
]);

/**
 * Verbs that open a request to build or change code in a stated way. A prompt whose main verb is
 * one of them, used as an order, is a build request: it asks for new work, so no intent is
 * inferred for it and a trigger counts only as a whole phrase that holds that verb ("write docs
 * for this module"), never a phrase used in passing ("add a section on how to debug this").
 */
export const BUILD_VERBS: ReadonlySet<string> = new Set([
  "add",
  "allow",
  "apply",
  "build",
  "bump",
  "catch",
  "change",
  "clean",
  "configure",
  "convert",
  "create",
  "delete",
  "design",
  "disable",
  "document",
  "draw",
  "enable",
  "expose",
  "extract",
  "generate",
  "handle",
  "implement",
  "install",
  "introduce",
  "log",
  "make",
  "merge",
  "migrate",
  "move",
  "parallelize",
  "port",
  "rebase",
  "refactor",
  "reformat",
  "remove",
  "rename",
  "rephrase",
  "replace",
  "report",
  "restyle",
  "retry",
  "rewrite",
  "scaffold",
  "set",
  "setup",
  "shorten",
  "show",
  "simplify",
  "skip",
  "split",
  "support",
  // A change stated in full ("swap logo-old.svg for logo.svg"): no fault to find.
  "swap",
  "translate",
  "trim",
  "turn",
  "update",
  "upgrade",
  "wire",
  "wrap",
  "write",
  // Putting scattered things in order ("consolidate the guidelines into one page").
  "consolidate",
  "combine",
  "unify",
  "reorganize",
  "reorganise",
  "restructure",
  "organize",
  "organise",
  "tidy",
  "dedupe",
  "deduplicate",
]);

/**
 * Words that are a build verb only before an object ("push the branch", "duplicate the config")
 * and otherwise a noun ("push notifications arrive twice", "duplicate rows"): read as a
 * {@link BUILD_VERBS} verb when one of {@link OBJECT_WORDS} follows.
 */
export const OBJECT_VERBS: ReadonlySet<string> = new Set([
  "push",
  "commit",
  "tag",
  "drop",
  "switch",
  "cut",
  "pick",
  "duplicate",
  "copy",
  "cache",
  // "point it at the new URL": a stated change; "point me to …" asks where.
  "point",
]);

/**
 * Verbs that ask for an answer, not for work on a malfunction or a change: with one of them as
 * the main verb no symptom or review intent is inferred ("explain this stack trace", "summarize
 * the changes in PR #7").
 */
export const EXPLAIN_VERBS: ReadonlySet<string> = new Set([
  "explain",
  "summarize",
  "summarise",
  "describe",
  "list",
  "compare",
  "outline",
  "teach",
  "clarify",
  "define",
  "count",
  "estimate",
  "draft",
  "plan",
  "brainstorm",
  "suggest",
  "recommend",
  "present",
]);

/**
 * Verbs that ask for work on something that misbehaves or for a judgement: the inferences stay on.
 * Listed so that a clause opening with one is read as a request.
 */
export const WORK_VERBS: ReadonlySet<string> = new Set([
  "fix",
  "debug",
  "investigate",
  "diagnose",
  "troubleshoot",
  "repair",
  "resolve",
  "solve",
  "review",
  "critique",
  "audit",
  "check",
  "test",
  "qa",
  "verify",
  "find",
  "track",
  "figure",
  "work",
  "pin",
  "narrow",
  "dig",
  "hunt",
  "sort",
  "try",
  "click",
  "exercise",
  "play",
  "explore",
  "poke",
  "smoke",
  "dogfood",
  "browse",
  "flag",
  "spot",
  "address",
]);

/** Verbs that say where to look, not what to do: the next request clause's verb decides. */
export const NEUTRAL_VERBS: ReadonlySet<string> = new Set([
  "look",
  "go",
  "read",
  "take",
  "have",
  "give",
  "run",
  "help",
  "see",
  "open",
  "use",
  "start",
  "walk",
  "tell",
]);

/**
 * Words that, right after an opening verb, show it is a noun stating something, not an order:
 * "build is broken on main", "install fails with EACCES", "make sure it works".
 */
export const STATE_WORDS: ReadonlySet<string> = new Set([
  "is",
  "was",
  "are",
  "were",
  "has",
  "had",
  "keeps",
  "kept",
  "started",
  "stopped",
  "doesnt",
  "didnt",
  "isnt",
  "wasnt",
  "arent",
  "wont",
  "cant",
  "never",
  "seems",
  "looks",
  "takes",
  "took",
  "still",
  "sure",
  "fails",
  "failed",
  "breaks",
  "broke",
  "crashes",
  "crashed",
  "hangs",
  "hung",
  "freezes",
  "froze",
  "panics",
  "panicked",
  "throws",
  "threw",
  "errors",
  "leaks",
  "deadlocks",
  "script",
  "scripts",
  "step",
  "job",
  "output",
  "times",
  // A team or a tool reporting something: "QA reported that …", "review found two issues".
  "reported",
  "reports",
  "says",
  "said",
  "found",
  "noticed",
  "flagged",
]);

/** Verbs of an edit whose result a request can state: "change X to Y", "bump it from 2 to 3". */
const EDIT_VERBS: ReadonlySet<string> = new Set([
  "change",
  "bump",
  "move",
  "rename",
  "replace",
  "swap",
  "set",
  "update",
  "reorder",
  "increase",
  "decrease",
  "raise",
  "lower",
  "point",
  "pin",
]);

/** Who does a thing, not what a text says: "i should read …", "what should we say". */
const PERSONS: ReadonlySet<string> = new Set([
  "i",
  "we",
  "you",
  "u",
  "they",
  "he",
  "she",
  "someone",
]);

/** Words before an edit verb that make it no order: a subject, a modal, an infinitive's "to". */
const NOT_ORDERED: ReadonlySet<string> = new Set([
  "i",
  "we",
  "you",
  "they",
  "he",
  "she",
  "it",
  "to",
  "can",
  "could",
  "would",
  "will",
  "might",
  "may",
]);

/** "offset should be (page - 1) * size, not page * size", "brand color should be #1F6FEB not …". */
const CORRECTION = /\bshould be(?:\s+\S+){1,6}?,?\s+not\s/;
/** An order to use one thing instead of another ("use X there instead of Y"). */
const USE_INSTEAD =
  /(?:^|[.!?;,]\s*|\b(?:just|please|then|and)\s+)(?:use|put)\s[^.!?\n]{1,60}\binstead(?: of\s|\b)/;
/** An order to clear or switch a named value ("clear banner_text in site.json": `code`). */
const CLEAR_CODE =
  /(?:^|[.!?;,]\s*)(?:clear|reset|unset|empty|disable|enable|comment out|uncomment)\s+(?:the\s+)?code\b/;
/**
 * "the Team plan should show $12 per user per month instead of $10", "expose postgres on 5433 on
 * the host instead of 5432": a value for a value, up to five words apart.
 */
const VALUE_INSTEAD = /(?:^|[\s$(])\d[\w.%]*(?:\s+[^\s.!?]+){0,5}\s+instead of\s+\$?\d/;
/** "i wrote rows["id"] instead of row["id"]": the user's own slip, and its right form. */
const SLIP = /\b(?:i|we)\s+(?:wrote|typed|used|passed|called|put)\s[^.!?\n]{1,60}\binstead of\b/;
/** "the download should be named export-YYYY-MM-DD.csv instead of export.csv": the right form. */
const SHOULD_INSTEAD = /\bshould (?:be|show|say|read)\s(?:[^.!?\n]|\.(?=\S)){1,60}\binstead of\b/;
/** "I know why, items isn't loaded yet": the user knows the cause, and says what to do. */
const KNOWN_CAUSE =
  /\b(?:i|we)\s+(?:already\s+)?know\s+(?:why|what(?:s| is)\s+wrong|what\s+caused\s+it|the\s+(?:cause|reason))\b/;
/** "the company name is now Acme GmbH, not Acme Inc.": the new value and the old. */
const NOW_NOT = /\bis now(?:\s+\S+){1,6}?,?\s+not\s/;

/**
 * True when the text gives a value's right form and its wrong one: "Chart.yaml version should be
 * 1.4.2 not 1.4.1", "the company name is now Acme GmbH, not Acme Inc.", "should be < len"), or
 * gives the replacement, the assignment or the named value to clear ("use formatInTimeZone there
 * instead of format", "set TZ=UTC in the test script", "clear banner_text in site.json"). The fix is stated, wherever it is said (in a report, not only in an order).
 *
 * @param text Any prose.
 * @returns Whether it states a correction.
 */
export function statesCorrection(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower.includes("is now") && NOW_NOT.test(lower)) return true;
  // "the loop goes to < len - 1. should be < len": a value written as code.
  if (/\bshould be\s+(?:[<>=!]|code\b)/.test(lower)) return true;
  // "use formatInTimeZone from date-fns-tz there instead of format": the replacement given.
  if (USE_INSTEAD.test(lower)) return true;
  // "expose the db on host port 5433 instead of 5432": a value for a value; "i wrote rows
  // instead of row": a slip and its fix.
  // Read only near each "instead of": the patterns never scan a whole long prompt.
  for (let i = lower.indexOf("instead of"); i >= 0; i = lower.indexOf("instead of", i + 10)) {
    const near = lower.slice(Math.max(0, i - 90), i + 16);
    if (VALUE_INSTEAD.test(near) || SLIP.test(near) || SHOULD_INSTEAD.test(near)) return true;
  }
  // "TypeError … I know why, items isn't loaded yet": the cause is known, the fix asked for.
  if (lower.includes("know") && KNOWN_CAUSE.test(lower.replace(/'/g, ""))) return true;
  // "set TZ=UTC in the test script": the very assignment.
  if (/\b(?:set|export)\s+[a-z_][\w.]*=\S/i.test(text)) return true;
  // "clear banner_text in site.json": a named value emptied or switched.
  if (CLEAR_CODE.test(lower)) return true;
  return text.includes("should be") && CORRECTION.test(lower);
}

/** Words before a noun, not a verb: "the weekly update", "our move to grpc". */
export const DETERMINERS: ReadonlySet<string> = new Set([
  "the",
  "a",
  "an",
  "this",
  "that",
  "these",
  "those",
  "my",
  "our",
  "your",
  "their",
  "its",
]);

/**
 * Whether the verb at `i` is ordered: not a noun after a determiner ("the weekly update to …"),
 * not after a subject, a modal or an infinitive's "to" ("a seed i can change to get a new one"),
 * unless they ask for it ("could you change …").
 */
function ordered(ws: readonly string[], i: number): boolean {
  // "the weekly update to leadership": a noun after its determiner.
  if (DETERMINERS.has(ws[i - 1]) || DETERMINERS.has(ws[i - 2])) return false;
  if (!NOT_ORDERED.has(ws[i - 1])) return true;
  return (ws[i - 1] === "you" || ws[i - 1] === "u") &&
    /^(?:can|could|would|will)$/.test(ws[i - 2] ?? "");
}

/** Verbs that take a thing out of a place: with "from" soon after, the edit is stated. */
const REMOVE_VERBS: ReadonlySet<string> = new Set(["remove", "delete", "drop"]);
/** Bits of text an edit adds whole: "add a line to CONTRIBUTING.md saying …". */
const TEXT_BITS: ReadonlySet<string> = new Set([
  "line",
  "sentence",
  "note",
  "comment",
  "entry",
  "link",
  "row",
  "field",
  "bullet",
]);
/** Verbs that put a thing in: with a literal flag or key as their object, the edit is stated. */
const ADD_VERBS: ReadonlySet<string> = new Set(["add", "append", "insert"]);
/** The verbs of the edits {@link statesEdit} reads without a "to" result. */
const OPEN_EDITS: ReadonlySet<string> = new Set([
  ...REMOVE_VERBS,
  ...ADD_VERBS,
  "upgrade",
  "downgrade",
]);
/** An add verb whose object is a flag ("--max-warnings") or a key ("secure:"). */
const LITERAL = /(?:^|\s)(?:add|append|insert)\s+(?:--?[a-z][\w-]*|[a-z_][\w.-]*:)(?:\s|$)/;

/** Words before "copy" that leave it the order's verb. */
const COPY_LEADS: ReadonlySet<string> = new Set([
  "",
  "and",
  "then",
  "please",
  "pls",
  "just",
  "now",
]);

/**
 * Edits whose result the order itself gives: a swap ("swap those two columns", "swap the first
 * and last name"), a move before or after a named thing ("put the email column before the name
 * column"), a state marked ("mark it skipped for now", "mark the v1 route as deprecated"), a test
 * skipped for a while ("skip test_checkout_timeout for now").
 */
const PLACED_EDITS: ReadonlySet<string> = new Set(["swap", "put", "move", "mark", "skip"]);
/** The states {@link PLACED_EDITS}' "mark" gives. */
const MARKS: ReadonlySet<string> = new Set([
  "skipped",
  "skip",
  "xfail",
  "deprecated",
  "flaky",
  "done",
  "optional",
  "required",
  "private",
  "internal",
  "readonly",
  "experimental",
  "resolved",
]);

/** Whether a {@link PLACED_EDITS} verb at `i` states its result (see there). */
function statesPlace(ws: readonly string[], i: number): boolean {
  const after = ws.slice(i + 1, i + 8);
  if (ws[i] === "mark") return after.some((w) => MARKS.has(w));
  // "skip test_checkout_timeout for now with a TODO": a test switched off, for a while.
  if (ws[i] === "skip") return after.some((w, j) => w === "for" && after[j + 1] === "now");
  if (ws[i] === "swap") {
    return after.includes("and") || after.includes("two") || after.includes("order");
  }
  // "put it before the save call": a thing there already ("put a table of contents after the
  // title page" adds one) and a place named by a determiner, not a time ("before you …").
  return !/^(?:a|an|some)$/.test(after[0] ?? "") &&
    after.some((w, j) =>
      (w === "before" || w === "after" || w === "above" || w === "below") &&
      DETERMINERS.has(after[j + 1])
    );
}

/** How many words after an edit verb its stated result may come. */
const EDIT_REACH = 10;

/**
 * True when a clause of the text has an {@link EDIT_VERBS} verb followed, within
 * {@link EDIT_REACH} words, by "to" and the result ("change the date format to YYYY-MM-DD", "in
 * the k8s yaml bump replicas from 2 to 3"), or says what a text should say or read ("the button
 * should say 'Download invoice'"). Not "set up", and not "to" before a verb, which says what the
 * edit is for ("update the parser to handle tabs").
 *
 * @param text Request clauses, one a line.
 * @returns Whether one states an edit's result.
 */
export function statesEdit(text: string): boolean {
  for (const line of text.split("\n")) {
    // Hyphenated words stay whole: "a pre-set theme" has no verb "set". ASCII text skips the
    // Unicode property classes, which are costly to compile in a hook.
    const t = line.toLowerCase().replace(/'/g, "");
    // deno-lint-ignore no-control-regex
    const ws = /^[\x00-\x7f]*$/.test(t) ? t.split(/[^a-z0-9-]+/) : t.split(/[^\p{L}\p{N}-]+/u);
    for (let i = 0; i < ws.length; i++) {
      // "the button should say 'Download invoice' instead": a text whose new words are given.
      // Not what a person should do: "i should read the docs first".
      if (
        (ws[i] === "say" && (ws[i - 1] === "should" || ws[i - 1] === "to") ||
          ws[i] === "read" && ws[i - 1] === "should") && !PERSONS.has(ws[i - 2])
      ) return true;
      if (OPEN_EDITS.has(ws[i]) && ordered(ws, i)) {
        // "remove the xlsx option from the dropdown", "remove the commented-out blocks in
        // server/routes.js": what goes, and from where.
        if (REMOVE_VERBS.has(ws[i])) {
          const after = ws.slice(i + 2, i + 8);
          if (after.slice(0, 5).includes("from")) return true;
          if (after.slice(0, 5).includes("in") && after.includes("file")) return true;
        }
        // "add a line to CONTRIBUTING.md saying …": a line of text, and where it goes.
        if (
          ADD_VERBS.has(ws[i]) && /^(?:a|an|one)$/.test(ws[i + 1] ?? "") &&
          TEXT_BITS.has(ws[i + 2] ?? "") && ws.slice(i + 3, i + 6).includes("to")
        ) return true;
        // "upgrade eslint-plugin-react from 7.33.1 to 7.33.2": both versions given.
        if (
          (ws[i] === "upgrade" || ws[i] === "downgrade") &&
          ws.slice(i + 2, i + 8).includes("from") &&
          ws.slice(i + 3, i + 10).includes("to")
        ) return true;
        // "add --max-warnings 0 to the lint script", "add secure: true to the cookie options": the
        // very flag or key to write.
        if (ADD_VERBS.has(ws[i]) && LITERAL.test(t)) return true;
      }
      if (PLACED_EDITS.has(ws[i]) && ordered(ws, i) && statesPlace(ws, i)) return true;
      // "copy them into public/icons": a file operation, its place given. The verb opens the order
      // (not "an isolated copy of the repo to work in").
      if (
        ws[i] === "copy" && (i === 0 || COPY_LEADS.has(ws[i - 1])) &&
        ws.slice(i + 2, i + 8).some((w) => w === "into" || w === "to")
      ) return true;
      if (!EDIT_VERBS.has(ws[i]) || (ws[i] === "set" && ws[i + 1] === "up")) continue;
      // "a seed i can change to get a new one", "we move the jobs to a queue", "our decision to
      // move to grpc": someone's plan or a thing's purpose, not an edit asked for.
      if (!ordered(ws, i)) continue;
      for (let j = i + 1; j <= i + EDIT_REACH && j < ws.length; j++) {
        if (ws[j] !== "to") continue;
        // A result quoted or pasted is cut out of the prose: "change the text to" ends the line.
        const next = ws[j + 1];
        if (next === undefined) return true;
        // "lower the log line from info to debug": a value's old and new form.
        if (ws[j - 2] === "from") return true;
        if (!BUILD_VERBS.has(next) && !WORK_VERBS.has(next) && !EXPLAIN_VERBS.has(next)) {
          return true;
        }
        break;
      }
    }
  }
  return false;
}

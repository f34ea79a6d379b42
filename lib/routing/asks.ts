/**
 * What a clause asks for beyond its opening verb, for the request reader (`request.ts`): a question
 * about what something means or how to do something, which asks for an answer as an explain verb
 * does, and an order to file a ticket, which is a build request whatever the ticket is about.
 *
 * @module
 */

/** Verbs that file a ticket when one of {@link TICKETS} follows within four words. */
const TICKET_VERBS: ReadonlySet<string> = new Set(["open", "file", "raise", "log"]);
/** What a ticket is called. */
const TICKETS: ReadonlySet<string> = new Set(["issue", "ticket", "jira", "story", "card"]);

/**
 * Whether the words from `at` on order a ticket filed: "open a github issue for …", "file a
 * ticket", "log a jira for …".
 *
 * @param ws The clause's words, lower case.
 * @param at Where its verb is.
 * @returns `true` when the verb files a ticket.
 */
export function filesTicket(ws: readonly string[], at: number): boolean {
  return TICKET_VERBS.has(ws[at]) && ws.slice(at + 1, at + 5).some((x) => TICKETS.has(x));
}

/** Words after "what is" that ask about a problem or a state, not what a thing is. */
const NOT_A_NAME: ReadonlySet<string> = new Set([
  "wrong",
  "causing",
  "happening",
  "going",
  "broken",
  "failing",
  "the",
  "this",
  "that",
  "it",
  "my",
  "our",
  "your",
  "in",
  "left",
  "missing",
  "changed",
  "different",
  "taking",
  "slow",
  "up",
  "next",
]);

/** Adverbs of a question about how things go in general. */
const GENERALLY: ReadonlySet<string> = new Set([
  "usually",
  "typically",
  "generally",
  "normally",
  "commonly",
]);
/** Words that make a question about the user's own work. */
const OWN: ReadonlySet<string> = new Set(["my", "our", "this", "it", "these", "we", "i"]);

/**
 * Whether a question asks what something means or how things differ: "what does QA stand for",
 * "what does this flag mean", "what is a pre-landing review", "what is the difference between X
 * and Y", "the meaning of …", "how does the cache work". Such a question asks for an explanation,
 * not for the work a trigger names.
 *
 * @param ws The question's words, lower case.
 * @returns `true` for a question about meaning.
 */
export function asksMeaning(ws: readonly string[]): boolean {
  const at = (w: string) => ws.indexOf(w);
  const last = ws.at(-1);
  if (ws[0] === "what" && (last === "mean" || last === "means")) return true;
  if (ws[0] === "what" && (ws[1] === "does" || ws[1] === "do") && ws.includes("mean")) return true;
  if (ws[0] === "how" && (last === "work" || last === "works" || last === "differ")) return true;
  // "what is a pre-landing review?", "whats an ADR", "what is QA in software": the name of a
  // thing, asked for; not "what is wrong with …", "what is causing …", "whats the error".
  const named = ws[0] === "what" && (ws[1] === "is" || ws[1] === "are")
    ? 2
    : ws[0] === "whats"
    ? 1
    : -1;
  // "what's leaking", "what's failing": a question about something happening, not a name.
  if (
    named > 0 && ws[named] !== undefined && !NOT_A_NAME.has(ws[named]) &&
    !ws[named].endsWith("ing")
  ) {
    return true;
  }
  // "what do people usually check in a code review?": how things go in general, not in the
  // user's own work.
  if (
    (ws[0] === "what" || ws[0] === "whats" || ws[0] === "how" || ws[0] === "which") &&
    ws.some((w) => GENERALLY.has(w)) && !ws.some((w) => OWN.has(w))
  ) {
    return true;
  }
  const stand = at("stand");
  if (stand > 0 && ws[stand + 1] === "for" && ws[0] === "what") return true;
  for (const w of ["difference", "differences", "meaning", "definition"]) {
    const i = at(w);
    if (i >= 0 && (ws[i + 1] === "between" || ws[i + 1] === "of")) return true;
  }
  // "whats the diff between X and Y": the short word, between two things (not a change's diff).
  const diff = at("diff");
  if (diff > 0 && ws[diff + 1] === "between") return true;
  return false;
}

/** What a question of fact asks a thing to hold: "does this repo have a LICENSE file?". */
const HOLDS: ReadonlySet<string> = new Set(["have", "has", "contain", "contains", "include"]);

/**
 * Whether a question asks for a fact to be looked up, not for the work of a skill: a yes/no
 * question whether something holds a file ("does this repo have a LICENSE file?", "do we have a
 * Dockerfile anywhere?", a path reads as `file`), or a question for a number ("how many lines of
 * typescript are in src/?"), or, with a question mark, how a tool behaves in general ("does cargo
 * build --release strip debug symbols by default?", "what timezone does `date` use on a runner?";
 * "do the tasks in plan.md" is an order), the name or meaning of a flag, command or setting
 * ("whats the flag to …", "what does the --no-verify flag do?"), who did or owns something ("who
 * owns the grafana dashboards"), or a state ("is the PDF in docs/assets the latest version?").
 *
 * @param ws The question's words, lower case.
 * @param question True when the clause ends with a question mark.
 * @returns `true` for a question of fact.
 */
export function asksFact(ws: readonly string[], question = false): boolean {
  if (ws[0] === "how" && (ws[1] === "many" || ws[1] === "much")) return true;
  if (ws[0] === "what" || ws[0] === "whats" || ws[0] === "which") {
    // "whats the flag to make deno test stop at the first failure": a name to look up.
    const named = ws.findIndex((w, i) => i > 0 && i <= 4 && NAMES_ASKED.has(w));
    if (named > 0 && (ws[named + 1] === "to" || ws[named + 1] === "for")) return true;
    // "what timezone does `date` use on a github actions runner?": how a tool behaves in general,
    // not the user's own work ("what tests does this need?") or advice ("what should i use?").
    const does = ws.findIndex((w, i) => i >= 2 && i <= 4 && /^(?:does|do|did)$/.test(w));
    if (question && ws[0] !== "whats" && does > 0 && !ws.some(advised)) return true;
  }
  // "where in this repo is the rate limit configured?": a place to look up; not a cause ("where
  // does this error come from", "where are they disappearing") or a search ("where else …").
  if (
    ws[0] === "where" && /^(?:is|are|was|were|do|does|did|in)$/.test(ws[1] ?? "") &&
    !ws.some((w) => w === "else" || w === "from" || w.endsWith("ing") || FAULTS.has(w))
  ) return true;
  // "what license is this repo under": a state to look up, unless it is a fault or a judgement.
  if (
    ws[0] === "what" && ws.findIndex((w, i) => i >= 2 && i <= 3 && STATE_VERBS.has(w)) > 0 &&
    !ws.some((w) => FAULTS.has(w) || NOT_LOOKED_UP.has(w) || w === "should")
  ) return true;
  // "what is the `plan` column in subscriptions, our own enum or the stripe price id?": a thing of
  // the code to look up; not a way, a difference, a cause or a judgement ("what is the best way to
  // …", "what is the root cause").
  if (
    ws[0] === "what" && (ws[1] === "is" || ws[1] === "are") &&
    /^(?:the|this|that|our)$/.test(ws[2] ?? "") &&
    !ws.some((w) => FAULTS.has(w) || NOT_LOOKED_UP.has(w) || GUIDED.has(w) || CAUSES.has(w))
  ) return true;
  // "when is the next release planned": a date to look up; not a malfunction ("when does it crash").
  if (
    ws[0] === "when" && /^(?:is|are|was|were|did|will)$/.test(ws[1] ?? "") &&
    !ws.some((w) => w.endsWith("ing") || FAULTS.has(w))
  ) return true;
  // "what's the error budget for the checkout SLO again?": a fact the user once knew.
  if (opensQuestion(ws[0]) && ws[0] !== "why" && ws[0] !== "how" && ws.at(-1) === "again") {
    return true;
  }
  // "who owns the grafana dashboards", "who was listed as incident commander?": a person to look
  // up; not "who looks burnt out", which asks for a judgement.
  if (ws[0] === "who" && WHO_FACTS.has(ws[1])) return true;
  // "what does the --no-verify flag on git commit do?": a flag's meaning is in its docs.
  if (
    ws[0] === "what" && (ws[1] === "does" || ws[1] === "do") &&
    ws.slice(3).some((w) => /^(?:do|mean|means)$/.test(w)) && ws.some((w) => NAMES_ASKED.has(w))
  ) return true;
  // "is the PDF in docs/assets the latest version of the diagram", "is the dashboard json kept in
  // this repo or somewhere else?": a state to look up; not a fault ("is the debug info broken"), a
  // search ("is the same mistake anywhere"), a hands-on test ("is the pricing page working") or a
  // judgement ("is the PR ok to merge").
  if (
    STATE_VERBS.has(ws[0]) && /^(?:the|a|an)$/.test(ws[1]) &&
    !ws.some((w) => FAULTS.has(w) || NOT_LOOKED_UP.has(w))
  ) return true;
  // "is there a SECURITY.md or anything in this repo that says …?": whether a file exists.
  if (
    question && ws[0] === "is" && ws[1] === "there" && /^(?:a|an|any)$/.test(ws[2] ?? "") &&
    ws.slice(3, 5).includes("file")
  ) return true;
  if (ws[0] !== "do" && ws[0] !== "does" && ws[0] !== "did" && ws[0] !== "will") return false;
  const holds = ws.findIndex((w, i) => i > 1 && HOLDS.has(w));
  if (holds > 0 && ws.slice(holds + 1).some((w) => w === "file" || w === "files")) return true;
  // "does our design doc template have a non-goals section?": what a thing holds, unless it is a
  // fault ("does this function have a race?").
  if (question && holds > 0 && !ws.slice(holds + 1).some((w) => FAULTS.has(w))) return true;
  // "does cargo build --release strip debug symbols by default?", "do running pods pick it up?":
  // how a tool behaves in general, not the user's own code ("does this leak timing?") and not a
  // request ("do you see …").
  // "does the signup page actually work?" asks for a hands-on test (`asksIfWorks`).
  // "do a security review of the diff in PR #88, what's the blast radius?": an order, though its
  // sentence ends with a question mark.
  if (ws[0] === "do" && ORDERED_OBJECTS.has(ws[1])) return false;
  return question && !ASKED_OF.has(ws[1]) &&
    !ws.some((w) => THEIRS.has(w) || w === "work" || w === "works");
}

/** Verbs after "who" that ask for a fact about a person: "who owns …", "who wrote …". */
const WHO_FACTS: ReadonlySet<string> = new Set([
  "owns",
  "owned",
  "wrote",
  "was",
  "were",
  "added",
  "made",
  "maintains",
  "maintained",
  "approved",
  "merged",
  "changed",
  "created",
  "committed",
  "reviewed",
  "introduced",
  "knows",
  "runs",
  "ran",
]);
/**
 * Words that make an "is the …" question a search, a hands-on test, a fault or a judgement ("is
 * the PR ok to merge"), not a state to look up.
 */
const NOT_LOOKED_UP: ReadonlySet<string> = new Set([
  "anywhere",
  "same",
  "work",
  "works",
  "working",
  "broken",
  "wrong",
  "failing",
  "slow",
  "ok",
  "okay",
  "fine",
  "good",
  "safe",
  "secure",
  "correct",
  "right",
  "ready",
  "enough",
  "valid",
]);
/** Words that make "what is the …" a question a guide answers: "what is the best way to …". */
const GUIDED: ReadonlySet<string> = new Set(
  ("way difference diff best easiest cleanest right proper idiomatic recommended standard usual " +
    "normal point purpose meaning tradeoff tradeoffs pros cons").split(" "),
);
/** Words that make "what is the …" a question for a cause: "what is the root cause". */
const CAUSES: ReadonlySet<string> = new Set(["cause", "causes", "reason", "culprit", "why"]);
/** The verbs of a state: "what license is this repo under". */
const STATE_VERBS: ReadonlySet<string> = new Set(["is", "are", "was", "were"]);
/** A word of the user's own work or of advice: "what tests does this need?", "what should i use?". */
function advised(w: string): boolean {
  return THEIRS.has(w) || ASKED_OF.has(w) || w === "it" || w === "should";
}

/** What a thing may hold that is a fault, not a fact: "does this code have a race?". */
const FAULTS: ReadonlySet<string> = new Set([
  "bug",
  "bugs",
  "race",
  "leak",
  "leaks",
  "issue",
  "issues",
  "problem",
  "problems",
  "vulnerability",
  "vulnerabilities",
  "flaw",
  "flaws",
  "hole",
  "holes",
  "error",
  "errors",
]);

/** Words after "do" that make it an order's verb: "do a review", "do the tasks in plan.md". */
const ORDERED_OBJECTS: ReadonlySet<string> = new Set(["a", "an", "the", "some", "all", "it", "me"]);
/** Who a yes/no question addresses or is about when it asks for work, not a fact. */
const ASKED_OF: ReadonlySet<string> = new Set(["you", "u", "i", "we", "someone", "anyone"]);
/** Words that make a yes/no question about the user's own code or finding. */
const THEIRS: ReadonlySet<string> = new Set(["this", "these", "that", "my", "our", "mine", "ours"]);

/** What a question offers beside a fault: "… or is that normal?", "a bug or expected?". */
const EXPECTED: ReadonlySet<string> = new Set(["normal", "expected", "intended", "intentional"]);

/**
 * Whether a question asks if a behaviour is a fault or to be expected: "is the debug info broken
 * or is that normal with optimization on?", "is this a bug or expected?". It asks for an answer,
 * not for a debugging session.
 *
 * @param ws The question's words, lower case.
 * @returns `true` when an "or" offers normal or expected behaviour within four words after it, or
 * follows it within three ("is that expected or …").
 */
export function asksExpected(ws: readonly string[]): boolean {
  return ws.some((w, i) =>
    w === "or" &&
    (ws.slice(i + 1, i + 5).some((x) => EXPECTED.has(x)) ||
      // "is that expected or is my toolchain dropping …": the choice offered first.
      ws.slice(Math.max(0, i - 3), i).some((x) => EXPECTED.has(x)))
  );
}

/** The helper verbs of a how-to question: "how do I", "how can we", "how should you". */
const HOW_HELPERS: ReadonlySet<string> = new Set([
  "do",
  "does",
  "can",
  "could",
  "should",
  "would",
  "shall",
]);
/** Words that open a question about the way to do something. */
const WAY_OPENERS: ReadonlySet<string> = new Set(["is", "any", "whats", "what"]);
/** What a question of fact asks the name of: "what's the flag to …", "which command for …". */
const NAMES_ASKED: ReadonlySet<string> = new Set([
  "command",
  "flag",
  "option",
  "setting",
  "syntax",
  "shortcut",
]);
/** Who a how-to question asks about. */
const HOW_SUBJECTS: ReadonlySet<string> = new Set(["i", "we", "you", "u", "one", "people"]);
/**
 * Verbs after which a how-to question asks for work on a malfunction ("how do I fix this crash",
 * "how can we debug the leak"): the fix and debug concepts of the scorer's table, and "get" ("how
 * do I get this test to pass", "get rid of this error").
 */
const WORK_ON_FAULT: ReadonlySet<string> = new Set([
  "fix",
  "repair",
  "resolve",
  "solve",
  "debug",
  "troubleshoot",
  "diagnose",
  "investigate",
  "get",
]);

/**
 * Whether a question asks how to do something: "how do I run one test file", "how can we make
 * pytest quieter", "how to mock fetch", "is there a way to …", "what's the best way to …". Such a
 * question asks for instructions, not for the work a trigger names; one about fixing or debugging
 * something ("how do I fix this crash") still asks for that work.
 *
 * @param ws The question's words, lower case.
 * @returns `true` for a question about how to do something.
 */
export function asksHowTo(ws: readonly string[]): boolean {
  let at = -1;
  if (ws[0] === "how") {
    if (ws[1] === "to") at = 2;
    else if (HOW_HELPERS.has(ws[1]) && HOW_SUBJECTS.has(ws[2])) at = 3;
    // "how am I supposed to set up a venv", "how are we meant to run it"
    else if (
      /^(?:am|are|is)$/.test(ws[1]) && /^(?:supposed|meant)$/.test(ws[3]) && ws[4] === "to"
    ) {
      at = 5;
    }
  } else if (WAY_OPENERS.has(ws[0])) {
    // "is there a way to", "whats the best way to", "what is the right way to", "any way to";
    // not "is there no way to …", which reports a lack.
    const way = ws.indexOf("way");
    if (way > 0 && way <= 4 && ws[way + 1] === "to" && !ws.slice(0, way).includes("no")) {
      at = way + 2;
    }
  }
  // "what do we need to sort out before we open-source it?", "what do we need to do first?": the
  // steps to take.
  if (
    at < 0 && ws[0] === "what" && (ws[1] === "do" || ws[1] === "should") &&
    HOW_SUBJECTS.has(ws[2]) &&
    (ws[3] === "need" || ws[3] === "have") && ws[4] === "to"
  ) at = 5;
  return at > 0 && ws[at] !== undefined && !WORK_ON_FAULT.has(ws[at]);
}

/**
 * The words that open a question by themselves ("whats" for "what's"). `words.ts` has the question
 * words too, but it imports `request.ts`, which imports this module: reading them here would make
 * an import cycle.
 */
const OPENING_QUESTION_WORDS: ReadonlySet<string> = new Set(
  "what whats how when where which who why".split(" "),
);

/** True for a word that opens a question by itself ({@link OPENING_QUESTION_WORDS}). */
function opensQuestion(w: string): boolean {
  return OPENING_QUESTION_WORDS.has(w);
}
/** Auxiliaries that open a yes/no question before its subject: "does the free tier …". */
const QUESTION_AUX: ReadonlySet<string> = new Set([
  "is",
  "are",
  "does",
  "did",
  "can",
  "could",
  "should",
  "will",
  "would",
]);
/** A yes/no question's subject after its auxiliary ("do a review" is an order, "do i …" not). */
const QUESTION_SUBJECTS: ReadonlySet<string> = new Set([
  "i",
  "you",
  "we",
  "they",
  "it",
  "this",
  "that",
  "there",
  "the",
  "our",
  "my",
  "a",
  "an",
]);

/**
 * Whether a clause is worded as a question: a question word ("what's the max size of …"), or an
 * auxiliary and its subject ("does the free tier include …", "do i have to …", "could you name
 * it …?"); not "do a STRIDE threat model".
 *
 * @param ws The clause's words, lower case.
 * @returns `true` for a question's wording.
 */
export function wordedAsQuestion(ws: readonly string[]): boolean {
  const [first, second = ""] = ws;
  if (opensQuestion(first)) return true;
  if (first === "do") return HOW_SUBJECTS.has(second) && second !== "one";
  return QUESTION_AUX.has(first) && QUESTION_SUBJECTS.has(second);
}

/**
 * Whether a question asks for advice or a verdict, which a skill's text may give: "what rank
 * should i use?", "how should i split the states?", "is this actually exploitable or a false
 * alarm?".
 *
 * @param ws The clause's words, lower case.
 * @returns `true` for advice or a verdict asked for.
 */
export function asksAdvice(ws: readonly string[]): boolean {
  return ws.some((w, i) =>
    (w === "should" && (HOW_SUBJECTS.has(ws[i + 1]) || ws[i - 1] === "how")) ||
    ((w === "actually" || w === "really") && STATE_VERBS.has(ws[i - 2] ?? "") &&
      (THEIRS.has(ws[i - 1]) || ws[i - 1] === "it" || ws[i - 1] === "they"))
  );
}

/** Words that open a clause before an object but are no verb: "after the deploy", "sometimes it". */
const NOT_VERBS: ReadonlySet<string> = new Set([
  "after",
  "since",
  "before",
  "until",
  "once",
  "while",
  "if",
  "when",
  "whenever",
  "on",
  "in",
  "at",
  "for",
  "with",
  "from",
  "to",
  "of",
  "by",
  "about",
  "during",
  "because",
  "sometimes",
  "half",
  "most",
  "many",
  "some",
  "few",
  "several",
  "none",
  "each",
  "any",
  "either",
  "neither",
  "one",
  "two",
  "three",
  "more",
  "less",
  "much",
  "really",
  "actually",
  "apparently",
  "probably",
  "today",
  "yesterday",
  "lately",
  "recently",
  "every",
  "all",
  "both",
  "only",
  "even",
  "also",
  "but",
  "or",
  "like",
  "that",
  "this",
  "it",
  "its",
  "the",
  "a",
  "an",
  "not",
  "is",
  "are",
  "was",
  "were",
  "and",
  "yet",
  "still",
  "hmm",
  "um",
  "oh",
  "ah",
  "yes",
  "no",
]);

/** Common irregular past forms: "found an SSRF in …" reports, it orders nothing. */
const IRREGULAR_PAST: ReadonlySet<string> = new Set(
  ("found got made saw sent left took gave wrote ran had did said told went came built broke kept " +
    "lost paid thought bought brought caught felt heard held meant met sold spent stood won")
    .split(" "),
);

/**
 * True for a word that may be a verb's bare form: no table knows it, it is no preposition,
 * adverb or pronoun ({@link NOT_VERBS}), no common irregular past form ("found an SSRF"), and it
 * does not end like a noun's plural or a participle ("users the", "after upgrading the").
 *
 * @param w A lower-case word.
 * @returns Whether it may be a bare verb.
 */
export function isBareVerb(w: string): boolean {
  if (NOT_VERBS.has(w) || w.endsWith("ed") || w.endsWith("ing") || w.endsWith("ly")) return false;
  if (IRREGULAR_PAST.has(w)) return false;
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) < 65) return false; // a digit
  return !w.endsWith("s") || w.endsWith("ss");
}

/**
 * The request inside a prompt: which part asks the assistant for work, and which parts are pasted
 * evidence. Real prompts carry logs, stack traces, URLs, paths, quoted text and side remarks ("if
 * you need more context, …"); their words must not route. The scorer (`score.ts`) reads a prompt
 * through {@link readRequest}:
 *
 * - **Evidence** is cut out of the text the triggers see (`evidence.ts`: fenced code blocks, log
 *   and stack trace lines, inline code, quoted text, asides in parentheses, URLs, paths and file
 *   names), and so are context clauses ({@link CONTEXT_OPENERS}). Evidence still counts through
 *   the symptom rules: a pasted `TypeError:` or `panicked` reports a malfunction.
 * - What is left (the **prose**) is split into clauses. A clause is a **request** when, past lead
 *   words ("can you please", "claude,", "I need you to"; {@link LEAD_WORDS}), it opens with a verb
 *   of the verb tables, or when it is a question. A prompt without a request clause (a bare report:
 *   "the app crashes on rotate") is a request as a whole.
 * - The **main verb** is the opening verb of the first request clause that is not a neutral verb
 *   ({@link NEUTRAL_VERBS}: "look at", "go through", "help me"). A build verb
 *   ({@link BUILD_VERBS}) makes a build request, an explain verb ({@link EXPLAIN_VERBS}) a request
 *   for an answer: for both, only a whole trigger phrase holding that verb counts, and the
 *   symptom and review inferences are off.
 *
 * @module
 */

import {
  ASKING_WORDS,
  BUILD_VERBS,
  DETERMINERS,
  EXPLAIN_VERBS,
  LEAD_WORDS,
  NEUTRAL_VERBS,
  OBJECT_VERBS,
  STATE_WORDS,
  statesCorrection,
  statesEdit,
  WORK_VERBS,
} from "./verbs.ts";

/** Build and explain verbs that report what a hands-on test found: "… and list every issue". */
const REPORTING_VERBS: ReadonlySet<string> = new Set(["report", "list", "log", "describe"]);
/** What a hands-on test finds: "… and write down the issues you hit" reports them. */
const FINDINGS: ReadonlySet<string> = new Set([
  "bug",
  "bugs",
  "issue",
  "issues",
  "problem",
  "problems",
  "broken",
  "breaks",
  "findings",
]);

/** Words that open an object: after an {@link OBJECT_VERBS} word they make it a verb. */
const OBJECT_WORDS: ReadonlySet<string> = new Set([
  ...DETERMINERS,
  "all",
  "every",
  "each",
  "it",
  "them",
]);

import {
  asksForCause,
  asksHandsOn,
  asksIfWorks,
  describesSymptom,
  handsOnOpener,
  namesCause,
  UI_WORDS,
} from "./symptoms.ts";
import {
  asksAdvice,
  asksExpected,
  asksFact,
  asksHowTo,
  asksMeaning,
  filesTicket,
  isBareVerb,
  wordedAsQuestion,
} from "./asks.ts";
import { cutEvidence } from "./evidence.ts";

/** What "give me …" asks for when it asks for an answer: "a list", "some ideas", "an overview". */
const GIVEN =
  /^(?:(?:a|an|some|the)\s+)?(?:list|summary|overview|examples?|ideas?|tips|questions|rundown|breakdown|checklist|template|outline|explanation|comparison)\b/;

/** Words that open a question. */
const QUESTION_OPENERS: ReadonlySet<string> = new Set([
  "why",
  "how",
  "what",
  "whats",
  "where",
  "when",
  "which",
  "who",
  "is",
  "are",
  "does",
  "do",
  "did",
  "isnt",
  "doesnt",
  "any",
]);

/** Clause openers that mark a side remark: the clause is evidence, never the request. */
export const CONTEXT_OPENERS: readonly string[] = Object.freeze([
  "if you need more context",
  "if you need context",
  "if you need more info",
  "if you need more information",
  "if you want more context",
  "if it helps",
  "for context",
  "for reference",
  "context",
  "fyi",
  "btw",
  "by the way",
  "note",
  "ps",
]);

/** A prompt read as a request and its evidence. */
export interface RequestView {
  /** The prompt without its evidence, URLs and paths replaced by a word. */
  readonly prose: string;
  /** The request clauses joined by newlines (the prose when it has none). */
  readonly request: string;
  /** The cut-out evidence, for the symptom rules. */
  readonly evidence: string;
  /** The words the prose has in place of URLs, paths and code (`website`, `file`, …), each time. */
  readonly standIns: readonly string[];
  /** The main verb, when a request clause has a non-neutral one. */
  readonly verb?: string;
  /** True when the main verb is a build or an explain verb used as an order. */
  readonly build: boolean;
  /** False when the main verb asks for something other than work on a malfunction or a change. */
  readonly infer: boolean;
  /**
   * True when the question that gives the main verb is one a guide's or a reference's text
   * answers: how to do something ("how do I find the injected process with volatility"), what
   * something means ("what does DW_AT_type mean"), whether a behaviour is to be expected ("is that
   * normal with optimization on?"). Not a question of fact ("does this repo have a LICENSE file?",
   * "how many lines …").
   */
  readonly guide: boolean;
  /** True when the request opens with a question why ("why does the README say …?"). */
  readonly why?: boolean;
  /** True when a request clause is a question and none is an order ("does the free tier …?"). */
  readonly question?: boolean;
  /**
   * True when a request clause asks for an edit and states its result ("change the date format to
   * YYYY-MM-DD", "bump replicas from 2 to 3", "move the assets to public/images"), or the prose
   * gives a value's right and wrong form ("offset should be (page - 1) * size, not page * size"):
   * the user knows the change ({@link statesEdit}, {@link statesCorrection}).
   */
  readonly statedEdit: boolean;
  /**
   * True when a statement clause reports behaviour that does not happen, keeps happening or
   * stopped happening ({@link reportsBehaviour}): "the totals don't add up", "the page keeps
   * reloading", "the sync stopped running".
   */
  readonly reports: boolean;
  /** True when a request clause asks to find the cause of something ("figure out why …"). */
  readonly cause: boolean;
  /**
   * True when the first request clause (or a later one after a neutral opening) asks to try a
   * product by hand ("click through the app"), or a "does it work?" question asks it of a UI thing
   * ({@link asksIfWorks}).
   */
  readonly handsOn: boolean;
  /** The first request clause's words from its opening verb on (at most three). */
  readonly opening: readonly string[];
  /** Every order's words from its opening verb on, space-joined ("fix the login bug"). */
  readonly orders: readonly string[];
  /**
   * What comes before the clause whose build or explain verb is the main verb, when that clause
   * is not the first: the request clauses (`asked`: "do a code review of this branch, then
   * explain …") and, when a later order asks for a cause ("… tell me why it broke"), the
   * statements (`told`: "the cron job stopped firing"). The scorer reads whether they already
   * ask for a fix or a review.
   */
  readonly lead?: { readonly asked: string; readonly told: string };
}

/**
 * A statement that something does not happen or keeps happening: a symptom described without a
 * symptom word ("the email never arrives", "the modal won't close", "memory keeps growing"). Not
 * the speaker's own state ("I don't know", "we don't have tests").
 */
const NEGATED =
  /(?:^|\s)(?!i\s|we\s|you\s)(\S+)\s+(?:doesnt|dont|didnt|wont|cant|cannot|isnt|arent|never|no longer|(?:does|do|did|will|is|are|can) not)\s+(?!(?:know|understand|want|need|care|like|think|have|has|use|mind|matter|see|get|remember|exist|support)\b)\w+/;
const KEEPS = /(?:^|\s)(?!i\s|we\s|you\s)(\S+)\s+keeps?\s+\w+ing\b/;
/** "the webhooks stopped arriving", "sync has stopped running"; not "we stopped using redux". */
const STOPPED = /(?:^|\s)(?!i\s|we\s|you\s|they\s)(\S+)\s+(?:has\s+|have\s+)?stopped\s+\w+ing\b/;

/**
 * True when a statement clause (words joined by spaces) reports a behaviour that does not happen,
 * keeps happening or stopped happening (see {@link NEGATED}, {@link KEEPS}, {@link STOPPED}).
 *
 * @param clauseWords The clause's words.
 * @returns Whether it reports one.
 */
export function reportsBehaviour(clauseWords: readonly string[]): boolean {
  const text = clauseWords.join(" ");
  return (/nt |never |not |no longer /.test(text) && NEGATED.test(text)) ||
    (/keep/.test(text) && KEEPS.test(text)) || (/stopped /.test(text) && STOPPED.test(text));
}

// deno-lint-ignore no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A hyphenated word with a prefix that negates or binds its second part ("non-regression",
 * "self-review", "un-merged"): read as one word, so its second part is no word of its own.
 * "pre-" and "post-" stay two words ("pre-merge" is a phrase, "pre merge", of the concept table);
 * "re-test" still tests, a "multi-step" task has steps, a "sub-agent" is an agent.
 */
const PREFIXED = /\b(non|anti|self|un|de)-(?=[A-Za-z])/gi;

/**
 * Joins each {@link PREFIXED} hyphenated word into one word.
 *
 * @param text Any text.
 * @returns The text with those hyphens dropped.
 */
export function joinPrefixed(text: string): string {
  return text.includes("-") ? text.replace(PREFIXED, "$1") : text;
}

/** Lower-case words; ASCII text skips the Unicode property classes, which are costly to compile. */
function words(text: string): string[] {
  const t = joinPrefixed(text.toLowerCase());
  if (ASCII.test(t)) {
    return t.replace(/([a-z])'([a-z])/g, "$1$2").split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  }
  return t.replace(/(\p{L})['\u2019](\p{L})/gu, "$1$2").split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * A clause's words for the plain-symptom rules, without hyphenated terms ("stale-while-revalidate"),
 * decimal numbers ("0.1") and comparisons ("twice as fast").
 */
function plainWords(clause: string, clauseWords: readonly string[]): string {
  // "why is 0.1 + 0.2 !== 0.3": a decimal number is no word of its own ("0" is a blank result).
  const cut = /\w-\w|\d\.\d/.test(clause);
  const ws = cut
    ? words(clause.replace(/\S*\w-\w\S*/g, " ").replace(/\d+(?:\.\d+)+/g, " "))
    : clauseWords;
  const text = ws.join(" ");
  return text.includes("twice as") ? text.replace(/\btwice as\b/g, " ") : text;
}

function hasLetter(text: string): boolean {
  return ASCII.test(text) ? /[A-Za-z]/.test(text) : /\p{L}/u.test(text);
}

/**
 * Clause separators: sentence ends, line breaks, commas, dashes, "but", "so", "and", "then", and
 * the space before a list's number ("1) add … 2) update …").
 */
const CLAUSE_SEP =
  /([.!?;:]+(?=\s|$)|\n+|,\s+|\s+[\u2013\u2014-]+\s+|\s+(?:but|so|and then|then|and)\s+|\s+(?=\d{1,2}\)\s))/i;

/**
 * Splits prose into clauses, each with the separator that follows it and whether its sentence ends
 * with a question mark ("does kubectl rollout restart cause downtime if the deployment has 3
 * replicas and a readiness probe?" asks in its first clause too).
 */
function clauses(prose: string): { text: string; sep: string; question: boolean }[] {
  const parts = prose.split(CLAUSE_SEP);
  const out: { text: string; sep: string; question: boolean }[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const text = parts[i] ?? "";
    const sep = parts[i + 1] ?? "";
    if (hasLetter(text)) out.push({ text: text.trim(), sep, question: false });
    else if (out.length) out[out.length - 1].sep += text + sep;
  }
  let question = false;
  for (let i = out.length - 1; i >= 0; i--) {
    if (/[.!?;:\n]/.test(out[i].sep)) question = out[i].sep.includes("?");
    out[i].question = question;
  }
  return out;
}

function isContext(clauseWords: readonly string[]): boolean {
  const head = clauseWords.join(" ");
  return CONTEXT_OPENERS.some((o) => head === o || head.startsWith(`${o} `)) ||
    / for (?:context|reference)$/.test(head);
}

/**
 * The opening verb of a clause (its words), or `undefined` for a statement; `?` for a question.
 * `at` is the verb's index; `unknown` is true when lead words ("can we", "please") come before a
 * word of no verb table: likely an order with a verb the tables do not know.
 */
function openingVerb(
  clause: string,
  ws: readonly string[],
): { verb?: string; at: number; unknown?: boolean } {
  let i = 0;
  // "I need you to", "I want you to", "I'd like you to", "help me", "go ahead and", "go and"
  while (i < ws.length) {
    const w = ws[i];
    if (w === "go" && (ws[i + 1] === "ahead" || ws[i + 1] === "and")) i += 2;
    // "1) add the flag 2) update the docs": a list's number.
    else if (i === 0 && /^\d{1,2}$/.test(w) && ws.length > 1 && /^\s*\d/.test(clause)) i++;
    else if (w === "help" && ws[i + 1] === "me") i += 2;
    else if (LEAD_WORDS.has(w)) i++;
    else break;
  }
  const w = ws[i];
  if (w === undefined) return { at: i };
  const next = ws[i + 1];
  // "give me a list of questions", "give me some ideas": an answer asked for.
  if (w === "give" && next === "me" && GIVEN.test(ws.slice(i + 2, i + 4).join(" "))) {
    return { verb: "list", at: i };
  }
  // "show me the output", "show us the diff": an answer asked for, like "tell me"; not "show a
  // spinner while it loads".
  if (w === "show" && (next === "me" || next === "us")) return { verb: "tell", at: i };
  // "make sure it works in the browser": a check, not a build; "quality check the checkout".
  if ((w === "make" && next === "sure") || (w === "quality" && next === "check")) {
    return { verb: "check", at: i };
  }
  if (OBJECT_VERBS.has(w) && next !== undefined && OBJECT_WORDS.has(next)) {
    return { verb: w, at: i };
  }
  // "open a github issue for …", "file a ticket", "log a jira for …": a ticket to write, which
  // is a build request whatever the ticket is about.
  if (filesTicket(ws, i)) {
    return { verb: "create", at: i };
  }
  const known = BUILD_VERBS.has(w) || EXPLAIN_VERBS.has(w) || WORK_VERBS.has(w) ||
    NEUTRAL_VERBS.has(w);
  if (known && (next === undefined || !STATE_WORDS.has(next))) return { verb: w, at: i };
  if (i === 0 && QUESTION_OPENERS.has(w)) return { verb: "?", at: i };
  // "can we cache the step?", "please vendor it": asking lead words, then a verb of no table;
  // "paginate the query", "gate it by region": a word of no table, then an object.
  const asked = ws.slice(0, i).some((l) => ASKING_WORDS.has(l)) && !OBJECT_WORDS.has(w) &&
    !/^(?:its|there|theres|he|she|they|i|we|you)$/.test(w);
  const unknown = asked || (next !== undefined && OBJECT_WORDS.has(next) && isBareVerb(w));
  if (/\?\s*$/.test(clause) && i > 0) return { verb: "?", at: i, unknown };
  return { at: i, unknown };
}

/**
 * Reads a prompt as a request and its evidence (see the module doc).
 *
 * @param prompt The prompt text.
 * @returns The prose, the request clauses, the evidence and the main verb.
 */
export function readRequest(prompt: string): RequestView {
  const { text, evidence, standIns } = cutEvidence(prompt);
  const prose: string[] = [];
  let request = "";
  let joined = true;
  let verb: string | undefined;
  let reports = false;
  let cause = false;
  let handsOn = false;
  let guide = false;
  let why = false;
  let questions = false;
  let advice = false;
  let opening: readonly string[] | undefined;
  const orders: string[] = [];
  // Orders with a verb no table knows, and conditions on an order: request clauses too.
  const unknownOrders: string[] = [];
  let described = false;
  let unknownOrder = false;
  let any = false;
  let aside = false;
  // Whether the prose so far names a thing used by hand ("the signup flow", "the app").
  let ui = false;
  // Numbered tasks ("1) add … 2) update …") and the verb of each.
  let listed = false;
  // "does this work?" before any order: the question, checked once the prose is known.
  let worksQuestion: readonly string[] | false = false;
  const taskVerbs: string[] = [];
  // A `word:` label of a pasted line ("log:", "step: build", "reason: …") and the value after it
  // on the same line: no order, whatever its words.
  let labelled = false;
  let firstLine = true;
  // The request clauses and the statements before the main verb's clause, while it is unknown.
  const asked: string[] = [];
  const told: string[] = [];
  let lead: { asked: string; told: string } | undefined;
  let opens = true;
  for (const { text: c, sep, question } of clauses(text)) {
    const ws = words(c);
    const opened = opens;
    opens = /[.!?;:\n]/.test(sep);
    const label = ws.length <= 2 && sep.startsWith(":") && (sep.includes("\n") || !firstLine);
    const value = labelled && !firstLine;
    labelled = label && !sep.includes("\n");
    if (sep.includes("\n")) firstLine = false;
    if (label || value) {
      prose.push(c + sep);
      reports ||= reportsBehaviour(ws);
      joined = false;
      continue;
    }
    const uiBefore = ui;
    ui ||= ws.some((w) => UI_WORDS.has(w));
    // A side remark ("if you need more context, look at …") runs to the end of its sentence.
    if (aside || isContext(ws)) {
      evidence.push(c);
      joined = false;
      aside = !/[.!?;\n]/.test(sep);
      continue;
    }
    prose.push(c + sep);
    // A sentence worded as a question ("… and what test covers each step" is no question).
    questions ||= opened && wordedAsQuestion(ws);
    advice ||= asksAdvice(ws);
    const { verb: v, at, unknown } = openingVerb(c, ws);
    unknownOrder ||= unknown === true;
    if (v === undefined) {
      // "can you do a code review of this branch": an order with a verb no table knows.
      if (verb === undefined) (unknown ? asked : told).push(c);
      // "hand each task to a fresh subagent", "before you tell me it's done": an order with a verb
      // no table knows, and the condition an order is given on, are asked for too.
      if (unknown || (/^(?:before|until)$/.test(ws[0]) && /^(?:you|u|we)$/.test(ws[1] ?? ""))) {
        unknownOrders.push(c + sep);
      }
      reports ||= reportsBehaviour(ws);
      if (!unknown) described ||= describesSymptom(plainWords(c, ws));
      joined = false;
      continue;
    }
    if (v === "?") {
      if (!unknown) described ||= describesSymptom(plainWords(c, ws), false);
      // "what does QA stand for?", "what's the difference between X and Y", "how do I run one
      // test file?": a question about what something means or how to do something asks for an
      // answer, as an explain verb does; so do "does this repo have a LICENSE file?" and "is it
      // broken or is that normal?".
      // "is the debug info broken or is that normal …": offered a choice, not asked a fact.
      // "what does --no-ff do on git merge": a flag named by itself.
      const named = /(?:^|\s)--?[a-z][\w-]*/i.test(c) ? [...ws, "flag"] : ws;
      const fact = asksFact(named, question) && !asksExpected(ws);
      const answer = fact || asksMeaning(ws) || asksHowTo(ws) || asksExpected(ws);
      if (verb === undefined && answer) {
        verb = "define";
        guide = !fact;
      }
      worksQuestion ||= opening === undefined && ws;
      why ||= verb === undefined && ws[0] === "why";
    } else {
      const from = ws.slice(at);
      orders.push(from.join(" "));
      if (at > 0 && /^\d{1,2}$/.test(ws[0])) listed = true;
      if (!NEUTRAL_VERBS.has(v)) taskVerbs.push(v);
      cause ||= asksForCause(from);
      if (opening === undefined) {
        opening = from.slice(0, 3);
        handsOn = asksHandsOn(from, uiBefore);
        // "run through the app … and report problems": the hands-on verb is the main verb.
        if (handsOn && verb === undefined) verb = v;
      } else if (
        !handsOn && verb === undefined && NEUTRAL_VERBS.has(opening[0]) &&
        asksHandsOn(from, uiBefore)
      ) {
        // "take the browser and try to break the invite modal": the first order only says where.
        handsOn = true;
        verb = v;
      } else if (
        handsOnOpener(opening) !== undefined && !REPORTING_VERBS.has(v) &&
        (BUILD_VERBS.has(v) || EXPLAIN_VERBS.has(v)) && !ws.some((w) => FINDINGS.has(w))
      ) {
        // "click through the prototype and write user stories": the later order is the work.
        handsOn = false;
        if (verb === opening[0]) verb = v;
      }
    }
    // Adjacent request clauses keep their separator, so a trigger such as "test and fix" can
    // match across it; request clauses apart are kept apart.
    request += (joined ? "" : "\n") + c + sep;
    joined = true;
    any = true;
    if (verb === undefined && v !== "?" && !NEUTRAL_VERBS.has(v)) {
      verb = v;
      if (asked.length || told.length) lead = { asked: asked.join(" "), told: told.join(" ") };
    }
    if (verb === undefined) asked.push(c);
  }
  // qa: "Proactively suggest when the user … asks 'does this work?'" about a product.
  if (worksQuestion && opening === undefined && asksIfWorks(worksQuestion, ui)) handsOn = true;
  // An explain verb asks for an answer, not for the work a trigger names: like a build verb, only
  // a whole phrase holding it counts ("summarize the review comments on my PR" is no review).
  const builds = (v: string) => BUILD_VERBS.has(v) || OBJECT_VERBS.has(v) || EXPLAIN_VERBS.has(v);
  // A numbered list of tasks is a build request only when every task is one: "1) bump the version
  // 2) figure out why the arm64 build segfaults" asks for a debugging session too.
  const build = verb !== undefined && builds(verb) && (!listed || taskVerbs.every(builds));
  if (any && unknownOrders.length) request += `\n${unknownOrders.join("\n")}`;
  const proseText = prose.join("");
  return {
    prose: proseText,
    request: any ? request : proseText,
    evidence: evidence.join("\n"),
    standIns,
    ...(verb !== undefined ? { verb } : {}),
    build,
    infer: !build,
    guide,
    why,
    question: questions && !advice && orders.length === 0,
    statedEdit: statesEdit(any ? request : proseText) || statesCorrection(proseText),
    // A plain description counts unless an order with an unknown verb may ask for other work
    // ("the build is slow, can we cache the install step?").
    reports: reports || (described && !unknownOrder),
    cause,
    handsOn,
    opening: opening ?? [],
    orders,
    ...(build && lead !== undefined
      ? { lead: orders.some((o) => namesCause(o.split(" "))) ? lead : { ...lead, told: "" } }
      : {}),
  };
}

/**
 * The deterministic routing scorer: a prompt against one skill's `triggers:`. No model call, no
 * network, no clock: the same prompt and triggers always give the same score.
 *
 * - Text is split into words: letters are lower-cased, apostrophes inside a word are dropped
 *   (`don't` → `dont`), anything that is not a letter or digit separates words. A prompt's
 *   camelCase words also count by their parts (`TypeError` has `type` and `error`).
 * - Common words ({@link STOP_WORDS}) are dropped; what is left are a trigger's content words.
 *   Question words (`why`, `what`, ...) are content words.
 * - Light stemming ({@link stem}) makes `failing`, `fails` and `failed` one word.
 * - One concept table ({@link CONCEPTS}, {@link PHRASES}) makes words that mean the same thing in a
 *   request to a coding agent count as one: `fails` matches `bug`. Every entry is a general
 *   synonym or comes from a routable skill's own text; the table is hashed into
 *   {@link compilerFingerprint}, so the routing index recompiles its triggers when it changes.
 * - A prompt is read through `request.ts` first: pasted evidence is cut out, and the request
 *   clauses and the main verb are found. Triggers are scored on the prose; a share counts only
 *   when a matched word is in the request; a build request (main verb in `BUILD_VERBS`) counts
 *   only a whole phrase holding that verb.
 * - Two inferences read an intent the prompt does not spell out, when the main verb allows it
 *   (not a build or explain verb). A prompt that reports a malfunction ({@link SYMPTOM_WORDS},
 *   {@link SYMPTOM_PHRASES}, a pasted error such as `TypeError:`, a 5xx error, a statement that
 *   something never happens or keeps happening) asks for it to be fixed: it has the keys `bug`
 *   and `fix`. A request to look at a change ({@link REVIEW_ACTIONS} with a PR, diff, commits or
 *   changes) asks for a review.
 * - Lint, type-check and compile complaints are no bug report unless something broke.
 * - All of this is checked with `skillgate route eval` on the sets in `fixtures/routing/`.
 * - A trigger with one content word counts only on its whole phrase, unless that word has five
 *   or more letters and is not a question word. Foreign keyword lists ({@link ScoreOptions}) are
 *   stricter, and never match a key only a stand-in for a URL, path or code gave.
 * - A whole phrase may be broken by one extra word ({@link holdsPhrase}); a share of three or more
 *   words that leaves out the word naming the trigger's thing is held: shown, never routed.
 * - A later build or explain verb does not cancel a fix or review asked for before it.
 * - With {@link ScoreOptions.asked} (built-in pack skills), a share must touch a word the prompt
 *   asks for ({@link PreparedPrompt.asked}), not only the `bug` and `fix` a report infers.
 *
 * @module
 */

import { readRequest, reportsBehaviour, type RequestView } from "./request.ts";
import {
  BUILD_VERBS,
  EXPLAIN_VERBS,
  LEAD_WORDS,
  NEUTRAL_VERBS,
  STATE_WORDS,
  WORK_VERBS,
} from "./verbs.ts";
import { CONCEPTS, PHRASES, SCRIPT_TERMS } from "./concepts.ts";
import {
  camelParts,
  QUESTION_WORDS,
  rawWords,
  SCRIPTS,
  stem,
  STOP_WORDS,
  tokenize,
  wordKey,
} from "./words.ts";
import {
  ERRNO,
  ERROR_CLASS,
  isBreakage,
  isLintComplaint,
  LINT_PHRASES,
  LINT_WORDS,
  padded,
  PASTED_ERROR,
  REPORT_ONLY,
  REVIEW_ACTIONS,
  SERVER_ERROR,
  SYMPTOM_PHRASES,
  SYMPTOM_WORDS,
} from "./symptoms.ts";

export { camelParts, QUESTION_WORDS, stem, STOP_WORDS, tokenize, wordKey };

export {
  BUILD_VERBS,
  CONCEPTS,
  LEAD_WORDS,
  LINT_PHRASES,
  LINT_WORDS,
  PHRASES,
  REVIEW_ACTIONS,
  STATE_WORDS,
  SYMPTOM_PHRASES,
  SYMPTOM_WORDS,
};

const PHRASE_LIST: readonly [string[], readonly string[]][] = Object.entries(PHRASES)
  .map(([phrase, keys]) => [phrase.split(" "), keys]);

/** Phrases by their first word, each padded with spaces, so a prompt is checked only for those. */
const PHRASES_BY_FIRST: ReadonlyMap<string, readonly [string, readonly string[]][]> = (() => {
  const map = new Map<string, [string, readonly string[]][]>();
  for (const [ws, keys] of PHRASE_LIST) {
    map.set(ws[0], [...(map.get(ws[0]) ?? []), [` ${ws.join(" ")} `, keys]]);
  }
  return map;
})();

/** One-key phrases by their first word, for triggers. */
const ONE_KEY_PHRASES: ReadonlyMap<string, readonly [string[], string][]> = (() => {
  const map = new Map<string, [string[], string][]>();
  for (const [ws, keys] of PHRASE_LIST) {
    if (keys.length !== 1) continue;
    map.set(ws[0], [...(map.get(ws[0]) ?? []), [ws, keys[0]]]);
  }
  return map;
})();

/** Words with each one-key phrase replaced by a `=key` marker that {@link keyOf} reads back. */
function joinPhrases(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const hit = ONE_KEY_PHRASES.get(words[i])?.find(([ws]) =>
      ws.every((w, j) => words[i + j] === w)
    );
    if (hit) {
      out.push(`=${hit[1]}`);
      i += hit[0].length - 1;
    } else out.push(words[i]);
  }
  return out;
}

function keyOf(word: string): string {
  return word.startsWith("=") ? word.slice(1) : wordKey(word);
}

/**
 * True when padded text holds a padded phrase: as written, or (for a phrase of at least `loose`
 * words) broken by at most two extra words of which at most one is not a {@link STOP_WORDS} word,
 * within one line: "in a real browser" holds "in a browser", "ship all of it" holds "ship it",
 * "merge the pr and deploy" holds "merge and deploy".
 *
 * @param text Words joined by spaces (lines by newlines), a space at each end.
 * @param phrase Words joined by spaces, a space at each end.
 * @param loose The fewest words a phrase needs to be matched with extra words.
 * @param start True when the phrase must open the text.
 * @returns Whether it holds it.
 */
export function holdsPhrase(text: string, phrase: string, loose = 2, start = false): boolean {
  if (start ? text.startsWith(phrase) : text.includes(phrase)) return true;
  const want = phrase.trim().split(" ");
  if (want.length < loose || !text.includes(` ${want[want.length - 1]} `)) return false;
  for (const line of text.split("\n")) {
    const ws = line.trim().split(/\s+/);
    for (let i = 0; i < (start ? 1 : ws.length); i++) {
      if (ws[i] !== want[0]) continue;
      let at = i, extra = 0, content = 0, j = 1;
      for (; j < want.length; j++) {
        let k = at + 1;
        while (k < ws.length && ws[k] !== want[j] && extra < 2) {
          extra++;
          if (!STOP_WORDS.has(ws[k])) content++;
          k++;
        }
        if (ws[k] !== want[j] || content > 1) break;
        at = k;
      }
      if (j === want.length) return true;
    }
  }
  return false;
}

/** A prompt prepared once for scoring against many triggers. */
export interface PreparedPrompt {
  /** The prose's words (evidence cut out), space-joined with a space at each end. */
  readonly phrase: string;
  /** The keys ({@link wordKey}) of the prose's words, plus the inferred keys. */
  readonly keys: ReadonlySet<string>;
  /** The request clauses' words, space-joined with a space at each end. */
  readonly request: string;
  /** The keys of the request clauses' words, plus the inferred keys. */
  readonly requestKeys: ReadonlySet<string>;
  /** {@link requestKeys}, and those of orders with a verb no table knows before the main verb. */
  readonly orderKeys: ReadonlySet<string>;
  /** Keys the symptom and review inferences added. */
  readonly inferred: ReadonlySet<string>;
  /**
   * Keys only the words put in for URLs, paths and code gave (`website` → `site`, `file`): a
   * foreign keyword list never matches them.
   */
  readonly standIn: ReadonlySet<string>;
  /** The keys of the prose's own words, before the inferences. */
  readonly said: ReadonlySet<string>;
  /** {@link said} less a phrase's keys ("before i merge" → `pre`) and camelCase parts. */
  readonly words: ReadonlySet<string>;
  /**
   * The keys the prompt asks for: the request clauses' own words, and what an order infers (a
   * request for a cause: `debug`; a hands-on test: `qa`, `test`, `site`; a look at a change:
   * `review`). Not the `bug` and `fix` a reported symptom infers: a report asks for nothing in
   * words ({@link ScoreOptions.asked}).
   */
  readonly asked: ReadonlySet<string>;
  /** True when the main verb is a build or explain verb: only whole phrases holding it count. */
  readonly build: boolean;
  /** The main verb of the request, when it has one. */
  readonly verb?: string;
  /** True when the request opens with a question why (`RequestView.why`). */
  readonly why: boolean;
  /** True when it asks a question and gives no order (`RequestView.question`). */
  readonly question: boolean;
  /**
   * True when a question why infers a malfunction only from behaviour described in plain words
   * ("why does my useEffect run twice in dev?"), not from a pasted error or a symptom word.
   */
  readonly plainWhy: boolean;
  /** True when its main question is one a guide answers (`RequestView.guide`). */
  readonly guide: boolean;
  /** True when a request clause states an edit's result (`RequestView.statedEdit`). */
  readonly statedEdit: boolean;
  /** True when it complains about lint, types or compiling and says nothing broke. */
  readonly lint: boolean;
  /** True when it asks for a report and rules out changes ({@link REPORT_ONLY}). */
  readonly reportOnly: boolean;
  /**
   * The keys of the request's opening verb: its own key (not for a neutral verb such as "go")
   * and those of a phrase it opens ("click through" → `qa`, `test`). At the same score, a trigger
   * that holds one wins ({@link compareScores}).
   */
  readonly verbKeys: ReadonlySet<string>;
  /**
   * Every order from its opening verb on, lower-cased words with a space at each end: a whole
   * trigger phrase that opens one is asked for, whatever the main verb ("explain the parser, then
   * fix this bug").
   */
  readonly orders: readonly string[];
}

function addWordKeys(
  raw: readonly string[],
  keys: Set<string>,
  lint: boolean,
  own?: Set<string>,
): string[] {
  const words = raw.map((w) => w.toLowerCase());
  const add = (k: string, to?: Set<string>): void => {
    if (lint && k === "bug") return;
    keys.add(k);
    to?.add(k);
  };
  words.forEach((w) => add(wordKey(w), own));
  for (const w of raw) for (const part of camelParts(w)) add(wordKey(part));
  const phrase = ` ${words.join(" ")} `;
  for (const w of new Set(words)) {
    for (const [padded, phraseKeys] of PHRASES_BY_FIRST.get(w) ?? []) {
      if (holdsPhrase(phrase, padded, 3)) { for (const k of phraseKeys) keys.add(k); }
    }
  }
  return words;
}

/**
 * Prepares a prompt for {@link scoreTrigger}: reads its request and evidence (`request.ts`),
 * keys the prose and the request clauses, and adds what the inferences read.
 *
 * @param prompt The prompt text.
 * @returns Its words and keys.
 */
export function preparePrompt(prompt: string): PreparedPrompt {
  const view = keepAsked(readRequest(prompt));
  const all = `${view.prose}\n${view.evidence}`;
  const allRaw = rawWords(all);
  const allWords = allRaw.map((w) => w.toLowerCase());
  const allPhrase = ` ${allWords.join(" ")} `;
  const lint = isLintComplaint(allWords, allPhrase) && !isBreakage(allWords, allPhrase);
  const keys = new Set<string>();
  const words = new Set<string>();
  const prosePhrase = ` ${addWordKeys(rawWords(view.prose), keys, lint, words).join(" ")} `;
  let requestKeys: Set<string>;
  let request: string;
  if (view.request === view.prose) {
    requestKeys = new Set(keys);
    request = prosePhrase;
  } else {
    requestKeys = new Set<string>();
    request = ` ${addWordKeys(rawWords(view.request), requestKeys, lint).join(" ")} `;
  }
  if (SCRIPTS.test(view.prose)) {
    scriptKeys(view.prose, keys, words);
    scriptKeys(view.request, requestKeys);
  }
  const said = new Set(keys);
  const asked = new Set(requestKeys);
  const standIn = standInKeys(view.standIns, prosePhrase);
  const inferred = new Set<string>();
  let plainWhy = false;
  if (view.infer) {
    // A pasted error or a symptom word: read unless a report already says it, save for a question
    // why, which needs to know which of the two it has (`plainWhy`).
    const strong = !lint && (!view.reports || view.why === true) &&
      reportsSymptom(all, allRaw, allWords);
    if (!lint && (view.reports || strong)) {
      inferred.add("bug");
      inferred.add("fix");
      plainWhy = view.why === true && !strong;
    }
    // investigate: "root cause analysis", "troubleshooting why something stopped working".
    if (view.cause) inferred.add("debug");
    // qa: "Systematically QA test a web application", "test the app".
    if (view.handsOn) { for (const k of ["qa", "test", "site"]) inferred.add(k); }
    if (keys.has("pr") && REVIEW_PADDED.some((a) => request.includes(a))) {
      inferred.add("review");
    }
    for (const k of inferred) if (k !== "bug" && k !== "fix") asked.add(k);
  }
  for (const k of inferred) {
    keys.add(k);
    requestKeys.add(k);
  }
  const verbKeys = new Set<string>();
  if (view.handsOn) { for (const k of ["qa", "test"]) verbKeys.add(k); }
  const [first, ...rest] = view.opening;
  if (first !== undefined) {
    if (!NEUTRAL_VERBS.has(first)) verbKeys.add(wordKey(first));
    for (const hit of ONE_KEY_PHRASES.get(first) ?? []) {
      if (hit[0].every((w, j) => j === 0 || rest[j - 1] === w)) verbKeys.add(hit[1]);
    }
    for (const [ws, phraseKeys] of PHRASE_LIST) {
      if (
        phraseKeys.length > 1 && ws[0] === first && ws.every((w, j) => j === 0 || rest[j - 1] === w)
      ) {
        for (const k of phraseKeys) verbKeys.add(k);
      }
    }
  }
  let orderKeys: ReadonlySet<string> = requestKeys;
  // "want to fuzz `parse_frame` in frame.rs. … set it up so i can leave it running": the order
  // with a verb no table knows says what the work is about.
  if (view.lead !== undefined && view.lead.asked !== "") {
    const more = new Set(requestKeys);
    addWordKeys(rawWords(view.lead.asked), more, lint);
    orderKeys = more;
  }
  return {
    phrase: prosePhrase,
    keys,
    request,
    requestKeys,
    orderKeys,
    inferred,
    standIn,
    said,
    words,
    asked,
    build: view.build,
    ...(view.verb !== undefined ? { verb: view.verb } : {}),
    guide: view.guide,
    why: view.why === true,
    question: view.question === true,
    plainWhy,
    statedEdit: view.statedEdit,
    lint,
    reportOnly: REPORT_ONLY_PADDED.some((r) => prosePhrase.includes(r)),
    verbKeys,
    orders: view.orders.map((o) => ` ${rawWords(o).map((w) => w.toLowerCase()).join(" ")} `),
  };
}

/**
 * A later build or explain verb does not cancel a fix or a review the prompt already asks for:
 * in "the cron job stopped firing, compare the crontab with last week's and tell me why" or "do a
 * code review of this branch and explain anything odd", the request clauses before that verb's
 * clause ask for a review or report a malfunction, or the statements before it report one and a
 * later order asks for its cause, so the request stays one.
 */
function keepAsked(view: RequestView): RequestView {
  if (!view.build || view.lead === undefined) return view;
  const { asked, told } = view.lead;
  const keys = new Set<string>();
  addWordKeys(rawWords(asked), keys, false);
  const reports = (text: string) => {
    const raw = rawWords(text);
    const words = raw.map((w) => w.toLowerCase());
    const phrase = ` ${words.join(" ")} `;
    return !isLintComplaint(words, phrase) &&
      (reportsSymptom(text, raw, words) || reportsBehaviour(words));
  };
  const keep = keys.has("review") || (asked !== "" && reports(asked)) ||
    (told !== "" && reports(told));
  if (!keep) return view;
  // An order with a verb no table knows ("can you do a code review") joins the request.
  const request = asked === "" ? view.request : `${asked}\n${view.request}`;
  return { ...view, build: false, infer: true, request };
}

const NO_KEYS: ReadonlySet<string> = new Set();

const SCRIPT_LIST: readonly [string, readonly string[]][] = Object.entries(SCRIPT_TERMS);

/** Adds the keys of the {@link SCRIPT_TERMS} a text holds. */
function scriptKeys(text: string, ...sets: Set<string>[]): void {
  for (const [term, ks] of SCRIPT_LIST) {
    if (text.includes(term)) { for (const keys of sets) for (const k of ks) keys.add(k); }
  }
}

/**
 * The keys that only stand-in words gave: those of the stand-ins that the prose's other words
 * (the prose less one word per stand-in word) do not give ("the site" and a URL: `site` stays).
 */
function standInKeys(standIns: readonly string[], prose: string): ReadonlySet<string> {
  if (standIns.length === 0) return NO_KEYS;
  const put = standIns.flatMap((s) => s.split(" "));
  const left = new Map<string, number>();
  for (const w of put) left.set(w, (left.get(w) ?? 0) + 1);
  const rest = prose.trim().split(" ").filter((w) => {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    return n === 0;
  });
  const own = new Set<string>();
  addWordKeys(rest, own, false);
  const keys = new Set<string>();
  addWordKeys(put, keys, false);
  for (const k of keys) if (own.has(k)) keys.delete(k);
  return keys;
}

const REVIEW_PADDED = padded(REVIEW_ACTIONS);
const REPORT_ONLY_PADDED = padded(REPORT_ONLY);

/**
 * How many or which: "multiple", "several", "many" (a prompt says it with a number: "4 test files
 * fail"), "per" (said with "each": "a subagent per task", "hand each task to its own subagent").
 * A share that leaves one out loses nothing for it.
 */
const QUANTIFIERS: readonly string[] = ["multiple", "several", "many", "per"];

/**
 * Words of a trigger that name a kind of work, a prefix or a number, not the thing it is about: a
 * share that leaves one of them out still counts ("root cause analysis" matched by "find the root
 * cause", "multiple unrelated failures" by "4 unrelated test files fail").
 */
export const LOOSE_WORDS: ReadonlySet<string> = new Set([
  "analysis",
  "issue",
  "issues",
  "problem",
  "problems",
  ...QUANTIFIERS,
]);

let looseKeys: ReadonlySet<string> | undefined;
let looseWords: ReadonlySet<string> | undefined;
let looseNouns: ReadonlySet<string> | undefined;

/** The keys of the {@link LOOSE_WORDS}: a kind of work or a number, never a trigger's thing. */
function looseWordKey(key: string): boolean {
  looseNouns ??= new Set([...LOOSE_WORDS].map(wordKey));
  return looseNouns.has(key);
}

/** The keys of the {@link QUANTIFIERS}. */
function looseWordKeys(): ReadonlySet<string> {
  looseWords ??= new Set(QUANTIFIERS.map(wordKey));
  return looseWords;
}

/** True for the key of a verb of the verb tables or of a {@link LOOSE_WORDS} word. */
function isLooseKey(key: string): boolean {
  looseKeys ??= new Set(
    [...BUILD_VERBS, ...EXPLAIN_VERBS, ...WORK_VERBS, ...NEUTRAL_VERBS, ...LOOSE_WORDS].map(
      wordKey,
    ),
  );
  return looseKeys.has(key);
}
const SYMPTOM_PADDED = padded(SYMPTOM_PHRASES);

/**
 * True when the text reports a malfunction: a pasted error or error code, a 5xx server error, a
 * {@link SYMPTOM_WORDS} word (camelCase parts too) or a {@link SYMPTOM_PHRASES} phrase.
 */
function reportsSymptom(text: string, raw: readonly string[], words: readonly string[]): boolean {
  if (PASTED_ERROR.test(text) || ERROR_CLASS.test(text)) return true;
  if (raw.some((w) => ERRNO.has(w)) || text.includes("EAI_AGAIN")) return true;
  if (/5\d\d/.test(text) && SERVER_ERROR.test(text)) return true;
  if (words.some((w) => SYMPTOM_WORDS.has(w))) return true;
  if (raw.some((w) => camelParts(w).some((part) => SYMPTOM_WORDS.has(part)))) return true;
  const phrase = ` ${words.join(" ")} `;
  return SYMPTOM_PADDED.some((p) => phrase.includes(p));
}

/** A trigger prepared once for scoring against many prompts. */
export interface CompiledTrigger {
  /** The trigger as written. */
  readonly text: string;
  /** Its words, space-joined with a space at each end; empty when it has no words. */
  readonly phrase: string;
  /** Its content words' keys, without repeats. */
  readonly keys: readonly string[];
  /**
   * False when only the whole phrase counts: one short or question content word, none, or a
   * trigger written as a question ("are there others like this?": a conversational form whose
   * words say little one by one).
   */
  readonly partial: boolean;
}

/**
 * Prepares a trigger: its phrase and content words, and whether a share of them may count.
 *
 * @param text The trigger as written in `triggers:`.
 * @returns The compiled trigger.
 */
export function compileTrigger(text: string): CompiledTrigger {
  const words = tokenize(text);
  const content = joinPhrases(words).filter((w) => !STOP_WORDS.has(w));
  const keys = [...new Set(content.map(keyOf))];
  let partial = keys.length > 1 && !/\?\s*$/.test(String(text));
  if (keys.length === 1) {
    const only = content[0];
    // A phrase that stands for a question word ("what's going on" → why) is a question word too.
    partial = (only.startsWith("=") || only.replace(/[^\p{L}]/gu, "").length >= 5) &&
      !QUESTION_WORDS.has(only) && !QUESTION_WORDS.has(keys[0]);
  }
  return { text: String(text), phrase: words.length ? ` ${words.join(" ")} ` : "", keys, partial };
}

/** How one trigger scored against one prompt. */
export interface TriggerScore {
  /** The trigger as written. */
  readonly trigger: string;
  /** 1 for a whole-phrase match, else the share of content words found (0 when not allowed). */
  readonly score: number;
  /** How many of the trigger's content words the prompt has (all of them on a whole phrase). */
  readonly matched: number;
  /** How many of those the prompt's prose has in words, not only through an inference. */
  readonly literal: number;
  /** How many content words the trigger has. */
  readonly total: number;
  /** True when the whole phrase appeared in the request. */
  readonly whole: boolean;
  /** True when the trigger holds a key of the request's opening verb (`verbKeys`). */
  readonly onVerb: boolean;
  /**
   * True for a share of three or more words that leaves out a word naming what the trigger is
   * about (not a verb or a {@link LOOSE_WORDS} word): it is shown but never routes.
   */
  readonly held?: boolean;
  /**
   * True when the whole phrase counts only as what a build request's order makes (a pack skill's
   * trigger, {@link ScoreOptions.asked}): another pack skill whose text claims the request
   * beats it (`route.ts`).
   */
  readonly object?: boolean;
}

/** Options of {@link scoreTrigger} and {@link bestTrigger}. */
export interface ScoreOptions {
  /**
   * True for a foreign keyword list: `skill-rules.json` keywords, and the triggers of a skill that
   * routes only because `route_skills` is `*`. Path-like keywords (`/.claude/`, `src/api`,
   * `.env`) never count, a keyword of one content word counts only as a whole word and only
   * next to another match of the same skill, and a share of a longer one needs two matched words
   * besides question words.
   */
  readonly foreign?: boolean;
  /**
   * True for a built-in pack skill's reviewed triggers: a share must touch what the prompt asks
   * for in words ({@link PreparedPrompt.asked}), not only the `bug` and `fix` a reported symptom
   * infers ("sort the keys, translators keep complaining" asks for no fix); and in a build
   * request a trigger of two or more words counts where any order holds it, not only at its start.
   */
  readonly asked?: boolean;
}

/**
 * True for a keyword that names a path or a file (`/.claude/`, `src/api`, `.env`, `setup.py`).
 *
 * @param text The keyword.
 * @returns Whether it is path-like.
 */
export function isPathLike(text: string): boolean {
  const t = String(text).trim();
  return /[\/\\]/.test(t) || /^\.\w/.test(t) || /^[\w-]+\.[a-z]{1,5}$/i.test(t);
}

/**
 * Scores one trigger against a prompt. A whole phrase counts where the request has it (for a
 * build request, only a phrase holding the main verb). A share of content words counts when at
 * least one of them is in the request, never for a build request.
 *
 * @param trigger The trigger, compiled or as written.
 * @param prompt The prompt, prepared or as written.
 * @param options Whether the trigger comes from a foreign keyword list.
 * @returns The score and the matched word count.
 */
export function scoreTrigger(
  trigger: CompiledTrigger | string,
  prompt: PreparedPrompt | string,
  options: ScoreOptions = {},
): TriggerScore {
  const t = typeof trigger === "string" ? compileTrigger(trigger) : trigger;
  const p = typeof prompt === "string" ? preparePrompt(prompt) : prompt;
  const total = t.keys.length;
  const none = {
    trigger: t.text,
    score: 0,
    matched: 0,
    literal: 0,
    total,
    whole: false,
    onVerb: false,
  };
  if (options.foreign && isPathLike(t.text)) return none;
  if (
    t.phrase && holdsPhrase(p.request, t.phrase) &&
    !(options.foreign && t.keys.some((k) => p.standIn.has(k)))
  ) {
    const opens = !p.build || (p.verb !== undefined && t.phrase.includes(` ${p.verb} `)) ||
      p.orders.some((o) => holdsPhrase(o, t.phrase, 2, true));
    // A pack skill's trigger of two or more words names a thing the skill makes: an order that
    // holds it asks for that thing ("draft an incident report for the newsletter").
    // A question a guide answers asks about what it names: "how do i turn on prompt caching …?"
    const object = !opens && options.asked === true && t.keys.length >= 2 &&
      (p.orders.some((o) => holdsPhrase(o, t.phrase)) || p.guide);
    if (opens || object) {
      return {
        trigger: t.text,
        score: 1,
        matched: total,
        literal: total,
        total,
        whole: true,
        onVerb: t.keys.some((k) => p.verbKeys.has(k)),
        ...(object ? { object } : {}),
      };
    }
  }
  if (!t.partial || p.build || total === 0 || (options.foreign && total < 2)) return none;
  let matched = 0, literal = 0, touch = false;
  // Under `*` (a foreign list) the words put in for URLs, paths and code match nothing.
  const has = options.foreign && p.standIn.size
    ? (k: string) => p.keys.has(k) && !p.standIn.has(k)
    // A pack skill's trigger takes no malfunction from a question why that only describes
    // behaviour: "why is config.ts imported twice?" asks about the code, not for a debugging run.
    : options.asked && p.plainWhy
    ? (k: string) => p.keys.has(k) && (p.said.has(k) || (k !== "bug" && k !== "fix"))
    : (k: string) => p.keys.has(k);
  for (const k of t.keys) {
    if (!has(k)) continue;
    matched++;
    if (p.said.has(k)) literal++;
    if ((options.asked ? p.asked : p.requestKeys).has(k)) touch = true;
  }
  if (!touch) return none;
  if (options.foreign && t.keys.filter((k) => has(k) && !QUESTION_WORDS.has(k)).length < 2) {
    return none;
  }
  const onVerb = t.keys.some((k) => p.verbKeys.has(k));
  // A quantifier left out costs nothing: "a subagent per task" is said by "each task to its own
  // subagent".
  const spared = t.keys.filter((k) => !has(k) && looseWordKeys().has(k)).length;
  const share = {
    trigger: t.text,
    score: matched / (total - spared),
    matched,
    literal,
    total,
    whole: false,
  };
  // "find bugs on site" half-matched by "find the bugs label": the word left out says which thing
  // the trigger is about. A share of three or more words that leaves out a word other than a verb
  // of the verb tables or a {@link LOOSE_WORDS} word is held: shown, never routed ("bugs on the
  // site" and "the root cause" still route). A pack skill's reviewed trigger names its thing
  // last, verb or not: "request a code review" left without "review" ("the status code for too
  // many requests") is held too.
  const head = options.asked ? total - 1 : -1;
  if (
    total >= 3 && matched < total &&
    t.keys.some((k, i) => !has(k) && (!isLooseKey(k) || (i === head && !looseWordKey(k))))
  ) {
    return { ...share, onVerb, held: true };
  }
  return { ...share, onVerb };
}

/**
 * Orders two trigger scores, better first: higher score, then one not held, then the one that
 * holds the request's
 * opening verb ("click through the app and find bugs, then fix them" is a QA request first), then
 * specificity (more matched content words, a whole phrase over a share, more words matched as
 * written, a longer trigger).
 *
 * @param a One score.
 * @param b Another.
 * @returns Negative when `a` is better, positive when `b` is, 0 on a full tie.
 */
export function compareScores(
  a: Pick<TriggerScore, "score" | "matched" | "whole" | "literal" | "total" | "onVerb" | "held">,
  b: Pick<TriggerScore, "score" | "matched" | "whole" | "literal" | "total" | "onVerb" | "held">,
): number {
  return round2(b.score) - round2(a.score) || Number(a.held === true) - Number(b.held === true) ||
    Number(b.onVerb) - Number(a.onVerb) ||
    b.matched - a.matched ||
    Number(b.whole) - Number(a.whole) || b.literal - a.literal || b.total - a.total;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The best trigger of a list: see {@link compareScores}, then first listed. For a foreign list
 * a one-word keyword counts only next to another match of the same list.
 *
 * @param triggers The skill's triggers, compiled or as written.
 * @param prompt The prompt, prepared or as written.
 * @param options Whether the list is foreign.
 * @returns The best score, or `undefined` for an empty list.
 */
export function bestTrigger(
  triggers: readonly (CompiledTrigger | string)[],
  prompt: PreparedPrompt | string,
  options: ScoreOptions = {},
): TriggerScore | undefined {
  const p = typeof prompt === "string" ? preparePrompt(prompt) : prompt;
  let best: TriggerScore | undefined;
  let hits = 0;
  for (const t of triggers) {
    const s = scoreTrigger(t, p, options);
    if (s.score > 0) hits++;
    if (!best || compareScores(s, best) < 0) best = s;
  }
  if (best && options.foreign && best.total < 2 && hits < 2) {
    return { ...best, score: 0, matched: 0, literal: 0, whole: false, onVerb: false };
  }
  return best;
}

let fingerprint: string | undefined;

/**
 * The version of {@link compileTrigger}'s code. Bump it whenever a change to that code (or to the
 * functions it calls) changes what it makes; `lib/routing/score_test.ts` pins what it makes for
 * the fixture skills and fails until the version is bumped.
 */
export const TRIGGER_COMPILER_VERSION = 4;

/**
 * Identifies what {@link compileTrigger} makes: {@link TRIGGER_COMPILER_VERSION} and a hash of its
 * word lists and concept tables. Compiled triggers kept in an index under another fingerprint are
 * compiled again. It hashes no code, so the source and a bundle of it agree.
 *
 * @returns The fingerprint (hex).
 */
export function compilerFingerprint(): string {
  if (fingerprint === undefined) {
    const text = [
      String(TRIGGER_COMPILER_VERSION),
      JSON.stringify([...STOP_WORDS]),
      JSON.stringify([...QUESTION_WORDS]),
      JSON.stringify(CONCEPTS),
      JSON.stringify(PHRASES),
    ].join("\n");
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    fingerprint = `${TRIGGER_COMPILER_VERSION}-${(h >>> 0).toString(16)}`;
  }
  return fingerprint;
}

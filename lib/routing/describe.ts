/**
 * The description tier: routing for skills without a trigger that fits, over what every skill has,
 * its name and its `description:` (with its "Use when …" clause). It is stricter than the trigger
 * tier and asked only when no trigger routes.
 *
 * - A skill's text is weighed by field: the words of its name 3, those of its "Use when …" clause
 *   ("Use when", "Use this skill when", "Trigger when", "should be used when", …) 2, the rest of its
 *   description 1. Negative clauses ("Do NOT use when …", "Not for …", "SKIP …", "Don't use …") are
 *   cut to the end of their sentence first: what a skill is not for never matches it.
 * - Words are compared as the trigger scorer compares them ({@link wordKey}: light stemming and
 *   the concept table), common words ({@link STOP_WORDS}) and words every description uses ("use",
 *   "skill", "user", "pattern", …; {@link DESCRIPTION_STOP_WORDS}, in every form: "writes",
 *   "adding") and question words dropped.
 * - The prompt's side is its prose (pasted evidence cut out, `request.ts`), and at least one
 *   matched word must be in a request clause.
 * - Scoring is BM25 (k1 1.2, b 0.75) over every installed skill's text, so that a word many skills
 *   share weighs little (word weights as if at least 100 skills were installed, so that a score
 *   means the same whatever the catalog's size). The best skill routes only when the caller lets
 *   it (routing: no triggers of its own, or a pack skill, and named by `route_skills`), it holds at
 *   least {@link MIN_DESCRIPTION_WORDS} distinctive matched words ({@link DISTINCTIVE_SHARE}) and a
 *   score of {@link MIN_DESCRIPTION_SCORE} (or one distinctive word among {@link LONE_WORDS}
 *   matched, a score of {@link LONE_SCORE} and {@link CLAIM_MARGIN} over the runner-up), one of
 *   its matched words is not among the 2,000 most frequent words of spoken English
 *   (`common_words.ts`: "hire" and "team" alone say no skill's topic), and it beats the runner-up
 *   (routable or not) by
 *   {@link DESCRIPTION_MARGIN}: a close second means the prompt fits a kind of skill, not one. A
 *   runner-up that matched every word the best matched, {@link CLAIM_WORDS} distinctive ones or
 *   more, must be beaten by {@link CLAIM_MARGIN}: two texts that claim a request in the same words
 *   (constant-time-analysis and constant-time-testing) make a guess, and routing nothing is better
 *   than a wrong route.
 * - A skill whose name is another match's name plus words the prompt does not say (a sibling it
 *   does not ask for: semgrep-rule-variant-creator beside semgrep-rule-creator) is left out
 *   ({@link unasked}).
 * - {@link describedClaim}: the best skill whose text claims a prompt ({@link CLAIM_WORDS}
 *   distinctive words), however close its runner-up; routing asks it when a pack skill's trigger
 *   routes on an inferred word (`route.ts`).
 * - An order to explain or define something, or a question of fact ("does this repo have a
 *   LICENSE file?"), asks for an answer, and gets none; a question how to do something, what
 *   something means or whether a behaviour is to be expected may route (`RequestView.guide`): a
 *   guide's or a reference's text answers it.
 *
 * The terms are computed when the routing index is built (`route_index.ts`), never on a prompt:
 * the hook reads them from the JSON index, as it reads the triggers.
 *
 * @module
 */

import { type PreparedPrompt, QUESTION_WORDS, STOP_WORDS, tokenize, wordKey } from "./score.ts";
import { COMMON_WORD_KEYS } from "./common_words.ts";

/** Words most skill descriptions use, which say nothing about which skill fits. */
export const DESCRIPTION_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "use uses used using usage skill skills when whenever whether user users ask asks asked " +
    "asking request requests requested want wants wanted need needs needed help helps helping " +
    "include includes including etc like such eg ie via also other another any every each new " +
    "existing best practice practices pattern patterns master comprehensive guide guides " +
    "guidance toolkit tool tools provide provides providing support supports supporting work " +
    "works task tasks mention mentions mentioned trigger triggers triggered should must always " +
    "never instead rather before after during across within without based covers cover " +
    "claude model agent agents ai way ways make makes making build building create creating " +
    "implement implementing write writing set setting up out well proper properly effective " +
    "efficient efficiently production ready high quality robust modern advanced common specific " +
    "various multiple different project projects code codebase application applications app " +
    "apps system systems add adds run runs running check checks checking find finds found show " +
    "shows get gets keep keeps point points return returns against until detail detailed already " +
    "file files no not yes ok read reads reading everything anything something nothing " +
    "everyone anyone someone everywhere anywhere somewhere less more"
  ).split(" "),
);

/**
 * The version of {@link descriptionTerms}' code: bump it whenever a change to that code changes the
 * terms it makes (the routing index keeps them under `index_fingerprint.ts`'s fingerprint).
 */
export const DESCRIPTION_TERMS_VERSION = 4;

let stopKeys: ReadonlySet<string> | undefined;

/**
 * True for the key of a common word or of a {@link DESCRIPTION_STOP_WORDS} word, in any of its
 * forms: compared by key, so that "writes", "adding" and "creates" are dropped as "write", "add"
 * and "create" are.
 */
function isStopKey(key: string): boolean {
  // Each word's inflections too: the stemmer makes "adding" `ad`, "add" `add`.
  stopKeys ??= new Set(
    [...STOP_WORDS, ...DESCRIPTION_STOP_WORDS].flatMap((w) =>
      [w, `${w}s`, `${w}ed`, `${w}ing`, `${w}${w.at(-1)}ing`].map(wordKey)
    ),
  );
  return stopKeys.has(key);
}

/**
 * Function words of the other languages users write in (German, French, Spanish, Portuguese,
 * Italian): no content on a prompt's side ("la mise à jour hebdo pour la direction" says no "de").
 */
const FOREIGN_FUNCTION_WORDS: readonly string[] = (
  "de la le les des du un une et el los las del und der das dem ein eine ist nicht mit für fur " +
  "von zu il gli di che je nous vous pour avec sur dans pas est sont que qui por para una uno mi " +
  "meu minha não nao em um uma ao mais muy mas pero sind auf wie ich wir sie unser unsere notre " +
  "nos nuestro nuestra comme alors mais donc tout tous cette ces mon mes leur como cuando porque " +
  "este esta eso todo isso essa quando als wenn weil dass oder aber auch noch nur"
).split(" ");

let foreignKeys: ReadonlySet<string> | undefined;

/** Field weights: the name's words, the "Use when …" clause's, the rest of the description's. */
const NAME_WEIGHT = 3;
const WHEN_WEIGHT = 2;
const TEXT_WEIGHT = 1;

/** The fewest distinct matched content words for a route. */
export const MIN_DESCRIPTION_WORDS = 2;
/** The fewest matched words for a question that asks no order and no guide (`question`). */
export const QUESTION_WORDS_MIN = 3;
/** The lowest BM25 score that routes. */
export const MIN_DESCRIPTION_SCORE = 12;
/**
 * A word in at most this share of the skills (at least {@link MIN_IDF_COUNT}) is distinctive; a
 * route needs {@link MIN_DESCRIPTION_WORDS} distinctive matched words.
 */
export const DISTINCTIVE_SHARE = 0.05;
/** The best score must be at least this multiple of the runner-up's. */
export const DESCRIPTION_MARGIN = 1.2;

/** Main verbs that ask what something means or how it works: the tier stays off. */
const ANSWER_VERBS: ReadonlySet<string> = new Set(["define", "explain", "teach", "clarify"]);

const K1 = 1.2;
const B = 0.75;
/**
 * Word weights (idf) are computed as if at least this many skills were installed, so that a score
 * means the same with a handful of skills as with hundreds.
 */
const MIN_IDF_COUNT = 100;

/** "Do NOT use when …", "Not for …", "SKIP …", "Don't use …": cut to the end of the sentence. */
const NEGATIVE_CLAUSE =
  /(?:\bdo not|\bdon['\u2019]?t|\bnever|\bnot)\s+(?:use|trigger|invoke|for\b)[^.!?\n]*|\bskip\b[^.!?\n]*|\bnot intended for\b[^.!?\n]*|\bavoid (?:using|this)\b[^.!?\n]*/gi;

/** The opening of a "when to use" clause. */
const WHEN_CLAUSE =
  /\b(?:use (?:this(?: skill)?|it|for|when|whenever)|triggers? (?:on|when|whenever|include|especially)|should be used when|when (?:the )?users? (?:asks?|wants?|mentions?|requests?|needs?|says?))\b[^.!?\n]*/gi;

/**
 * The weighted terms of a skill: word key → weight (see the module doc).
 *
 * @param name The skill's name (a `plugin:` prefix is dropped).
 * @param description Its `description:`, if any.
 * @returns The terms and their summed weights; empty when nothing is left.
 */
export function descriptionTerms(name: string, description?: string): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const w of tokenize(text)) {
      if (STOP_WORDS.has(w) || DESCRIPTION_STOP_WORDS.has(w) || /^\d+$/.test(w)) continue;
      const k = wordKey(w);
      if (isStopKey(k)) continue;
      terms.set(k, (terms.get(k) ?? 0) + weight);
    }
  };
  add(name.slice(name.indexOf(":") + 1).replace(/[-_]/g, " "), NAME_WEIGHT);
  const text = String(description ?? "").slice(0, 2000).replace(NEGATIVE_CLAUSE, " ");
  let rest = text;
  for (const m of text.matchAll(WHEN_CLAUSE)) {
    add(m[0], WHEN_WEIGHT);
    rest = rest.replace(m[0], " ");
  }
  add(rest, TEXT_WEIGHT);
  return terms;
}

/**
 * The description terms of many skills, as the tier reads them: each term's postings (skill index
 * and weight) and each skill's length (the sum of its weights).
 */
export interface DescriptionIndex {
  /** How many skills. */
  readonly count: number;
  /** The sum of every skill's length. */
  readonly totalLength: number;
  /**
   * The skills that have a term, with its weight there.
   *
   * @param key A word key.
   * @returns `[skill index, weight]` pairs (empty when none has it).
   */
  postings(key: string): readonly (readonly [number, number])[];
  /**
   * A skill's length.
   *
   * @param i Its index.
   * @returns The sum of its term weights.
   */
  length(i: number): number;
}

/**
 * An in-memory {@link DescriptionIndex} over skills' terms.
 *
 * @param docs Each skill's terms ({@link descriptionTerms}), by index.
 * @returns The index.
 */
export function descriptionIndex(docs: readonly ReadonlyMap<string, number>[]): DescriptionIndex {
  const postings = new Map<string, [number, number][]>();
  const lengths: number[] = [];
  let total = 0;
  docs.forEach((terms, i) => {
    let len = 0;
    for (const [k, w] of terms) {
      let list = postings.get(k);
      if (!list) postings.set(k, list = []);
      list.push([i, w]);
      len += w;
    }
    lengths.push(len);
    total += len;
  });
  return {
    count: docs.length,
    totalLength: total,
    postings: (k) => postings.get(k) ?? [],
    length: (i) => lengths[i] ?? 0,
  };
}

/** One skill's description score. */
export interface DescriptionHit {
  /** The skill's index. */
  readonly index: number;
  /** Its BM25 score. */
  readonly score: number;
  /** The prompt's content words its text has (word keys). */
  readonly matched: readonly string[];
  /** How many of those are distinctive: in at most {@link DISTINCTIVE_SHARE} of the skills. */
  readonly distinctive: number;
}

/** The prompt's side of the tier: its prose keys and its request keys. */
export interface DescriptionQuery {
  /** The prose's word keys (said, not inferred). */
  readonly keys: ReadonlySet<string>;
  /** The request clauses' word keys. */
  readonly requestKeys: ReadonlySet<string>;
  /** The main verb, when the prompt has one. */
  readonly verb?: string;
  /** True when the prompt's question is one a guide answers: the tier answers it despite its verb. */
  readonly guide?: boolean;
  /**
   * True when the prompt asks a question and gives no order (`RequestView.question`): unless a
   * guide answers it, a route needs {@link QUESTION_WORDS_MIN} matched words.
   */
  readonly question?: boolean;
}

/**
 * The prompt's side of the tier, from the trigger scorer's reading of it.
 *
 * @param p The prepared prompt.
 * @returns Its prose keys, request keys, main verb and kind of question.
 */
export function descriptionQuery(p: PreparedPrompt): DescriptionQuery {
  // A question points back at what the prompt told ("… is one huge match statement, what's a
  // cleaner way to structure it"): all of it is asked about.
  const requestKeys = p.guide ? p.words : p.orderKeys;
  return { keys: p.words, requestKeys, verb: p.verb, guide: p.guide, question: p.question };
}

/**
 * Every skill whose text shares a content word with the prompt, best first (BM25).
 *
 * @param index The skills' terms.
 * @param query The prompt's keys.
 * @returns The hits, best first; empty for a question about what something means.
 */
export function rankDescriptions(
  index: DescriptionIndex,
  query: DescriptionQuery,
): DescriptionHit[] {
  if (query.verb !== undefined && ANSWER_VERBS.has(query.verb) && !query.guide) return [];
  if (index.count === 0) return [];
  const avg = index.totalLength / index.count || 1;
  const scores = new Map<number, { score: number; matched: string[]; distinctive: number }>();
  const n = Math.max(index.count, MIN_IDF_COUNT);
  foreignKeys ??= new Set(FOREIGN_FUNCTION_WORDS.map(wordKey));
  for (const k of query.keys) {
    if (isStopKey(k) || QUESTION_WORDS.has(k) || foreignKeys.has(k)) continue;
    const list = index.postings(k);
    if (list.length === 0) continue;
    const rare = list.length <= DISTINCTIVE_SHARE * n ? 1 : 0;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const [i, w] of list) {
      const norm = w * (K1 + 1) / (w + K1 * (1 - B + B * index.length(i) / avg));
      const s = scores.get(i);
      if (s) {
        s.score += idf * norm;
        s.matched.push(k);
        s.distinctive += rare;
      } else scores.set(i, { score: idf * norm, matched: [k], distinctive: rare });
    }
  }
  const hits: DescriptionHit[] = [];
  for (const [i, s] of scores) {
    if (!s.matched.some((k) => query.requestKeys.has(k))) continue;
    hits.push({ index: i, ...s });
  }
  return hits.sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * The hit that routes, if any: the best, when it may route, has enough matched words and score,
 * and beats the runner-up by the margin.
 *
 * @param hits Ranked hits ({@link rankDescriptions}).
 * @param routable Whether a skill (by index) may route.
 * @returns The hit, or `undefined`.
 */
export function describedRoute(
  hits: readonly DescriptionHit[],
  routable: (index: number) => boolean,
): DescriptionHit | undefined {
  const [best, next] = hits;
  if (!best || !routable(best.index)) return undefined;
  // "add the new hire to the team section", "reword this so it sounds less passive": words
  // everyone says (hire, team; sound, less) tell no skill's topic without a rarer word beside them.
  if (!saysUncommon(best.matched)) return undefined;
  if (
    !strongLone(best, next) &&
    (best.distinctive < MIN_DESCRIPTION_WORDS || best.score < MIN_DESCRIPTION_SCORE)
  ) {
    return undefined;
  }
  if (next && best.score < DESCRIPTION_MARGIN * next.score) return undefined;
  // Two skills whose texts claim the request in the same words (constant-time-analysis and
  // constant-time-testing: timing, side, channel, constant), within a wider margin: which one is
  // a guess, so neither.
  if (
    next && next.distinctive >= CLAIM_WORDS && best.score < CLAIM_MARGIN * next.score &&
    best.matched.every((k) => next.matched.includes(k))
  ) {
    return undefined;
  }
  return best;
}

/**
 * A hit with one distinctive word may route when it matched at least {@link LONE_WORDS} words in
 * all, scored {@link LONE_SCORE} and beats the runner-up by {@link CLAIM_MARGIN}: "handle GDPR
 * data deletion requests" (gdpr-data-handling: `gdpr`, `handl`, `data`).
 */
export const LONE_WORDS = 3;
/** The score a hit with one distinctive word needs ({@link LONE_WORDS}). */
export const LONE_SCORE = 15;

function strongLone(best: DescriptionHit, next: DescriptionHit | undefined): boolean {
  return best.distinctive >= 1 && best.matched.length >= LONE_WORDS && best.score >= LONE_SCORE &&
    (!next || best.score >= CLAIM_MARGIN * next.score);
}

/** {@link COMMON_WORD_KEYS} with a space at each end, so a key is found as ` key `. */
const COMMON_PADDED = ` ${COMMON_WORD_KEYS} `;

/**
 * True when one of the matched word keys is not among the most frequent words of spoken English
 * ({@link COMMON_WORD_KEYS}). A search of the string, not a set: a hook asks this once, for a
 * handful of keys, and building a set of 1,679 keys cost it about 1.5 ms.
 */
function saysUncommon(matched: readonly string[]): boolean {
  return matched.some((k) => !COMMON_PADDED.includes(` ${k} `));
}

/** How many of the best hits {@link unasked} compares. */
const SIBLING_HITS = 4;

/** A name's content word keys (a `plugin:` prefix dropped). */
function nameKeys(name: string): Set<string> {
  const keys = new Set<string>();
  for (const w of tokenize(name.slice(name.indexOf(":") + 1).replace(/[-_]/g, " "))) {
    if (!STOP_WORDS.has(w)) keys.add(wordKey(w));
  }
  return keys;
}

/**
 * The hits without a skill that is another hit's specialisation the prompt does not ask for: its
 * name is the other's name plus words the prompt does not say (semgrep-rule-variant-creator for
 * "write a semgrep rule", beside semgrep-rule-creator). Among the best {@link SIBLING_HITS} hits.
 *
 * @param hits Ranked hits.
 * @param skills The skills, for their names.
 * @param said The prompt's keys.
 * @returns The hits left, in order.
 */
export function unasked<S extends { readonly name: string }>(
  hits: readonly DescriptionHit[],
  skills: DescribedSkills<S>,
  said: ReadonlySet<string>,
): DescriptionHit[] {
  const top = hits.slice(0, SIBLING_HITS).map((h) => nameKeys(skills.skill(h.index).name));
  const drop = new Set<number>();
  top.forEach((special, i) => {
    const general = top.find((g, j) =>
      j !== i && g.size > 0 && g.size < special.size && [...g].every((k) => special.has(k))
    );
    if (general && [...special].every((k) => general.has(k) || !said.has(k))) drop.add(i);
  });
  return drop.size ? hits.filter((_, i) => !drop.has(i)) : [...hits];
}

/** Skills and their description terms, as routing hands them to the tier. */
export interface DescribedSkills<S> {
  /** The terms, by skill index. */
  readonly index: DescriptionIndex;
  /**
   * One skill by its index.
   *
   * @param i The index.
   * @returns The skill.
   */
  skill(i: number): S;
}

const LIST_INDEXES = new WeakMap<object, DescribedSkills<unknown>>();

/**
 * The tier's view of a list of skills (their `name` and `description`), built once per list.
 *
 * @param skills The skills.
 * @returns Their terms.
 */
export function describedList<S extends { readonly name: string; readonly description?: string }>(
  skills: readonly S[],
): DescribedSkills<S> {
  let known = LIST_INDEXES.get(skills) as DescribedSkills<S> | undefined;
  if (!known) {
    known = {
      index: descriptionIndex(skills.map((s) => descriptionTerms(s.name, s.description))),
      skill: (i) => skills[i],
    };
    LIST_INDEXES.set(skills, known);
  }
  return known;
}

/**
 * How many distinctive words another routable skill's name and description must match to stop a
 * pack skill's trigger route (`route.ts`): more than the tier asks to route.
 */
export const CLAIM_WORDS = 3;

/** The margin over a runner-up that matched every word the best did ({@link describedRoute}). */
export const CLAIM_MARGIN = 1.5;

/** A route the description tier found. */
export interface DescribedRoute<S> {
  /** The skill. */
  readonly skill: S;
  /** Its hit. */
  readonly hit: DescriptionHit;
  /** The runner-up's score (0 when there is none). */
  readonly runnerUp: number;
}

/**
 * The ranked hits both {@link describeRoute} and {@link describedClaim} read: every skill whose
 * text shares a content word with the prompt, best first, without the siblings it does not ask
 * for ({@link unasked}). A caller that asks both passes them to each, so they are ranked once.
 *
 * @param query The prompt's keys.
 * @param skills The skills and their terms.
 * @returns The hits, best first.
 */
export function descriptionHits<S extends { readonly name: string }>(
  query: DescriptionQuery,
  skills: DescribedSkills<S>,
): DescriptionHit[] {
  return unasked(rankDescriptions(skills.index, query), skills, query.keys);
}

/**
 * The description tier's route for a prompt, if any ({@link rankDescriptions},
 * {@link describedRoute}).
 *
 * @param query The prompt's keys.
 * @param skills The skills and their terms.
 * @param eligible Whether the tier may route a skill.
 * @param hits The ranked hits ({@link descriptionHits}), when the caller has them.
 * @returns The route, or `undefined`.
 */
export function describeRoute<S extends { readonly name: string }>(
  query: DescriptionQuery,
  skills: DescribedSkills<S>,
  eligible: (skill: S) => boolean,
  hits: readonly DescriptionHit[] = descriptionHits(query, skills),
): DescribedRoute<S> | undefined {
  const hit = describedRoute(hits, (i) => eligible(skills.skill(i)));
  // "what's the max size of a cache entry in github actions?", "does the github actions free tier
  // include macos runners?": two words of a skill's topic in a question of fact name the topic,
  // not the skill's work.
  if (hit && query.question && !query.guide && hit.matched.length < QUESTION_WORDS_MIN) {
    return undefined;
  }
  return hit ? { skill: skills.skill(hit.index), hit, runnerUp: hits[1]?.score ?? 0 } : undefined;
}

/**
 * The skill whose own text claims a prompt: the description tier's best hit when it may route
 * and matched at least {@link CLAIM_WORDS} distinctive words and {@link MIN_DESCRIPTION_SCORE},
 * however close the runner-up (two such skills claim it alike).
 *
 * @param query The prompt's keys.
 * @param skills The skills and their terms.
 * @param eligible Whether the tier may route a skill.
 * @param hits The ranked hits ({@link descriptionHits}), when the caller has them.
 * @returns The claim, or `undefined`.
 */
export function describedClaim<S extends { readonly name: string }>(
  query: DescriptionQuery,
  skills: DescribedSkills<S>,
  eligible: (skill: S) => boolean,
  hits: readonly DescriptionHit[] = descriptionHits(query, skills),
): DescribedRoute<S> | undefined {
  const [best] = hits;
  if (!best || best.distinctive < CLAIM_WORDS || best.score < MIN_DESCRIPTION_SCORE) {
    return undefined;
  }
  const skill = skills.skill(best.index);
  return eligible(skill) ? { skill, hit: best, runnerUp: hits[1]?.score ?? 0 } : undefined;
}

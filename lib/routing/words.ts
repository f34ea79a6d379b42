/**
 * Words and their comparison keys, as the routing scorer (`score.ts`) and the description tier
 * (`describe.ts`) compare them: splitting text into words, camelCase parts, light stemming and the
 * concept table ({@link wordKey}).
 *
 * @module
 */

import { joinPrefixed } from "./request.ts";
import { CONCEPTS } from "./concepts.ts";

/** Chinese, Japanese and Korean letters: their words are found by the script terms. */
export const SCRIPTS: RegExp = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Words dropped before content words are compared. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the this that these those it its it's is are was were be been being am do does did " +
    "doing done i me my mine we us our you your he she him her they them their to of in on at " +
    "for from with by as and or but nor so if then than there here up into onto about over " +
    "can could would should will shall may might must just please pls some any all also very " +
    "really too get got have has had having let lets let's im i'm ive i've youre you're " +
    "one thing things stuff bit lot"
  ).split(" ").map((w) => w.replace(/'/g, "")),
);

/** Question words: content words, but never a single-word trigger's share match. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  "what",
  "why",
  "how",
  "where",
  "when",
  "which",
  "who",
  "whom",
  "whose",
]);

/**
 * Splits text into words as written (case kept): apostrophes inside a word dropped, Chinese,
 * Japanese and Korean runs set apart.
 *
 * @param text Any text.
 * @returns The words, in order.
 */
export function rawWords(text: string): string[] {
  const t = joinPrefixed(String(text));
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(t)) {
    return t.replace(/([A-Za-z])'([A-Za-z])/g, "$1$2").split(/[^A-Za-z0-9]+/)
      .filter((w) => w.length > 0);
  }
  return (SCRIPTS.test(t) ? t.replace(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+/g, " $& ") : t)
    .replace(/(\p{L})['\u2019](\p{L})/gu, "$1$2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Splits text into lower-case words (see the module doc). camelCase words stay whole here;
 * {@link preparePrompt} adds their parts as extra keys, so `iOS` still matches `ios`.
 *
 * @param text Any text.
 * @returns The words, in order.
 */
export function tokenize(text: string): string[] {
  return rawWords(text).map((w) => w.toLowerCase());
}

/**
 * The parts of a camelCase word (`TypeError` → `type`, `error`); empty when it has none.
 *
 * @param word One word as written.
 * @returns Its lower-case parts, or an empty list.
 */
export function camelParts(word: string): string[] {
  // No upper-case letter, no parts: the common case skips the regular expressions.
  if (word === word.toLowerCase()) return [];
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(word)) {
    // The same rule on ASCII, without the cost of compiling Unicode property classes.
    const ascii = word.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(
      /([A-Z]+)([A-Z][a-z])/g,
      "$1 $2",
    );
    return ascii === word ? [] : ascii.toLowerCase().split(" ");
  }
  const split = word
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2");
  if (split === word) return [];
  return split.toLowerCase().split(" ");
}

const DOUBLED = /([b-df-hj-np-tv-z])\1$/;

/**
 * Light stemming: drops a plural or verb ending and a final `e`, so `fails`, `failing` and
 * `failed` are `fail`, and `change`, `changes` and `changing` are `chang`. Both sides of a
 * comparison go through it, so only consistency matters, not linguistic form.
 *
 * @param word One lower-case word.
 * @returns Its stem.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
    w = w.slice(0, -1);
  } else if (w.endsWith("ing") && w.length - 3 >= 3) {
    w = w.slice(0, -3);
    if (DOUBLED.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && w.length - 2 >= 3) {
    w = w.slice(0, -2);
    if (DOUBLED.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  }
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

const CONCEPT_OF: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [key, words] of Object.entries(CONCEPTS)) {
    for (const word of words) map.set(stem(word), key);
  }
  return map;
})();

const KEY_CACHE = new Map<string, string>();

/**
 * The comparison key of one word: its concept when it has one, else its stem.
 *
 * @param word One lower-case word.
 * @returns The key two words share when they match.
 */
export function wordKey(word: string): string {
  let key = KEY_CACHE.get(word);
  if (key === undefined) {
    const s = stem(word);
    key = CONCEPT_OF.get(s) ?? s;
    if (KEY_CACHE.size > 50_000) KEY_CACHE.clear();
    KEY_CACHE.set(word, key);
  }
  return key;
}

/**
 * The widely copied `skill-rules.json` convention (`.claude/skills/skill-rules.json`), read so its
 * users route through the same scorer as `triggers:`:
 *
 * ```json
 * { "version": "1.0", "skills": { "backend-dev": { "promptTriggers": {
 *   "keywords": ["backend", "controller"], "intentPatterns": ["(create|add).*?(route|endpoint)"] } } } }
 * ```
 *
 * - `skills.<name>.promptTriggers.keywords` count as triggers of the installed skill `<name>`.
 * - `intentPatterns` are case-insensitive regular expressions; one that matches the prompt scores
 *   1. A leading `(?i)` is dropped (JavaScript has no such flag; matching is case-insensitive
 *   anyway). A pattern that is invalid, longer than 300 characters, or has a nested quantifier or a
 *   back-reference (catastrophic backtracking) is skipped with a warning, never a crash.
 * - Rules naming a skill that is not installed are skipped: routing never names a missing skill.
 * - Everything else in the file (`fileTriggers`, `enforcement`, ...) is ignored.
 *
 * @module
 */

import { join } from "./path.ts";
import type { RouteSkill } from "./routing.ts";
import { sanitizeName } from "./sanitize.ts";

/** The file name looked for in each skills directory. */
export const SKILL_RULES_FILE = "skill-rules.json";

/** The largest `skill-rules.json` read. */
export const MAX_SKILL_RULES_BYTES: number = 1024 * 1024;

/** The longest intent pattern compiled. */
export const MAX_INTENT_PATTERN_CHARS = 300;

/** At most this many keywords and patterns are kept per skill. */
const MAX_PER_SKILL = 100;

/** One skill's prompt triggers from a `skill-rules.json`. */
export interface SkillRule {
  /** The skill name (the key under `skills`). */
  readonly name: string;
  /** `promptTriggers.keywords`. */
  readonly keywords: readonly string[];
  /** `promptTriggers.intentPatterns`, compiled. */
  readonly intentPatterns: readonly RegExp[];
}

/** One problem met in a `skill-rules.json` (the pattern text itself is never repeated). */
export interface SkillRulesWarning {
  /** The file, when known. */
  readonly file?: string;
  /** The skill the problem belongs to, sanitised. */
  readonly skill?: string;
  /** The index of the skipped intent pattern. */
  readonly index?: number;
  /** What is wrong. */
  readonly problem: string;
}

/** What a `skill-rules.json` gave. */
export interface SkillRules {
  /** The rules, one per skill. */
  readonly rules: readonly SkillRule[];
  /** One entry per problem (invalid pattern, bad shape). */
  readonly warnings: readonly SkillRulesWarning[];
}

/**
 * One line for a warning, such as
 * `skill-rules.json: skill api intentPatterns[2] skipped: invalid regular expression`.
 *
 * @param w The warning.
 * @returns The line.
 */
export function formatSkillRulesWarning(w: SkillRulesWarning): string {
  const where = w.skill !== undefined
    ? ` skill ${w.skill || "?"} intentPatterns[${w.index ?? "?"}] skipped:`
    : "";
  return `${w.file ?? SKILL_RULES_FILE}:${where} ${w.problem}`;
}

/**
 * Patterns that can backtrack without bound: a repeated group (`(a|a)*`, `(a+)+`, `(ab){2,}`)
 * and back-references. No filter of syntax makes every regex safe, so intent patterns also get at
 * most {@link MAX_OPEN_QUANTIFIERS} open-ended quantifiers, and are matched against at most
 * {@link MAX_INTENT_TEXT} characters of a prompt (see `routing.ts`).
 */
const DANGEROUS = /\)\s*(?:[*+]|\{)|\\[1-9]|\\k</;

/** The most open-ended quantifiers (`*`, `+`, `{n,}`) an intent pattern may hold. */
export const MAX_OPEN_QUANTIFIERS = 2;

/** How many characters of a prompt intent patterns are matched against. */
export const MAX_INTENT_TEXT = 2000;

function openQuantifiers(source: string): number {
  const bare = source.replace(/\\./g, "x");
  return (bare.match(/[*+]|\{\d*,\}/g) ?? []).length;
}

/**
 * Compiles one intent pattern, case-insensitive.
 *
 * @param pattern The pattern as written.
 * @returns The regular expression, or the reason it was skipped.
 */
export function compileIntentPattern(pattern: unknown): RegExp | { error: string } {
  if (typeof pattern !== "string" || pattern.trim() === "") return { error: "not a string" };
  const source = pattern.replace(/^\(\?i\)/, "");
  if (source.length > MAX_INTENT_PATTERN_CHARS) {
    return { error: `longer than ${MAX_INTENT_PATTERN_CHARS} characters` };
  }
  if (DANGEROUS.test(source)) return { error: "repeated group or back-reference" };
  if (openQuantifiers(source) > MAX_OPEN_QUANTIFIERS) {
    return { error: `more than ${MAX_OPEN_QUANTIFIERS} open-ended quantifiers` };
  }
  try {
    return new RegExp(source, "i");
  } catch {
    return { error: "invalid regular expression" };
  }
}

/**
 * Parses the text of a `skill-rules.json`. Never throws.
 *
 * @param text The file's text.
 * @returns The rules and a warning per problem.
 */
export function parseSkillRules(text: string): SkillRules {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { rules: [], warnings: [{ problem: "not valid JSON" }] };
  }
  const skills = data && typeof data === "object"
    ? (data as { skills?: unknown }).skills
    : undefined;
  if (!skills || typeof skills !== "object" || Array.isArray(skills)) {
    return { rules: [], warnings: [{ problem: "no skills object" }] };
  }
  const rules: SkillRule[] = [];
  const warnings: SkillRulesWarning[] = [];
  for (const [name, rule] of Object.entries(skills as Record<string, unknown>)) {
    const triggers = rule && typeof rule === "object"
      ? (rule as { promptTriggers?: unknown }).promptTriggers
      : undefined;
    if (!triggers || typeof triggers !== "object") continue;
    const { keywords, intentPatterns } = triggers as {
      keywords?: unknown;
      intentPatterns?: unknown;
    };
    const kw = (Array.isArray(keywords) ? keywords : [])
      .filter((k): k is string => typeof k === "string" && k.trim() !== "")
      .slice(0, MAX_PER_SKILL);
    const patterns: RegExp[] = [];
    (Array.isArray(intentPatterns) ? intentPatterns : []).slice(0, MAX_PER_SKILL).forEach(
      (p, i) => {
        const re = compileIntentPattern(p);
        if (re instanceof RegExp) patterns.push(re);
        else {
          warnings.push({ skill: sanitizeName(name), index: i, problem: re.error });
        }
      },
    );
    if (kw.length || patterns.length) rules.push({ name, keywords: kw, intentPatterns: patterns });
  }
  return { rules, warnings };
}

/**
 * Reads `skill-rules.json` from each directory that has one (missing files are skipped silently).
 *
 * @param dirs The skills directories the catalog scanned.
 * @returns Every rule found, and the warnings, each naming its file.
 */
export function readSkillRules(dirs: readonly string[]): SkillRules {
  const rules: SkillRule[] = [];
  const warnings: SkillRulesWarning[] = [];
  for (const dir of dirs) {
    const path = join(dir, SKILL_RULES_FILE);
    let text: string;
    try {
      const info = Deno.lstatSync(path);
      if (!info.isFile) continue;
      if (info.size > MAX_SKILL_RULES_BYTES) {
        warnings.push({
          file: path,
          problem: `larger than ${MAX_SKILL_RULES_BYTES} bytes, skipped`,
        });
        continue;
      }
      text = Deno.readTextFileSync(path);
    } catch {
      continue;
    }
    const parsed = parseSkillRules(text);
    rules.push(...parsed.rules);
    for (const w of parsed.warnings) warnings.push({ ...w, file: path });
  }
  return { rules, warnings };
}

/**
 * Adds rules to the skills they name: keywords join the skill's triggers, intent patterns are
 * attached. Rules for skills that are not installed are left out.
 *
 * @param skills The installed skills.
 * @param rules The rules.
 * @returns New skill objects (the input is not changed) and how many rules named no skill.
 */
export function applySkillRules<T extends RouteSkill>(
  skills: readonly T[],
  rules: readonly SkillRule[],
): { skills: (T & RouteSkill)[]; unmatched: number } {
  if (rules.length === 0) return { skills: [...skills], unmatched: 0 };
  const byName = new Map<string, SkillRule[]>();
  for (const r of rules) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const used = new Set<string>();
  const out = skills.map((s) => {
    const mine = [...(byName.get(s.name) ?? []), ...(s.altName ? byName.get(s.altName) ?? [] : [])];
    if (mine.length === 0) return s;
    for (const r of mine) used.add(r.name);
    return {
      ...s,
      triggers: [...(s.triggers ?? []), ...mine.flatMap((r) => r.keywords)],
      intentPatterns: [...(s.intentPatterns ?? []), ...mine.flatMap((r) => r.intentPatterns)],
    };
  });
  return { skills: out, unmatched: [...byName.keys()].filter((n) => !used.has(n)).length };
}

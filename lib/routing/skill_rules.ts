/**
 * The widely copied `skill-rules.json` convention (`.claude/skills/skill-rules.json`), read so its
 * users route through the same scorer as `triggers:`:
 *
 * ```json
 * { "version": "1.0", "skills": { "backend-dev": { "promptTriggers": {
 *   "keywords": ["backend", "controller"], "intentPatterns": ["(create|add).*?(route|endpoint)"] } } } }
 * ```
 *
 * - `skills.<name>.promptTriggers.keywords` count as keywords of the installed skill `<name>`: a
 *   foreign list, where path-like keywords (`/.claude/`) never count and a one-word keyword counts
 *   only as a whole word next to another match of that skill.
 * - `intentPatterns` are case-insensitive regular expressions; one that matches the prompt scores
 *   1. They are matched by RE2 (`user_regex.ts`), in time linear in the prompt, so no pattern can
 *   stall the hook; the engine is loaded only when a file has patterns for an installed skill. A
 *   leading `(?i)` is dropped (matching is case-insensitive anyway). A pattern that RE2 refuses
 *   (lookaround, back-references), longer than 300 characters, or too complex is skipped with a
 *   warning, never a crash; so are the patterns past {@link MAX_INTENT_PROGRAM} instructions in all.
 * - Rules naming a skill that is not installed are skipped: routing never names a missing skill,
 *   and their patterns are not compiled.
 * - Everything else in the file (`fileTriggers`, `enforcement`, ...) is ignored.
 *
 * @module
 */

import { readRegularTextSync } from "../base/fs.ts";
import { join } from "../base/path.ts";
import type { RouteSkill } from "./route_skill.ts";
import { sanitizeName } from "../base/sanitize.ts";
import {
  isRegexError,
  loadUserRegexEngine,
  type RegexBudget,
  type UserRegex,
  type UserRegexEngine,
  type UserRegexError,
} from "../base/user_regex.ts";

/** The file name looked for in each skills directory. */
export const SKILL_RULES_FILE = "skill-rules.json";

/** The largest `skill-rules.json` read. */
export const MAX_SKILL_RULES_BYTES: number = 1024 * 1024;

/** The longest intent pattern compiled. */
export const MAX_INTENT_PATTERN_CHARS = 300;

/**
 * The most RE2 instructions all intent patterns of one load may compile to (a typical pattern is
 * 20 to 80): it bounds the compile and match work a rules file can cause per prompt.
 */
export const MAX_INTENT_PROGRAM = 20000;

/** How many characters of a prompt intent patterns are matched against. */
export const MAX_INTENT_TEXT = 2000;

/** At most this many keywords and patterns are kept per skill. */
const MAX_PER_SKILL = 100;

/** One skill's prompt triggers from a `skill-rules.json`. */
export interface SkillRule {
  /** The skill name (the key under `skills`). */
  readonly name: string;
  /** `promptTriggers.keywords`. */
  readonly keywords: readonly string[];
  /** `promptTriggers.intentPatterns`, compiled (empty for a skill left out of compiling). */
  readonly intentPatterns: readonly UserRegex[];
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

/** Options of {@link parseSkillRules} and {@link readSkillRules}. */
export interface SkillRulesOptions {
  /**
   * The names of the installed skills (invocable and frontmatter names), asked for only when a
   * file has intent patterns: only those skills' patterns are compiled. Default: every skill's.
   */
  readonly installed?: () => ReadonlySet<string>;
}

/**
 * One line for a warning, such as
 * `skill-rules.json: skill api intentPatterns[2] skipped: not a valid RE2 regular expression (missing closing ))`.
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
 * Compiles one intent pattern, case-insensitive, with the linear-time engine.
 *
 * @param pattern The pattern as written.
 * @param engine The engine ({@link loadUserRegexEngine}).
 * @param budget The instructions left for this load's patterns, charged by this one.
 * @returns The compiled pattern, or the reason it was skipped.
 */
export function compileIntentPattern(
  pattern: unknown,
  engine: UserRegexEngine,
  budget?: RegexBudget,
): UserRegex | UserRegexError {
  if (typeof pattern !== "string" || pattern.trim() === "") return { error: "not a string" };
  const source = pattern.replace(/^\(\?i\)/, "");
  if (source.length > MAX_INTENT_PATTERN_CHARS) {
    return { error: `longer than ${MAX_INTENT_PATTERN_CHARS} characters` };
  }
  return engine.compile(source, { ignoreCase: true, budget });
}

/** A rule as written: its patterns not compiled yet. */
interface RawRule {
  readonly name: string;
  readonly keywords: string[];
  readonly patterns: unknown[];
  readonly file?: string;
}

function rawRules(text: string): { rules: RawRule[]; warnings: SkillRulesWarning[] } {
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
  const rules: RawRule[] = [];
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
    const patterns = (Array.isArray(intentPatterns) ? intentPatterns : []).slice(0, MAX_PER_SKILL);
    if (kw.length || patterns.length) rules.push({ name, keywords: kw, patterns });
  }
  return { rules, warnings: [] };
}

/**
 * Compiles the patterns of the rules (of installed skills only, when known), loading the engine
 * only when there is a pattern to compile. One budget covers them all.
 */
async function compileRules(
  raw: readonly RawRule[],
  options: SkillRulesOptions,
): Promise<SkillRules> {
  const warnings: SkillRulesWarning[] = [];
  const withPatterns = raw.filter((r) => r.patterns.length > 0);
  let wanted: ((name: string) => boolean) | undefined;
  if (withPatterns.length > 0 && options.installed) {
    const names = options.installed();
    wanted = (name) => names.has(name);
  }
  const toCompile = withPatterns.filter((r) => !wanted || wanted(r.name));
  let engine: UserRegexEngine | undefined;
  let loadError: string | undefined;
  if (toCompile.length > 0) {
    try {
      engine = await loadUserRegexEngine();
    } catch (e) {
      loadError = `the regular expression engine (npm:re2js) could not be loaded: ${
        e instanceof Error ? e.message.split("\n")[0].slice(0, 200) : "unknown error"
      }`;
    }
  }
  const budget: RegexBudget = { left: MAX_INTENT_PROGRAM };
  const rules: SkillRule[] = [];
  for (const r of raw) {
    const patterns: UserRegex[] = [];
    if (r.patterns.length > 0 && (!wanted || wanted(r.name))) {
      r.patterns.forEach((p, i) => {
        const re = engine
          ? compileIntentPattern(p, engine, budget)
          : { error: loadError ?? "the regular expression engine could not be loaded" };
        if (isRegexError(re)) {
          warnings.push({
            ...(r.file !== undefined ? { file: r.file } : {}),
            skill: sanitizeName(r.name),
            index: i,
            problem: re.error,
          });
        } else patterns.push(re);
      });
    }
    if (r.keywords.length || patterns.length || r.patterns.length) {
      rules.push({ name: r.name, keywords: r.keywords, intentPatterns: patterns });
    }
  }
  return { rules, warnings };
}

/**
 * Parses the text of a `skill-rules.json` and compiles its intent patterns. Never throws (the
 * promise never rejects).
 *
 * @param text The file's text.
 * @param options Which skills are installed.
 * @returns The rules and a warning per problem.
 */
export async function parseSkillRules(
  text: string,
  options: SkillRulesOptions = {},
): Promise<SkillRules> {
  const { rules, warnings } = rawRules(text);
  const compiled = await compileRules(rules, options);
  return { rules: compiled.rules, warnings: [...warnings, ...compiled.warnings] };
}

/**
 * Reads `skill-rules.json` from each directory that has one (missing files are skipped silently)
 * and compiles the intent patterns of all of them under one budget. Never throws.
 *
 * @param dirs The skills directories the catalog scanned.
 * @param options Which skills are installed.
 * @returns Every rule found, and the warnings, each naming its file.
 */
export async function readSkillRules(
  dirs: readonly string[],
  options: SkillRulesOptions = {},
): Promise<SkillRules> {
  const raw: RawRule[] = [];
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
      text = readRegularTextSync(path, MAX_SKILL_RULES_BYTES);
    } catch {
      continue;
    }
    const parsed = rawRules(text);
    for (const r of parsed.rules) raw.push({ ...r, file: path });
    for (const w of parsed.warnings) warnings.push({ ...w, file: path });
  }
  if (raw.length === 0) return { rules: [], warnings };
  const compiled = await compileRules(raw, options);
  return { rules: compiled.rules, warnings: [...warnings, ...compiled.warnings] };
}

/**
 * Adds rules to the skills they name: keywords and intent patterns are attached. Rules for skills that are not installed are left out.
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
      keywords: [...(s.keywords ?? []), ...mine.flatMap((r) => r.keywords)],
      intentPatterns: [...(s.intentPatterns ?? []), ...mine.flatMap((r) => r.intentPatterns)],
    };
  });
  return { skills: out, unmatched: [...byName.keys()].filter((n) => !used.has(n)).length };
}

/**
 * Routing evaluation on a labeled prompt set (`skillgate route eval`): precision and recall over
 * all prompts and per skill, the confusion (expected → got), and why each wrong decision happened,
 * so that a skill author can see which trigger to fix.
 *
 * A set is `expected<TAB>prompt` lines (`-` = no route; `a|b` = either skill fits; `#` starts a
 * comment). In a prompt, `\n` stands for a line break, `\t` for a tab and `\\` for a backslash, so
 * a pasted stack trace fits on one line.
 *
 * @module
 */

import { type RouteDecision, type RouteOptions, routePrompt, type SkillPool } from "./route.ts";
import type { RouteSkill } from "./route_skill.ts";

/** One labeled prompt of an eval file. */
export interface LabeledPrompt {
  /** Its line number. */
  readonly line: number;
  /** The skill it should route to (`a|b`: either), or `-` for none. */
  readonly expected: string;
  /** The prompt. */
  readonly prompt: string;
}

function unescape(text: string): string {
  return text.replace(/\\([nt\\])/g, (_, c: string) => c === "n" ? "\n" : c === "t" ? "\t" : "\\");
}

/**
 * Parses an eval file: `expected<TAB>prompt` lines; blank lines and lines starting with `#` are
 * skipped; `expected` may carry a leading `/` (on each skill of `a|b`, where either fits); `-` means
 * no route; `\n`, `\t` and `\\` in a prompt are a line break, a tab and a backslash.
 *
 * @param text The file's text.
 * @returns The prompts.
 * @throws {Error} Naming the first malformed line.
 */
export function parseLabeled(text: string): LabeledPrompt[] {
  const out: LabeledPrompt[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "" || raw.startsWith("#")) return;
    const tab = raw.indexOf("\t");
    const expected = tab > 0
      ? raw.slice(0, tab).split("|").map((s) => s.trim().replace(/^\//, "")).join("|")
      : "";
    const prompt = tab > 0 ? unescape(raw.slice(tab + 1)) : "";
    if (!expected || expected.split("|").includes("") || !prompt.trim()) {
      throw new Error(`Line ${i + 1} is not expected<TAB>prompt`);
    }
    out.push({ line: i + 1, expected, prompt });
  });
  return out;
}

/** One wrong decision of an eval. */
export interface EvalMiss {
  /** The labeled prompt. */
  readonly item: LabeledPrompt;
  /** What routed (`-` for nothing). */
  readonly got: string;
  /** The decision. */
  readonly decision: RouteDecision;
  /** Why the decision went wrong, in words a skill author can act on. */
  readonly why: string;
}

/** Precision and recall of one skill. */
export interface SkillFigures {
  /** The skill. */
  readonly skill: string;
  /** Prompts labeled with it. */
  readonly expected: number;
  /** Prompts routed to it. */
  readonly routed: number;
  /** Prompts labeled with it and routed to it. */
  readonly right: number;
  /** right / routed (1 when nothing routed to it). */
  readonly precision: number;
  /** right / expected (1 when nothing is labeled with it). */
  readonly recall: number;
}

/** The figures of an eval. */
export interface EvalResult {
  /** Prompts with an expected skill. */
  readonly fit: number;
  /** Prompts expected not to route. */
  readonly nonFit: number;
  /** Prompts that routed. */
  readonly routed: number;
  /** Routes to the expected skill. */
  readonly right: number;
  /** Non-fit prompts that routed. */
  readonly nonFitRouted: number;
  /** right / routed (1 when nothing routed). */
  readonly precision: number;
  /** right / fit (1 when nothing fits). */
  readonly recall: number;
  /** Per skill (labeled or routed), by name. */
  readonly perSkill: readonly SkillFigures[];
  /** `expected → got` counts of the wrong decisions (`-` = none), most frequent first. */
  readonly confusion: readonly { expected: string; got: string; count: number }[];
  /** Every prompt whose route differs from its label. */
  readonly wrong: readonly EvalMiss[];
}

function pct(c: { score: number }): string {
  return c.score.toFixed(2);
}

/**
 * Why a decision differs from its label: which trigger routed a prompt that should not have, or
 * how close the expected skill came and what stopped it.
 *
 * @param expected The label (`-` for none, `a|b` for either).
 * @param d The decision.
 * @returns One clause.
 */
export function missReason(expected: string, d: RouteDecision): string {
  const r = d.route;
  const via = (c: { trigger: string; matched: number; intent: boolean; score: number }) =>
    c.intent
      ? `pattern ${c.trigger} (${pct(c)})`
      : `"${c.trigger}" (${pct(c)}, ${c.matched} ${c.matched === 1 ? "word" : "words"})`;
  if (expected === "-") {
    return r ? `routed on ${via(r)}` : "no route";
  }
  const names = expected.split("|");
  const mine = d.candidates.find((c) =>
    names.includes(c.skill.name) ||
    (c.skill.altName !== undefined && names.includes(c.skill.altName))
  );
  const own = mine ? `expected skill best ${via(mine)}` : "expected skill matched no trigger";
  if (r) return `${own}; /${r.skill.name} won on ${via(r)}`;
  if (!mine) return own;
  if (mine && !mine.routable) return `${own}, but it is not in route_skills`;
  if (mine.held && mine.score >= d.threshold) {
    return `${own}, held: it leaves out the word naming what the trigger is about`;
  }
  if (mine && mine.score >= d.threshold) return `${own}; ${d.reason ?? "no route"}`;
  return `${own}, below ${d.threshold}`;
}

/**
 * Routes every labeled prompt and counts.
 *
 * @param items The labeled prompts.
 * @param skills The skills: a list, or a pool (see `routePrompt`).
 * @param options Threshold and routable set.
 * @returns The figures and the wrong decisions.
 */
export function evalRoutes(
  items: readonly LabeledPrompt[],
  skills: readonly RouteSkill[] | SkillPool,
  options: Pick<RouteOptions, "threshold" | "routable"> = {},
): EvalResult {
  let fit = 0, nonFit = 0, routed = 0, right = 0, nonFitRouted = 0;
  const wrong: EvalMiss[] = [];
  const per = new Map<string, { expected: number; routed: number; right: number }>();
  const of = (s: string) => {
    let f = per.get(s);
    if (!f) per.set(s, f = { expected: 0, routed: 0, right: 0 });
    return f;
  };
  const confusion = new Map<string, number>();
  for (const item of items) {
    const decision = routePrompt(item.prompt, skills, options);
    const got = decision.route ? decision.route.skill.name : "-";
    const names = item.expected.split("|");
    // A prompt that either of two skills fits counts for the one it routed to, else the first.
    const label = names.includes(got) ? got : names[0];
    if (item.expected === "-") nonFit++;
    else {
      fit++;
      of(label).expected++;
    }
    if (got !== "-") {
      routed++;
      of(got).routed++;
      if (got === label) {
        right++;
        of(got).right++;
      }
      if (item.expected === "-") nonFitRouted++;
    }
    if (got !== label) {
      wrong.push({ item, got, decision, why: missReason(item.expected, decision) });
      const key = `${label}\t${got}`;
      confusion.set(key, (confusion.get(key) ?? 0) + 1);
    }
  }
  const perSkill = [...per.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map((
    [skill, f],
  ) => ({
    skill,
    ...f,
    precision: f.routed ? f.right / f.routed : 1,
    recall: f.expected ? f.right / f.expected : 1,
  }));
  return {
    fit,
    nonFit,
    routed,
    right,
    nonFitRouted,
    precision: routed ? right / routed : 1,
    recall: fit ? right / fit : 1,
    perSkill,
    confusion: [...confusion.entries()].map(([k, count]) => {
      const [expected, got] = k.split("\t");
      return { expected, got, count };
    }).sort((a, b) => b.count - a.count || (a.expected + a.got < b.expected + b.got ? -1 : 1)),
    wrong,
  };
}

/**
 * Skill routing over a catalog: which installed skill fits a prompt, whether it may route, and the
 * one line of context the UserPromptSubmit hook adds.
 *
 * Every skill is scored with {@link bestTrigger} (and its `skill-rules.json` keywords and intent
 * patterns, if any). The best routable skill (config `route_skills`, default
 * `investigate,review,qa,verify,+packs`: `+packs` is every skill a built-in pack entry applies to,
 * `packs.ts`; `*` routes every skill; an overlay file's `route: true|false` for a skill overrides
 * it, `lib/catalog/overlay_index.ts`) that reaches the threshold (0.66 by default, config
 * `route_threshold`) routes; a better-scoring skill that may not route does not block it. When no
 * trigger routes, the description tier (`describe.ts`) may route a skill without triggers of its
 * own that `route_skills` names (or a pack skill), on its name and description. A pack skill's
 * share must touch a word the prompt asks for, not only the fix a reported symptom infers
 * (`ScoreOptions.asked`); its trigger route on an inferred word yields when another pack skill's
 * text claims the request (`describedClaim`): to that skill when its text routes on its own,
 * else to nothing (both claim it). Ties go to the
 * more specific trigger (`compareScores`), never by name; a full tie routes nothing. A skill the
 * model cannot load (`disable-model-invocation: true`) is never offered to the model: the hint
 * says the user can type `/name`.
 * Prompts that start with `/`, prompts over 8,000 characters and prompts the host wrote (such as a
 * background agent's `<task-notification>`) are never routed.
 *
 * @module
 */

import {
  bestTrigger,
  compareScores,
  type CompiledTrigger,
  compileTrigger,
  type PreparedPrompt,
  preparePrompt,
  type TriggerScore,
} from "./score.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import { loadRouteIndex, type RouteIndexEntry } from "./route_index.ts";
import { COMPILER_FINGERPRINT } from "./compiler_fingerprint.ts";
import { configList, configNumber, type ConfigState } from "../base/config.ts";
import {
  applySkillRules,
  MAX_INTENT_TEXT,
  readSkillRules,
  type SkillRulesWarning,
} from "./skill_rules.ts";
import { contextAnswer, type HookAnswer } from "../host/answer.ts";
import type { HookEvent } from "../host/payload.ts";
import { type HostFolders, HOSTS } from "../host/mod.ts";
import { SKILL_IS_AGENT_MARK } from "../host/host.ts";
import { BLOCK_LINE_MARK } from "../contracts/block_line.ts";
import type { HookContext } from "../hook/runner.ts";
import { getEnv } from "../base/locations.ts";
import type { RouteSkill } from "./route_skill.ts";
import { hookCatalogOptions } from "../catalog/hook_options.ts";
import {
  describedClaim,
  describedList,
  type DescribedRoute,
  type DescribedSkills,
  describeRoute,
  type DescriptionHit,
  descriptionHits,
  descriptionQuery,
} from "./describe.ts";
import { parseHintMode, routeHint } from "./hint.ts";

/** The default routing threshold. */
export const DEFAULT_ROUTE_THRESHOLD = 0.66;

/** The `route_skills` word for every skill a reviewed built-in pack entry applies to. */
export const PACKS_WORD = "+packs";

/** The skills that route by default (config `route_skills`): the seed's four, and the packs'. */
export const DEFAULT_ROUTE_SKILLS: readonly string[] = Object.freeze([
  "investigate",
  "review",
  "qa",
  "verify",
  PACKS_WORD,
]);

/** Prompts longer than this (pasted logs) are never routed. */
export const MAX_ROUTE_PROMPT_CHARS = 8000;

export {
  contractSummaries,
  type HintMode,
  parseHintMode,
  ROUTE_OFF_COMMAND,
  routeHint,
} from "./hint.ts";

/** Tags that open a prompt the host wrote, not the user. */
const HOST_PROMPT_TAGS: readonly string[] = [
  "task-notification",
  "command-name",
  "command-message",
  "command-args",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "bash-input",
  "bash-stdout",
  "bash-stderr",
  // Codex CLI: a Stop hook's reason sent back, and a `$skill` body it injected.
  "hook_prompt",
  "skill",
  "system-reminder",
  "user-prompt-submit-hook",
];

/** One skill's best match. */
export interface RouteCandidate extends SkillMatch {
  /** The skill. */
  readonly skill: RouteSkill;
  /** Whether config lets this skill route. */
  readonly routable: boolean;
}

/** Why a prompt did not route. */
export type NoRouteReason =
  | "empty-prompt"
  | "slash-command"
  | "too-long"
  | "host-prompt"
  | "subagent"
  | "no-skills"
  | "no-match"
  | "below-threshold"
  | "not-routable"
  | "sent-elsewhere"
  | "tiers-disagree"
  | "tie";

/** Which tier routed: a trigger (or pattern), or the name and description. */
export type RouteTier = "trigger" | "description";

/** The routing decision for one prompt. */
export interface RouteDecision {
  /** The skill that routes, when one does. */
  readonly route?: RouteCandidate;
  /** The tier that routed it. */
  readonly tier?: RouteTier;
  /** Why nothing routed. */
  readonly reason?: NoRouteReason;
  /** Skills with a score above 0, best first. */
  readonly candidates: readonly RouteCandidate[];
  /** The threshold applied. */
  readonly threshold: number;
  /**
   * Why the routed skill won over the runner-up that had the same score (or why a full tie routed
   * nothing, or which skill the best one's text sends the request to), for `--explain`.
   */
  readonly tie?: string;
}

/**
 * Installed skills that can say which of them may match a prompt, so that only those are scored
 * (see {@link RouteWorld}).
 */
export interface SkillPool {
  /** How many skills. */
  readonly count: number;
  /**
   * The skills, in precedence order, that can score above 0 for a prompt; every other skill
   * scores 0.
   *
   * @param prompt The prepared prompt.
   * @returns The skills to score.
   */
  candidatesFor(prompt: PreparedPrompt): readonly RouteSkill[];
  /**
   * Every skill's description terms, for the description tier (see `describe.ts`).
   *
   * @returns The terms and the skills by index.
   */
  described?(): DescribedSkills<RouteSkill>;
}

/** Options of {@link routePrompt}. */
export interface RouteOptions {
  /** The threshold (default {@link DEFAULT_ROUTE_THRESHOLD}). */
  readonly threshold?: number;
  /** Routable skill names; `*` allows all (default {@link DEFAULT_ROUTE_SKILLS}). */
  readonly routable?: readonly string[];
  /**
   * Asked before each intent pattern is tried; once it says true, no more are tried. A match is
   * synchronous, so the hook's deadline timer cannot interrupt it: the hook passes its deadline
   * check here, and a rules file with many costly patterns overruns by one pattern at most.
   */
  readonly pastDeadline?: () => boolean;
}

/**
 * Why a prompt is never routed, whatever the skills: empty, a typed `/command` (a first word
 * that starts with `/` and holds no other `/`: `/api/users` is a path), over 8,000
 * characters, or written by the host (`<task-notification>` and the like, and skillgate's own
 * block texts, which Copilot CLI re-sends as a prompt).
 *
 * @param prompt The prompt text.
 * @returns The reason, or `undefined` when the prompt may route.
 */
export function skipReason(prompt: string | undefined): NoRouteReason | undefined {
  if (typeof prompt !== "string" || prompt.trim() === "") return "empty-prompt";
  if (prompt.length > MAX_ROUTE_PROMPT_CHARS) return "too-long";
  const head = prompt.trimStart();
  // "/review the auth change": a skill picked by its command. "/api/users returns 500": a path
  // (a second slash in the first word), not a command.
  if (head.startsWith("/") && !/^\/\S*\//.test(head)) return "slash-command";
  const tag = /^<([a-z][a-z0-9_-]*)[\s>]/i.exec(head)?.[1]?.toLowerCase();
  if (tag && HOST_PROMPT_TAGS.includes(tag)) return "host-prompt";
  // Hosts hand a Stop block's reason back as a new prompt (Copilot CLI; Gemini CLI's BeforeAgent
  // fires again with it): skillgate's own texts, known by their marks, are never the user's.
  if (isOwnText(head)) return "host-prompt";
  return undefined;
}

/** What hosts put before a Stop block's reason when they hand it to the model. */
const STOP_FEEDBACK: readonly string[] = HOSTS.flatMap((h) => h.texts.stopFeedback ?? []);

/**
 * Whether a prompt is one of skillgate's own texts sent back by the host: the contract block line
 * (its {@link BLOCK_LINE_MARK}), the redirect text (`"name"` then {@link SKILL_IS_AGENT_MARK}), or
 * a block reason behind a host's feedback prefix.
 *
 * @param head The prompt, leading space removed.
 * @returns `true` for skillgate's own text.
 */
export function isOwnText(head: string): boolean {
  if (head.startsWith(BLOCK_LINE_MARK)) return true;
  if (STOP_FEEDBACK.some((p) => head.startsWith(p))) return true;
  if (!head.startsWith('"')) return false;
  const close = head.indexOf('"', 1);
  return close > 1 && close <= 301 && head.startsWith(SKILL_IS_AGENT_MARK, close + 1);
}

/**
 * Whether a skill may route: an overlay file's `route: true|false` for it, else the `route_skills`
 * list.
 *
 * @param skill The skill.
 * @param routable The list; `*` allows every skill, `+packs` every built-in pack skill.
 * @returns True when it may route.
 */
export function isRoutable(
  skill: Pick<RouteSkill, "name" | "altName" | "pack" | "route">,
  routable: readonly string[],
): boolean {
  if (typeof skill.route === "boolean") return skill.route;
  if (routable.includes("*")) return true;
  return named(skill, routable);
}

/**
 * Routable by name (or as a pack skill under `+packs` or `*`, or by an overlay's `route`), not only
 * through `*`.
 */
function named(
  skill: Pick<RouteSkill, "name" | "altName" | "pack" | "route">,
  routable: readonly string[],
) {
  if (typeof skill.route === "boolean") return skill.route;
  if (skill.pack !== undefined && (routable.includes(PACKS_WORD) || routable.includes("*"))) {
    return true;
  }
  return routable.includes(skill.name) || (!!skill.altName && routable.includes(skill.altName));
}

const compiled = new WeakMap<RouteSkill, CompiledTrigger[]>();
const compiledKeywords = new WeakMap<RouteSkill, CompiledTrigger[]>();

function keywordsOf(skill: RouteSkill): CompiledTrigger[] {
  const known = compiledKeywords.get(skill);
  if (known) return known;
  const list = (skill.keywords ?? []).filter((t) => typeof t === "string" && t.trim() !== "")
    .map((t) => compileTrigger(t));
  compiledKeywords.set(skill, list);
  return list;
}

/**
 * A skill's compiled triggers. `known` are triggers compiled before (the catalog index keeps
 * them); each is used only where its text is the trigger's.
 */
function triggersOf(skill: RouteSkill, known?: readonly CompiledTrigger[]): CompiledTrigger[] {
  let list = compiled.get(skill);
  if (!list) {
    const raw = Array.isArray(skill.triggers) ? skill.triggers : [];
    list = raw.filter((t) => typeof t === "string" && t.trim() !== "").map((t, i) => {
      const k = known?.[i];
      return k && k.text === t ? k : compileTrigger(t);
    });
    compiled.set(skill, list);
  }
  return list;
}

/** How one skill scored: its best trigger or pattern. */
export interface SkillMatch {
  /** 0..1. */
  readonly score: number;
  /** The trigger (or `/pattern/`) that gave it. */
  readonly trigger: string;
  /** Content words of that trigger the prompt has. */
  readonly matched: number;
  /** Of those, the ones said in words. */
  readonly literal: number;
  /** Content words the trigger has. */
  readonly total: number;
  /** True for a whole-phrase match. */
  readonly whole: boolean;
  /** True when the trigger holds a key of the request's opening verb. */
  readonly onVerb: boolean;
  /** True when an intent pattern gave it. */
  readonly intent: boolean;
  /** True for a held share (`TriggerScore.held`): shown, never routed. */
  readonly held?: boolean;
  /** True when the phrase counts only as what an order makes (`TriggerScore.object`). */
  readonly object?: boolean;
}

/**
 * Scores one skill against a prompt: its `triggers:` (a foreign list when `foreign`), its
 * `skill-rules.json` keywords (always a foreign list) and its intent patterns.
 *
 * @param skill The skill.
 * @param prompt The prompt, prepared or as written.
 * @param text The prompt text, for intent patterns (default: none tried when `prompt` is prepared).
 * @param pastDeadline Asked before each intent pattern; none is tried once it says true.
 * @param foreign True when the skill routes only because `route_skills` is `*`.
 * @returns Its best score, trigger and matched words.
 */
export function scoreSkill(
  skill: RouteSkill,
  prompt: PreparedPrompt | string,
  text?: string,
  pastDeadline?: () => boolean,
  foreign = false,
): SkillMatch {
  const p = typeof prompt === "string" ? preparePrompt(prompt) : prompt;
  const raw = typeof prompt === "string" ? prompt : text;
  const pick = (best: TriggerScore | undefined, other: TriggerScore | undefined) =>
    !best || (other && compareScores(other, best) < 0) ? other : best;
  const best = pick(
    // A pack skill's share must touch a word the prompt asks for, not only an inferred fix.
    bestTrigger(triggersOf(skill), p, { foreign, asked: skill.pack !== undefined }),
    skill.keywords?.length ? bestTrigger(keywordsOf(skill), p, { foreign: true }) : undefined,
  );
  let result: SkillMatch = best ? { ...best, intent: false } : {
    score: 0,
    trigger: "",
    matched: 0,
    literal: 0,
    total: 0,
    whole: false,
    onVerb: false,
    intent: false,
  };
  if (result.score < 1 && raw !== undefined) {
    const head = raw.slice(0, MAX_INTENT_TEXT);
    for (const re of skill.intentPatterns ?? []) {
      if (pastDeadline?.()) break;
      if (re instanceof RegExp) re.lastIndex = 0;
      if (re.test(head)) {
        result = {
          score: 1,
          trigger: `/${re.source}/`,
          matched: 0,
          literal: 0,
          total: 0,
          whole: true,
          onVerb: false,
          intent: true,
        };
        break;
      }
    }
  }
  return result;
}

/** The prompt prepared last, so that loading the skills and scoring them prepare it once. */
let lastPrepared: { readonly text: string; readonly prepared: PreparedPrompt } | undefined;

function prepareOnce(text: string): PreparedPrompt {
  if (lastPrepared?.text !== text) lastPrepared = { text, prepared: preparePrompt(text) };
  return lastPrepared.prepared;
}

/** Scores shown and compared at two decimals, so what `--explain` prints is what is compared. */
function shown(score: number): number {
  return Math.round(score * 100) / 100;
}

/** Candidates best first: score and specificity, then routable first (display order only). */
function byRank(a: RouteCandidate, b: RouteCandidate): number {
  return compareScores(a, b) || Number(b.routable) - Number(a.routable);
}

/** Why `a` ranks over `b` at the same score, in words. */
function tieReason(a: RouteCandidate, b: RouteCandidate): string {
  const why = a.onVerb !== b.onVerb
    ? "its trigger holds the request's opening verb"
    : a.matched !== b.matched
    ? `more matched words (${a.matched} to ${b.matched})`
    : a.whole !== b.whole
    ? "its whole trigger phrase is in the request"
    : a.literal !== b.literal
    ? `more words said, not inferred (${a.literal} to ${b.literal})`
    : `a longer trigger (${a.total} words to ${b.total})`;
  return `/${sanitizeName(a.skill.name) || "?"} over /${sanitizeName(b.skill.name) || "?"} at ${
    a.score.toFixed(2)
  }: ${why}`;
}

/**
 * Picks the skill a prompt routes to, if any: the best routable skill that reaches the threshold.
 * A better-scoring skill that may not route does not block it. Ties go to the more specific
 * trigger ({@link compareScores}); a full tie between routable skills routes nothing.
 *
 * @param prompt The prompt text.
 * @param skills The installed skills: a list (all scored) or a pool (only its candidates).
 * @param options Threshold and routable set.
 * @returns The decision, with every candidate that scored above 0.
 */
export function routePrompt(
  prompt: string | undefined,
  skills: readonly RouteSkill[] | SkillPool,
  options: RouteOptions = {},
): RouteDecision {
  const threshold = options.threshold ?? DEFAULT_ROUTE_THRESHOLD;
  const routable = options.routable ?? DEFAULT_ROUTE_SKILLS;
  const skip = skipReason(prompt);
  if (skip) return { reason: skip, candidates: [], threshold };
  const text = prompt as string;
  const list = "count" in skills ? undefined : skills as readonly RouteSkill[];
  if ((list ? list.length : (skills as SkillPool).count) === 0) {
    return { reason: "no-skills", candidates: [], threshold };
  }
  const star = routable.includes("*");
  const prepared = prepareOnce(text);
  const candidates: RouteCandidate[] = [];
  for (const skill of list ?? (skills as SkillPool).candidatesFor(prepared)) {
    // "just change the label to 'Export to Excel'": the user states the edit, and a pack skill's
    // trigger word in it ("xlsx") asks for none of its work.
    if (prepared.statedEdit && skill.pack !== undefined) continue;
    // By name: in the list, a pack skill under `+packs`, or allowed by an overlay's `route: true`
    // (its triggers are then the user's own choice, not a foreign list).
    const byName = named(skill, routable);
    const s = scoreSkill(skill, prepared, text, options.pastDeadline, star && !byName);
    if (s.score <= 0) continue;
    candidates.push({ skill, ...s, routable: byName || (star && skill.route !== false) });
  }
  candidates.sort(byRank);
  // A held share (it leaves out the word naming what its trigger is about) never routes.
  const reaching = candidates.filter((c) => shown(c.score) >= threshold && c.held !== true);
  const routed = reaching.filter((c) => c.routable);
  const best = routed[0];
  // The description tier: when no trigger routes, and when one routes a pack skill (a pack
  // skill's trigger and another pack skill's own text claiming the request). Its hits are ranked
  // at most once a prompt, whichever of the two asks.
  let hits: DescriptionHit[] | undefined;
  const described = (ask: typeof describeRoute = describeRoute) => {
    // "change the date format to YYYY-MM-DD in the export": the user states the edit; "fix the
    // lint error: prefer-const on line 42": a plain fix. No skill's text is asked for, whatever
    // words it shares.
    if (prepared.statedEdit || (prepared.lint && !prepared.build)) return undefined;
    // "why does the README say make setup?": about the code's history, unless something broke.
    if (prepared.why && !prepared.inferred.has("bug")) return undefined;
    const pool = list ? describedList(list) : (skills as SkillPool).described?.();
    if (!pool) return undefined;
    const query = descriptionQuery(prepared);
    hits ??= descriptionHits(query, pool);
    return ask(
      query,
      pool,
      // Skills without triggers of their own (pack skills' are reviewed), named by route_skills.
      (s) => named(s, routable) && (s.pack !== undefined || s.triggers.length === 0),
      hits,
    );
  };
  if (!best) {
    const reason = candidates.length === 0
      ? "no-match"
      : reaching.length
      ? "not-routable"
      : "below-threshold";
    const d = described();
    return d ? describedDecision(d, candidates, threshold) : { reason, candidates, threshold };
  }
  // "QA the site, but only give me a report": /qa's own text says "For report-only mode, use
  // /qa-only", and /qa-only fits as well. Routing to /qa would ask for the work the user ruled out.
  // So does a prompt that rules out changes ("don't change any code", "just report", "write up
  // what you find") when /qa-only is a candidate at all: it routes there when it may, else nothing.
  const reporter = prepared.reportOnly ? reportTarget(best, candidates) : undefined;
  if (reporter?.routable && shown(reporter.score) >= threshold && reporter.held !== true) {
    return {
      route: reporter,
      tier: "trigger",
      candidates,
      threshold,
      tie: `/${sanitizeName(reporter.skill.name) || "?"} over /${
        sanitizeName(best.skill.name) || "?"
      }: the prompt rules out changes and the other's text sends report-only requests there`,
    };
  }
  const sent = reporter ?? sentTo(best, reaching);
  if (sent) {
    return {
      reason: "sent-elsewhere",
      candidates,
      threshold,
      tie: `/${sanitizeName(best.skill.name) || "?"}'s text sends this kind of request to /${
        sanitizeName(sent.skill.name) || "?"
      }, ${
        reporter
          ? "and the prompt rules out changes"
          : `which fits it as well ("${sanitizeLine(sent.trigger, 120)}", every word said)`
      }`,
    };
  }
  // A pack skill's trigger fits on a word the prompt does not say (a symptom read as "bug", …) or
  // only as the thing an order makes, and another pack skill's own name and description fit it
  // clearly: both claim the request, so neither routes.
  if (best.skill.pack !== undefined && (best.literal < best.matched || best.object === true)) {
    const d = described(describedClaim);
    if (d && d.skill !== best.skill) {
      // The other skill's text routes on its own (a clear margin over its runner-up): its words
      // are said, the trigger's fit is inferred, so the text wins.
      const own = described();
      if (own?.skill === d.skill) return describedDecision(own, candidates, threshold);
      return {
        reason: "tiers-disagree",
        candidates,
        threshold,
        tie: `/${sanitizeName(best.skill.name) || "?"} on "${sanitizeLine(best.trigger, 120)}", /${
          sanitizeName(d.skill.name) || "?"
        } on its description (${d.hit.matched.join(", ")}) at ${d.hit.score.toFixed(1)}`,
      };
    }
  }
  const next = routed[1];
  if (next && shown(next.score) === shown(best.score)) {
    if (compareScores(best, next) === 0) {
      return {
        reason: "tie",
        candidates,
        threshold,
        tie: `/${sanitizeName(best.skill.name) || "?"} and /${
          sanitizeName(next.skill.name) || "?"
        } tie at ${best.score.toFixed(2)} on every measure of specificity`,
      };
    }
    return { route: best, tier: "trigger", candidates, threshold, tie: tieReason(best, next) };
  }
  return { route: best, tier: "trigger", candidates, threshold };
}

/** The decision for a description tier route. */
function describedDecision(
  d: DescribedRoute<RouteSkill>,
  candidates: readonly RouteCandidate[],
  threshold: number,
): RouteDecision {
  const n = d.hit.matched.length;
  return {
    route: {
      skill: d.skill,
      score: d.hit.score,
      trigger: `description: ${d.hit.matched.join(", ")}`,
      matched: n,
      literal: n,
      total: n,
      whole: false,
      onVerb: false,
      intent: false,
      routable: true,
    },
    tier: "description",
    candidates,
    threshold,
    tie: `/${sanitizeName(d.skill.name) || "?"} on its description at ${d.hit.score.toFixed(1)}${
      d.runnerUp ? `, the runner-up at ${d.runnerUp.toFixed(1)}` : ""
    }`,
  };
}

/**
 * The candidate that `best`'s text sends a kind of request to (its `sendsTo`), when it fits the
 * prompt at least as well as `best`, every word of its trigger said.
 */
function sentTo(
  best: RouteCandidate,
  reaching: readonly RouteCandidate[],
): RouteCandidate | undefined {
  return reaching.find((c) =>
    c !== best && sendsTo(best, c.skill) && c.literal === c.total && compareScores(c, best) <= 0
  );
}

/** True when `best`'s text sends a kind of request to `skill` (its `sendsTo`). */
function sendsTo(best: RouteCandidate, skill: RouteSkill): boolean {
  const names = best.skill.sendsTo;
  return Array.isArray(names) && names.length > 0 &&
    (names.includes(skill.name) || names.includes(skill.name.slice(skill.name.indexOf(":") + 1)) ||
      (skill.altName !== undefined && names.includes(skill.altName)));
}

/**
 * The candidate that `best`'s text sends a kind of request to (its `sendsTo`) when that skill is a
 * report-only one: one of its triggers, or its description, says `report`.
 */
function reportTarget(
  best: RouteCandidate,
  candidates: readonly RouteCandidate[],
): RouteCandidate | undefined {
  return candidates.find((c) =>
    c !== best && sendsTo(best, c.skill) &&
    [...c.skill.triggers, c.skill.description ?? ""].some((t) => /\breport/i.test(String(t)))
  );
}

/** The threshold and routable set config asks for. */
export interface RouteSettings {
  /** Config `route_threshold` (a number in (0, 1]; anything else gives the default). */
  readonly threshold: number;
  /** Config `route_skills`. */
  readonly routable: readonly string[];
}

/**
 * Reads the routing settings from config.
 *
 * @param config The config file as read.
 * @returns The threshold and routable set.
 */
export function routeSettings(config: ConfigState): RouteSettings {
  const t = configNumber(config, "route_threshold", DEFAULT_ROUTE_THRESHOLD);
  return {
    threshold: t > 0 && t <= 1 ? t : DEFAULT_ROUTE_THRESHOLD,
    routable: configList(config, "route_skills", [...DEFAULT_ROUTE_SKILLS]),
  };
}

/**
 * The installed skills as routing sees them. As a {@link SkillPool} it hands {@link routePrompt}
 * only the skills that share a word key with the prompt (from the routing index), so that a
 * thousand installed skills cost the scoring of a few.
 */
export interface RouteWorld extends SkillPool {
  /** Skills, with `skill-rules.json` keywords and patterns added (all parsed on first use). */
  readonly skills: readonly RouteSkill[];
  /** The skills directories scanned. */
  readonly dirs: readonly string[];
  /** SKILL.md files looked at. */
  readonly scanned: number;
  /** Problems in `skill-rules.json` files (invalid patterns are skipped). */
  readonly rulesWarnings: readonly SkillRulesWarning[];
  /** `skill-rules.json` entries naming a skill that is not installed. */
  readonly unmatchedRules: number;
}

/** Where {@link loadRouteSkills} looks. */
export interface RouteWorldOptions {
  /** The folders of the host whose skills route (see `CatalogOptions.hostFolders`). */
  readonly hostFolders: HostFolders;
  /** The session's directory, for project skills. */
  readonly cwd?: string;
  /** The project root (the host's project variable). */
  readonly projectDir?: string;
  /** Extra skill directories (config `skill_dirs`). */
  readonly extraSkillDirs?: readonly string[];
  /** The state root holding the catalog index. */
  readonly stateRoot?: string;
  /**
   * The prompt to be routed: only its candidate skills' SKILL.md files are checked for an
   * in-place edit (the 1,000-skill budget, see `route_index.ts`). Without it, every file is.
   */
  readonly prompt?: string;
}

/**
 * Loads the installed skills and their `skill-rules.json` triggers.
 *
 * @param opts Where to look.
 * @returns The skills and what was scanned.
 */
export async function loadRouteSkills(opts: RouteWorldOptions): Promise<RouteWorld> {
  const load = (keys?: ReadonlySet<string>) =>
    loadRouteIndex({
      hostFolders: opts.hostFolders,
      cwd: opts.cwd,
      projectDir: opts.projectDir,
      extraSkillDirs: opts.extraSkillDirs,
      stateRoot: opts.stateRoot,
      compiler: { version: COMPILER_FINGERPRINT, compile: compileTrigger },
      keys,
    });
  let index = await load(opts.prompt === undefined ? undefined : prepareOnce(opts.prompt).keys);
  // Only installed skills' intent patterns are compiled; the names are read only for a rules file
  // with patterns.
  const rules = await readSkillRules(index.dirs, {
    installed: () =>
      new Set(
        index.all().flatMap((e) => [e.skill.name, ...(e.skill.altName ? [e.skill.altName] : [])]),
      ),
  });
  const base = {
    dirs: index.dirs,
    scanned: index.scanned,
    rulesWarnings: rules.warnings,
  };
  const skillsOf = (entries: RouteIndexEntry[]) =>
    entries.map((e) => {
      triggersOf(e.skill, e.compiled);
      return e.skill;
    });
  if (rules.rules.length === 0) {
    let all: RouteSkill[] | undefined;
    let described: DescribedSkills<RouteSkill> | undefined;
    return {
      ...base,
      get skills() {
        return all ??= skillsOf(index.all());
      },
      count: index.count,
      candidatesFor: (p) => skillsOf(index.select(p.keys)),
      described: () =>
        described ??= { index: index.descriptions(), skill: (i) => skillsOf([index.entry(i)])[0] },
      unmatchedRules: 0,
    };
  }
  // Rules add triggers and patterns by skill name: every skill is scored, so every skill's file
  // is checked.
  if (opts.prompt !== undefined) index = await load();
  const entries = index.all();
  const merged = applySkillRules(entries.map((e) => e.skill), rules.rules);
  // A skill that `skill-rules.json` extends is a new object: its catalog triggers still count.
  merged.skills.forEach((s, i) => triggersOf(s, entries[i].compiled));
  return {
    ...base,
    skills: merged.skills,
    count: merged.skills.length,
    candidatesFor: () => merged.skills,
    described: () => ({ index: index.descriptions(), skill: (i) => merged.skills[i] }),
    unmatchedRules: merged.unmatched,
  };
}

/**
 * The UserPromptSubmit hook's logic: one decision, one log line (plus one per skipped
 * `skill-rules.json` pattern), never prompt text in the log.
 *
 * @param ev The event.
 * @param ctx The runner's context.
 * @returns The context answer naming the routed skill, or `null`.
 */
export async function routeOnPrompt(ev: HookEvent, ctx: HookContext): Promise<HookAnswer> {
  // Codex CLI sends a subagent's task (its spawn message) as a UserPromptSubmit with `agent_id`.
  const early = ev.agentId !== undefined ? "subagent" : skipReason(ev.prompt);
  if (early) {
    ctx.log("no-route", early);
    return null;
  }
  const settings = routeSettings(ctx.config);
  const world = await loadRouteSkills({ ...hookCatalogOptions(ev, ctx), prompt: ev.prompt });
  for (const w of world.rulesWarnings) {
    ctx.log("warning", "skill-rules-pattern-skipped", {
      skill: w.skill ?? "",
      index: w.index ?? -1,
      problem: w.problem,
    });
  }
  const decision = routePrompt(ev.prompt, world, { ...settings, pastDeadline: ctx.pastDeadline });
  const best = decision.candidates[0];
  const fields: Record<string, string | number> = { skills: world.count };
  if (best) {
    fields.best = sanitizeName(best.skill.name) || "?";
    fields.score = best.score.toFixed(2);
  }
  if (!decision.route) {
    ctx.log("no-route", decision.reason, fields);
    return null;
  }
  const mode = parseHintMode(getEnv("SKILLGATE_SKILL_ROUTE_HINT"));
  const route = decision.route;
  ctx.log("routed", undefined, {
    ...fields,
    skill: sanitizeName(route.skill.name) || "?",
    tier: decision.tier ?? "trigger",
    hint: route.skill.userOnly ? "user-only" : mode,
  });
  return contextAnswer(ev, routeHint(route.skill, mode, ev.host));
}

/**
 * `skillgate route`: what the routing hook would do, and how well triggers route a labeled set.
 *
 * - `skillgate route --explain "<prompt>" [--json] [--threshold n]`: the switch and its source,
 *   the threshold, the skills scanned, the candidates, the route and the hint it would inject. It
 *   works with the switch on or off and never injects anything.
 * - `skillgate route eval <file.tsv> [--json] [--threshold n]`: for `expected<TAB>prompt` lines
 *   (`-` = no route; `#` starts a comment), precision, recall and every wrong decision.
 * - `skillgate route --default <switch>`: the switch's built-in default.
 * - `--skills-dir <dir>` (repeatable) scores only the skills in those directories instead of the
 *   installed ones.
 *
 * Exit codes: 0 done, 2 `SKILL_ROUTE_USAGE` (bad arguments, or an eval file that cannot be read or
 * has a malformed line).
 *
 * @module
 */

import { join } from "node:path";
import {
  readConfig,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_NAMES,
  type SwitchName,
} from "../base/config.ts";
import { claudeConfigDir, getEnv, stateRoot } from "../base/locations.ts";
import {
  loadRouteSkills,
  parseHintMode,
  type RouteCandidate,
  type RouteDecision,
  routeHint,
  routePrompt,
  routeSettings,
  type RouteWorld,
  type SkillPool,
} from "../routing/route.ts";
import type { RouteSkill } from "../routing/route_skill.ts";
import { formatSkillRulesWarning } from "../routing/skill_rules.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import { parseCommandArgs, printHelp, printUsageError } from "./args.ts";

const USAGE =
  `Usage: skillgate route --explain "<prompt>" [--json] [--threshold n] [--skills-dir dir]
       skillgate route eval <file.tsv> [--json] [--threshold n] [--skills-dir dir]
       skillgate route --default <switch>`;

/** Candidates printed by `--explain`. */
const MAX_SHOWN = 5;

class UsageError extends Error {}

function usage(message: string): number {
  return printUsageError(`SKILL_ROUTE_USAGE ${sanitizeLine(message, 200)}`, USAGE);
}

function parseThreshold(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1) {
    throw new UsageError("--threshold takes a number greater than 0 and at most 1");
  }
  return n;
}

/**
 * Runs `skillgate route`.
 *
 * @param args The arguments after `route`.
 * @returns The exit code: 0 done, 2 usage.
 */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      explain: { type: "string" },
      json: { type: "boolean", default: false },
      threshold: { type: "string" },
      default: { type: "string" },
      "skills-dir": { type: "string", multiple: true },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (!parsed.ok) return usage(parsed.message);
  const { values, positionals } = parsed.parsed;
  if (values.help) return printHelp(USAGE);
  try {
    const threshold = parseThreshold(values.threshold);
    const modes =
      [values.explain !== undefined, values.default !== undefined, positionals.length > 0]
        .filter(Boolean).length;
    if (modes !== 1) throw new UsageError("give exactly one of --explain, --default or eval");
    if (values.default !== undefined) {
      if (!(SWITCH_NAMES as readonly string[]).includes(values.default)) {
        throw new UsageError(`--default takes one of ${SWITCH_NAMES.join(", ")}`);
      }
      const name = values.default as SwitchName;
      console.log(
        values.json
          ? JSON.stringify({ switch: name, default: SWITCH_DEFAULT[name] ? "on" : "off" })
          : `${name}: ${SWITCH_DEFAULT[name] ? "on" : "off"}`,
      );
      return 0;
    }
    const dirs = values["skills-dir"];
    if (values.explain !== undefined) {
      if (positionals.length) throw new UsageError("--explain takes one prompt");
      if (values.explain.trim() === "") throw new UsageError("--explain needs a prompt");
      return await explain(values.explain, { json: values.json, threshold, dirs });
    }
    if (positionals[0] !== "eval" || positionals.length !== 2) {
      throw new UsageError("unknown arguments");
    }
    return await evaluate(positionals[1], { json: values.json, threshold, dirs });
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    throw err;
  }
}

interface RunOptions {
  readonly json: boolean;
  readonly threshold?: number;
  readonly dirs?: string[];
}

async function loadWorld(dirs: string[] | undefined): Promise<RouteWorld> {
  if (dirs?.length) {
    return await loadRouteSkills({
      claudeConfigDir: join(dirs[0], ".skillgate-no-config-dir"),
      extraSkillDirs: dirs,
    });
  }
  const config = readConfig();
  const { configList } = await import("../base/config.ts");
  return await loadRouteSkills({
    claudeConfigDir: claudeConfigDir(),
    cwd: Deno.cwd(),
    projectDir: getEnv("CLAUDE_PROJECT_DIR"),
    extraSkillDirs: configList(config, "skill_dirs", []),
    stateRoot: stateRoot(),
  });
}

function name(skill: RouteSkill): string {
  return sanitizeName(skill.name) || "?";
}

/**
 * One candidate line of `--explain`, as in the seed: `  1.00  /investigate  "fix this bug" (2 words)`.
 *
 * @param c The candidate.
 * @returns The line.
 */
export function candidateLine(c: RouteCandidate): string {
  const what = c.intent
    ? `${sanitizeLine(c.trigger, 80)} (pattern)`
    : `"${sanitizeLine(c.trigger, 80)}" (${c.matched} ${c.matched === 1 ? "word" : "words"})`;
  return `  ${c.score.toFixed(2)}  /${name(c.skill)}  ${what}`;
}

function candidateJson(c: RouteCandidate): Record<string, unknown> {
  return {
    skill: name(c.skill),
    score: Math.round(c.score * 100) / 100,
    trigger: sanitizeLine(c.trigger, 200),
    matched: c.matched,
    intent: c.intent,
    routable: c.routable,
  };
}

async function explain(prompt: string, opts: RunOptions): Promise<number> {
  const config = readConfig();
  const sw = resolveSwitch("skill_routing", config);
  const settings = routeSettings(config);
  const threshold = opts.threshold ?? settings.threshold;
  const world = await loadWorld(opts.dirs);
  const decision = routePrompt(prompt, world, { threshold, routable: settings.routable });
  const mode = parseHintMode(getEnv("SKILLGATE_SKILL_ROUTE_HINT"));
  const hint = decision.route ? routeHint(decision.route.skill, mode) : undefined;
  const shown = decision.candidates.slice(0, MAX_SHOWN);
  if (opts.json) {
    console.log(JSON.stringify(
      {
        switch: { name: "skill_routing", on: sw.on, source: sw.source, warning: sw.warning },
        threshold,
        routable: settings.routable,
        skills: { count: world.count, dirs: world.dirs },
        candidates: shown.map(candidateJson),
        route: decision.route ? name(decision.route.skill) : null,
        reason: decision.reason ?? null,
        hint: hint ?? null,
        warnings: world.rulesWarnings.map(formatSkillRulesWarning),
      },
      null,
      2,
    ));
    return 0;
  }
  for (const w of world.rulesWarnings) console.error(`warning: ${formatSkillRulesWarning(w)}`);
  console.log(`switch: skill_routing ${sw.on ? "on" : "off"} (${sw.source})`);
  if (sw.warning) console.log(`warning: ${sanitizeLine(sw.warning)}`);
  console.log(`threshold: ${threshold}`);
  console.log(
    `skills: ${world.count} scanned in ${world.dirs.length ? world.dirs.join(", ") : "(none)"}`,
  );
  console.log("candidates:");
  if (shown.length === 0) console.log("  (none)");
  for (const c of shown) console.log(candidateLine(c));
  console.log(
    decision.route
      ? `route: /${name(decision.route.skill)}`
      : `route: none (${explainReason(decision)})`,
  );
  console.log(`hint: ${hint ?? "none"}`);
  return 0;
}

function explainReason(d: RouteDecision): string {
  const best = d.candidates[0];
  switch (d.reason) {
    case "below-threshold":
      return `best score ${best ? best.score.toFixed(2) : "0.00"} is below ${d.threshold}`;
    case "not-routable":
      return `best skill /${best ? name(best.skill) : "?"} is not in route_skills`;
    case "slash-command":
      return "the prompt starts with /";
    case "too-long":
      return "the prompt is over 8,000 characters";
    case "host-prompt":
      return "the host wrote this prompt";
    default:
      return d.reason ?? "no match";
  }
}

/** One labeled prompt of an eval file. */
export interface LabeledPrompt {
  /** Its line number. */
  readonly line: number;
  /** The skill it should route to, or `-` for none. */
  readonly expected: string;
  /** The prompt. */
  readonly prompt: string;
}

/**
 * Parses an eval file: `expected<TAB>prompt` lines; blank lines and lines starting with `#` are
 * skipped; `expected` may carry a leading `/`; `-` means no route.
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
    const expected = tab > 0 ? raw.slice(0, tab).trim().replace(/^\//, "") : "";
    const prompt = tab > 0 ? raw.slice(tab + 1) : "";
    if (!expected || !prompt.trim()) {
      throw new Error(`line ${i + 1} is not expected<TAB>prompt`);
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
  /** Every prompt whose route differs from its label. */
  readonly wrong: readonly EvalMiss[];
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
  options: { threshold?: number; routable?: readonly string[] } = {},
): EvalResult {
  let fit = 0, nonFit = 0, routed = 0, right = 0, nonFitRouted = 0;
  const wrong: EvalMiss[] = [];
  for (const item of items) {
    const decision = routePrompt(item.prompt, skills, options);
    const got = decision.route ? decision.route.skill.name : "-";
    if (item.expected === "-") nonFit++;
    else fit++;
    if (got !== "-") {
      routed++;
      if (got === item.expected) right++;
      if (item.expected === "-") nonFitRouted++;
    }
    if (got !== item.expected) wrong.push({ item, got, decision });
  }
  return {
    fit,
    nonFit,
    routed,
    right,
    nonFitRouted,
    precision: routed ? right / routed : 1,
    recall: fit ? right / fit : 1,
    wrong,
  };
}

async function evaluate(file: string, opts: RunOptions): Promise<number> {
  let items: LabeledPrompt[];
  try {
    items = parseLabeled(await Deno.readTextFile(file));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UsageError(`cannot use ${file}: ${why}`);
  }
  const config = readConfig();
  const settings = routeSettings(config);
  const threshold = opts.threshold ?? settings.threshold;
  const world = await loadWorld(opts.dirs);
  const r = evalRoutes(items, world, { threshold, routable: settings.routable });
  const missLine = (m: EvalMiss) => {
    const best = m.decision.candidates[0];
    const why = m.decision.route ? "" : ` (${m.decision.reason})`;
    const bestText = best ? `; best ${candidateLine(best).trim()}` : "";
    const exp = m.item.expected === "-" ? "none" : `/${sanitizeName(m.item.expected)}`;
    const got = m.got === "-" ? "none" : `/${sanitizeName(m.got)}`;
    return `  line ${m.item.line}: expected ${exp}, got ${got}${why}${bestText}: ${
      sanitizeLine(m.item.prompt, 160)
    }`;
  };
  if (opts.json) {
    console.log(JSON.stringify(
      {
        threshold,
        routable: settings.routable,
        skills: { count: world.count, dirs: world.dirs },
        prompts: items.length,
        fit: r.fit,
        nonFit: r.nonFit,
        routed: r.routed,
        right: r.right,
        nonFitRouted: r.nonFitRouted,
        precision: r.precision,
        recall: r.recall,
        wrong: r.wrong.map((m) => ({
          line: m.item.line,
          expected: m.item.expected,
          got: m.got,
          reason: m.decision.reason ?? null,
          best: m.decision.candidates[0] ? candidateJson(m.decision.candidates[0]) : null,
          prompt: sanitizeLine(m.item.prompt, 500),
        })),
      },
      null,
      2,
    ));
    return 0;
  }
  console.log(`threshold: ${threshold}`);
  console.log(`skills: ${world.count} scanned in ${world.dirs.join(", ") || "(none)"}`);
  console.log(`prompts: ${items.length} (${r.fit} fit, ${r.nonFit} no-fit)`);
  console.log(`precision: ${r.precision.toFixed(3)} (${r.right} of ${r.routed} routes right)`);
  console.log(`recall: ${r.recall.toFixed(3)} (${r.right} of ${r.fit} fit prompts routed right)`);
  console.log(`no-fit routed: ${r.nonFitRouted} of ${r.nonFit}`);
  console.log(`wrong decisions: ${r.wrong.length}`);
  for (const m of r.wrong) console.log(missLine(m));
  return 0;
}

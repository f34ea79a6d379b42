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
 * Exit codes: 0 done, 2 `SKILL_ROUTE_USAGE` (bad arguments, or an eval file with a malformed line),
 * 3 `STATE_ERROR` (an eval file or a `--skills-dir` that cannot be read).
 *
 * @module
 */

import {
  readConfig,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_NAMES,
  type SwitchName,
} from "../base/config.ts";
import { getEnv } from "../base/locations.ts";
import { foldersOf, projectDirOf, stateRoot } from "../host/places.ts";
import { DEFAULT_HOST } from "../host/mod.ts";
import {
  isRoutable,
  loadRouteSkills,
  parseHintMode,
  type RouteCandidate,
  type RouteDecision,
  routeHint,
  routePrompt,
  routeSettings,
  type RouteWorld,
  type RouteWorldOptions,
} from "../routing/route.ts";
import { reachLines, triggerOrigin } from "../routing/reach.ts";
import type { RouteSkill } from "../routing/route_skill.ts";
import { formatSkillRulesWarning } from "../routing/skill_rules.ts";
import {
  type EvalMiss,
  evalRoutes,
  type LabeledPrompt,
  parseLabeled,
} from "../routing/route_eval.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import {
  commandError,
  type CommandSpec,
  directoryProblem,
  parseCommand,
  STATE_ERROR_EXIT,
  STATE_ERROR_WORD,
  USAGE_EXIT,
} from "./args.ts";
import { errorCause } from "../base/errors.ts";

export { evalRoutes, parseLabeled } from "../routing/route_eval.ts";
export type { EvalMiss, EvalResult, LabeledPrompt } from "../routing/route_eval.ts";

const ROUTE_OPTIONS = {
  json: { type: "boolean", description: "Print one JSON object instead of text" },
  threshold: {
    type: "string",
    value: "<n>",
    description: "The score a skill must reach, greater than 0 and at most 1 (default: config " +
      "route_threshold, else 0.66)",
  },
  "skills-dir": {
    type: "string",
    value: "<dir>",
    multiple: true,
    description: "Score only the skills in this directory, not the installed ones",
  },
  "route-skills": {
    type: "string",
    value: "<list>",
    description: "The skills that may route, comma-separated, * for all (default: config " +
      "route_skills)",
  },
} as const;

const EXIT_NOTES = "Exit codes: 0 done, 2 SKILL_ROUTE_USAGE (a bad flag or argument, a malformed " +
  "eval line), 3 STATE_ERROR (a file or directory that cannot be read).";

/** `skillgate route`: the dry run and the switch defaults. */
export const ROUTE_SPEC: CommandSpec = {
  name: "route",
  usageWord: "SKILL_ROUTE_USAGE",
  usage: [
    '--explain "<prompt>" [--json] [--threshold <n>] [--skills-dir <dir>]...',
    "eval <file.tsv> [--json] [--threshold <n>] [--skills-dir <dir>]... [--route-skills <list>]",
    "--default <switch> [--json]",
  ],
  description: "Shows what the routing hook would do with a prompt: the switch and its source, " +
    "the threshold, the skills scanned, the best candidates, the route and the hint it would " +
    "inject. It works with the switch on or off and never injects anything. `route eval --help` " +
    "describes eval.",
  options: {
    explain: { type: "string", value: '"<prompt>"', description: "The prompt to route" },
    default: {
      type: "string",
      value: "<switch>",
      description: `Print a switch's built-in default (${SWITCH_NAMES.join(", ")})`,
    },
    ...ROUTE_OPTIONS,
  },
  notes: EXIT_NOTES,
};

/** `skillgate route eval`: precision and recall on a labeled set. */
export const ROUTE_EVAL_SPEC: CommandSpec = {
  name: "route eval",
  usageWord: "SKILL_ROUTE_USAGE",
  usage: ["<file.tsv> [--json] [--threshold <n>] [--skills-dir <dir>]... [--route-skills <list>]"],
  description: "Routes every prompt of a labeled set and prints precision and recall (in all and " +
    "per skill), the confusion (expected -> got) and every wrong decision with its reason.",
  arguments: [{
    name: "<file.tsv>",
    description: "expected<TAB>prompt lines; expected is a skill name or - for no route; " +
      "blank lines and lines starting with # are skipped; \\n in a prompt is a line break",
  }],
  options: ROUTE_OPTIONS,
  notes: EXIT_NOTES,
};

/** Candidates printed by `--explain`. */
const MAX_SHOWN = 5;

/** A failure of `route`: its exit code and word, printed as one line. */
class RouteError extends Error {
  constructor(readonly exit: number, readonly word: string, message: string) {
    super(message);
  }
}

function usageFailure(message: string): RouteError {
  return new RouteError(USAGE_EXIT, "SKILL_ROUTE_USAGE", message);
}

function parseThreshold(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1) {
    throw usageFailure("--threshold takes a number greater than 0 and at most 1");
  }
  return n;
}

/** Every `--skills-dir` must be a directory: a mistyped one is an error, not zero skills. */
function checkDirs(dirs: readonly string[]): void {
  for (const dir of dirs) {
    const problem = directoryProblem(dir);
    if (problem) throw new RouteError(STATE_ERROR_EXIT, STATE_ERROR_WORD, `${dir}: ${problem}`);
  }
}

/**
 * Runs `skillgate route`.
 *
 * @param args The arguments after `route`.
 * @returns The exit code: 0 done, 2 usage, 3 a file or directory that cannot be read.
 */
export async function main(args: string[]): Promise<number> {
  const isEval = args[0] === "eval";
  const spec = isEval ? ROUTE_EVAL_SPEC : ROUTE_SPEC;
  const parsed = parseCommand(spec, isEval ? args.slice(1) : args);
  if (!parsed.ok) return parsed.exit;
  const a = parsed.args;
  try {
    const threshold = parseThreshold(a.string("threshold"));
    const dirs = a.strings("skills-dir");
    const routable = parseRoutable(a.string("route-skills"));
    if (isEval) {
      if (a.positionals.length !== 1) {
        throw usageFailure(
          a.positionals.length === 0
            ? "Missing <file.tsv>"
            : "Too many arguments: eval takes one <file.tsv>",
        );
      }
      checkDirs(dirs);
      return await evaluate(a.positionals[0], { json: a.json, threshold, dirs, routable });
    }
    const explainText = a.string("explain");
    const defaultOf = a.string("default");
    if ((explainText === undefined) === (defaultOf === undefined)) {
      throw usageFailure("Give one of --explain, --default or eval");
    }
    if (defaultOf !== undefined) {
      if (!(SWITCH_NAMES as readonly string[]).includes(defaultOf)) {
        throw usageFailure(`--default takes one of ${SWITCH_NAMES.join(", ")}`);
      }
      const name = defaultOf as SwitchName;
      console.log(
        a.json
          ? JSON.stringify({ switch: name, default: SWITCH_DEFAULT[name] ? "on" : "off" })
          : `${name}: ${SWITCH_DEFAULT[name] ? "on" : "off"}`,
      );
      return 0;
    }
    if (explainText!.trim() === "") throw usageFailure("--explain needs a prompt");
    checkDirs(dirs);
    return await explain(explainText!, { json: a.json, threshold, dirs, routable });
  } catch (err) {
    if (err instanceof RouteError) {
      return commandError(spec, err.exit, err.word, err.message, a.json);
    }
    throw err;
  }
}

interface RunOptions {
  readonly json: boolean;
  readonly threshold?: number;
  readonly dirs?: readonly string[];
  readonly routable?: readonly string[];
}

function parseRoutable(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (list.length === 0) throw usageFailure("--route-skills takes a comma-separated list or *");
  return list;
}

/** Where the skills are: `--skill-dirs` alone, else the installed ones (and the overlay files). */
async function worldOptions(dirs: readonly string[] | undefined): Promise<RouteWorldOptions> {
  if (dirs?.length) {
    // Only the given folders: a host whose folders are all empty.
    return {
      hostFolders: { configDir: "", home: "", layout: {} },
      extraSkillDirs: [...dirs],
    };
  }
  const config = readConfig(stateRoot);
  const { configList } = await import("../base/config.ts");
  return {
    hostFolders: foldersOf(DEFAULT_HOST),
    cwd: Deno.cwd(),
    projectDir: projectDirOf(DEFAULT_HOST),
    extraSkillDirs: configList(config, "skill_dirs", []),
    stateRoot: stateRoot(),
  };
}

async function loadWorld(dirs: readonly string[] | undefined): Promise<RouteWorld> {
  return await loadRouteSkills(await worldOptions(dirs));
}

/** The reach lines of the skills routing sees (`reach.ts`), from the catalog. */
async function reach(dirs: readonly string[] | undefined, routable: readonly string[]) {
  const { loadCatalog } = await import("../catalog/catalog.ts");
  const { reachOf, withPacks } = await import("../routing/reach.ts");
  const { contractPacksOf } = await import("../base/config.ts");
  // Reach counts the contracts the Stop hook would check: the packs config `contract_packs` names.
  const contractPacks = dirs?.length ? [] : contractPacksOf(readConfig(stateRoot));
  const catalog = await loadCatalog({ ...await worldOptions(dirs), agents: false, contractPacks });
  return reachOf(withPacks(catalog.skills), (s) => isRoutable(s, routable));
}

function name(skill: RouteSkill): string {
  return sanitizeName(skill.name) || "?";
}

/**
 * One candidate line of `--explain`, as in the seed: `  1.00  /investigate  "fix this bug" (2 words)`;
 * a trigger that is not the SKILL.md's own says where it came from (`(2 words, from overlay user
 * <file>:<line>)`, `from skill-rules.json`).
 *
 * @param c The candidate.
 * @returns The line.
 */
export function candidateLine(c: RouteCandidate): string {
  const origin = triggerOrigin(c.skill, c.trigger, c.intent);
  const from = origin === "frontmatter" ? "" : `, from ${sanitizeLine(origin, 200)}`;
  const what = c.intent
    ? `${sanitizeLine(c.trigger, 80)} (pattern${from})`
    : `"${sanitizeLine(c.trigger, 80)}" (${c.matched} ${
      c.matched === 1 ? "word" : "words"
    }${from})`;
  return `  ${c.score.toFixed(2)}  /${name(c.skill)}  ${what}`;
}

function candidateJson(c: RouteCandidate): Record<string, unknown> {
  return {
    skill: name(c.skill),
    score: Math.round(c.score * 100) / 100,
    trigger: sanitizeLine(c.trigger, 200),
    from: sanitizeLine(triggerOrigin(c.skill, c.trigger, c.intent), 300),
    matched: c.matched,
    intent: c.intent,
    routable: c.routable,
  };
}

async function explain(prompt: string, opts: RunOptions): Promise<number> {
  const config = readConfig(stateRoot);
  const sw = resolveSwitch("skill_routing", config);
  const settings = routeSettings(config);
  const threshold = opts.threshold ?? settings.threshold;
  const routable = opts.routable ?? settings.routable;
  const world = await loadWorld(opts.dirs);
  const decision = routePrompt(prompt, world, { threshold, routable });
  const mode = parseHintMode(getEnv("SKILLGATE_SKILL_ROUTE_HINT"));
  const hint = decision.route
    ? routeHint(decision.route.skill, mode, DEFAULT_HOST.kind)
    : undefined;
  const shown = decision.candidates.slice(0, MAX_SHOWN);
  const counts = await reach(opts.dirs, routable);
  if (opts.json) {
    console.log(JSON.stringify(
      {
        switch: { name: "skill_routing", on: sw.on, source: sw.source, warning: sw.warning },
        threshold,
        routable,
        skills: { count: world.count, dirs: world.dirs },
        candidates: shown.map(candidateJson),
        route: decision.route ? name(decision.route.skill) : null,
        tier: decision.tier ?? null,
        reason: decision.reason ?? null,
        tie: decision.tie ?? null,
        hint: hint ?? null,
        warnings: world.rulesWarnings.map(formatSkillRulesWarning),
        reach: counts,
      },
      null,
      2,
    ));
    return 0;
  }
  for (const w of world.rulesWarnings) {
    console.error(`skillgate route: WARN ${formatSkillRulesWarning(w)}`);
  }
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
      ? `route: /${name(decision.route.skill)}${sw.on ? "" : " would route (routing is off)"}`
      : `route: none (${explainReason(decision)})`,
  );
  if (decision.tie) console.log(`tie: ${sanitizeLine(decision.tie, 300)}`);
  console.log(`hint: ${hint ?? "none"}`);
  for (const line of reachLines(counts)) console.log(line);
  return 0;
}

function explainReason(d: RouteDecision): string {
  const best = d.candidates[0];
  switch (d.reason) {
    case "below-threshold":
      return `best score ${best ? best.score.toFixed(2) : "0.00"} is below ${d.threshold}`;
    case "not-routable":
      return `no skill in route_skills reaches ${d.threshold}; /${
        best ? name(best.skill) : "?"
      } does, but is not in route_skills`;
    case "tie":
      return "a full tie between routable skills";
    case "sent-elsewhere":
      return "the best routable skill's text sends this kind of request to another skill";
    case "tiers-disagree":
      return "a pack skill's trigger and another skill's own description both claim the request";
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

async function evaluate(file: string, opts: RunOptions): Promise<number> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    throw new RouteError(STATE_ERROR_EXIT, STATE_ERROR_WORD, `${file}: ${errorCause(err)}`);
  }
  let items: LabeledPrompt[];
  try {
    items = parseLabeled(text);
  } catch (err) {
    throw usageFailure(`${file}: ${errorCause(err)}`);
  }
  const config = readConfig(stateRoot);
  const settings = routeSettings(config);
  const threshold = opts.threshold ?? settings.threshold;
  const routable = opts.routable ?? settings.routable;
  const world = await loadWorld(opts.dirs);
  const r = evalRoutes(items, world, { threshold, routable });
  const skill = (s: string) =>
    s === "-" ? "none" : s.split("|").map((n) => `/${sanitizeName(n) || "?"}`).join(" or ");
  const missLine = (m: EvalMiss) =>
    `  line ${m.item.line}: expected ${skill(m.item.expected)}, got ${skill(m.got)}: ${
      sanitizeLine(m.why, 240)
    }: ${sanitizeLine(m.item.prompt.replace(/\s+/g, " "), 160)}`;
  if (opts.json) {
    console.log(JSON.stringify(
      {
        threshold,
        routable,
        skills: { count: world.count, dirs: world.dirs },
        prompts: items.length,
        fit: r.fit,
        nonFit: r.nonFit,
        routed: r.routed,
        right: r.right,
        nonFitRouted: r.nonFitRouted,
        precision: r.precision,
        recall: r.recall,
        perSkill: r.perSkill.map((f) => ({ ...f, skill: sanitizeName(f.skill) || "?" })),
        confusion: r.confusion.map((c) => ({
          ...c,
          expected: c.expected === "-" ? "-" : sanitizeName(c.expected) || "?",
          got: c.got === "-" ? "-" : sanitizeName(c.got) || "?",
        })),
        wrong: r.wrong.map((m) => ({
          line: m.item.line,
          expected: m.item.expected,
          got: m.got,
          reason: m.decision.reason ?? null,
          why: sanitizeLine(m.why, 500),
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
  console.log("per skill (precision, recall):");
  for (const f of r.perSkill) {
    console.log(
      `  ${skill(f.skill)}  precision ${f.precision.toFixed(2)} (${f.right}/${f.routed})  ` +
        `recall ${f.recall.toFixed(2)} (${f.right}/${f.expected})`,
    );
  }
  console.log("confusion (expected -> got):");
  if (r.confusion.length === 0) console.log("  (none)");
  for (const c of r.confusion) {
    console.log(`  ${skill(c.expected)} -> ${skill(c.got)}: ${c.count}`);
  }
  console.log(`wrong decisions: ${r.wrong.length}`);
  for (const m of r.wrong) console.log(missLine(m));
  return 0;
}

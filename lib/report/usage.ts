/**
 * The per-skill funnel of `skillgate report`, joined from facts already read (no I/O here): the
 * prompts routed to each skill (the routing log), the sessions that loaded it and who did (the
 * transcripts), whether the model followed a route and after how many turns, and its contract
 * runs by outcome (the session records). Counted over every host and per host.
 *
 * A session _followed_ a route to a skill when the model loaded that skill (a `Skill` call or a
 * read of its SKILL.md, not the user's typed `/name`) at or after the route: after it in time when
 * the transcript's records have times, else in the routed prompt's turn or a later one. The turns
 * it took are the load's turn less the routed prompt's (the prompt whose time is nearest the
 * route's log line).
 *
 * @module
 */

import type { ActivityLoad, SessionActivity } from "../transcript/activity.ts";
import type { ReportOutcome } from "../contracts/report.ts";

/** Contract run outcomes the funnel counts (a run re-checked as fixed counts as `met_after_block`). */
export const FUNNEL_OUTCOMES = [
  "met",
  "met_after_block",
  "met_waived",
  "miss",
  "deferred",
  "blocked",
] as const;

/** One of {@link FUNNEL_OUTCOMES}. */
export type FunnelOutcome = typeof FUNNEL_OUTCOMES[number];

/** The counts of one skill (over every host, or one host's). */
export interface SkillCounts {
  /** Prompts routed to it. */
  routed: number;
  /** Sessions where the model loaded it after a route to it. */
  followed: number;
  /** Sessions that loaded it at all. */
  loaded: number;
  /** Of those, who loaded it: the user (`/name`), the model, the model after a route to it. */
  loaded_by: { user: number; model: number; after_route: number };
  /** Contract runs. */
  runs: number;
  /** Runs met at their first stop. */
  met: number;
  /** Runs met after a block. */
  met_after_block: number;
  /** Runs met through a waiver. */
  met_waived: number;
  /** Runs stopped unmet after their block, or blocked and never fixed. */
  miss: number;
  /** Runs left waiting (a question, running agents). */
  deferred: number;
  /** Runs still blocked whose transcript could not be re-checked. */
  blocked: number;
}

/** One skill's row. */
export interface SkillRow extends SkillCounts {
  /** The skill (its name without a `plugin:` prefix). */
  skill: string;
  /** Followed sessions by the turns the load took after the route (`"0"`: the same turn). */
  followed_turns: Record<string, number>;
  /** The contract items its runs missed, most first. */
  missed_items: { item: string; count: number }[];
  /** The same counts per host (`claude`, `copilot`, `codex`, … or `unknown`). */
  hosts: Record<string, SkillCounts>;
}

/** One session as the report knows it. */
export interface SessionFacts {
  /** The session id. */
  readonly session: string;
  /** The host that ran it. */
  readonly host: string;
  /** Its routes in the window: the skill and the log line's time (ms). */
  readonly routes: readonly { skill: string; time: number }[];
  /** Its transcript's activity, when it was read. */
  readonly activity?: SessionActivity;
}

/** One contract run, as the contract report states it. */
export interface RunFacts {
  /** The session id. */
  readonly session: string;
  /** The skill. */
  readonly skill: string;
  /** The outcome. */
  readonly outcome: ReportOutcome;
  /** Whether it counts as a miss, and the items it missed or waived. */
  readonly miss: boolean;
  /** The items. */
  readonly items: readonly string[];
}

/**
 * The key skills are counted under: the name without a `plugin:` prefix or a leading `/` or `$`,
 * lower-case.
 *
 * @param name A skill's name as a log, a record or a transcript writes it.
 * @returns The key.
 */
export function skillKey(name: string): string {
  const t = name.trim().replace(/^[/$]/, "");
  return t.slice(t.lastIndexOf(":") + 1).toLowerCase();
}

/** Zero counts. */
export function emptyCounts(): SkillCounts {
  return {
    routed: 0,
    followed: 0,
    loaded: 0,
    loaded_by: { user: 0, model: 0, after_route: 0 },
    runs: 0,
    met: 0,
    met_after_block: 0,
    met_waived: 0,
    miss: 0,
    deferred: 0,
    blocked: 0,
  };
}

/** The index of the prompt whose time is nearest `time`, if any prompt has a time. */
function nearestPrompt(prompts: readonly (number | undefined)[], time: number): number | undefined {
  let best: number | undefined;
  let gap = Infinity;
  prompts.forEach((t, i) => {
    if (t === undefined) return;
    const g = Math.abs(t - time);
    if (g < gap) [best, gap] = [i, g];
  });
  return best;
}

const MODEL_VIAS = new Set(["skill_tool", "read"]);

/** The first model load at or after a route, and the turns it took (undefined: not known). */
function followOf(
  loads: readonly ActivityLoad[],
  prompts: readonly (number | undefined)[],
  route: number,
): { turns?: number } | undefined {
  const routeTurn = nearestPrompt(prompts, route);
  for (const l of loads) {
    if (!MODEL_VIAS.has(l.via)) continue;
    const after = l.time !== undefined
      ? l.time >= route
      : routeTurn !== undefined && l.turn >= routeTurn;
    if (after) return routeTurn === undefined ? {} : { turns: Math.max(0, l.turn - routeTurn) };
  }
  return undefined;
}

/**
 * Joins the facts into one row per skill, sorted by use (loads, then routes, then runs).
 *
 * @param sessions The sessions in the window.
 * @param runs The contract runs in the window.
 * @returns The rows.
 */
export function buildUsage(
  sessions: readonly SessionFacts[],
  runs: readonly RunFacts[],
): SkillRow[] {
  const rows = new Map<string, SkillRow>();
  const row = (skill: string) => {
    let r = rows.get(skill);
    if (!r) {
      r = { skill, ...emptyCounts(), followed_turns: {}, missed_items: [], hosts: {} };
      rows.set(skill, r);
    }
    return r;
  };
  const both = (skill: string, host: string, add: (c: SkillCounts) => void) => {
    const r = row(skill);
    add(r);
    add(r.hosts[host] ??= emptyCounts());
  };
  const hostOf = new Map<string, string>();
  for (const s of sessions) {
    hostOf.set(s.session, s.host);
    const routed = new Map<string, number>();
    for (const rt of s.routes) {
      const k = skillKey(rt.skill);
      if (k === "") continue;
      both(k, s.host, (c) => c.routed++);
      if (!routed.has(k)) routed.set(k, rt.time);
    }
    const loads = new Map<string, ActivityLoad[]>();
    for (const l of s.activity?.loads ?? []) {
      const k = skillKey(l.name);
      if (k !== "") loads.set(k, [...(loads.get(k) ?? []), l]);
    }
    for (const [k, ls] of loads) {
      const route = routed.get(k);
      const follow = route !== undefined && s.activity
        ? followOf(ls, s.activity.prompts, route)
        : undefined;
      const user = ls.some((l) => l.via === "command");
      const model = ls.some((l) => MODEL_VIAS.has(l.via));
      both(k, s.host, (c) => {
        c.loaded++;
        if (user) c.loaded_by.user++;
        if (model) c.loaded_by.model++;
        if (follow) {
          c.followed++;
          c.loaded_by.after_route++;
        }
      });
      if (follow) {
        const key = follow.turns === undefined ? "unknown" : String(follow.turns);
        const r = row(k);
        r.followed_turns[key] = (r.followed_turns[key] ?? 0) + 1;
      }
    }
  }
  const missed = new Map<string, Map<string, number>>();
  for (const run of runs) {
    const k = skillKey(run.skill);
    if (k === "") continue;
    const outcome: FunnelOutcome = run.outcome === "fixed_after_block"
      ? "met_after_block"
      : run.outcome;
    both(k, hostOf.get(run.session) ?? "unknown", (c) => {
      c.runs++;
      c[outcome]++;
    });
    if (!run.miss) continue;
    const items = missed.get(k) ?? new Map<string, number>();
    for (const i of run.items.length > 0 ? run.items : ["(unknown)"]) {
      items.set(i, (items.get(i) ?? 0) + 1);
    }
    missed.set(k, items);
  }
  for (const [k, items] of missed) {
    row(k).missed_items = [...items].map(([item, count]) => ({ item, count }))
      .sort((a, b) => b.count - a.count || a.item.localeCompare(b.item));
  }
  return [...rows.values()].sort((a, b) =>
    b.loaded - a.loaded || b.routed - a.routed || b.runs - a.runs ||
    a.skill.localeCompare(b.skill)
  );
}

/** The one-line totals of a report. */
export interface UsageSummary {
  /** Prompts routed. */
  routed: number;
  /** Sessions that followed a route (summed over skills). */
  followed: number;
  /** Sessions that followed, per session with a route to that skill. */
  routed_sessions: number;
  /** Skill loads (sessions × skills). */
  loaded: number;
  /** Contract runs met (at first stop or after a block). */
  met: number;
  /** Contract runs. */
  runs: number;
}

/**
 * The totals of the rows.
 *
 * @param rows The rows.
 * @param sessions The sessions (for the sessions with a route).
 * @returns The totals.
 */
export function summarize(
  rows: readonly SkillRow[],
  sessions: readonly SessionFacts[],
): UsageSummary {
  let routedSessions = 0;
  for (const s of sessions) routedSessions += new Set(s.routes.map((r) => skillKey(r.skill))).size;
  const sum = (f: (r: SkillRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    routed: sum((r) => r.routed),
    followed: sum((r) => r.followed),
    routed_sessions: routedSessions,
    loaded: sum((r) => r.loaded),
    met: sum((r) => r.met + r.met_after_block),
    runs: sum((r) => r.runs),
  };
}

/**
 * `skillgate report`'s library entry: the per-skill funnel over a window, from skillgate's own
 * logs, records and the transcripts they name (`collect.ts`), with the installed skills never
 * loaded nor routed listed as unused. {@link usageReport} builds it; `format.ts` writes it.
 *
 * @module
 */

import { resolve } from "node:path";
import type { Rechecker } from "../contracts/report.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { Host, HostKind } from "../host/host.ts";
import { collectUsage, type TranscriptPlace, type Unread } from "./collect.ts";
import { skillKey, type SkillRow, summarize, type UsageSummary } from "./usage.ts";

/** The report, as `skillgate report --json` prints it. */
export interface UsageReport {
  /** The window's start (ISO time), absent for all time. */
  since?: string;
  /** The host asked for, if one was. */
  host?: string;
  /** Sessions in the window. */
  sessions: number;
  /** Transcripts read. */
  transcripts: number;
  /** The totals. */
  summary: UsageSummary;
  /** One row per skill, most used first. */
  skills: SkillRow[];
  /** Installed skills never loaded nor routed in the window, with the hosts that have them. */
  unused: { skill: string; hosts: string[] }[];
  /** What could not be read. */
  unread: Unread[];
}

/** An installed skill. */
export interface InstalledSkill {
  /** Its name. */
  readonly name: string;
  /** The host it is installed for. */
  readonly host: string;
}

/** Options of {@link usageReport}. */
export interface UsageOptions {
  /** The state root (default: the installed one). */
  stateRoot?: string;
  /** The window's start in ms since the epoch (default 0: all time). */
  since?: number;
  /** Only this host's sessions and skills. */
  host?: string;
  /** The transcripts folders (default: every host's, for this user). */
  places?: readonly TranscriptPlace[];
  /** The installed skills (default: every host's, as its catalog lists them) and their folders. */
  installed?: { skills: readonly InstalledSkill[]; dirs: readonly string[] };
  /** The re-check of runs still blocked (default: `contract report`'s). */
  recheck?: Rechecker;
}

/** Each host's transcripts folder for this user. */
async function defaultPlaces(): Promise<TranscriptPlace[]> {
  const { configDirOf } = await import("../host/places.ts");
  const { HOSTS } = await import("../host/mod.ts");
  const out: TranscriptPlace[] = [];
  for (const host of HOSTS as readonly Host<HostKind>[]) {
    if (!host.layout.transcripts) continue;
    out.push({ host, dir: resolve(configDirOf(host), host.layout.transcripts) });
  }
  return out;
}

/** One host's catalog, for {@link installedCatalogs}. */
export interface HostCatalog {
  /** The host. */
  readonly host: Host<HostKind>;
  /** Its skills, as its hooks see them from the current folder. */
  readonly catalog: Catalog;
}

/**
 * Every host's catalog of skills, as its hooks would list them for a session in the current
 * folder (config `skill_dirs` included).
 *
 * @param stateRoot The state root (its config file).
 * @param extraDirs More skill folders (lint's `--dir`).
 * @param only Only this host.
 * @returns One catalog per host.
 */
export async function installedCatalogs(
  stateRoot: string,
  extraDirs: readonly string[] = [],
  only?: string,
): Promise<HostCatalog[]> {
  const { foldersOf, projectDirOf } = await import("../host/places.ts");
  const { configList, readConfig } = await import("../base/config.ts");
  const { loadCatalog } = await import("../catalog/catalog.ts");
  const { HOSTS } = await import("../host/mod.ts");
  let extra: string[] = [];
  try {
    extra = configList(readConfig(stateRoot), "skill_dirs", []);
  } catch {
    extra = [];
  }
  const out: HostCatalog[] = [];
  for (const host of HOSTS as readonly Host<HostKind>[]) {
    if (only !== undefined && host.kind !== only) continue;
    const catalog = await loadCatalog({
      hostFolders: foldersOf(host),
      cwd: Deno.cwd(),
      projectDir: projectDirOf(host),
      extraSkillDirs: [...extra, ...extraDirs],
      agents: false,
      // The index the hooks keep (parsed frontmatter), refreshed where a folder changed; not for
      // lint's extra folders, which the hooks never read.
      ...(extraDirs.length === 0 ? { stateRoot } : {}),
    });
    out.push({ host, catalog });
  }
  return out;
}

/**
 * Every host's installed skills (see {@link installedCatalogs}).
 *
 * @param stateRoot The state root (its config file).
 * @returns The skills and the folders they were found in.
 */
export async function installedSkills(
  stateRoot: string,
): Promise<{ skills: InstalledSkill[]; dirs: string[] }> {
  const skills: InstalledSkill[] = [];
  const dirs = new Set<string>();
  for (const { host, catalog } of await installedCatalogs(stateRoot)) {
    for (const s of catalog.skills) skills.push({ name: s.name, host: host.kind });
    for (const d of catalog.dirs) dirs.add(d);
  }
  return { skills, dirs: [...dirs] };
}

/**
 * The per-skill funnel of the recorded sessions, as `skillgate report --json` gives it.
 *
 * @example The skills the model followed a route to
 * ```ts
 * import { usageReport } from "./report.ts";
 *
 * const report = await usageReport({ since: Date.now() - 7 * 24 * 3600 * 1000 });
 * for (const s of report.skills) console.log(s.skill, s.routed, s.followed, s.loaded);
 * ```
 *
 * @param options The state root, the window, the host.
 * @returns The report (what could not be read is listed in `unread`).
 */
export async function usageReport(options: UsageOptions = {}): Promise<UsageReport> {
  const stateRoot = options.stateRoot ?? (await import("../host/places.ts")).stateRoot();
  const since = options.since ?? 0;
  const installed = options.installed ?? await installedSkills(stateRoot);
  // The default re-check loads the contract checker: only when a run still blocked needs it.
  let lazy: Promise<Rechecker> | undefined;
  const recheck: Rechecker = options.recheck ?? (async (record, run) => {
    lazy ??= import("../contracts/report.ts").then((m) => m.defaultRechecker());
    return (await lazy)(record, run);
  });
  const got = await collectUsage({
    stateRoot,
    since,
    places: options.places ?? await defaultPlaces(),
    recheck,
    skillsDirs: installed.dirs,
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
  const used = new Set(got.rows.filter((r) => r.loaded > 0 || r.routed > 0).map((r) => r.skill));
  const unused = new Map<string, Set<string>>();
  for (const s of installed.skills) {
    if (options.host !== undefined && s.host !== options.host) continue;
    if (used.has(skillKey(s.name))) continue;
    const hosts = unused.get(s.name) ?? new Set<string>();
    unused.set(s.name, hosts.add(s.host));
  }
  return {
    ...(since > 0 ? { since: new Date(since).toISOString() } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    sessions: got.sessions.length,
    transcripts: got.transcripts,
    summary: summarize(got.rows, got.sessions),
    skills: got.rows,
    unused: [...unused].map(([skill, hosts]) => ({ skill, hosts: [...hosts] }))
      .sort((a, b) => a.skill.localeCompare(b.skill)),
    unread: got.unread,
  };
}

/**
 * Parses a window: a duration back from now (`7d`, `24h`, `30m`, `2w`) or a date (`2026-11-01`).
 *
 * @param text The window.
 * @param now The time now (ms).
 * @returns Its start in ms since the epoch, or `undefined` when it is neither.
 */
export function parseSince(text: string, now: number = Date.now()): number | undefined {
  const m = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (m) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as "m"];
    return now - Number(m[1]) * unit;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const t = Date.parse(text.trim());
  return Number.isNaN(t) ? undefined : t;
}

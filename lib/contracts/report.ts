/**
 * The contract report of `skillgate contract report [--json] [--session <id>]` (its command line is
 * `lib/cli/contract_report_command.ts`): the contract misses of the recorded sessions, by skill and item,
 * then each missed run.
 *
 * A miss is a run that was blocked and never fixed, stopped again unmet (`miss`), or met only
 * through a waiver (`met_waived`). A run still marked `blocked` (or `deferred`) is re-checked
 * against its transcript when the file is still there: a blocked run fixed after its block reads
 * `fixed_after_block`, not a miss. The report only reads the records.
 *
 * {@link buildReport} states each run's outcome, {@link formatReport} writes it as text, and
 * {@link contractReport} is the library's entry (with the installed re-check).
 *
 * @module
 */

import { resolve, sep } from "node:path";
import { EXIT_CODES, EXIT_WORDS } from "./exit_codes.ts";
import { errorCause } from "./state_error.ts";
import {
  listSessionRecords,
  readRecordFile,
  type RecordFile,
  recordPath,
  type RunOutcome,
  type RunRecord,
  type SessionRecord,
} from "./records.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";

/** A run's outcome as the report states it. */
export type ReportOutcome = RunOutcome | "fixed_after_block";

/** One run in the report. */
export interface ReportRun {
  /** The session id. */
  session: string;
  /** The skill. */
  skill: string;
  /** The run's key in the record. */
  run: string;
  /** The outcome in the record. */
  recorded: RunOutcome;
  /** The outcome after a re-check (the recorded one when not re-checked). */
  outcome: ReportOutcome;
  /** Whether it counts as a miss. */
  miss: boolean;
  /** The items it missed or waived. */
  items: string[];
  /** Whether the transcript was re-checked. */
  rechecked: boolean;
  /** Why a re-check was not possible, when it was wanted. */
  recheckNote?: string;
  /** When the run was last recorded. */
  updated: string;
}

/** What {@link buildReport} found. */
export interface Report {
  /** Sessions read. */
  sessions: number;
  /** Every run. */
  runs: ReportRun[];
  /** Misses counted by skill and item, most first. */
  byItem: { skill: string; item: string; count: number }[];
  /** Records that could not be read (path and cause). */
  errors: { path: string; cause: string }[];
}

/** Re-checks one recorded run against its transcript; undefined when it cannot. */
export type Rechecker = (
  record: SessionRecord,
  run: RunRecord,
) => Promise<{ outcome: "met" | "met_waived" | "unmet"; items: string[] } | { note: string }>;

/**
 * The default re-check: the run's transcript (only under a host's transcripts folder: Claude
 * Code's `projects`, Copilot CLI's `session-state`, Codex CLI's `sessions`), read by that host's
 * reader, against the skill installed for that host.
 *
 * @returns The re-check.
 */
export async function defaultRechecker(): Promise<Rechecker> {
  const { configDirOf, foldersOf, projectDirOf, skillgateCommand, stateRoot } = await import(
    "../host/places.ts"
  );
  const { loadCatalog, findSkill } = await import("../catalog/catalog.ts");
  const { configList, readConfig } = await import("../base/config.ts");
  const { validateContract } = await import("./schema.ts");
  const { readerFor } = await import("../transcript/readers.ts");
  const { HOSTS } = await import("../host/mod.ts");
  const { checkContract } = await import("./check.ts");
  // Each host's transcripts folder, with the folders its skills are read from.
  const places: { dir: string; host: (typeof HOSTS)[number]; configDir: string }[] = [];
  try {
    for (const host of HOSTS) {
      const configDir = configDirOf(host);
      if (host.layout.transcripts) {
        places.push({ dir: resolve(configDir, host.layout.transcripts), host, configDir });
      }
    }
  } catch (e) {
    return () => Promise.resolve({ note: `config directory: ${errorCause(e)}` });
  }
  let values: Record<string, string> = {};
  try {
    values = readConfig(stateRoot()).values;
  } catch {
    values = {};
  }
  type Cat = Awaited<ReturnType<typeof loadCatalog>>;
  const catalogs = new Map<string, Promise<Cat>>();
  const command = skillgateCommand(values);
  return async (record, run) => {
    // A sub-agent's run names its own transcript; the session's is the main one.
    const path = run.transcript ?? record.transcript;
    if (!path) return { note: "no transcript path recorded" };
    const abs = resolve(path);
    const place = places.find((p) => abs.startsWith(p.dir + sep));
    if (!place || !abs.endsWith(".jsonl")) {
      return { note: "transcript is not under a host's transcripts directory" };
    }
    const { host } = place;
    try {
      Deno.statSync(abs);
    } catch {
      return { note: "transcript is gone" };
    }
    let catalog = catalogs.get(host.kind);
    catalog ??= loadCatalog({
      hostFolders: { ...foldersOf(host), configDir: place.configDir },
      cwd: Deno.cwd(),
      projectDir: projectDirOf(host),
      extraSkillDirs: configList(
        { path: "", exists: true, readable: true, values },
        "skill_dirs",
        [],
      ),
      agents: false,
    });
    catalogs.set(host.kind, catalog);
    const cat = await catalog;
    const entry = findSkill(cat, run.skill);
    if (!entry || entry.contract === undefined) return { note: "skill or contract not installed" };
    const v = await validateContract(entry.contract);
    if (!v.ok) return { note: "contract block is invalid" };
    let read;
    try {
      read = await (await readerFor(host.transcript)).readRun(abs, {
        skill: run.skill,
        fromOffset: run.loadOffset,
        skillsDirs: cat.dirs,
        ...(run.agent ? { agent: run.agent } : {}),
      });
    } catch (e) {
      return { note: `transcript unreadable: ${errorCause(e)}` };
    }
    if (read.kind !== "ok") return { note: `transcript ${read.kind.replace("_", " ")}` };
    if (read.run.load.offset !== run.loadOffset) return { note: "the run's load moved" };
    const c = checkContract(read.run, v.contract, {
      skill: entry.name,
      sessionId: record.session,
      command,
    });
    if (c.outcome === "unmet") {
      return {
        outcome: "unmet",
        items: c.items.filter((i) => i.status !== "met").map((i) => i.id),
      };
    }
    if (c.waived) {
      return {
        outcome: "met_waived",
        items: c.items.filter((i) => i.status === "waived").map((i) => i.id),
      };
    }
    return { outcome: "met", items: [] };
  };
}

/**
 * Reads the records and states each run's outcome, re-checking runs still `blocked` or `deferred`.
 *
 * @param files The record files.
 * @param recheck The re-check.
 * @returns The report.
 */
export async function buildReport(
  files: readonly RecordFile[],
  recheck: Rechecker,
): Promise<Report> {
  const runs: ReportRun[] = [];
  const errors: { path: string; cause: string }[] = [];
  let sessions = 0;
  for (const f of files) {
    let record: SessionRecord | undefined;
    try {
      record = readRecordFile(f.path);
    } catch (e) {
      errors.push({ path: f.path, cause: errorCause(e) });
      continue;
    }
    if (!record) continue;
    sessions++;
    for (const r of record.runs) {
      const row: ReportRun = {
        session: f.session,
        skill: sanitizeName(r.skill),
        run: sanitizeLine(r.key, 100),
        recorded: r.outcome,
        outcome: r.outcome,
        miss: false,
        items: [],
        rechecked: false,
        updated: sanitizeLine(r.updated, 40),
      };
      switch (r.outcome) {
        case "met":
        case "met_after_block":
          break;
        case "met_waived":
          row.miss = true;
          row.items = [...r.waived];
          break;
        case "miss":
          row.miss = true;
          row.items = [...r.missing, ...r.waived];
          break;
        case "blocked":
        case "deferred": {
          const c = await recheck(record, r);
          if ("note" in c) {
            row.recheckNote = c.note;
            if (r.outcome === "blocked") {
              row.miss = true;
              row.items = [...r.missing, ...r.waived];
            }
            break;
          }
          row.rechecked = true;
          if (c.outcome === "met") {
            row.outcome = r.outcome === "blocked" ? "fixed_after_block" : "met";
          } else if (c.outcome === "met_waived") {
            row.outcome = "met_waived";
            row.miss = true;
            row.items = c.items;
          } else {
            row.outcome = "miss";
            row.miss = true;
            row.items = c.items;
          }
          break;
        }
      }
      row.items = row.items.map((i) => sanitizeName(i));
      runs.push(row);
    }
  }
  const counts = new Map<string, { skill: string; item: string; count: number }>();
  for (const r of runs) {
    if (!r.miss) continue;
    for (const item of r.items.length > 0 ? r.items : ["(unknown)"]) {
      const k = `${r.skill}\u0000${item}`;
      const c = counts.get(k) ?? { skill: r.skill, item, count: 0 };
      c.count++;
      counts.set(k, c);
    }
  }
  const byItem = [...counts.values()].sort((a, b) =>
    b.count - a.count || a.skill.localeCompare(b.skill) || a.item.localeCompare(b.item)
  );
  return { sessions, runs, byItem, errors };
}

/**
 * Formats a report as text.
 *
 * @param report The report.
 * @returns The lines.
 */
export function formatReport(report: Report): string {
  const missed = report.runs.filter((r) => r.miss);
  const lines = [
    `Contract misses: ${missed.length} of ${report.runs.length} run(s) in ${report.sessions} session(s)`,
  ];
  if (report.byItem.length > 0) {
    lines.push("", "Misses by skill and item:");
    const w1 = Math.max(5, ...report.byItem.map((b) => b.skill.length));
    const w2 = Math.max(4, ...report.byItem.map((b) => b.item.length));
    lines.push(`  ${"skill".padEnd(w1)}  ${"item".padEnd(w2)}  misses`);
    for (const b of report.byItem) {
      lines.push(`  ${b.skill.padEnd(w1)}  ${b.item.padEnd(w2)}  ${b.count}`);
    }
  }
  if (missed.length > 0) {
    lines.push("", "Missed runs:");
    for (const r of missed) {
      const what = r.outcome === "met_waived" ? "waived" : "missing";
      const note = r.recheckNote ? ` (not re-checked: ${r.recheckNote})` : "";
      lines.push(
        `  ${r.session}  ${r.skill}  ${r.run}  ${r.outcome}  ${what}: ${
          r.items.join(", ") || "(unknown)"
        }  ${r.updated}${note}`,
      );
    }
  }
  const other = new Map<string, number>();
  for (const r of report.runs) if (!r.miss) other.set(r.outcome, (other.get(r.outcome) ?? 0) + 1);
  if (other.size > 0) {
    lines.push("", `Other runs: ${[...other].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  }
  for (const e of report.errors) {
    lines.push(`${EXIT_WORDS[EXIT_CODES.STATE_ERROR]} ${sanitizeLine(e.path, 300)}: ${e.cause}`);
  }
  return lines.join("\n");
}

/**
 * The contract report of the recorded sessions, as `skillgate contract report --json` gives it:
 * each run's outcome, runs still `blocked` or `deferred` re-checked against their transcripts.
 *
 * @example Misses by skill
 * ```ts
 * import { contractReport } from "@skillgate/skillgate";
 *
 * const report = await contractReport();
 * for (const run of report.runs) console.log(run.skill, run.outcome);
 * ```
 *
 * @param options The state root (default: the installed one) and one session only.
 * @returns The report (records that cannot be read are listed in `errors`).
 * @throws {Error} When the state root or the records folder cannot be read.
 */
export async function contractReport(
  options: { stateRoot?: string; session?: string } = {},
): Promise<Report> {
  const root = options.stateRoot ?? (await import("../host/places.ts")).stateRoot();
  const files = options.session !== undefined
    ? [{ session: options.session, path: recordPath(root, options.session) }]
    : listSessionRecords(root);
  return buildReport(files, await defaultRechecker());
}

/**
 * What `skillgate report` reads, and how: skillgate's own hook logs (`<state root>/hooks/`), its
 * contract records (`<state root>/skill-contracts/`) and the transcripts they name. No prompt text
 * is read from the logs (they hold none) or kept from a transcript (only load names, who loaded,
 * turns and times).
 *
 * **Which sessions.** Every session id in the three hook logs (routing, contract, redirect) or in
 * the records, with a log line or a run change in the window.
 *
 * **A session's transcript**, first found wins: the path its contract record names (written by the
 * Stop hook from the payload's `transcript_path`); the `transcript_path=` field of its log lines; else
 * the file named for the session id under each host's transcripts folder (Claude Code's
 * `projects/<project>/<id>.jsonl`, Copilot CLI's `session-state/<id>/events.jsonl`, Codex CLI's
 * `sessions/…/rollout-…-<id>.jsonl`), found by one bounded walk of each folder. A path is read only
 * when it lies under a host's transcripts folder; that host's reader reads it, and that host is
 * the session's (unless its log lines name one). Sessions whose transcript cannot be found or read
 * are listed with why.
 *
 * @module
 */

import { basename, dirname, resolve, sep } from "node:path";
import { errorCause } from "../base/errors.ts";
import { join } from "../base/path.ts";
import { isSafeFileStem } from "../base/state_file.ts";
import type { Host, HostKind } from "../host/host.ts";
import { listSessionRecords, readRecordFile } from "../contracts/records.ts";
import { buildReport, type Rechecker } from "../contracts/report.ts";
import { type ActivityFormat, readActivity, type SessionActivity } from "../transcript/activity.ts";
import { readerFor } from "../transcript/readers.ts";
import { readLogLines } from "./logs.ts";
import { buildUsage, type RunFacts, type SessionFacts, type SkillRow } from "./usage.ts";

/** A host's transcripts folder. */
export interface TranscriptPlace {
  /** The host. */
  readonly host: Host<HostKind>;
  /** Its transcripts folder (absolute). */
  readonly dir: string;
}

/** What {@link collectUsage} needs. */
export interface CollectOptions {
  /** The state root. */
  readonly stateRoot: string;
  /** The window's start, ms since the epoch (0: everything). */
  readonly since: number;
  /** Each host's transcripts folder. */
  readonly places: readonly TranscriptPlace[];
  /** The contract re-check of runs still blocked (see `contract report`). */
  readonly recheck: Rechecker;
  /** Installed skills directories, so a read of a SKILL.md under one is a load. */
  readonly skillsDirs?: readonly string[];
  /** Only this host's sessions. */
  readonly host?: string;
}

/** Something the report could not read. */
export interface Unread {
  /** The session, when the problem is one session's. */
  readonly session?: string;
  /** The file, when known. */
  readonly path?: string;
  /** Why. */
  readonly cause: string;
}

/** What {@link collectUsage} found. */
export interface CollectedUsage {
  /** The sessions in the window (and of the host asked for). */
  readonly sessions: SessionFacts[];
  /** One row per skill. */
  readonly rows: SkillRow[];
  /** Transcripts read. */
  readonly transcripts: number;
  /** What could not be read. */
  readonly unread: Unread[];
}

const LOGS = ["skill-route.log", "skill-contract.log", "skill-redirect.log"] as const;

/** Transcript files looked at by one walk of a host's folder. */
const MAX_WALK_ENTRIES = 200_000;

const UUID_TAIL_RE = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The session ids a transcript file's path names: its stem, its folder, a rollout's uuid. */
function sessionIdsOfPath(path: string): string[] {
  const name = basename(path);
  if (!name.endsWith(".jsonl")) return [];
  const stem = name.slice(0, -6);
  const ids = [stem];
  if (name === "events.jsonl") ids.push(basename(dirname(path)));
  const m = UUID_TAIL_RE.exec(stem);
  if (m) ids.push(m[1]);
  return ids;
}

/** Walks a transcripts folder (at most 4 levels) for files named for the wanted sessions. */
function walkFor(dir: string, wanted: ReadonlySet<string>, found: Map<string, string>): void {
  let budget = MAX_WALK_ENTRIES;
  const walk = (d: string, depth: number) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch {
      return;
    }
    for (const e of entries) {
      if (--budget < 0) return;
      const p = join(d, e.name);
      if (e.isDirectory && depth < 4) walk(p, depth + 1);
      else if (e.isFile) {
        for (const id of sessionIdsOfPath(p)) {
          if (wanted.has(id) && !found.has(id)) found.set(id, p);
        }
      }
    }
  };
  walk(dir, 1);
}

/** The place whose folder holds a path, if any. */
function placeOf(places: readonly TranscriptPlace[], path: string): TranscriptPlace | undefined {
  const abs = resolve(path);
  return places.find((p) => abs.startsWith(p.dir + sep));
}

interface SessionSeen {
  host?: string;
  transcript?: string;
  routes: { skill: string; time: number }[];
  inWindow: boolean;
}

/**
 * Reads the logs, the records and the transcripts they name, and joins them.
 *
 * @param opts Where to read, the window, the re-check.
 * @returns The rows and what could not be read.
 */
export async function collectUsage(opts: CollectOptions): Promise<CollectedUsage> {
  const { stateRoot, since, places } = opts;
  const unread: Unread[] = [];
  const seen = new Map<string, SessionSeen>();
  const see = (session: string) => {
    let s = seen.get(session);
    if (!s) seen.set(session, s = { routes: [], inWindow: false });
    return s;
  };
  for (const log of LOGS) {
    // Every line, for the session's host and transcript; the window decides what counts.
    const read = readLogLines(stateRoot, log);
    for (const p of read.problems) unread.push({ path: p.path, cause: p.cause });
    for (const { time, fields } of read.lines) {
      const id = fields.session;
      if (!id || !isSafeFileStem(id)) continue;
      const s = see(id);
      if (time >= since) s.inWindow = true;
      if (fields.host) s.host ??= fields.host;
      if (fields.transcript_path) s.transcript ??= fields.transcript_path;
      if (
        log === "skill-route.log" && fields.outcome === "routed" && fields.skill && time >= since
      ) {
        s.routes.push({ skill: fields.skill, time });
      }
    }
  }
  let files: ReturnType<typeof listSessionRecords> = [];
  try {
    files = listSessionRecords(stateRoot);
  } catch (e) {
    unread.push({ path: join(stateRoot, "skill-contracts"), cause: errorCause(e) });
  }
  const fromRecord = new Map<string, string>();
  for (const f of files) {
    try {
      const rec = readRecordFile(f.path);
      if (!rec) continue;
      const s = see(f.session);
      if (rec.transcript) fromRecord.set(f.session, rec.transcript);
      if (rec.runs.some((r) => Date.parse(r.updated) >= since)) s.inWindow = true;
    } catch {
      // The contract report below lists it.
    }
  }
  // Runs of sessions outside the window are not re-checked.
  const report = await buildReport(
    files.filter((f) => seen.get(f.session)?.inWindow ?? true),
    opts.recheck,
  );
  for (const e of report.errors) unread.push({ path: e.path, cause: e.cause });

  // Each session's transcript: the record's, the log's, else one walk of each host's folder.
  const paths = new Map<string, string>();
  const missing = new Set<string>();
  for (const [id, s] of seen) {
    if (!s.inWindow) continue;
    const named = [fromRecord.get(id), s.transcript].find((p) =>
      p !== undefined && placeOf(places, p) !== undefined && isFile(p)
    );
    if (named) paths.set(id, named);
    else missing.add(id);
  }
  if (missing.size > 0) {
    const found = new Map<string, string>();
    for (const p of places) walkFor(p.dir, missing, found);
    for (const [id, path] of found) paths.set(id, path);
  }
  const sessions: SessionFacts[] = [];
  const formats = new Map<string, ActivityFormat>();
  let transcripts = 0;
  for (const [id, s] of seen) {
    if (!s.inWindow) continue;
    const path = paths.get(id);
    const place = path ? placeOf(places, path) : undefined;
    const host = s.host ?? place?.host.kind ?? "unknown";
    if (opts.host !== undefined && host !== opts.host) continue;
    let activity: SessionActivity | undefined;
    if (path && place) {
      try {
        const kind = place.host.transcript;
        const format = formats.get(kind) ?? (await readerFor(kind)).activity;
        formats.set(kind, format);
        const all = await readActivity(path, format, opts.skillsDirs);
        activity = {
          prompts: all.prompts,
          loads: all.loads.filter((l) => (l.time ?? since) >= since),
        };
        transcripts++;
      } catch (e) {
        unread.push({ session: id, path, cause: errorCause(e) });
      }
    } else {
      unread.push({ session: id, cause: "Transcript not found under a host's transcripts folder" });
    }
    sessions.push({ session: id, host, routes: s.routes, ...(activity ? { activity } : {}) });
  }
  const kept = new Set(sessions.map((s) => s.session));
  const runs: RunFacts[] = report.runs.filter((r) =>
    kept.has(r.session) && (since === 0 || Date.parse(r.updated) >= since)
  );
  return { sessions, rows: buildUsage(sessions, runs), transcripts, unread };
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

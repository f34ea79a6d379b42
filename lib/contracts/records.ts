/**
 * Skill contract session records: `<state root>/skill-contracts/<session id>.json`, one per Claude
 * Code session, holding one entry per skill run and its outcome (`met`, `met_waived`, `blocked`,
 * `met_after_block`, `miss`, `deferred`).
 *
 * Every change happens under an exclusive lock on `<record>.lock` and is written atomically (temp
 * file, fsync, rename, mode 0600), so two Stop hooks of one session, or a hook and `report`, never
 * see or leave a half-written record. Session ids are checked with `isSafeFileStem` before they
 * become file names. A record that is not valid JSON or not of this shape is corrupt: the caller
 * reports a state error and changes nothing.
 *
 * @module
 */

import { join } from "../base/path.ts";
import {
  CorruptFileError,
  isSafeFileStem,
  readJsonFile,
  withLock,
  writeFileAtomic,
} from "../base/state_file.ts";
import type { SkillLoad } from "../transcript/model.ts";

/** The outcome of one skill run. */
export type RunOutcome =
  | "met"
  | "met_waived"
  | "blocked"
  | "met_after_block"
  | "miss"
  | "deferred";

/** Every outcome, in the order `report` explains them. */
export const RUN_OUTCOMES: readonly RunOutcome[] = [
  "met",
  "met_waived",
  "blocked",
  "met_after_block",
  "miss",
  "deferred",
];

/** Outcomes that never change again: a later turn of the session is never blocked by the run. */
export const SETTLED_OUTCOMES: readonly RunOutcome[] = ["met", "met_waived", "met_after_block"];

/** The record format version. */
export const RECORD_VERSION = 1;

/** Runs kept per session record; the oldest are dropped beyond this. */
export const MAX_RUNS_PER_RECORD = 200;

/** The largest record file read (a bigger one is corrupt). */
export const MAX_RECORD_BYTES: number = 4 * 1024 * 1024;

/** One skill run in a session record. */
export interface RunRecord {
  /** The run's identity: `<skill>@<byte offset of its load>` (see {@link runKey}). */
  key: string;
  /** The skill name (sanitised). */
  skill: string;
  /** Byte offset of the load's JSONL line: where a re-check starts. */
  loadOffset: number;
  /** How the skill was loaded (`skill_tool`, `command`, `read`, ...). */
  loadVia: string;
  /** The Skill/Read tool-use id of the load, when it has one. */
  loadId?: string;
  /** The sub-agent that loaded the skill, for a run checked at its SubagentStop. */
  agent?: string;
  /** A sub-agent's run: the transcript its stop read (the session's is the record's). */
  transcript?: string;
  /** The outcome so far. */
  outcome: RunOutcome;
  /** Item ids missing at the last check. */
  missing: string[];
  /** Item ids waived at the last check. */
  waived: string[];
  /** Blocks issued for this run (1, or up to the largest `hold` of its items). */
  blocks: number;
  /** Fingerprint of the stop that was blocked (transcript size and final-text hash). */
  blockFingerprint?: string;
  /** Running agent dispatches (tool-use id → ISO time of the stop that first saw it running). */
  pending?: Record<string, string>;
  /** Stops seen for this run. */
  stops: number;
  /** When the run was first recorded (ISO time). */
  first: string;
  /** When the run was last changed (ISO time). */
  updated: string;
}

/** One session's record. */
export interface SessionRecord {
  /** Format version ({@link RECORD_VERSION}). */
  version: 1;
  /** The session id. */
  session: string;
  /** The transcript path the last stop named, for `report` re-checks. */
  transcript?: string;
  /** When it was last written (ISO time). */
  updated: string;
  /** The runs, oldest first. */
  runs: RunRecord[];
}

/** A record that cannot be used: not JSON, too large, or not of the record shape. */
export class CorruptRecordError extends Error {
  /** The record file. */
  readonly path: string;
  /**
   * Creates the error.
   *
   * @param path The record file.
   * @param cause Why it is corrupt.
   */
  constructor(path: string, cause: string) {
    super(`Corrupt record (${cause}); delete it, it only holds this session's outcomes`);
    this.name = "CorruptRecordError";
    this.path = path;
  }
}

/** A session id that may not become a file name. */
export class UnsafeSessionIdError extends Error {
  /** Creates the error. */
  constructor() {
    super("Session id is not safe as a file name");
    this.name = "UnsafeSessionIdError";
  }
}

/**
 * The identity of a run: the skill, the sub-agent that loaded it (if one did) and the byte offset
 * of its load's line. A later load of the same skill starts a new run; a later turn without a new
 * load stays in the same run.
 *
 * @param skill The skill name.
 * @param load The load that starts the run.
 * @param agent The sub-agent whose run it is (sanitised), if any.
 * @returns For example `investigate@5312`, or `verify@a48fb149:2210` for a sub-agent's run.
 */
export function runKey(skill: string, load: Pick<SkillLoad, "offset">, agent?: string): string {
  return agent ? `${skill}@${agent}:${load.offset}` : `${skill}@${load.offset}`;
}

/**
 * The directory of session records.
 *
 * @param root The state root.
 * @returns `<state root>/skill-contracts`.
 */
export function recordsDir(root: string): string {
  return join(root, "skill-contracts");
}

/**
 * The record file of a session.
 *
 * @param root The state root.
 * @param sessionId The session id.
 * @returns `<state root>/skill-contracts/<session id>.json`.
 * @throws {UnsafeSessionIdError} When the id is not a safe file stem.
 */
export function recordPath(root: string, sessionId: string): string {
  if (!isSafeFileStem(sessionId)) throw new UnsafeSessionIdError();
  return join(recordsDir(root), `${sessionId}.json`);
}

function isRec(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.every((x) => typeof x === "string") ? v as string[] : undefined;
}

function parseRun(v: unknown, i: number): RunRecord {
  const bad = (what: string) => new Error(`runs[${i}]: ${what}`);
  if (!isRec(v)) throw bad("not an object");
  if (typeof v.key !== "string" || v.key === "") throw bad("no key");
  if (typeof v.skill !== "string") throw bad("no skill");
  if (typeof v.loadOffset !== "number" || !Number.isFinite(v.loadOffset)) {
    throw bad("no loadOffset");
  }
  if (typeof v.outcome !== "string" || !RUN_OUTCOMES.includes(v.outcome as RunOutcome)) {
    throw bad("unknown outcome");
  }
  const missing = strList(v.missing ?? []);
  const waived = strList(v.waived ?? []);
  if (!missing || !waived) throw bad("missing/waived not string lists");
  const run: RunRecord = {
    key: v.key,
    skill: v.skill,
    loadOffset: v.loadOffset,
    loadVia: typeof v.loadVia === "string" ? v.loadVia : "",
    outcome: v.outcome as RunOutcome,
    missing,
    waived,
    blocks: typeof v.blocks === "number" && v.blocks >= 0 ? v.blocks : 0,
    stops: typeof v.stops === "number" && v.stops >= 0 ? v.stops : 0,
    first: typeof v.first === "string" ? v.first : "",
    updated: typeof v.updated === "string" ? v.updated : "",
  };
  if (typeof v.loadId === "string") run.loadId = v.loadId;
  if (typeof v.agent === "string") run.agent = v.agent;
  if (typeof v.transcript === "string") run.transcript = v.transcript;
  if (typeof v.blockFingerprint === "string") run.blockFingerprint = v.blockFingerprint;
  if (v.pending !== undefined) {
    if (!isRec(v.pending) || !Object.values(v.pending).every((x) => typeof x === "string")) {
      throw bad("pending is not a map of times");
    }
    run.pending = { ...(v.pending as Record<string, string>) };
  }
  return run;
}

/**
 * Checks a parsed value against the record shape.
 *
 * @param value The parsed JSON.
 * @param path The file, for the error.
 * @returns The record.
 * @throws {CorruptRecordError} When it is not a record of this version.
 */
export function parseSessionRecord(value: unknown, path: string): SessionRecord {
  try {
    if (!isRec(value)) throw new Error("not an object");
    if (value.version !== RECORD_VERSION) throw new Error("unknown version");
    if (typeof value.session !== "string") throw new Error("no session");
    if (!Array.isArray(value.runs)) throw new Error("no runs list");
    const rec: SessionRecord = {
      version: 1,
      session: value.session,
      updated: typeof value.updated === "string" ? value.updated : "",
      runs: value.runs.map(parseRun),
    };
    if (typeof value.transcript === "string") rec.transcript = value.transcript;
    return rec;
  } catch (e) {
    throw new CorruptRecordError(path, e instanceof Error ? e.message : String(e));
  }
}

/**
 * Reads a record file.
 *
 * @param path The record file.
 * @returns The record, or undefined when the file does not exist.
 * @throws {CorruptRecordError} When it is not valid JSON, too large, or not a record.
 * @throws {Error} When it cannot be read.
 */
export function readRecordFile(path: string): SessionRecord | undefined {
  let value: unknown;
  try {
    value = readJsonFile(path, MAX_RECORD_BYTES);
  } catch (e) {
    if (e instanceof CorruptFileError) {
      throw new CorruptRecordError(path, e.message.slice(path.length + 2) || "not valid JSON");
    }
    throw e;
  }
  if (value === undefined) return undefined;
  return parseSessionRecord(value, path);
}

/**
 * Reads a session's record.
 *
 * @param root The state root.
 * @param sessionId The session id.
 * @returns The record, or undefined when the session has none.
 * @throws {UnsafeSessionIdError} When the id is not a safe file stem.
 * @throws {CorruptRecordError} When the file is corrupt.
 */
export function readSessionRecord(root: string, sessionId: string): SessionRecord | undefined {
  return readRecordFile(recordPath(root, sessionId));
}

/** What an update function returns: the new record (or none to leave it) and a result. */
export interface RecordUpdate<T> {
  /** The record to write; undefined leaves the file as it is. */
  record?: SessionRecord;
  /** Returned by {@link updateSessionRecord}. */
  result: T;
}

/** Options of {@link updateSessionRecord}. */
export interface UpdateOptions {
  /** How long to wait for the lock (default 2000 ms). */
  timeoutMs?: number;
}

/**
 * Reads, changes and writes a session's record under its lock. The record is written atomically
 * (mode 0600) before this returns, so a caller that blocks a stop afterwards has already recorded
 * the block.
 *
 * @param root The state root.
 * @param sessionId The session id.
 * @param fn Gets the current record (undefined when there is none) and returns the new one.
 * @param options Lock timeout.
 * @returns What `fn` returned as `result`.
 * @throws {UnsafeSessionIdError} When the id is not a safe file stem.
 * @throws {CorruptRecordError} When the current file is corrupt (nothing is written).
 * @throws {Error} When the lock, the read or the write fails (nothing is written).
 */
export function updateSessionRecord<T>(
  root: string,
  sessionId: string,
  fn: (current: SessionRecord | undefined) => RecordUpdate<T>,
  options: UpdateOptions = {},
): T {
  const path = recordPath(root, sessionId);
  return withLock(`${path}.lock`, () => {
    const current = readRecordFile(path);
    const out = fn(current);
    if (out.record) writeFileAtomic(path, JSON.stringify(out.record, null, 1) + "\n");
    return out.result;
  }, { timeoutMs: options.timeoutMs ?? 2000 });
}

/**
 * A copy of a record with one run put in (replacing the run with the same key), oldest runs
 * dropped beyond {@link MAX_RUNS_PER_RECORD}.
 *
 * @param current The current record, if any.
 * @param sessionId The session id.
 * @param run The run to put.
 * @param now The time.
 * @param transcript The transcript path to remember.
 * @returns The new record.
 */
export function upsertRun(
  current: SessionRecord | undefined,
  sessionId: string,
  run: RunRecord,
  now: Date,
  transcript?: string,
): SessionRecord {
  const runs = (current?.runs ?? []).filter((r) => r.key !== run.key);
  runs.push(run);
  runs.sort((a, b) => a.loadOffset - b.loadOffset);
  const rec: SessionRecord = {
    version: 1,
    session: sessionId,
    updated: now.toISOString(),
    runs: runs.slice(-MAX_RUNS_PER_RECORD),
  };
  const t = transcript ?? current?.transcript;
  if (t !== undefined) rec.transcript = t;
  return rec;
}

/** One session record file found by {@link listSessionRecords}. */
export interface RecordFile {
  /** The session id (the file stem). */
  session: string;
  /** The file. */
  path: string;
}

/**
 * The session record files under the state root, sorted by session id. Files whose stem is not
 * a safe session id are ignored.
 *
 * @param root The state root.
 * @returns The files (none when the directory does not exist).
 * @throws {Error} When the directory exists but cannot be read.
 */
export function listSessionRecords(root: string): RecordFile[] {
  const dir = recordsDir(root);
  const out: RecordFile[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile || !e.name.endsWith(".json")) continue;
      const stem = e.name.slice(0, -5);
      if (!isSafeFileStem(stem)) continue;
      out.push({ session: stem, path: join(dir, e.name) });
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return out.sort((a, b) => a.session < b.session ? -1 : a.session > b.session ? 1 : 0);
}

/**
 * The skill contract Stop hook's logic.
 *
 * At a stop it takes the most recently loaded skill that declares a contract and, only on a final
 * turn (the final text has a STATUS line, or the session is headless or spawned, or the turn does
 * not end on a question to the user), checks that run's contract:
 *
 * - met (or met through waivers): recorded `met` / `met_waived`, the stop goes through;
 * - unmet: recorded `blocked` (atomically, under the record's lock) and only then answered with
 *   `{"decision":"block","reason":"SKILL_CONTRACT_UNMET …"}`; a run is blocked once (up to N
 *   times while a missing item declares `hold: N`), and the record itself counts the blocks,
 *   since `stop_hook_active` can stay false on repeated stops;
 * - the next stop of a blocked run records `met_after_block`, or blocks again while a missing
 *   held item has blocks left (never on a turn that asks the user, nor while agents run), else
 *   records `miss`; a stop with `stop_hook_active` and no block of ours never blocks;
 * - Agent dispatches still running: the stop goes through and the run is recorded `deferred`;
 *   once the same agents have run {@link STALL_MS} since the stop that first saw them, they count
 *   as stalled and the contract is checked.
 *
 * Runs recorded `met`, `met_waived` or `met_after_block` stay so, so a later unrelated turn of the
 * session is never blocked. State problems (an unreadable or unwritable state root, a corrupt
 * record, a transcript over the limit, the deadline, an invalid contract block, an unknown
 * transcript shape) let the stop through, record nothing, and print one stderr line:
 * `skillgate: SKILL_CONTRACT_STATE_ERROR <path>: <cause>; stop allowed, miss not recorded (see README#state-error)`.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { type HookAnswer, stopBlockAnswer } from "../host/answer.ts";
import { contractSkills, findSkill, type SkillEntry } from "../catalog/catalog.ts";
import { hookCatalogOptions } from "../catalog/hook_options.ts";
import { blockLimit, checkContract, type CheckResult } from "./check.ts";
import { renderBlockLine } from "./block_line.ts";
import {
  readSessionRecord,
  runKey,
  type RunOutcome,
  type RunRecord,
  type SessionRecord,
  SETTLED_OUTCOMES,
  updateSessionRecord,
  upsertRun,
} from "./records.ts";
import { errorCause, STATE_ERROR_CODE, stateErrorDetail } from "./state_error.ts";
import { type Contract, validateContract } from "./schema.ts";
import { type HookContext, HookFailure } from "../hook/runner.ts";
import { skillgateCommand } from "../host/places.ts";
import type { HookEvent } from "../host/payload.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import { type SessionKind, sessionKindFor } from "./session_kind.ts";
import {
  CorruptFileError,
  isSafeFileStem,
  readJsonFile,
  StateFileRefusedError,
  withLock,
  writeCacheFile,
  writeFileAtomic,
} from "../base/state_file.ts";
import { type SkillLoad, TranscriptReadError, type TranscriptRun } from "../transcript/model.ts";
import { readerFor } from "../transcript/readers.ts";
import type { LoadSearch } from "../transcript/read.ts";
import type { TurnCurrency } from "../transcript/currency.ts";
import { hostFor } from "../host/mod.ts";
import {
  endsOnQuestion,
  finalAssistantText,
  findStatusLine,
  pendingAgentDispatches,
} from "../transcript/turn.ts";

/** How long the same agents may run before they count as stalled (10 minutes). */
export const STALL_MS: number = 10 * 60 * 1000;

/**
 * A state problem: the hook lets the stop through, records nothing, and prints
 * `stateErrorLine(path, cause)`.
 */
export class ContractStateError extends HookFailure {
  /** The file or directory that failed. */
  readonly path: string;
  /** What failed. */
  readonly what: string;
  /**
   * Creates the failure.
   *
   * @param path The file or directory that failed.
   * @param cause What failed.
   */
  constructor(path: string, cause: string) {
    super(STATE_ERROR_CODE, stateErrorDetail(path, cause));
    this.name = "ContractStateError";
    this.path = path;
    this.what = cause;
  }
}

/** FNV-1a 32-bit hash, hex. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** Everything one stop decision needs; no I/O. */
export interface StopInput {
  /** The parsed run of the skill. */
  run: TranscriptRun;
  /** The skill's validated contract. */
  contract: Contract;
  /** The skill name. */
  skill: string;
  /** The payload's `last_assistant_message` (the transcript can lag). */
  finalText?: string;
  /** The payload's `stop_hook_active`. */
  stopHookActive: boolean;
  /** The session kind. */
  kind: SessionKind;
  /** The session id (waivers of this session only). */
  sessionId: string;
  /** The installed skillgate command (block text, waive recognition). */
  command: string;
  /** The time of the stop. */
  now: Date;
  /** The stall time (default {@link STALL_MS}). */
  stallMs?: number;
  /** The sub-agent whose stop this is (a SubagentStop), sanitised; its runs are its own. */
  agent?: string;
}

/** What one stop decides. */
export interface StopDecision {
  /** Block the stop or let it through. */
  action: "allow" | "block";
  /** Why, in a word or two (for the log). */
  reason: string;
  /** The block text (`SKILL_CONTRACT_UNMET …`) when blocking. */
  blockText?: string;
  /** The run to record; undefined leaves the record as it is. */
  next?: RunRecord;
  /** The check, when one was made. */
  check?: CheckResult;
}

/**
 * Whether the turn is a final one: a STATUS line (other than `NEEDS_CONTEXT`), a headless or
 * spawned session, or a turn that does not end on a question to the user.
 *
 * @param run The run.
 * @param finalText The payload's final text.
 * @param kind The session kind.
 * @returns True when the contract is due.
 */
export function isFinalTurn(run: TranscriptRun, finalText: string | undefined, kind: SessionKind): {
  final: boolean;
  why: string;
} {
  const text = finalAssistantText(run, finalText);
  const status = findStatusLine(text);
  if (status && status.value !== "NEEDS_CONTEXT") return { final: true, why: "status-line" };
  if (kind !== "interactive") return { final: true, why: `session-${kind}` };
  if (endsOnQuestion(run, finalText)) return { final: false, why: "ends-on-question" };
  return { final: true, why: "no-question" };
}

function baseRun(input: StopInput, key: string, existing: RunRecord | undefined): RunRecord {
  const now = input.now.toISOString();
  const load = input.run.load;
  const run: RunRecord = existing ? structuredClone(existing) : {
    key,
    skill: sanitizeName(input.skill, 64),
    loadOffset: load.offset,
    loadVia: load.via,
    outcome: "deferred",
    missing: [],
    waived: [],
    blocks: 0,
    stops: 0,
    first: now,
    updated: now,
  };
  if (!existing && load.toolUseId) run.loadId = sanitizeName(load.toolUseId, 80);
  if (!existing && input.agent) run.agent = input.agent;
  run.stops += 1;
  run.updated = now;
  return run;
}

function withCheck(run: RunRecord, check: CheckResult, outcome: RunOutcome): RunRecord {
  run.outcome = outcome;
  run.missing = check.items.filter((i) => i.status === "missing").map((i) => i.id);
  run.waived = check.items.filter((i) => i.status === "waived").map((i) => i.id);
  delete run.pending;
  return run;
}

/**
 * Decides one stop for the run, given what the record holds for it. Pure: the caller records
 * `next` (under the lock) before it answers.
 *
 * @param input The run, contract, payload facts and time.
 * @param existing The run's entry in the session record, if any.
 * @returns The decision.
 */
export function decideStop(input: StopInput, existing: RunRecord | undefined): StopDecision {
  const key = runKey(sanitizeName(input.skill, 64), input.run.load, input.agent);
  const check = () =>
    checkContract(input.run, input.contract, {
      skill: input.skill,
      finalText: input.finalText,
      sessionId: input.sessionId,
      command: input.command,
    });
  if (existing && SETTLED_OUTCOMES.includes(existing.outcome)) {
    return { action: "allow", reason: `already-${existing.outcome}` };
  }
  const finalText = finalAssistantText(input.run, input.finalText);
  const fingerprint = `${input.run.stats.fileSize}:${hash(finalText)}`;

  // After an own block: never block again; record the result.
  if (
    existing &&
    (existing.outcome === "blocked" || existing.outcome === "miss" || existing.blocks > 0)
  ) {
    if (
      existing.outcome === "blocked" && !input.stopHookActive &&
      existing.blockFingerprint === fingerprint
    ) {
      // The same stop again (a duplicate hook run): the block stands, nothing changes.
      return { action: "allow", reason: "duplicate-stop" };
    }
    const c = check();
    const run = baseRun(input, key, existing);
    if (c.outcome === "met") {
      return {
        action: "allow",
        reason: "after-block-met",
        next: withCheck(run, c, c.waived ? "met_waived" : "met_after_block"),
        check: c,
      };
    }
    // A held item (`hold: N`) blocks the run again, as a first block would: never on a turn that
    // asks the user, and not while agents run (until they stall).
    if (existing.outcome === "blocked" && existing.blocks < blockLimit(c)) {
      const final = isFinalTurn(input.run, input.finalText, input.kind);
      if (!final.final) return { action: "allow", reason: `held-${final.why}`, check: c };
      const agents = pendingAgents(input, existing);
      if (agents && !agents.stalled) {
        run.pending = agents.seen;
        return { action: "allow", reason: "held-agents-running", next: run, check: c };
      }
      return block(input, run, c, fingerprint, existing.blocks + 1, "held-unmet");
    }
    return {
      action: "allow",
      reason: "after-block-unmet",
      next: withCheck(run, c, "miss"),
      check: c,
    };
  }

  if (input.stopHookActive) {
    // Another Stop hook continued this turn: never block; record only a met run.
    const c = check();
    if (c.outcome === "met" && pendingAgentDispatches(input.run).length === 0) {
      const run = baseRun(input, key, existing);
      return {
        action: "allow",
        reason: "stop-hook-active-met",
        next: withCheck(run, c, c.waived ? "met_waived" : "met"),
        check: c,
      };
    }
    return { action: "allow", reason: "stop-hook-active", check: c };
  }

  const final = isFinalTurn(input.run, input.finalText, input.kind);
  if (!final.final) return { action: "allow", reason: final.why };

  const agents = pendingAgents(input, existing);
  const stalled = agents?.stalled === true;
  if (agents && !stalled) {
    const run = baseRun(input, key, existing);
    run.outcome = "deferred";
    run.pending = agents.seen;
    return { action: "allow", reason: "agents-running", next: run };
  }

  const c = check();
  const run = baseRun(input, key, existing);
  if (c.outcome === "met") {
    return {
      action: "allow",
      reason: stalled ? "met-agents-stalled" : "met",
      next: withCheck(run, c, c.waived ? "met_waived" : "met"),
      check: c,
    };
  }
  return block(input, run, c, fingerprint, 1, stalled ? "unmet-agents-stalled" : "unmet");
}

/** A block of the run: recorded `blocked` with its count and the stop's fingerprint. */
function block(
  input: StopInput,
  run: RunRecord,
  c: CheckResult,
  fingerprint: string,
  blocks: number,
  reason: string,
): StopDecision {
  const blocked = withCheck(run, c, "blocked");
  blocked.blocks = blocks;
  blocked.blockFingerprint = fingerprint;
  return {
    action: "block",
    reason,
    blockText: renderBlockLine(c, { command: input.command, block: blocks }),
    next: blocked,
    check: c,
  };
}

/**
 * The Agent dispatches still running at this stop, each with the time of the stop that first saw
 * it, and whether they all have run {@link STALL_MS} since (stalled); undefined when none runs.
 */
function pendingAgents(
  input: StopInput,
  existing: RunRecord | undefined,
): { seen: Record<string, string>; stalled: boolean } | undefined {
  const pending = pendingAgentDispatches(input.run);
  if (pending.length === 0) return undefined;
  const nowIso = input.now.toISOString();
  const before = existing?.pending ?? {};
  const seen: Record<string, string> = {};
  for (const p of pending) {
    const id = sanitizeName(p.toolUseId, 80) || `seq${p.seq}`;
    seen[id] = Object.hasOwn(before, id) ? before[id] : nowIso;
  }
  const stallMs = input.stallMs ?? STALL_MS;
  const stalled = Object.values(seen).every((t) => {
    const at = Date.parse(t);
    return Number.isFinite(at) && input.now.getTime() - at >= stallMs;
  });
  return { seen, stalled };
}

/** The canary file counting unknown transcript shapes. */
export function canaryPath(root: string): string {
  return join(root, "hooks", "skill-contract.canary.json");
}

/**
 * Adds one to the unknown-shape canary (`<state root>/hooks/skill-contract.canary.json`). Best
 * effort: never throws; a canary (or its lock) that is a symbolic link is left alone.
 *
 * @param root The state root.
 * @param reason Why the shape was unknown (no transcript text).
 * @param now The time.
 * @returns The new count, or undefined when it could not be written.
 */
export function bumpCanary(
  root: string,
  reason: string,
  now: Date = new Date(),
): number | undefined {
  const path = canaryPath(root);
  try {
    return withLock(`${path}.lock`, () => {
      let count = 0;
      try {
        const v = readJsonFile(path, 64 * 1024) as { count?: unknown } | undefined;
        if (v && typeof v.count === "number" && Number.isFinite(v.count)) count = v.count;
      } catch (err) {
        // A corrupt canary restarts at 1; one that is a symbolic link is refused, not replaced.
        if (!(err instanceof CorruptFileError)) throw err;
        count = 0;
      }
      count += 1;
      writeFileAtomic(
        path,
        JSON.stringify({ count, last: now.toISOString(), reason: sanitizeLine(reason, 200) }) +
          "\n",
      );
      return count;
    }, { timeoutMs: 1000 });
  } catch {
    return undefined;
  }
}

/**
 * What a Stop hook run is working on, held by the caller that formats its failures: a failure
 * that comes from outside the hook's logic (the runner's deadline) or that the logic did not
 * expect names this path in its state-error line (`formatContractFailure(failure, progress.path)`).
 */
export interface StopProgress {
  /** The state root, transcript or session record being worked on. */
  path?: string;
}

/** Options and test seams of {@link runContractStop}. */
export interface StopDeps {
  /** Where the run notes what it is working on (see {@link StopProgress}). */
  progress?: StopProgress;
  /** The time (default: now). */
  now?: () => Date;
  /** The session kind (default: from the environment). */
  kind?: () => SessionKind;
  /** The transcript parse limit (default: the reader's 32 MiB). */
  maxParseBytes?: number;
  /** The stall time (default {@link STALL_MS}). */
  stallMs?: number;
  /** How long to wait for the transcript to hold the turn (default: from the hook deadline). */
  catchUpMs?: number;
}

/**
 * Whether a load is of a skill an MCP server serves (`server:skill`, Claude Code 2.1.332: no
 * SKILL.md on disk): a qualified name that is no installed skill's, whose qualifier names no
 * installed plugin. Such a run is not held to the contract of a local skill of the bare name.
 */
function isMcpLoad(skills: readonly SkillEntry[], plugins: readonly string[], load: SkillLoad) {
  const colon = load.qualifiedName.lastIndexOf(":");
  if (colon <= 0) return false;
  const catalog = { skills, agents: [], dirs: [], scanned: 0, skipped: 0, fromIndex: true };
  return !plugins.includes(load.qualifiedName.slice(0, colon)) &&
    findSkill(catalog, load.qualifiedName) === undefined;
}

function entryFor(skills: readonly SkillEntry[], load: SkillLoad): SkillEntry | undefined {
  const catalog = { skills, agents: [], dirs: [], scanned: 0, skipped: 0, fromIndex: true };
  return findSkill(catalog, load.qualifiedName) ?? findSkill(catalog, load.name);
}

/**
 * How far back a Stop searches a transcript for the last contracted load: 10 KiB per millisecond
 * of the hook's deadline, at least 16 MiB (50 MB at the default 5 s). On a 2-core machine shared
 * by a dozen busy processes, a 100 MB search of a sparse file's holes took 3 s and an 8 GiB
 * file's first Stop with it ran past its deadline; half of it keeps the Stop well inside. A load
 * further back is not found (logged `reason=search-budget`). The search's memory is bounded by
 * its chunk, the lines it keeps (4 MiB) and the parse limit, whatever the file's size.
 *
 * @param deadlineMs The hook's deadline (default 5000 ms).
 * @returns The byte budget.
 */
export function searchBudgetBytes(deadlineMs = 5000): number {
  return Math.max(16 * 1024 * 1024, Math.floor(deadlineMs) * 10 * 1024);
}

/**
 * The Stop hook: checks the most recently loaded contract skill's run and answers block or
 * pass-through. State problems throw {@link ContractStateError} (the runner prints its line).
 *
 * @param ev The Stop event.
 * @param ctx The hook context.
 * @param deps Test seams.
 * @returns The block answer, or null to let the stop through.
 */
export async function runContractStop(
  ev: HookEvent,
  ctx: HookContext,
  deps: StopDeps = {},
): Promise<HookAnswer> {
  const progress: StopProgress = deps.progress ?? {};
  progress.path = ctx.stateRoot;
  const subagent = ev.eventName === "SubagentStop";
  if (!subagent && ev.eventName !== "Stop") return null;
  if (!isSafeFileStem(ev.sessionId)) {
    ctx.log("allow", "no-safe-session-id");
    return null;
  }
  // Copilot CLI also runs agentStop inside a sub-agent (its own id as the session's): the
  // sub-agent's subagentStop checks that run.
  if (!subagent && ev.agentId !== undefined) {
    ctx.log("allow", "sub-agent-own-stop");
    return null;
  }
  // A sub-agent's stop reads the sub-agent's run: its own transcript (Claude Code, Codex CLI), or
  // its records in the session's (Copilot CLI).
  const agent = subagent ? sanitizeName(ev.agentId ?? "", 80) : undefined;
  if (agent === "") {
    ctx.log("allow", "no-agent-id");
    return null;
  }
  const transcript = subagent ? ev.agentTranscriptPath ?? ev.transcriptPath : ev.transcriptPath;
  if (!transcript) {
    ctx.log("allow", "no-transcript-path");
    return null;
  }
  // Only the skills with a contract, from their view of the catalog's index (`contractSkills`).
  const catalog = await contractSkills({
    ...hookCatalogOptions(ev, ctx),
    sweepFile: join(ctx.stateRoot, "skill-contracts", ".catalog-sweep.json"),
  });
  const withContract = catalog.skills;
  if (withContract.length === 0) {
    ctx.log("allow", "no-contract-skill-installed");
    return null;
  }

  progress.path = transcript;
  // The transcript in the format the sending host writes (Claude Code JSONL, Copilot CLI events,
  // a Codex CLI rollout).
  const reader = await readerFor(hostFor(ev.host).transcript);
  // A stop with no contracted skill loaded is the common case: remember how far back it was
  // searched, so the next stop of the session searches only what was appended since.
  // (A sub-agent's stops are few, its file short: its search keeps no memo.)
  const memoKey = scanMemoKey(transcript, withContract, catalog.dirs);
  const floor = agent ? 0 : readScanMemo(ctx.stateRoot, ev.sessionId, memoKey);
  const selector = (load: SkillLoad) => entryFor(withContract, load) !== undefined;
  const searchOptions = {
    skill: selector,
    skillsDirs: catalog.dirs,
    scanFloor: floor,
    scanBudget: searchBudgetBytes(ctx.deadlineMs),
    agent,
  };
  // The host may fire Stop before the turn's last records reach the file: decide nothing on a file
  // that does not hold the turn yet (no block, nothing recorded; a later stop or report checks).
  // Usually the search's own lines show the turn there already; otherwise wait for the file to
  // hold it, then search again.
  const stopFacts = { finalText: ev.lastAssistantMessage, timestamp: ev.timestamp, agent };
  let search: LoadSearch | undefined;
  if (reader.searchShowsTurn) {
    try {
      const first = await reader.findLastLoad(transcript, searchOptions);
      if (reader.searchShowsTurn(first, stopFacts)) search = first;
    } catch {
      // The wait below says how the file stands; the search after it reports a read failure.
    }
  }
  let currency: TurnCurrency = { state: "current", waitedMs: 0, polls: 0 };
  if (!search) {
    currency = await reader.awaitTurn(transcript, stopFacts, {
      budgetMs: deps.catchUpMs,
      deadlineMs: ctx.deadlineMs,
      signal: ctx.signal,
    });
    if (currency.state === "behind") {
      ctx.log("allow", "transcript-behind", { waited: currency.waitedMs, polls: currency.polls });
      return null;
    }
  }
  let read;
  // The session's record, read once (without a lock) for the settled check and the decision.
  let record: SessionRecord | undefined;
  try {
    search ??= await reader.findLastLoad(transcript, searchOptions);
    if (search.kind === "not_loaded") {
      if (!agent) writeScanMemo(ctx.stateRoot, ev.sessionId, memoKey, search.fileSize);
      if (search.budget) ctx.log("allow", "search-budget", { bytes: searchOptions.scanBudget });
      else ctx.log("allow", "no-contract-skill-loaded", floor ? { from: floor } : undefined);
      return null;
    }
    if (search.kind === "found" && isMcpLoad(withContract, catalog.plugins, search.load)) {
      ctx.log("allow", "mcp-skill");
      return null;
    }
    if (search.kind === "found") {
      // A settled run stays settled (seed: met, met_waived and met_after_block stay so): its
      // transcript need not be parsed again, however long it has grown.
      record = readRecord(ctx.stateRoot, ev.sessionId);
      const settled = settledOutcome(record, withContract, search.load, agent);
      if (settled) {
        ctx.log("allow", `already-${settled}`, { run: search.load.offset });
        return null;
      }
    }
    read = search.kind === "found"
      ? await reader.readRun(transcript, {
        skill: selector,
        skillsDirs: catalog.dirs,
        maxParseBytes: deps.maxParseBytes,
        fromOffset: search.load.offset,
        tail: search.tail,
        agent,
      })
      : { kind: "unknown_shape" as const, reason: search.reason, stats: undefined };
  } catch (e) {
    if (e instanceof ContractStateError) throw e;
    if (e instanceof TranscriptReadError) throw new ContractStateError(e.path, e.message);
    throw new ContractStateError(transcript, errorCause(e));
  }
  if (read.kind === "not_loaded") {
    ctx.log("allow", "no-contract-skill-loaded");
    return null;
  }
  if (read.kind === "too_large") {
    throw new ContractStateError(
      transcript,
      `the skill run is ${read.bytes} bytes, over the ${read.limit}-byte limit`,
    );
  }
  if (read.kind === "unknown_shape") {
    const count = bumpCanary(ctx.stateRoot, read.reason);
    throw new ContractStateError(
      transcript,
      `unknown transcript shape (${read.reason}); canary ${count ?? "not"} counted`,
    );
  }
  const run = read.run;
  const entry = entryFor(withContract, run.load)!;
  const v = await validateContract(entry.contract);
  if (!v.ok) {
    // An overlay's contract is named by its file and line (`skillgate contract lint` shows all).
    const o = entry.overlay?.contract;
    throw new ContractStateError(
      o ? `${o.file}:${o.line}` : entry.file,
      `invalid contract block: ${v.error}`,
    );
  }

  const now = (deps.now ?? (() => new Date()))();
  const input: StopInput = {
    run,
    contract: v.contract,
    skill: entry.name,
    // Without a payload field for it (Copilot CLI), the final text is the current file's.
    finalText: reader.payloadFinalText ? ev.lastAssistantMessage : undefined,
    stopHookActive: ev.stopHookActive,
    kind: deps.kind ? deps.kind() : sessionKindFor(run.nonInteractive === true),
    sessionId: ev.sessionId,
    command: skillgateCommand(ctx.config.values),
    now,
    stallMs: deps.stallMs,
    ...(agent ? { agent } : {}),
  };
  const sessionId = ev.sessionId;
  const recordFile = join(ctx.stateRoot, "skill-contracts", `${sessionId}.json`);
  progress.path = recordFile;
  let previous: RunOutcome | undefined;
  const decide = (current: SessionRecord | undefined, commit: boolean) => {
    const skill = sanitizeName(entry.name, 64);
    const key = runKey(skill, run.load, agent);
    const existing = current?.runs.find((r) => r.key === key);
    // The skill loaded again after skillgate blocked its earlier run (the model following the
    // block text, say): the block already happened, so this run is that run's sequel. It is
    // decided as "after a block" and settles the blocked run with the same outcome; it never
    // gets a second block.
    const pending = existing
      ? undefined
      : current?.runs.findLast((r) =>
        r.skill === skill && r.outcome === "blocked" && r.loadOffset < run.load.offset &&
        r.agent === agent
      );
    previous = existing?.outcome ?? pending?.outcome;
    const d = decideStop(input, existing ?? pending);
    // The record and the answer are one commit: past the deadline the runner has answered
    // already, so nothing is recorded; once committed, the runner prints this answer.
    if (commit && (d.next || d.action === "block")) ctx.commit();
    // A sub-agent's run keeps its own transcript; the session's stays the main one.
    if (d.next && agent) d.next.transcript = transcript;
    let record = d.next
      ? upsertRun(current, sessionId, d.next, now, agent ? undefined : transcript)
      : undefined;
    if (record && pending && d.next) {
      // d.next settles the blocked run (its key); this run gets the same outcome.
      const sequel = { ...d.next, key, loadOffset: run.load.offset, loadVia: run.load.via };
      record = upsertRun(record, sessionId, sequel, now);
    }
    return { record, result: d };
  };
  let decision: StopDecision;
  try {
    // A decision that lets the stop through and records nothing takes no lock: made on the record
    // as read before the run (read once for the settled check), it stands as if made before any
    // write racing it. Any other is made again under the record's lock.
    const quick = decide(record, false);
    decision = quick.record === undefined && quick.result.action === "allow"
      ? quick.result
      : updateSessionRecord(ctx.stateRoot, sessionId, (current) => decide(current, true));
  } catch (e) {
    const path = (e as { path?: unknown })?.path;
    throw new ContractStateError(typeof path === "string" ? path : recordFile, errorCause(e));
  }
  ctx.log(decision.action, decision.reason, {
    skill: sanitizeName(entry.name),
    run: run.load.offset,
    was: previous ?? "none",
    now: decision.next?.outcome ?? previous ?? "none",
    missing: decision.check?.items.filter((i) =>
      i.status === "missing"
    ).map((i) => i.id).join(",") ||
      "none",
    kind: input.kind,
    ...(agent ? { agent } : {}),
    ...(currency.state === "unverified" ? { transcript: currency.reason } : {}),
    ...(currency.state === "current" && currency.waitedMs > 0 ? { waited: currency.waitedMs } : {}),
  });
  return decision.action === "block" ? stopBlockAnswer(ev, decision.blockText!) : null;
}

/**
 * Bytes a later search re-reads below the size an earlier one covered, in case the host was still
 * writing the last line then.
 */
const SCAN_MEMO_OVERLAP = 64 * 1024;

interface ScanMemo {
  key: string;
  size: number;
}

function scanMemoPath(stateRoot: string, sessionId: string): string {
  return join(stateRoot, "skill-contracts", `${sessionId}.scan.json`);
}

/** What a memo is valid for: the transcript, and the contracted skills and dirs searched for. */
function scanMemoKey(
  transcript: string,
  skills: readonly SkillEntry[],
  dirs: readonly string[],
): string {
  return JSON.stringify([
    transcript,
    skills.map((s) => [s.name, s.altName ?? ""]).sort(),
    [...dirs].sort(),
  ]);
}

/**
 * The byte offset below which this session's transcript holds no load of a contracted skill, from
 * an earlier stop's search; 0 (search it all) when there is no valid memo or the file shrank.
 */
function readScanMemo(stateRoot: string, sessionId: string, key: string): number {
  try {
    const memo = readJsonFile(scanMemoPath(stateRoot, sessionId), 64 * 1024) as
      | ScanMemo
      | undefined;
    if (!memo || memo.key !== key || typeof memo.size !== "number") return 0;
    return Math.max(0, memo.size - SCAN_MEMO_OVERLAP);
  } catch (err) {
    // A memo planted as a symbolic link is refused (a state error), never read or replaced.
    if (err instanceof StateFileRefusedError) throw new ContractStateError(err.path, err.message);
    return 0;
  }
}

/** Remembers that no contracted skill was loaded in the first `size` bytes. Best effort. */
function writeScanMemo(stateRoot: string, sessionId: string, key: string, size: number): void {
  try {
    writeCacheFile(scanMemoPath(stateRoot, sessionId), JSON.stringify({ key, size }));
  } catch {
    // A memo that cannot be written costs the next stop a longer search, nothing else.
  }
}

/** The session's record, read without a lock; a failure is a state error naming its file. */
function readRecord(stateRoot: string, sessionId: string): SessionRecord | undefined {
  try {
    return readSessionRecord(stateRoot, sessionId);
  } catch (e) {
    const path = (e as { path?: unknown })?.path;
    throw new ContractStateError(
      typeof path === "string" ? path : join(stateRoot, "skill-contracts", `${sessionId}.json`),
      errorCause(e),
    );
  }
}

/** The settled outcome the record holds for the run that starts at `load`, if any. */
function settledOutcome(
  record: SessionRecord | undefined,
  skills: readonly SkillEntry[],
  load: SkillLoad,
  agent: string | undefined,
): RunOutcome | undefined {
  const entry = entryFor(skills, load);
  if (!entry) return undefined;
  const key = runKey(sanitizeName(entry.name, 64), load, agent);
  const run = record?.runs.find((r) => r.key === key);
  return run && SETTLED_OUTCOMES.includes(run.outcome) ? run.outcome : undefined;
}

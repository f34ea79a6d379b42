/**
 * The fail-open runner every hook entry uses: read stdin (bounded in size and time), parse the
 * payload, check the permissions the hook table grants, read the switch, run the hook's logic
 * under a deadline, and print the host's answer.
 *
 * Whatever goes wrong (a throw, a missing permission, a malformed payload, a payload no host
 * recognises, the deadline), the host gets the pass-through answer (exit 0, nothing on stdout) and
 * stderr gets exactly one line: `skillgate: <CODE> <detail>` (`UNKNOWN_HOST` for a payload of no
 * host in `lib/host/mod.ts`).
 *
 * @module
 */

import { isAbsolute, join } from "../base/path.ts";
import { configList, configNumber, type ConfigState, readSwitch } from "../base/config.ts";
import { logDecision, type LogFields } from "./log.ts";
import { type HookId, type HookRow, hookRow, type PermissionPaths } from "./table.ts";
import {
  type HookEvent,
  parsePayload,
  PayloadError,
  UnknownHostPayloadError,
} from "../host/payload.ts";
import type { HookAnswer } from "../host/answer.ts";
import { foldersOf, stateRoot } from "../host/places.ts";
import { type Host, type HostFolders, hostFor, type HostKind } from "../host/mod.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import {
  type Deadline,
  deadline,
  DEFAULT_DEADLINE_MS,
  expiry,
  readStdin,
  StdinError,
} from "./io.ts";
import { checkStateFile, readStateFile } from "../base/state_file.ts";
import { followLinksTo } from "../base/fs.ts";
import { readFolders } from "../host/folders.ts";
import {
  CLAIM_WINDOW_MS,
  claimEvent,
  CLAIMS_DIR,
  eventKey,
  transcriptStamp,
} from "./event_claim.ts";

export { DEFAULT_DEADLINE_MS } from "./io.ts";

/** A failure a hook reports on its one stderr line. */
export class HookFailure extends Error {
  /**
   * @param code A stable upper-case code, such as `PERMISSION` or `SKILL_CONTRACT_STATE_ERROR`.
   * @param detail One line saying what happened.
   */
  constructor(readonly code: string, readonly detail: string) {
    super(`${code} ${detail}`);
    this.name = "HookFailure";
  }
}

/** What a hook's logic receives besides the event. */
export interface HookContext {
  /** The hook's row in the hook table. */
  readonly row: HookRow;
  /** The state root. */
  readonly stateRoot: string;
  /** The host that sent the event. */
  readonly host: Host<HostKind>;
  /** That host's folders on this machine (its skills, agents and transcripts). */
  readonly folders: HostFolders;
  /** The config file as read. */
  readonly config: ConfigState;
  /**
   * Aborted when the deadline passes. A hook busy without a pause does not see the abort until it
   * waits, so a check before a write should also ask {@link HookContext.pastDeadline}. The first
   * read of it sets up the timer behind it (about 0.5 ms in a fresh process): a hook that never
   * waits on a timer of its own need not ask.
   */
  readonly signal: AbortSignal;
  /** The deadline, in milliseconds from the start of the hook's logic (config `hook_deadline_ms`). */
  readonly deadlineMs?: number;
  /** Whether the deadline has passed (by the clock, aborted or not). */
  pastDeadline?(): boolean;
  /**
   * Commits the hook to its answer, right before it records state that the answer stands for (a
   * block and its record are one commit). Past the deadline it throws the deadline failure, so
   * nothing is recorded; once it returns, the runner prints the hook's answer even if the
   * deadline passes before the hook returns it.
   *
   * @throws {HookFailure} `DEADLINE` when the deadline has passed.
   */
  commit(): void;
  /** Writes one decision line to the hook's log (names and counts only, never prompt text). */
  log(outcome: string, reason?: string, extra?: Record<string, string | number | boolean>): void;
}

/** A hook's logic. */
export interface HookSpec {
  /** The hook's id, for the events it serves (a PreToolUse and a Stop row may share an entry). */
  readonly ids: readonly HookId[];
  /** Computes the answer; `null` lets the action proceed. */
  run(ev: HookEvent, ctx: HookContext): Promise<HookAnswer> | HookAnswer;
  /**
   * Whether the event concerns the hook at all, decided from the payload alone before any config
   * or file is read (a PreToolUse hook for one tool, say). An event it does not concern passes
   * through with no log line. Default: every event of the hook's rows.
   */
  relevant?(ev: HookEvent): boolean;
  /** Formats the stderr line of a failure (default: `skillgate: <code> <detail>`). */
  formatFailure?(failure: HookFailure): string;
}

/** Where a hook run ended, for tests and the runner itself. */
export interface HookOutcome {
  /** What was printed to stdout (empty for pass-through). */
  readonly stdout: string;
  /** The one stderr line, when something went wrong. */
  readonly stderr?: string;
}

/**
 * The paths a hook's permissions are granted for, as this process sees them.
 *
 * @param host The host that sent the payload: the hook holds grants for its folders.
 * @param config The config file as read (for `skill_dirs`, `agent_dirs`).
 * @returns The paths.
 */
export function currentPermissionPaths(host: HostKind, config?: ConfigState): PermissionPaths {
  return {
    hostFolders: foldersOf(hostFor(host)),
    stateRoot: stateRoot(),
    extraSkillDirs: config ? configList(config, "skill_dirs", []) : [],
    extraAgentDirs: config ? configList(config, "agent_dirs", []) : [],
  };
}

/**
 * Checks that the hook holds every absolute read and write grant its table row asks for.
 *
 * @param row The hook.
 * @param paths The paths it runs with.
 * @throws {HookFailure} `PERMISSION`, naming the flag to add, for the first grant missing.
 */
export function probePermissions(row: HookRow, paths: PermissionPaths): void {
  const perms = row.permissions(paths);
  for (const path of perms.read) {
    if (!isAbsolute(path)) continue;
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") {
      throw new HookFailure("PERMISSION", `missing --allow-read=${path}`);
    }
  }
  for (const path of perms.write) {
    if (!isAbsolute(path)) continue;
    if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") {
      throw new HookFailure("PERMISSION", `missing --allow-write=${path}`);
    }
  }
}

function describe(err: unknown): HookFailure {
  if (err instanceof HookFailure) return err;
  // A payload no host recognises is nobody's to answer: it passes through, saying so.
  if (err instanceof UnknownHostPayloadError) return new HookFailure("UNKNOWN_HOST", err.message);
  if (err instanceof PayloadError || err instanceof StdinError) {
    return new HookFailure("PAYLOAD", err.message);
  }
  const notCapable = (Deno.errors as Record<string, unknown>).NotCapable as
    | (new () => Error)
    | undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (notCapable && err instanceof notCapable) {
    const flag = /run again with the (--allow-[a-z]+) flag/.exec(message)?.[1];
    return new HookFailure("PERMISSION", flag ? `missing ${flag}: ${message}` : message);
  }
  return new HookFailure("ERROR", message);
}

function countSessionFailures(root: string, row: HookRow, session: string | undefined): number {
  if (!session) return 1;
  try {
    const bytes = readStateFile(join(root, "hooks", row.logFile), 4 * 1024 * 1024);
    if (bytes === undefined) return 1;
    const text = new TextDecoder().decode(bytes);
    const needle = `session=${session} `;
    let n = 0;
    for (const line of text.split("\n")) {
      if (line.includes(needle) && line.includes(" outcome=error")) n++;
    }
    return n + 1;
  } catch {
    return 1;
  }
}

/**
 * Runs a hook's logic on one payload and returns what to print. Never throws.
 *
 * @param spec The hook.
 * @param raw The payload text.
 * @param readConfigState The config file, when the hook's front has read it already.
 * @returns The stdout text (possibly empty) and the stderr line, if any.
 */
export async function evaluateHook(
  spec: HookSpec,
  raw: string,
  readConfigState?: ConfigState,
): Promise<HookOutcome> {
  let row = hookRow(spec.ids[0]);
  let ev: HookEvent | undefined;
  let root: string | undefined;
  const format = (f: HookFailure) =>
    sanitizeLine(spec.formatFailure?.(f) ?? `skillgate: ${f.code} ${f.detail}`, 1000);
  try {
    ev = parsePayload(raw);
    const eventName = ev.eventName;
    const ids = spec.ids.map(hookRow);
    row = ids.find((r) => r.event === eventName) ?? ids[0];
    if (!ids.some((r) => r.event === eventName)) return { stdout: "" };
    if (spec.relevant && !spec.relevant(ev)) return { stdout: "" };
    // The environment outranks the config file, even one that cannot be read (a switch it turns
    // off costs no config read); without it, an unreadable config turns the hook off, because it
    // may hold an off the user set.
    const sw = readSwitch(row.switchName, stateRoot, readConfigState);
    if (sw.off) return { stdout: "" };
    root = stateRoot();
    if (!sw.config) throw new HookFailure("PERMISSION", `missing --allow-read=${root}`);
    const config = sw.config;
    if (!sw.on) {
      throw new HookFailure("CONFIG_UNREADABLE", `${config.path}: ${config.error}; hook off`);
    }
    const paths = currentPermissionPaths(ev.host, config);
    probePermissions(row, paths);
    // A transcript under the host's transcripts folder reached through a link on the way to it (a
    // `~/.claude` in a dotfiles folder) is read as setup's grant of where the link leads allows,
    // also when the commands could not grant it (the plugin's).
    const transcripts = readFolders(paths.hostFolders).transcripts;
    if (transcripts) followLinksTo(transcripts);
    // A log planted as a symbolic link would be followed by every append: refuse to run on it.
    const logPath = join(root, "hooks", row.logFile);
    try {
      checkStateFile(logPath);
    } catch (err) {
      throw new HookFailure("STATE", `${logPath}: ${err instanceof Error ? err.message : err}`);
    }
    // One answer per event: when skillgate is registered twice (user and project settings, the
    // plugin and setup), the host runs both with the same payload; the first to claim the event
    // answers and the other stays silent, before it reads or records anything. A claim that
    // cannot be checked answers as before.
    // A stop's claim holds its transcript's stamp: the same bytes after the transcript grew are
    // another stop.
    const stop = row.event === "Stop" || row.event === "SubagentStop";
    const stamp = stop ? transcriptStamp(ev.transcriptPath) : undefined;
    const key = eventKey(row.id, raw, ev.raw);
    if (!claimEvent(join(root, CLAIMS_DIR), key, Date.now(), CLAIM_WINDOW_MS, stamp).first) {
      return { stdout: "" };
    }
    const deadlineMs = configNumber(config, "hook_deadline_ms", DEFAULT_DEADLINE_MS);
    const deadlineFailure = () =>
      new HookFailure("DEADLINE", `hook ran past its ${deadlineMs} ms deadline`);
    const deadlineAt = performance.now() + deadlineMs;
    // The race uses an expiry (0.06 ms to set up), which keeps no process alive: a hook waiting
    // on I/O keeps it alive itself. The runtime's timer behind `ctx.signal` (0.5 ms to set up,
    // and it keeps the process alive until the deadline) is made only for a hook that asks for
    // the signal, which the hooks that wait (for a transcript to catch up) do.
    const expired = expiry(deadlineMs, deadlineFailure);
    let timeout: Deadline | undefined;
    let timerFired: (err: unknown) => void = () => {};
    const timerExpired = new Promise<never>((_, reject) => timerFired = reject);
    timerExpired.catch(() => {});
    const timer = () => {
      if (timeout) return timeout;
      timeout = deadline(Math.max(0, deadlineAt - performance.now()), deadlineFailure);
      timeout.promise.catch(timerFired);
      return timeout;
    };
    const pastDeadline = () => (timeout?.signal.aborted ?? false) || performance.now() > deadlineAt;
    const event = ev;
    const stateDir = root;
    let committed = false;
    const ctx: HookContext = {
      row,
      stateRoot: root,
      host: hostFor(event.host),
      folders: paths.hostFolders,
      config,
      get signal() {
        return timer().signal;
      },
      deadlineMs,
      pastDeadline,
      commit() {
        if (pastDeadline()) throw deadlineFailure();
        committed = true;
      },
      log(outcome, reason, extra) {
        // The host and the transcript's path lead every line (`skillgate report` finds a session's
        // transcript by them); a hook that names the host among its own fields keeps it there.
        const fields: LogFields = {
          ...(extra?.host === undefined ? { host: event.host } : {}),
          transcript_path: event.transcriptPath,
          session: event.sessionId,
          hook: row.id,
          event: event.eventName,
          outcome,
          reason,
          ...extra,
        };
        logDecision(stateDir, row.logFile, fields);
      },
    };
    try {
      const running = Promise.resolve().then(() => spec.run(event, ctx));
      let answer: HookAnswer;
      try {
        answer = await Promise.race([running, expired, timerExpired]);
      } catch (err) {
        // A hook that committed before the deadline fired gets its answer printed: it has only
        // its record write left, given at most another second.
        if (!committed) throw err;
        let grace: ReturnType<typeof setTimeout> | undefined;
        answer = await Promise.race([
          running,
          new Promise<never>((_, reject) => {
            grace = setTimeout(() => reject(err), 1000);
          }),
        ]).finally(() => clearTimeout(grace));
      }
      // Work that never paused finishes before the abort can fire: the clock still decides,
      // unless the hook committed to its answer in time.
      if (pastDeadline() && !committed) throw deadlineFailure();
      return { stdout: answer === null ? "" : JSON.stringify(answer) };
    } finally {
      timeout?.clear();
    }
  } catch (err) {
    const failure = describe(err);
    if (root !== undefined && ev !== undefined) {
      logDecision(root, row.logFile, {
        session: ev.sessionId,
        hook: row.id,
        event: ev.eventName,
        outcome: "error",
        reason: failure.code,
        failures: countSessionFailures(root, row, ev.sessionId),
      });
    }
    return { stdout: "", stderr: format(failure) };
  }
}

/**
 * The whole life of a hook process: read stdin, evaluate, print. Never throws. The entry ends the
 * process right after, with exit code 0 (`Deno.exit(0)`): a stdin read abandoned at its deadline,
 * or logic that ran past its deadline, would otherwise keep it alive.
 *
 * @param spec The hook.
 * @param input The payload when the entry has read it already (or why it could not).
 * @param config The config file, when the hook's front has read it already.
 */
export async function runHook(
  spec: HookSpec,
  input?: string | StdinError,
  config?: ConfigState,
): Promise<void> {
  let outcome: HookOutcome;
  try {
    const raw = input ?? await readStdin();
    // A front bundled apart from its core has a StdinError class of its own: go by the shape.
    if (typeof raw !== "string") throw new StdinError(raw.message);
    outcome = await evaluateHook(spec, raw, config);
  } catch (err) {
    const failure = describe(err);
    outcome = { stdout: "", stderr: `skillgate: ${failure.code} ${sanitizeLine(failure.detail)}` };
  }
  try {
    if (outcome.stdout) writeAll(Deno.stdout, outcome.stdout + "\n");
    if (outcome.stderr) writeAll(Deno.stderr, outcome.stderr + "\n");
  } catch {
    // A closed pipe: the host has gone; nothing more to say.
  }
}

/** Writes all of `text` (synchronous: the log line has warmed that op, an async write is cold). */
function writeAll(target: typeof Deno.stdout, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.length;) offset += target.writeSync(bytes.subarray(offset));
}

/**
 * The skill-to-agent redirect: when a model calls the Skill tool with the name of an agent that is
 * not also a skill, tell it, as a statement of fact, that the name is an agent and how agents are
 * started (the Agent tool, `subagent_type`).
 *
 * Two paths share one message:
 * - PreToolUse ({@linkcode checkSkillRedirect}): the seed's `check_skill_redirect`. It fires on
 *   Copilot CLI (which calls preToolUse even for a skill that does not exist) and on Claude Code
 *   when a name is both an agent and something the host resolves.
 * - Stop ({@linkcode checkStopRedirect}): current Claude Code rejects an unknown skill before any
 *   PreToolUse hook runs, so at the end of the turn a failed `Skill` call for a known agent that
 *   was not dispatched afterwards gets one block with the same text.
 *
 * The decisions are pure functions with the agent and skill lookups passed in; the skill lookup
 * is only called once a name is known to be an agent. {@linkcode redirectOnEvent} wires them to the
 * installed catalog, the transcript reader, the host answers and the once-per-call markers.
 *
 * @module
 */

import { isUnder, join } from "../base/path.ts";
import { denyAnswer, type HookAnswer, stopBlockAnswer } from "../host/answer.ts";
import type { Catalog, CatalogOptions, catalogRoots } from "../catalog/catalog.ts";
import { type CatalogContext, hookCatalogOptions } from "../catalog/hook_options.ts";
import type { ConfigState } from "../base/config.ts";
import { HookFailure } from "../hook/runner.ts";
import type { HookEvent } from "../host/payload.ts";
import { type Host, hostFor, type HostKind, HOSTS } from "../host/mod.ts";
import { readFolders } from "../host/folders.ts";
import { exactName, sanitizeName } from "../base/sanitize.ts";
import {
  isSafeFileStem,
  readJsonFile,
  StateFileRefusedError,
  withLock,
  writeFileAtomic,
} from "../base/state_file.ts";
import { MAX_TURN_BYTES, type TurnRead } from "../transcript/model.ts";
import { currentTurnEvents, type TurnEvent } from "../transcript/turn_events.ts";
import { turnReaderFor } from "../transcript/turn_readers.ts";
import { skillReadTarget } from "../transcript/skill_read.ts";

/** The longest raw name looked up at all; longer names cannot be agents and pass through. */
export const MAX_TARGET_NAME_LENGTH = 256;

/**
 * Reads the target name of a Skill call: the `skill` key when present (a string, else nothing),
 * else `name` if it is a string. Surrounding whitespace and one leading `/` are dropped, as the
 * host does.
 *
 * @param toolInput The tool input (any JSON value; junk is fine).
 * @returns The name, or `undefined` when there is no usable string name.
 */
export function skillTargetName(toolInput: unknown): string | undefined {
  if (toolInput === null || typeof toolInput !== "object" || Array.isArray(toolInput)) {
    return undefined;
  }
  const input = toolInput as Record<string, unknown>;
  // As the seed's `get("skill").or_else(get("name")).and_then(as_str)`: `name` is read only when
  // there is no `skill` key at all; a `skill` that is null or not a string passes through.
  const raw = Object.hasOwn(input, "skill")
    ? (typeof input.skill === "string" ? input.skill : undefined)
    : (typeof input.name === "string" ? input.name : undefined);
  if (raw === undefined) return undefined;
  let name = raw.trim();
  if (name.startsWith("/")) name = name.slice(1).trim();
  return name === "" ? undefined : name;
}

/**
 * The redirect text for one name, in the host's own terms: the agent named exactly as the host
 * knows it when its name is safe printable text (`exactName`: letters, digits, space, `.`, `_`,
 * `:`, `@`, `/`, `-`), so the model starts the agent that is there; otherwise "that agent", the
 * name never echoed.
 *
 * @param name The agent's name (untrusted).
 * @param host The host the text is for.
 * @returns The message.
 */
export function redirectMessage(name: string, host: HostKind): string {
  const text = hostFor(host).texts.skillIsAgent;
  const exact = exactName(name);
  if (exact !== undefined) return text.replaceAll("{name}", exact);
  const out = text.replaceAll('"{name}"', "that agent").replaceAll("{name}", "that agent");
  return out.startsWith("that agent") ? `T${out.slice(1)}` : out;
}

/** Where the redirect learns what is an agent and what is a skill. */
export interface RedirectSources {
  /** Whether the exact, case-sensitive name is a known agent. Called first, for every name. */
  isAgent(name: string): boolean | Promise<boolean>;
  /** Whether the name is a skill. Called only for names that are known agents. */
  isSkill(name: string): boolean | Promise<boolean>;
}

/** Why a Skill call passes through. */
export type RedirectPassReason =
  | "not-skill-tool"
  | "no-name"
  | "not-agent"
  | "is-skill"
  | "mcp-skill";

/** The decision for one Skill call. */
export type RedirectDecision =
  | { action: "pass"; reason: RedirectPassReason }
  | { action: "deny"; name: string; message: string };

/**
 * Decides whether to bring the redirect to a Skill call (the seed's `check_skill_redirect`).
 *
 * Pass-through for every other tool, for a missing or non-string name, for a name that is not a
 * known agent (no skill lookup at all), and for a name that is also a skill (skills take
 * precedence). Never throws for any tool input.
 *
 * @example A Skill call that names an agent
 * ```ts
 * import { checkSkillRedirect } from "@skillgate/skillgate";
 *
 * const d = await checkSkillRedirect("Skill", { skill: "prompt-writer" }, {
 *   isAgent: (name) => Promise.resolve(name === "prompt-writer"),
 *   isSkill: () => Promise.resolve(false),
 * }, "claude");
 * if (d.action === "deny") console.log(d.message); // "prompt-writer" is an agent, not a skill: …
 * ```
 *
 * @param toolName The payload's tool name.
 * @param toolInput The payload's tool input.
 * @param sources The agent and skill lookups.
 * @param host The host that sent the call: its skill tool, and its wording of the redirect.
 * @returns `deny` with the sanitised name and the redirect text, or `pass` with the reason.
 */
export async function checkSkillRedirect(
  toolName: unknown,
  toolInput: unknown,
  sources: RedirectSources,
  host: HostKind,
): Promise<RedirectDecision> {
  if (typeof toolName !== "string" || !hostFor(host).tools.skill.includes(toolName)) {
    return { action: "pass", reason: "not-skill-tool" };
  }
  const name = skillTargetName(toolInput);
  if (name === undefined) return { action: "pass", reason: "no-name" };
  return await decideForName(name, sources, host);
}

/**
 * The shared predicate of both paths: a known agent that is not a skill gets the redirect.
 *
 * @param name The target name, as the host resolved it.
 * @param sources The agent and skill lookups.
 * @param host The host, for its wording of the redirect.
 * @returns The decision.
 */
async function decideForName(
  name: string,
  sources: RedirectSources,
  host: HostKind,
): Promise<RedirectDecision> {
  if (name.length > MAX_TARGET_NAME_LENGTH) return { action: "pass", reason: "not-agent" };
  if (!(await sources.isAgent(name))) return { action: "pass", reason: "not-agent" };
  if (await sources.isSkill(name)) return { action: "pass", reason: "is-skill" };
  // The log records the sanitised name; the message names the agent exactly, or "that agent".
  return { action: "deny", name: sanitizeName(name) || "-", message: redirectMessage(name, host) };
}

// ---------------------------------------------------------------------------------------------
// Stop path

/** A failed Skill call the Stop path redirects. */
export interface RedirectCandidate {
  /** The Skill call's tool-use id. */
  toolUseId: string;
  /** The sanitised agent name. */
  name: string;
  /** The redirect text for it. */
  message: string;
}

/**
 * Compares an agent name with a `subagent_type`, ignoring case and separators (`-`, `_`, `.`,
 * `/`, spaces). A plugin-qualified type (`plugin:name`) also matches its bare name.
 *
 * @param agent The agent name from the failed Skill call.
 * @param subagentType The dispatch's `subagent_type`.
 * @returns `true` when they name the same agent.
 */
export function sameAgentName(agent: string, subagentType: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[-_.\/\s]/g, "");
  const a = norm(agent);
  if (a === "") return false;
  const t = norm(subagentType);
  if (t === a) return true;
  const bare = (s: string) => s.slice(s.lastIndexOf(":") + 1);
  return bare(t) !== "" && bare(t) === bare(a);
}

/** The agent tools' fields naming the agent, over every host (`subagent_type`, `agent_type`). */
const AGENT_TYPE_FIELDS: readonly string[] = [...new Set(HOSTS.map((h) => h.agentTypeField))];

function dispatchedType(input: unknown): string | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const rec = input as Record<string, unknown>;
  for (const field of AGENT_TYPE_FIELDS) {
    if (typeof rec[field] === "string") return rec[field] as string;
  }
  return undefined;
}

/** The largest number of names one Stop block talks about. */
export const MAX_STOP_REDIRECTS = 3;

/**
 * Finds the skill calls of a turn that the Stop path redirects: the result is the host's
 * unknown-skill error (`Host.unknownSkill`) for `<name>`, `<name>` is a known agent and not a
 * skill, no later dispatch of the host's agent tool in the turn names it, and its tool-use id is
 * not in `blocked`.
 *
 * @param events The turn's tool calls and results, in order.
 * @param sources The agent and skill lookups.
 * @param host The host whose turn it is (its skill and agent tools, its unknown-skill error).
 * @param blocked Tool-use ids already answered by an earlier block.
 * @returns The candidates, one per failed call, for at most {@linkcode MAX_STOP_REDIRECTS}
 *   distinct names.
 */
export async function findStopRedirects(
  events: readonly TurnEvent[],
  sources: RedirectSources,
  host: Host<HostKind>,
  blocked: ReadonlySet<string> = new Set(),
): Promise<RedirectCandidate[]> {
  const unknown = host.unknownSkill;
  if (!unknown) return [];
  const skillCalls = new Map<string, number>();
  events.forEach((ev, i) => {
    if (ev.kind === "tool_use" && host.tools.skill.includes(ev.name)) skillCalls.set(ev.id, i);
  });
  const out: RedirectCandidate[] = [];
  const names = new Set<string>();
  for (const [i, ev] of events.entries()) {
    if (ev.kind !== "tool_result" || blocked.has(ev.toolUseId)) continue;
    const callIndex = skillCalls.get(ev.toolUseId);
    if (callIndex === undefined || callIndex > i) continue;
    const call = events[callIndex];
    const name = unknown.nameIn(ev.text, call.kind === "tool_use" ? call.input : undefined);
    if (name === undefined) continue;
    const dispatched = events.slice(callIndex + 1).some((later) =>
      later.kind === "tool_use" && host.tools.agent.includes(later.name) &&
      sameAgentName(name, dispatchedType(later.input) ?? "")
    );
    if (dispatched) continue;
    if (!names.has(name) && names.size >= MAX_STOP_REDIRECTS) continue;
    const decision = await decideForName(name, sources, host.kind);
    if (decision.action !== "deny") continue;
    names.add(name);
    out.push({ toolUseId: ev.toolUseId, name: decision.name, message: decision.message });
  }
  return out;
}

/**
 * The Stop block text for the candidates: their redirect messages, one paragraph each.
 *
 * @param candidates What {@linkcode findStopRedirects} returned (non-empty).
 * @returns The reason to give the host (one paragraph per distinct name).
 */
export function stopRedirectReason(candidates: readonly RedirectCandidate[]): string {
  return [...new Set(candidates.map((c) => c.message))].join("\n\n");
}

// ---------------------------------------------------------------------------------------------
// Stop path: the current turn of a transcript run, and the once-per-call markers

/** The largest number of blocked tool-use ids kept per session. */
export const MAX_MARKERS_PER_SESSION = 500;

/**
 * The folder of the redirect's once-per-call markers.
 *
 * @param root The state root.
 * @returns `<state root>/skill-redirect`.
 */
export function redirectStateDir(root: string): string {
  return join(root, "skill-redirect");
}

function markerPath(root: string, sessionId: string): string {
  if (!isSafeFileStem(sessionId)) throw new Error("Session id is not safe as a file name");
  return join(redirectStateDir(root), `${sessionId}.json`);
}

function parseMarkers(data: unknown): string[] {
  if (data === undefined) return [];
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new Error("Marker file is not a JSON object");
  }
  const blocked = (data as Record<string, unknown>).blocked;
  if (!Array.isArray(blocked)) throw new Error("Marker file has no blocked list");
  return blocked.filter((x): x is string => typeof x === "string");
}

/**
 * The tool-use ids the Stop path already blocked for in a session.
 *
 * @param root The state root.
 * @param sessionId A session id that passes `isSafeFileStem`.
 * @returns The ids.
 * @throws {Error} When the session id is unsafe or the marker file is unreadable or corrupt.
 */
export function readBlockedIds(root: string, sessionId: string): Set<string> {
  return new Set(parseMarkers(readJsonFile(markerPath(root, sessionId), 1024 * 1024)));
}

/**
 * Claims tool-use ids for a block: under the session's marker lock, reads the ids already blocked
 * for, and records the others (written atomically, mode 0600, keeping the newest
 * {@linkcode MAX_MARKERS_PER_SESSION}). Concurrent stops of one session claim each id once, so
 * exactly one of them blocks for it.
 *
 * @param root The state root.
 * @param sessionId A session id that passes `isSafeFileStem`.
 * @param ids The tool-use ids to block for.
 * @param beforeWrite Called under the lock right before the write, when some id is new (the hook
 *   commits to its answer there); a throw leaves the markers as they were.
 * @returns The ids newly claimed (empty when every one was blocked for already).
 * @throws {Error} When the session id is unsafe, the marker file is unreadable or corrupt, or it
 *   cannot be written.
 */
export function recordBlockedIds(
  root: string,
  sessionId: string,
  ids: readonly string[],
  beforeWrite?: () => void,
): string[] {
  const path = markerPath(root, sessionId);
  return withLock(`${path}.lock`, () => {
    const known = parseMarkers(readJsonFile(path, 1024 * 1024));
    const seen = new Set(known);
    const fresh = [...new Set(ids)].filter((id) => !seen.has(id));
    if (fresh.length === 0) return fresh;
    beforeWrite?.();
    const merged = [...known, ...fresh].slice(-MAX_MARKERS_PER_SESSION);
    writeFileAtomic(path, JSON.stringify({ version: 1, blocked: merged }) + "\n");
    return fresh;
  });
}

// ---------------------------------------------------------------------------------------------
// The hook: one entry for PreToolUse and Stop

/** What the redirect hook needs from its runner (a subset of `HookContext`). */
export interface RedirectHookContext extends CatalogContext {
  /** The state root (markers live under it). */
  readonly stateRoot: string;
  /** The config file as read (`skill_dirs`, `agent_dirs`). */
  readonly config: ConfigState;
  /** Writes one decision line to `skill-redirect.log` (values are sanitised there). */
  log(outcome: string, reason?: string, extra?: Record<string, string | number | boolean>): void;
  /** Aborted at the hook's deadline (ends the wait for the transcript early). */
  readonly signal?: AbortSignal;
  /** The hook's deadline in milliseconds (sets how long the Stop path waits for the transcript). */
  readonly deadlineMs?: number;
  /** Commits the hook to its answer before a block is recorded (see the runner's `commit`). */
  commit?(): void;
}

/** The lookups of the Stop path: the PreToolUse ones plus the whole set of agent names. */
export interface StopSources extends RedirectSources {
  /**
   * Every known agent name, loaded once a turn has a failed Skill call (none: nothing to redirect;
   * else `isAgent` answers from them).
   */
  agentNames(): Promise<ReadonlySet<string>>;
}

/**
 * Agent and skill lookups over the installed catalog. Agents and skills are loaded separately,
 * each at most once, so a name that is not an agent never costs a skill scan. The catalog index is
 * read but not written (the redirect may write only its log and its markers).
 *
 * @param ev The event (its `cwd` finds the project's `.claude` folders).
 * @param ctx The hook context.
 * @returns The lookups.
 */
export function catalogSources(ev: HookEvent, ctx: RedirectHookContext): StopSources {
  // The catalog index is read, not written; a full check of a root's files by a name lookup (once
  // a minute, see `lib/catalog/names_index.ts`) is recorded under the redirect's own folder.
  const base: CatalogOptions = {
    ...hookCatalogOptions(ev, ctx),
    writeIndex: false,
    sweepFile: join(redirectStateDir(ctx.stateRoot), ".catalog-sweep.json"),
  };
  // The catalog (and its YAML fallback) loads only for a Skill call: other calls stay cheap.
  const catalog = () => import("../catalog/catalog.ts");
  let agents: Promise<Catalog> | undefined;
  const loadAgents = () =>
    agents ??= catalog().then((m) => m.loadCatalog({ ...base, skills: false }));
  // The skills and agents folders are found once for both questions.
  let roots: ReturnType<typeof catalogRoots> | undefined;
  const allRoots = () => roots ??= catalog().then((m) => m.catalogRoots(base));
  return {
    agentNames: async () => new Set((await catalog()).agentNames(await loadAgents())),
    // Once the Stop path has loaded every agent, that answers; else only what decides is loaded.
    isAgent: async (name) =>
      agents
        ? (await catalog()).isAgent(await agents, name)
        : (await catalog()).hasAgent(base, name, await allRoots()),
    // A skill the client ships (not on disk) takes precedence over an agent of its name.
    isSkill: async (name) =>
      ctx.host.builtinSkills.includes(name) ||
      await (await catalog()).hasSkill(base, name, await allRoots()),
  };
}

/**
 * The PreToolUse path: deny a Skill call that names an agent that is not a skill, with the host's
 * own deny answer; everything else passes with no output. The log names only known agents.
 *
 * @param ev The PreToolUse event of either host.
 * @param ctx The hook context.
 * @param sources The lookups (default: the installed catalog).
 * @returns The deny answer, or `null`.
 */
export async function redirectPreToolUse(
  ev: HookEvent,
  ctx: RedirectHookContext,
  sources: RedirectSources = catalogSources(ev, ctx),
): Promise<HookAnswer> {
  const host = hostFor(ev.host);
  // A host with no skill tool (Codex CLI): a shell read of `<skills root>/<name>/SKILL.md` is its
  // skill call.
  const readsSkill = host.skillLoad === "shell-read" && ev.toolName !== undefined &&
    host.tools.shell.includes(ev.toolName);
  let decision: RedirectDecision;
  if (typeof ev.raw.mcp_server === "string" && host.tools.skill.includes(ev.toolName ?? "")) {
    // A skill an MCP server serves (`server:skill`, with `mcp_server`; Claude Code 2.1.332): no
    // SKILL.md and none of the installed agents, whatever its bare name.
    decision = { action: "pass", reason: "mcp-skill" };
  } else if (readsSkill) {
    const command = (ev.toolInput as { command?: unknown } | undefined)?.command;
    const name = skillReadTarget(command);
    decision = name === undefined
      ? { action: "pass", reason: "no-name" }
      : await decideForName(name, sources, ev.host);
  } else decision = await checkSkillRedirect(ev.toolName, ev.toolInput, sources, ev.host);
  if (decision.action === "deny") {
    ctx.log("deny", "agent-not-skill", { name: decision.name, host: ev.host });
    return denyAnswer(ev, decision.message);
  }
  // The name is tool input: it is logged only when it is a known agent (here one that is also a
  // skill). A real skill's or an unknown name is logged as the reason alone.
  const name = decision.reason !== "is-skill"
    ? undefined
    : readsSkill
    ? skillReadTarget((ev.toolInput as { command?: unknown } | undefined)?.command)
    : skillTargetName(ev.toolInput);
  ctx.log("pass", decision.reason, {
    host: ev.host,
    ...(name !== undefined ? { name: sanitizeName(name) || "-" } : {}),
  });
  return null;
}

/**
 * The Stop path, for a host that rejects a skill call of an unknown name before any tool hook runs
 * (its `unknownSkill` error, declared on its host object): block once when this turn has such a
 * call for a known agent that was not dispatched afterwards. Honours `stop_hook_active`, and
 * records the call's tool-use id per session before blocking, so one call never blocks twice. Only
 * the current turn is read, by the turn reader of the host's transcript format (backward from the
 * end of the transcript to its prompt, at most `MAX_TURN_BYTES`), whatever the session's size; a
 * turn without the error's text ends there, before any agent is loaded.
 *
 * @param ev The Stop event.
 * @param ctx The hook context.
 * @param sources The lookups (default: the installed catalog).
 * @returns The block answer, or `null`.
 * @throws {HookFailure} `STATE` when the markers cannot be read or written (no block then).
 */
export async function redirectStop(
  ev: HookEvent,
  ctx: RedirectHookContext,
  sources: StopSources = catalogSources(ev, ctx),
): Promise<HookAnswer> {
  const fields: Record<string, string | number> = { host: ev.host };
  const pass = (reason: string) => (ctx.log("pass", reason, fields), null);
  const unknown = ctx.host.unknownSkill;
  if (!unknown) return pass("no-unknown-skill-error");
  const reading = turnReaderFor(ctx.host.transcript);
  if (!reading) return pass("no-turn-reader");
  if (ev.stopHookActive) return pass("stop-hook-active");
  if (!isSafeFileStem(ev.sessionId)) return pass("no-safe-session-id");
  const transcript = ev.transcriptPath;
  if (!transcript) return pass("no-transcript");
  const transcripts = readFolders(ctx.folders).transcripts;
  if (!transcripts || !isUnder(transcript, transcripts)) {
    return pass("transcript-outside-projects");
  }
  // Only the current turn matters: it is read backward from the end to its prompt, at most
  // MAX_TURN_BYTES, so a stop costs the same on any session size. Of a longer turn only the last
  // MAX_TURN_BYTES are looked at (the log line says `turn=cut`): an older failed call passes.
  const turns = await reading;
  const readTurn = () => turns.read(transcript, { maxBytes: MAX_TURN_BYTES });
  // The host fires Stop before the turn's last records reach the file: a failed skill call not
  // yet flushed must still be found, so the file must hold the turn. Usually the turn read shows
  // it already; otherwise wait until the file holds it, and read the turn again.
  let turn: TurnRead | undefined;
  try {
    turn = await readTurn();
  } catch {
    // The wait below says how the file stands.
  }
  if (!turn || !turns.showsFinalText(turn, ev.lastAssistantMessage)) {
    const currency = await turns.awaitTurn(transcript, { finalText: ev.lastAssistantMessage }, {
      deadlineMs: ctx.deadlineMs,
      signal: ctx.signal,
    });
    if (currency.state === "behind") {
      ctx.log("pass", "transcript-behind", {
        host: ev.host,
        waited: currency.waitedMs,
        polls: currency.polls,
      });
      return null;
    }
    if (currency.state === "current" && currency.waitedMs > 0) fields.waited = currency.waitedMs;
    turn = await readTurn();
  }
  if (turn.start === "cut") Object.assign(fields, { turn: "cut", read: turn.bytesRead });
  // Nearly every turn has no failed skill call at all: its text settles that before the agents
  // are loaded (the dearest step of this path).
  if (!turn.lines.some((line) => line.includes(unknown.needle))) return pass("no-unknown-skill");
  const agents = await sources.agentNames();
  if (agents.size === 0) return pass("no-agents");
  const events = currentTurnEvents(turns.records(turn));
  const inputs = new Map(events.flatMap((e) => e.kind === "tool_use" ? [[e.id, e.input]] : []));
  if (
    !events.some((e) =>
      e.kind === "tool_result" && unknown.nameIn(e.text, inputs.get(e.toolUseId)) !== undefined
    )
  ) return pass("no-unknown-skill");
  // Calls blocked for at an earlier stop of the turn do not take up the names of this block. An
  // unreadable marker file reads as none here; claiming the calls below reports it.
  let blocked = new Set<string>();
  try {
    blocked = readBlockedIds(ctx.stateRoot, ev.sessionId);
  } catch {
    // recordBlockedIds fails on it too, with the state error.
  }
  const candidates = await findStopRedirects(events, sources, ctx.host, blocked);
  if (candidates.length === 0) {
    const before = blocked.size > 0 &&
      (await findStopRedirects(events, sources, ctx.host)).length > 0;
    return pass(before ? "already-blocked" : "nothing-to-redirect");
  }
  // Decide and record under one lock: of concurrent stops of the session, one claims the calls.
  let claimed: string[];
  try {
    claimed = recordBlockedIds(
      ctx.stateRoot,
      ev.sessionId,
      candidates.map((c) => c.toolUseId),
      () => ctx.commit?.(),
    );
  } catch (err) {
    if (err instanceof HookFailure) throw err;
    throw new HookFailure("STATE", `redirect markers not updated: ${errorLine(err)}`);
  }
  const found = candidates.filter((c) => claimed.includes(c.toolUseId));
  if (found.length === 0) return pass("already-blocked");
  ctx.log("block", "unknown-skill-agent", {
    ...fields,
    name: [...new Set(found.map((c) => c.name))].join(","),
    calls: found.length,
  });
  return stopBlockAnswer(ev, stopRedirectReason(found));
}

function errorLine(err: unknown): string {
  const text = err instanceof StateFileRefusedError
    ? `${err.path}: ${err.message}`
    : err instanceof Error
    ? err.message
    : String(err);
  return text.split("\n")[0].slice(0, 300);
}

/**
 * The redirect hook's logic for both of its events (the hook entry passes it to `runHook`).
 *
 * @param ev The event.
 * @param ctx The hook context.
 * @returns The host's answer, or `null` to let the action proceed.
 */
export function redirectOnEvent(ev: HookEvent, ctx: RedirectHookContext): Promise<HookAnswer> {
  if (ev.eventName === "Stop") return redirectStop(ev, ctx);
  return redirectPreToolUse(ev, ctx);
}

/**
 * The Codex CLI rollout reader (`$CODEX_HOME/sessions/Y/M/D/rollout-*.jsonl`, observed with Codex
 * CLI 0.169.0): the same run model as the Claude Code reader ({@link TranscriptRun}), read
 * tail-first and bounded.
 *
 * A rollout record is `{timestamp, ordinal?, type, payload}`. What a run is made of:
 *
 * - loads: an `exec_command` call that reads `<skills root>/<name>/SKILL.md` (`cat …`, via
 *   `read`), and the client's own injection of a `$name` skill (a user message
 *   `<skill><name>…</name>…`, via `command`);
 * - tool calls: `exec_command` as `Bash` with `{command}` (its name in hook payloads),
 *   `apply_patch` (a `custom_tool_call`) as `apply_patch` with `{command: <patch>}`, `spawn_agent`
 *   with its arguments (plus `subagent_type` and `prompt`, the model's names for them), any other
 *   call under its own name; results from `function_call_output` / `custom_tool_call_output`;
 * - messages: user and assistant `message` items (developer messages are not the conversation; a
 *   user message the client wrote, such as `<environment_context>` or a Stop hook's
 *   `<hook_prompt>`, is `isMeta`).
 *
 * {@link findCodexLoad} scans backward from the end with a substring pre-filter (no parse of
 * other lines); {@link readCodexRun} parses forward from the load, at most `maxParseBytes`.
 * {@link rolloutVerdict} is the transcript-currency rule's view of one record: the rollout holds
 * the turn once its last decisive record is the assistant message the Stop payload's
 * `last_assistant_message` names.
 *
 * @module
 */

import {
  MAX_PARSE_BYTES,
  MAX_TEXT_CHARS,
  type ReadRunOptions,
  type ReadStats,
  type RunRead,
  type SkillLoad,
  type ToolCall,
  type TranscriptMessage,
  type TranscriptRun,
} from "./model.ts";
import { chunkSizeOf, floorOf, limitOf, type LoadSearch } from "./run_driver.ts";
import { selects } from "./loads.ts";
import { concat, decoder, EMPTY, type Source, textSource, withFileSource } from "./bytes.ts";
import { emptyStats, isRec, parseLine, type Rec, str } from "./record.ts";
import { skillReadTarget } from "./skill_read.ts";
import { codexCommandEnd } from "./command_status.ts";
import type { ActivityFormat } from "./activity.ts";

/** The record types Codex CLI writes to a rollout. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "world_state",
  "token_usage_record",
  "compacted",
]);

/** How much of a rollout's head is read for its `session_meta` line. */
const HEAD_BYTES = 64 * 1024;

/** Substrings one of which a line that holds a load contains. */
const LOAD_NEEDLES = ["SKILL.md", "<skill>"];

/** Opening tags of user messages the client writes itself. */
const META_USER_RE =
  /^\s*<(?:environment_context|hook_prompt|skill|user_instructions|permissions|collaboration_mode|turn_aborted|subagent_notification|user_shell_command)\b/;

/** The `$name` injection: `<skill>\n<name>investigate</name>\n<path>…`. */
const INJECTED_SKILL_RE = /^\s*<skill>\s*<name>([^<\n]{1,256})<\/name>/;

function cap(s: string): string {
  return s.length > MAX_TEXT_CHARS ? s.slice(0, MAX_TEXT_CHARS) + "…[truncated]" : s;
}

/** The joined text items of a message's content. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const out: string[] = [];
  for (const c of content) {
    if (isRec(c) && typeof c.text === "string") out.push(c.text);
  }
  return out.join("\n");
}

function args(raw: unknown): Rec {
  if (isRec(raw)) return raw;
  if (typeof raw !== "string") return {};
  try {
    const v = JSON.parse(raw);
    return isRec(v) ? v : {};
  } catch {
    return {};
  }
}

/** A tool call as the run model names it (see the module doc). */
function callOf(p: Rec): { name: string; input: Rec } | undefined {
  const name = str(p.name);
  if (name === undefined) return undefined;
  if (p.type === "custom_tool_call") {
    return { name, input: { command: typeof p.input === "string" ? p.input : "" } };
  }
  const a = args(p.arguments);
  if (name === "exec_command" || name === "shell" || name === "local_shell") {
    const cmd = a.cmd ?? a.command;
    const command = Array.isArray(cmd)
      ? cmd.map(String).join(" ")
      : typeof cmd === "string"
      ? cmd
      : "";
    return { name: "Bash", input: { command } };
  }
  if (name === "spawn_agent") {
    const input: Rec = { ...a };
    if (typeof a.agent_type === "string") input.subagent_type = a.agent_type;
    if (typeof a.message === "string") input.prompt = a.message;
    return { name, input };
  }
  return { name, input: a };
}

/** A load a record holds, if any (the name as written). */
function loadOf(rec: Rec): { name: string; via: SkillLoad["via"]; id?: string } | undefined {
  if (rec.type !== "response_item" || !isRec(rec.payload)) return undefined;
  const p = rec.payload;
  if (p.type === "function_call") {
    const call = callOf(p);
    if (call?.name !== "Bash") return undefined;
    const name = skillReadTarget(call.input.command);
    return name === undefined ? undefined : { name, via: "read", id: str(p.call_id) };
  }
  if (p.type === "message" && p.role === "user") {
    const m = INJECTED_SKILL_RE.exec(textOf(p.content));
    return m ? { name: m[1].trim(), via: "command" } : undefined;
  }
  return undefined;
}

function toLoad(
  l: { name: string; via: SkillLoad["via"]; id?: string },
  offset: number,
): SkillLoad {
  const qualifiedName = l.name.replace(/^[$/]/, "");
  return {
    seq: 0,
    offset,
    qualifiedName,
    name: qualifiedName.slice(qualifiedName.lastIndexOf(":") + 1),
    via: l.via,
    ...(l.id ? { toolUseId: l.id } : {}),
  };
}

/**
 * What a rollout holds for `skillgate report` (`activity.ts`): a prompt is a user message the client
 * did not write; a load, a shell read of a SKILL.md (the model's) or a `$name` injection (the
 * user's).
 */
export const CODEX_ACTIVITY: ActivityFormat = {
  needles: [...LOAD_NEEDLES, 'role":"user"'],
  reader: () => (rec) => {
    const raw = loadOf(rec);
    const { qualifiedName, name, via } = raw ? toLoad(raw, 0) : {};
    const p = rec.payload;
    const prompt = rec.type === "response_item" && isRec(p) && p.type === "message" &&
      p.role === "user" && !META_USER_RE.test(textOf(p.content));
    return { prompt, loads: qualifiedName && name && via ? [{ qualifiedName, name, via }] : [] };
  },
};

/** A tool result's error state: a non-zero exit, or a call a hook blocked. */
function isErrorOutput(text: string): boolean {
  if (/^Command blocked by PreToolUse hook/.test(text)) return true;
  const exit = /(?:Process exited with code|^Exit code:)\s*(-?\d+)/m.exec(text);
  return exit !== null && exit[1] !== "0";
}

/** Builds a run from the rollout records fed in order. */
class RolloutRunBuilder {
  readonly messages: TranscriptMessage[] = [];
  readonly toolCalls: ToolCall[] = [];
  readonly loads: SkillLoad[] = [];
  private readonly calls = new Map<string, ToolCall>();
  private seq = 0;
  /** The session's directory: `session_meta`'s or the first `turn_context`'s `cwd`. */
  cwd: string | undefined;

  constructor(readonly stats: ReadStats) {}

  /** Feeds one record; returns the load it holds, if any. */
  feed(rec: Rec, offset: number): SkillLoad | undefined {
    const type = str(rec.type);
    if (type === undefined || !KNOWN_TYPES.has(type)) {
      this.stats.unknownTypes++;
      return undefined;
    }
    if ((type === "session_meta" || type === "turn_context") && isRec(rec.payload)) {
      this.cwd ??= str(rec.payload.cwd);
    }
    if (type !== "response_item" || !isRec(rec.payload)) return undefined;
    const p = rec.payload;
    const raw = loadOf(rec);
    const load = raw ? { ...toLoad(raw, offset), seq: this.seq++ } : undefined;
    if (load) this.loads.push(load);
    if (p.type === "message" && (p.role === "user" || p.role === "assistant")) {
      this.stats.userOrAssistantRecords++;
      const text = textOf(p.content);
      this.messages.push({
        seq: this.seq++,
        role: p.role,
        text: cap(text),
        isMeta: p.role === "user" && META_USER_RE.test(text),
        sidechain: false,
        ...(str(p.id) ? { messageId: str(p.id) } : {}),
        toolUseIds: [],
      });
    } else if (p.type === "function_call" || p.type === "custom_tool_call") {
      const call = callOf(p);
      const id = str(p.call_id);
      if (!call || id === undefined) return load;
      const tc: ToolCall = {
        seq: this.seq++,
        id,
        name: call.name,
        input: call.input,
        sidechain: false,
      };
      this.toolCalls.push(tc);
      this.calls.set(id, tc);
    } else if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
      const call = this.calls.get(str(p.call_id) ?? "");
      if (!call) return load;
      const text = typeof p.output === "string"
        ? p.output
        : isRec(p.output) && typeof p.output.content === "string"
        ? p.output.content
        : textOf(p.output);
      const agentId = call.name === "spawn_agent" ? str(args(text).agent_id) : undefined;
      call.result = {
        seq: this.seq++,
        isError: isErrorOutput(text),
        text: cap(text),
        // A spawn returns at once; the agent's end reaches the parent as no record of this run.
        asyncLaunched: false,
        ...(agentId ? { agentId } : {}),
      };
      if (call.name === "Bash") {
        const end = codexCommandEnd(text);
        call.result.status = end.status;
        if (end.exitCode !== undefined) call.result.exitCode = end.exitCode;
      }
    }
    return load;
  }

  finish(): TranscriptRun | undefined {
    const load = this.loads[0];
    if (!load) return undefined;
    const run: TranscriptRun = {
      load,
      loads: this.loads,
      messages: this.messages,
      toolCalls: this.toolCalls,
      notifications: [],
      stats: this.stats,
    };
    if (this.cwd !== undefined) run.cwd = this.cwd;
    return run;
  }
}

/** The complete lines of `[from, to)`, backward, each with its offset (the last one may be cut). */
async function* linesBackward(
  src: Source,
  from: number,
  to: number,
  chunkSize: number,
  stats: ReadStats,
): AsyncGenerator<{ offset: number; line: string }> {
  let pos = to;
  let carry: Uint8Array = EMPTY;
  while (pos > from) {
    const start = Math.max(from, pos - chunkSize);
    const chunk = (await src.read(start, pos - start)).slice();
    stats.bytesScanned += chunk.length;
    const bytes = concat(chunk, carry);
    let end = bytes.length;
    for (let i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] !== 10) continue;
      if (end > i + 1) {
        yield { offset: start + i + 1, line: decoder.decode(bytes.subarray(i + 1, end)) };
      }
      end = i;
    }
    carry = bytes.slice(0, end);
    if (carry.length > MAX_PARSE_BYTES) carry = EMPTY; // a giant line: never a load
    pos = start;
  }
  if (carry.length > 0) yield { offset: from, line: decoder.decode(carry) };
}

/** Reads backward for the last selected load; the shared work of the two entry points. */
async function scanForLoad(
  src: Source,
  options: ReadRunOptions,
  stats: ReadStats,
): Promise<LoadSearch> {
  const floor = floorOf(options, src.size);
  const chunkSize = chunkSizeOf(options);
  let sawKnown = false;
  let sawUnknown = false;
  for await (const { offset, line } of linesBackward(src, floor, src.size, chunkSize, stats)) {
    const needle = LOAD_NEEDLES.some((n) => line.includes(n));
    if (!needle && sawKnown) continue;
    const rec = parseLine(line);
    if (!rec) continue;
    if (KNOWN_TYPES.has(str(rec.type) ?? "")) sawKnown = true;
    else sawUnknown = true;
    if (!needle) continue;
    const raw = loadOf(rec);
    if (raw && selects(options.skill, toLoad(raw, offset))) {
      return { kind: "found", load: toLoad(raw, offset) };
    }
  }
  if (sawKnown || floor > 0 || !sawUnknown) return { kind: "not_loaded", fileSize: src.size };
  return { kind: "unknown_shape", reason: "no record of a type a Codex rollout holds" };
}

/** Parses forward from `from`: to the end, or (re-checking an earlier run) to the next load. */
async function parseRun(
  src: Source,
  from: number,
  options: ReadRunOptions,
  stats: ReadStats,
): Promise<RunRead> {
  const limit = limitOf(options);
  const chunkSize = chunkSizeOf(options);
  const builder = new RolloutRunBuilder(stats);
  const stopAtNext = options.fromOffset !== undefined;
  stats.startOffset = from;
  let pos = from;
  let carry: Uint8Array = EMPTY;
  let carryStart = from;
  let end = src.size;
  const feed = (line: string, offset: number): "ok" | "stop" => {
    const rec = parseLine(line);
    if (!rec) {
      if (line.trim() !== "") stats.skippedLines++;
      return "ok";
    }
    if (stopAtNext && offset !== from) {
      const raw = loadOf(rec);
      if (raw && selects(options.skill, toLoad(raw, offset))) return "stop";
    }
    stats.records++;
    builder.feed(rec, offset);
    return "ok";
  };
  outer: while (pos < src.size) {
    const chunk = await src.read(pos, Math.min(chunkSize, src.size - pos));
    if (chunk.length === 0) break;
    const bytes = concat(carry, chunk.slice());
    let lineStart = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 10) continue;
      const offset = carryStart + lineStart;
      if (offset - from > limit) return tooLarge(offset - from, limit, stats);
      if (feed(decoder.decode(bytes.subarray(lineStart, i)), offset) === "stop") {
        end = offset;
        break outer;
      }
      lineStart = i + 1;
    }
    pos += chunk.length;
    carry = bytes.slice(lineStart);
    carryStart += lineStart;
    if (carry.length > limit) return tooLarge(pos - from, limit, stats);
  }
  if (end === src.size && carry.length > 0) {
    if (src.size - from > limit) return tooLarge(src.size - from, limit, stats);
    feed(decoder.decode(carry), carryStart);
  }
  stats.endOffset = end;
  stats.bytesParsed = end - from;
  // The run's own turn_context may be before its load: the session's directory is then its head's.
  if (builder.cwd === undefined && from > 0) {
    const head = decoder.decode(await src.read(0, Math.min(src.size, HEAD_BYTES)));
    const nl = head.indexOf("\n");
    const rec = parseLine(nl < 0 ? head : head.slice(0, nl));
    if (rec?.type === "session_meta" && isRec(rec.payload)) builder.cwd = str(rec.payload.cwd);
  }
  const run = builder.finish();
  return run ? { kind: "ok", run } : { kind: "not_loaded", stats };
}

function tooLarge(bytes: number, limit: number, stats: ReadStats): RunRead {
  return { kind: "too_large", bytes, limit, stats };
}

/**
 * Finds the last selected load of a rollout, backward from its end (lines without a load's
 * substring are not parsed), without reading the run after it.
 *
 * @param path The rollout.
 * @param options Which skill, and the search floor.
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findCodexLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return withFileSource(path, (src) => scanForLoad(src, options, emptyStats(src.size)));
}

/**
 * Reads the run of the last selected load of a rollout (or, with `fromOffset`, the run that
 * starts there, up to the next load of the skill).
 *
 * @param path The rollout.
 * @param options Which skill, limits, and where an earlier run starts.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readCodexRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return withFileSource(path, (src) => readFrom(src, options));
}

async function readFrom(src: Source, options: ReadRunOptions): Promise<RunRead> {
  const stats = emptyStats(src.size);
  let from = options.fromOffset;
  if (from === undefined || from < 0 || from >= src.size) {
    const found = await scanForLoad(src, options, stats);
    if (found.kind === "not_loaded") return { kind: "not_loaded", stats };
    if (found.kind === "unknown_shape") {
      return { kind: "unknown_shape", reason: found.reason, stats };
    }
    from = found.load.offset;
    return await parseRun(src, from, { ...options, fromOffset: undefined }, stats);
  }
  return await parseRun(src, from, options, stats);
}

/**
 * {@link readCodexRun} for a rollout in memory (tests, small inputs). Never throws.
 *
 * @param text The whole JSONL text.
 * @param options Which skill, limits.
 * @returns The run, or why there is none.
 */
export function parseCodexRolloutText(text: string, options: ReadRunOptions): Promise<RunRead> {
  const src = textSource(text);
  return readFrom(src, options).catch((e) => ({
    kind: "unknown_shape" as const,
    reason: `reader failure: ${e instanceof Error ? e.message : String(e)}`,
    stats: emptyStats(src.size),
  }));
}

/**
 * What one rollout line says of the turn's end, for the transcript-currency rule: the text of an
 * assistant message (the turn may end on it), `null` for a record that moves the conversation on
 * (a tool call or its output, a user message), `undefined` for anything else (token counts,
 * events, developer messages).
 *
 * @param line One JSONL line.
 * @returns The verdict.
 */
export function rolloutVerdict(line: string): string | null | undefined {
  if (!line.includes('"response_item"')) return undefined;
  const rec = parseLine(line);
  if (!rec || rec.type !== "response_item" || !isRec(rec.payload)) return undefined;
  const p = rec.payload;
  if (p.type === "message") {
    if (p.role === "assistant") return textOf(p.content);
    if (p.role === "user") return null;
    return undefined;
  }
  if (typeof p.type === "string" && /(?:call|call_output)$/.test(p.type)) return null;
  return undefined;
}

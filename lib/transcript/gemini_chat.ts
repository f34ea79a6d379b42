/**
 * The Gemini CLI chat reader (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`,
 * observed with Gemini CLI 0.61.0): the same run model as the Claude Code reader
 * ({@link TranscriptRun}).
 *
 * The file is a header (`{sessionId, projectHash, startTime, lastUpdated, kind}`) and then message
 * records `{id, timestamp, type: "user" | "gemini", content, …}`, metadata records `{"$set": {…}}`
 * and rewinds `{"$rewindTo": id}`. The client writes a `gemini` record again under the same `id`
 * once its `toolCalls` are known, so the last record per `id` wins (in the place of its first);
 * a `$set` of `messages` replaces every message so far, and a rewind drops the message it names
 * and every later one. What a run is made of:
 *
 * - loads: an `activate_skill {name}` call that succeeded (via `skill_tool`);
 * - tool calls: each `toolCalls` entry under its own name (`replace`, `write_file`,
 *   `run_shell_command`, `invoke_agent`, …) with its `args` (`invoke_agent` also with
 *   `subagent_type` and `prompt`, the run model's names); its result from `result[]
 *   .functionResponse.response` (`output` or `error`), an error when `status` is `error`, the
 *   call was blocked, or a shell command's `Exit Code:` is not 0;
 * - messages: `user` records with text (function responses are results, not messages; a
 *   `<hook_context>` part is hook output, not the user's text; the client's `<session_context>`
 *   is `isMeta`) and `gemini` records with text. An AfterAgent block's reason comes back as a
 *   plain `user` text record: nothing marks it.
 *
 * A chat is rewritten in place of its records, so it is read whole (at most `maxParseBytes`) and
 * indexed first: the lines the client writes for a message are known by their start (their id
 * read without parsing them), so only the messages a read needs are parsed: the ones whose last
 * record names `activate_skill` (to find the load), then those from the selected load on (to the
 * next load of the skill when re-checking an earlier run by its offset), each by its last record.
 *
 * @module
 */

import {
  MAX_PARSE_BYTES,
  MAX_TURN_BYTES,
  type ReadRunOptions,
  type ReadStats,
  type ReadTurnOptions,
  type RunRead,
  type SkillLoad,
  type ToolCall,
  type TranscriptMessage,
  type TranscriptRun,
  type TurnRead,
  type TurnRecords,
} from "./model.ts";
import type { LoadSearch } from "./run_driver.ts";
import { normalizeSkillName, selects } from "./loads.ts";
import type { ActivityFormat } from "./activity.ts";
import { decoder, type Source, textSource, withFileSource } from "./bytes.ts";
import {
  byteLines,
  type ChatIndex,
  type ChatMessage,
  chatOfIndex,
  type GeminiChat,
  indexChat,
  messagesAt,
  textLines,
} from "./gemini_index.ts";
import { cap, emptyStats, isRec, parseLine, type Rec, str } from "./record.ts";

export type { GeminiChat } from "./gemini_index.ts";

/** The tool that loads a skill. */
const SKILL_TOOL = "activate_skill";

/**
 * The messages of a chat's lines: the last record per `id` wins, in the place of its first; a
 * `$set` of `messages` replaces them all; a `$rewindTo` drops the message it names and the rest.
 *
 * @param lines The lines with their byte offsets, in file order.
 * @param stats The counters to fill.
 * @returns The chat.
 */
export function chatOfLines(
  lines: Iterable<{ line: string; offset: number }>,
  stats: ReadStats,
): GeminiChat {
  const all = [...lines];
  const chat = chatOfIndex(
    indexChat(textLines(all.map((l) => l.line), all.map((l) => l.offset)), { ...stats }),
  );
  Object.assign(stats, chat.stats);
  return { ...chat, stats };
}

/** The text parts of a content (`<hook_context>` parts left out). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const out: string[] = [];
  for (const p of content) {
    if (isRec(p) && typeof p.text === "string" && !p.text.startsWith("<hook_context>")) {
      out.push(p.text);
    }
  }
  return out.join("\n");
}

/** A tool call's result text: its function responses' `output` or `error`. */
function resultText(call: Rec): string {
  const out: string[] = [];
  for (const r of Array.isArray(call.result) ? call.result : []) {
    const resp = isRec(r) && isRec(r.functionResponse) ? r.functionResponse.response : undefined;
    if (!isRec(resp)) continue;
    for (const v of [resp.output, resp.error]) {
      if (typeof v === "string") out.push(v);
      else if (Array.isArray(v)) out.push(textOf(v));
    }
  }
  return out.join("\n");
}

/**
 * Whether a tool result is an error: the call's `status` is `error` (a refused or blocked call),
 * or a shell command's output names a non-zero `Exit Code:` (Gemini CLI reports a command that
 * exited non-zero as a success, with that line; a zero exit has none).
 */
function isErrorResult(call: Rec, text: string): boolean {
  if (call.status === "error" || call.status === "cancelled") return true;
  const exit = /^Exit Code: (-?\d+)$/m.exec(text);
  return exit !== null && exit[1] !== "0";
}

/** A tool call's input in the run model (`invoke_agent` also under the run model's names). */
function inputOf(name: string, args: Rec): Rec {
  if (name !== "invoke_agent") return args;
  const input: Rec = { ...args };
  if (typeof args.agent_name === "string") input.subagent_type = args.agent_name;
  return input;
}

function toLoad(name: string, offset: number, id: string | undefined, seq: number): SkillLoad {
  return {
    seq,
    offset,
    qualifiedName: name,
    name: name.slice(name.lastIndexOf(":") + 1),
    via: "skill_tool",
    ...(id ? { toolUseId: id } : {}),
  };
}

/** The loads one message holds: its `activate_skill` calls that succeeded. */
function loadsOf(m: ChatMessage): { name: string; id?: string }[] {
  if (m.rec.type !== "gemini" || !Array.isArray(m.rec.toolCalls)) return [];
  const out: { name: string; id?: string }[] = [];
  for (const c of m.rec.toolCalls) {
    if (!isRec(c) || c.name !== SKILL_TOOL || c.status === "error" || !isRec(c.args)) continue;
    const name = str(c.args.name);
    if (name !== undefined && name !== "") out.push({ name, id: str(c.id) });
  }
  return out;
}

/**
 * What a chat holds for `skillgate report` (`activity.ts`): a prompt is a `user` record with text
 * that is not the client's `<session_context>`; a load, a successful `activate_skill` call (the
 * model's). A message the client writes again under its id counts once; a rewind is not undone
 * (the report reads lines forward, one at a time).
 */
export const GEMINI_ACTIVITY: ActivityFormat = {
  needles: ['type":"user"', SKILL_TOOL],
  reader: () => {
    const seen = new Set<string>();
    return (rec) => {
      const id = str(rec.id);
      if (id === undefined || seen.has(id)) return { prompt: false, loads: [] };
      if (rec.type === "user") {
        const text = textOf(rec.content);
        seen.add(id);
        return { prompt: text.trim() !== "" && !text.startsWith("<session_context>"), loads: [] };
      }
      const loads = loadsOf({ rec, offset: 0 }).flatMap((l) => {
        const norm = normalizeSkillName(l.name);
        return norm ? [{ ...norm, via: "skill_tool" as const }] : [];
      });
      if (loads.length > 0) seen.add(id);
      return { prompt: false, loads };
    };
  },
};

/**
 * The run model's records of a chat's messages: messages, tool calls with their results, and
 * loads, numbered in one order.
 *
 * @param messages The chat's messages.
 * @param stats The counters.
 * @returns The records.
 */
export function recordsOfChat(messages: readonly ChatMessage[], stats: ReadStats): TurnRecords {
  const out: TurnRecords = { loads: [], messages: [], toolCalls: [], notifications: [], stats };
  let seq = 0;
  for (const m of messages) {
    const rec = m.rec;
    stats.userOrAssistantRecords++;
    const text = textOf(rec.content);
    const calls = rec.type === "gemini" && Array.isArray(rec.toolCalls) ? rec.toolCalls : [];
    if (text.trim() !== "") {
      const msg: TranscriptMessage = {
        seq: seq++,
        role: rec.type === "gemini" ? "assistant" : "user",
        text: cap(text),
        isMeta: rec.type === "user" && text.startsWith("<session_context>"),
        sidechain: false,
        messageId: str(rec.id),
        toolUseIds: calls.filter(isRec).map((c) => str(c.id) ?? ""),
      };
      out.messages.push(msg);
    }
    for (const l of loadsOf(m)) out.loads.push(toLoad(l.name, m.offset, l.id, seq++));
    for (const c of calls) {
      if (!isRec(c) || typeof c.name !== "string") continue;
      const call: ToolCall = {
        seq: seq++,
        id: str(c.id) ?? `${str(rec.id) ?? ""}#${out.toolCalls.length}`,
        name: c.name,
        input: inputOf(c.name, isRec(c.args) ? c.args : {}),
        sidechain: false,
      };
      if (Array.isArray(c.result) || c.status === "error") {
        const t = resultText(c);
        call.result = {
          seq: seq++,
          isError: isErrorResult(c, t),
          text: cap(t),
          asyncLaunched: false,
          ...(typeof c.agentId === "string" ? { agentId: c.agentId } : {}),
        };
      }
      out.toolCalls.push(call);
    }
  }
  return out;
}

/** Indexes a whole chat (or says it is too large). */
async function indexOf(
  src: Source,
  options: ReadRunOptions,
  path?: string,
): Promise<ChatIndex | { tooLarge: number; stats: ReadStats }> {
  const stats = emptyStats(src.size);
  const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
  if (src.size > limit) return { tooLarge: src.size, stats };
  if (path !== undefined && lastIndex?.path === path && lastIndex.size === src.size) {
    return lastIndex.index;
  }
  // The source's buffer, not a copy (8 MiB copied cost up to 0.1 s on a loaded machine): this is
  // the source's one read, and a source's buffer is its own.
  const index = indexChat(byteLines(await src.read(0, src.size)), stats);
  stats.endOffset = src.size;
  if (path !== undefined) lastIndex = { path, size: src.size, index };
  return index;
}

/**
 * The last chat file indexed, while its size is unchanged (the file only grows): a Stop's search
 * for the load and its read of the run index it once between them.
 */
let lastIndex: { path: string; size: number; index: ChatIndex } | undefined;

const NOT_A_CHAT = "no record of a type a Gemini CLI chat holds";

/** A selected load, and the place of the message that holds it. */
interface PlacedLoad {
  /** The message's place among the chat's messages. */
  readonly at: number;
  /** The load. */
  readonly load: SkillLoad;
}

/**
 * The selected loads of a chat, in order, parsing only the messages whose last record names the
 * skill tool.
 */
function placedLoads(index: ChatIndex, options: ReadRunOptions): PlacedLoad[] | undefined {
  const out: PlacedLoad[] = [];
  let at = 0;
  for (const [id, last] of index.messages) {
    if (
      last.rec
        ? loadsOf({ rec: last.rec, offset: 0 }).length > 0
        : index.lines.mentions(last.line, SKILL_TOOL)
    ) {
      const m = messagesAt(index, [id]);
      if (!m) return undefined;
      for (const l of loadsOf(m[0])) {
        const load = toLoad(l.name, m[0].offset, l.id, 0);
        if (selects(options.skill, load)) out.push({ at, load });
      }
    }
    at++;
  }
  return out;
}

async function readFrom(src: Source, options: ReadRunOptions, path?: string): Promise<RunRead> {
  const index = await indexOf(src, options, path);
  if ("tooLarge" in index) {
    const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
    return { kind: "too_large", bytes: index.tooLarge, limit, stats: index.stats };
  }
  if (!index.known && index.stats.records > 0) {
    return { kind: "unknown_shape", reason: NOT_A_CHAT, stats: { ...index.stats } };
  }
  // A line taken by its start that does not parse (a line being written): every line is parsed.
  return runOf(index, options) ??
    runOf(
      indexChat(index.lines, { ...emptyStats(src.size), endOffset: src.size }, false),
      options,
    )!;
}

/**
 * The run of an index: only the messages from the selected load's on (to the next load's,
 * re-checking an earlier run) are parsed, and the run is chosen among their loads as among all.
 *
 * @returns The run, or `undefined` when a line the index took by its start does not parse.
 */
function runOf(index: ChatIndex, options: ReadRunOptions): RunRead | undefined {
  const placed = placedLoads(index, options);
  if (!placed) return undefined;
  const first = options.fromOffset === undefined
    ? placed.at(-1)
    : placed.find((p) => p.load.offset === options.fromOffset) ?? placed.at(-1);
  if (!first) return { kind: "not_loaded", stats: { ...index.stats } };
  const next = options.fromOffset === undefined
    ? undefined
    : placed.find((p) => p.at > first.at && p.load.offset !== first.load.offset);
  const ids = [...index.messages.keys()].slice(
    first.at,
    next === undefined ? undefined : next.at + 1,
  );
  const messages = messagesAt(index, ids);
  if (!messages) return undefined;
  const stats = { ...index.stats };
  for (const id of ids) {
    const at = index.messages.get(id)!;
    if (!at.rec) stats.bytesParsed += index.lines.size(at.line);
  }
  const all = recordsOfChat(messages, stats);
  const picked = all.loads.filter((l) => selects(options.skill, l));
  const load = options.fromOffset === undefined
    ? picked.at(-1)
    : picked.find((l) => l.offset === options.fromOffset) ?? picked.at(-1);
  if (!load) return { kind: "not_loaded", stats };
  const after = options.fromOffset === undefined
    ? undefined
    : picked.find((l) => l.seq > load.seq && l.offset !== load.offset);
  const keep = (seq: number) => seq >= load.seq && (after === undefined || seq < after.seq);
  const run: TranscriptRun = {
    load,
    loads: all.loads.filter((l) => keep(l.seq)),
    messages: all.messages.filter((m) => keep(m.seq)),
    toolCalls: all.toolCalls.filter((c) => keep(c.seq)),
    notifications: [],
    stats: { ...stats, startOffset: load.offset },
  };
  return { kind: "ok", run };
}

/**
 * Finds the last selected load of a chat, without building its run: from the chat's index,
 * parsing only the messages whose last record names the skill tool.
 *
 * @param path The chat file.
 * @param options Which skill.
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findGeminiLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return withFileSource(path, async (src) => {
    const index = await indexOf(src, options, path);
    if ("tooLarge" in index) return { kind: "not_loaded", fileSize: src.size };
    if (!index.known && index.stats.records > 0) {
      return { kind: "unknown_shape", reason: NOT_A_CHAT };
    }
    const placed = placedLoads(index, options) ??
      placedLoads(indexChat(index.lines, emptyStats(src.size), false), options)!;
    const last = placed.at(-1);
    return last ? { kind: "found", load: last.load } : { kind: "not_loaded", fileSize: src.size };
  });
}

/**
 * Reads the run of the last selected load of a chat (or, with `fromOffset`, the run whose load is
 * at that offset, up to the next load of the skill).
 *
 * @param path The chat file.
 * @param options Which skill, limits, and where an earlier run starts.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readGeminiRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return withFileSource(path, (src) => readFrom(src, options, path));
}

/**
 * {@link readGeminiRun} for a chat in memory (tests, small inputs). Never throws.
 *
 * @param text The whole JSONL text.
 * @param options Which skill, limits.
 * @returns The run, or why there is none.
 */
export function parseGeminiChatText(text: string, options: ReadRunOptions): Promise<RunRead> {
  const src = textSource(text);
  return readFrom(src, options).catch((e) => ({
    kind: "unknown_shape" as const,
    reason: `reader failure: ${e instanceof Error ? e.message : String(e)}`,
    stats: emptyStats(src.size),
  }));
}

/**
 * The records of a whole chat in the run model (no load needed): what the redirect reads to find
 * the current turn's failed `activate_skill` calls.
 *
 * @param path The chat file.
 * @param maxBytes The most bytes parsed.
 * @returns The records, or `undefined` when the file is larger or no chat.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readGeminiRecords(
  path: string,
  maxBytes: number = MAX_PARSE_BYTES,
): Promise<TurnRecords | undefined> {
  return withFileSource(path, async (src) => {
    const index = await indexOf(src, { skill: () => false, maxParseBytes: maxBytes });
    if ("tooLarge" in index || (!index.known && index.stats.records > 0)) return undefined;
    const chat = chatOfIndex({ ...index, stats: { ...index.stats } });
    return recordsOfChat(chat.messages, chat.stats);
  });
}

/**
 * What one chat line says of the turn's end, for the transcript-currency rule: the text of a
 * `gemini` record with no tool calls (the turn may end on it), `null` for a record that moves the
 * conversation on (a `gemini` record with tool calls, a `user` record), `undefined` for anything
 * else (metadata, the header, a `gemini` record with no text and no calls yet).
 *
 * @param line One JSONL line.
 * @returns The verdict.
 */
export function geminiVerdict(line: string): string | null | undefined {
  if (!line.includes('"type"')) return undefined;
  const rec = parseLine(line);
  if (!rec || typeof rec.id !== "string") return undefined;
  if (rec.type === "user") return null;
  if (rec.type !== "gemini") return undefined;
  if (Array.isArray(rec.toolCalls) && rec.toolCalls.length > 0) return null;
  const text = textOf(rec.content);
  return text.trim() === "" ? undefined : text;
}

/**
 * The currency verdict for one AfterAgent: Gemini CLI's `prompt_response` is every model text of
 * the prompt joined with newlines, so the file holds the turn once its last decisive record is a
 * text that `prompt_response` ends with (the verdict then gives `prompt_response` itself, which
 * the currency rule compares with the payload's text).
 *
 * @param promptResponse The AfterAgent payload's `prompt_response`.
 * @returns The verdict of a line.
 */
export function geminiVerdictFor(
  promptResponse: string | undefined,
): (line: string) => string | null | undefined {
  const want = (promptResponse ?? "").replace(/\s+/g, " ").trim();
  return (line) => {
    const v = geminiVerdict(line);
    if (typeof v !== "string" || promptResponse === undefined) return v;
    return want.endsWith(v.replace(/\s+/g, " ").trim()) ? promptResponse : v;
  };
}

/**
 * A chat as a turn read for the redirect's Stop fallback: the whole file (its records are
 * rewritten in place of their first, so the turn cannot be cut off at its prompt as a Claude Code
 * transcript can), or, past `maxBytes`, its last `maxBytes` from a line start (`cut`).
 *
 * @param path The chat file.
 * @param options The bound.
 * @returns The lines and their offsets.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readGeminiTurn(path: string, options: ReadTurnOptions = {}): Promise<TurnRead> {
  const max = options.maxBytes ?? MAX_TURN_BYTES;
  return withFileSource(path, async (src) => {
    const from = Math.max(0, src.size - max);
    const bytes = await src.read(from, src.size - from);
    let start = 0;
    if (from > 0) {
      const nl = bytes.indexOf(10);
      start = nl < 0 ? bytes.length : nl + 1;
    }
    const lines: string[] = [];
    const offsets: number[] = [];
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end < 0) end = bytes.length;
      if (end > start) {
        lines.push(decoder.decode(bytes.subarray(start, end)));
        offsets.push(from + start);
      }
      start = end + 1;
    }
    return {
      start: from > 0 ? "cut" : "file-start",
      offset: offsets[0] ?? src.size,
      lines,
      offsets,
      fileSize: src.size,
      bytesRead: bytes.length,
    };
  });
}

/**
 * Whether a chat read shows the AfterAgent payload's `prompt_response`: its last decisive record
 * is a text that `prompt_response` ends with ({@link geminiVerdictFor}).
 *
 * @param turn The lines read.
 * @param promptResponse The payload's `prompt_response`.
 * @returns True when the file held the turn.
 */
export function geminiTurnShowsFinalText(
  turn: Pick<TurnRead, "lines">,
  promptResponse: string | undefined,
): boolean {
  if (promptResponse === undefined || promptResponse.trim() === "") return false;
  const verdict = geminiVerdictFor(promptResponse);
  for (let k = turn.lines.length - 1; k >= 0; k--) {
    const v = verdict(turn.lines[k]);
    if (v !== undefined) return v === promptResponse;
  }
  return false;
}

/**
 * The run model's records of a chat read ({@link readGeminiTurn}).
 *
 * @param turn The lines read.
 * @returns The records.
 */
export function geminiTurnRecords(turn: TurnRead): TurnRecords {
  const chat = chatOfLines(
    turn.lines.map((line, i) => ({ line, offset: turn.offsets[i] })),
    emptyStats(turn.fileSize),
  );
  return recordsOfChat(chat.messages, chat.stats);
}

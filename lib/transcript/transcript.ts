/**
 * Claude Code session transcript reader (JSONL under `<claude config>/projects/`).
 *
 * The reader works on one *run* of a skill: from the skill's last load to the end of the file (or,
 * for a re-check of an earlier run, from a known byte offset to the next load of that skill). It
 * reads the file from the end, finds the load with a cheap substring pre-filter, and parses only the
 * bytes of the run, so the size limit ({@link MAX_PARSE_BYTES}) applies to those bytes, not to the
 * file. It is tolerant: a truncated or unparseable line is skipped and counted, unknown record types
 * are ignored, and it never throws on content (only on I/O, as {@link TranscriptReadError}).
 *
 * A file with no turns yet (empty, or only records such as `summary`, `queue-operation`,
 * `attachment` or `system`) reads as `not_loaded`. Only content that is no record Claude Code
 * writes (a line that is not a JSON object, a record type the reader does not know, a message
 * whose content is neither text nor a block list) is an `unknown_shape`: a real format change.
 *
 * @module
 */

/** The most bytes of one run that are parsed (32 MiB); a longer run is a state error (exit 3). */
export const MAX_PARSE_BYTES: number = 32 * 1024 * 1024;

/** The longest text kept for one message or tool result; longer text is cut (with a marker). */
export const MAX_TEXT_CHARS: number = 256 * 1024;

/** The tool names of an edit: a file change that `check_after_last_edit` waits on. */
export const EDIT_TOOLS: readonly string[] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/** The tool names of a subagent dispatch (`Task` until Claude Code 2.1.63, then `Agent`). */
export const AGENT_TOOLS: readonly string[] = ["Agent", "Task"];

/** The tool names of a shell command (`PowerShell` on Windows takes the same input). */
export const SHELL_TOOLS: readonly string[] = ["Bash", "PowerShell"];

/** How a skill was loaded. */
export type LoadVia =
  | "skill_tool"
  | "command"
  | "read"
  | "base_directory";

/** One load of a skill found in the transcript. */
export interface SkillLoad {
  /** Position of the load in the run's event order (see {@link TranscriptMessage.seq}). */
  seq: number;
  /** Byte offset of the JSONL line that holds the load. */
  offset: number;
  /** The name as written (a leading `/` dropped), for example `gstack:investigate`. */
  qualifiedName: string;
  /** The name without a `plugin:` prefix, for example `investigate`. */
  name: string;
  /** How it was loaded. */
  via: LoadVia;
  /** The `Skill` tool call's id, when `via` is `skill_tool`. */
  toolUseId?: string;
}

/** A user or assistant message of the run, with its text blocks joined. */
export interface TranscriptMessage {
  /** Position in the run's event order: messages, tool calls, results and loads share one counter. */
  seq: number;
  /** Who wrote it. */
  role: "user" | "assistant";
  /** Joined text blocks (a string content is the text), cut at {@link MAX_TEXT_CHARS}. */
  text: string;
  /** `isMeta` user records (skill bodies, reminders, hook feedback). */
  isMeta: boolean;
  /** True inside a subagent: a `progress` record's nested message or an `isSidechain` record. */
  sidechain: boolean;
  /** The API message id; assistant records that share it are merged into one message. */
  messageId?: string;
  /** The record's `sessionId`. */
  sessionId?: string;
  /** `origin.kind` of a user record (for example `task-notification`). */
  origin?: string;
  /** Ids of the `tool_use` blocks in this message. */
  toolUseIds: string[];
}

/** The result of one tool call. */
export interface ToolResult {
  /** Position in the run's event order. */
  seq: number;
  /** The `tool_result` block's `is_error`. */
  isError: boolean;
  /** The result text (string content or joined text blocks), cut at {@link MAX_TEXT_CHARS}. */
  text: string;
  /** The record's structured `toolUseResult` for Agent/Task and Skill calls (others omitted). */
  structured?: unknown;
  /** An Agent/Task launched in the background (`status: "async_launched"` or `isAsync: true`). */
  asyncLaunched: boolean;
  /** The background agent's id from `toolUseResult.agentId`, when given. */
  agentId?: string;
}

/** One tool call (`tool_use` block) with its result when the run has it. */
export interface ToolCall {
  /** Position in the run's event order. */
  seq: number;
  /** `tool_use.id`. */
  id: string;
  /** Tool name, for example `Bash`, `Edit`, `Agent`. */
  name: string;
  /** The tool input (an empty object when it was not an object). */
  input: Record<string, unknown>;
  /** True when the call was made inside a subagent (nested in a `progress` record). */
  sidechain: boolean;
  /** The record's `sessionId`. */
  sessionId?: string;
  /** The paired result, when present in the run. */
  result?: ToolResult;
}

/** A `<task-notification>` user record: a background agent finished. */
export interface TaskNotification {
  /** Position in the run's event order. */
  seq: number;
  /** `<tool-use-id>` in the notice. */
  toolUseId?: string;
  /** `<task-id>` in the notice. */
  taskId?: string;
  /** `<status>` in the notice. */
  status?: string;
}

/** Counters of one read. */
export interface ReadStats {
  /** Size of the file in bytes (or of the text for {@link parseTranscriptText}). */
  fileSize: number;
  /** Byte offset where parsing started (the run's load line). */
  startOffset: number;
  /** Byte offset where parsing stopped (end of file, or the next load of the skill). */
  endOffset: number;
  /** Bytes parsed (`endOffset - startOffset`). */
  bytesParsed: number;
  /** Bytes scanned backward to find the load (substring pre-filter, no parse). */
  bytesScanned: number;
  /** JSONL lines parsed as records. */
  records: number;
  /** Lines skipped: truncated, unparseable or not a JSON object. */
  skippedLines: number;
  /** Records whose `type` the reader does not know (ignored). */
  unknownTypes: number;
  /** `user` and `assistant` records seen (including ones nested in `progress`). */
  userOrAssistantRecords: number;
  /** User/assistant records whose `message.content` is neither a string nor a block list. */
  badContent: number;
}

/** One parsed run of a skill. */
export interface TranscriptRun {
  /** The load that starts the run. */
  load: SkillLoad;
  /** Every load in the run, in order (the first is {@link load}). */
  loads: SkillLoad[];
  /** User and assistant messages, in order. */
  messages: TranscriptMessage[];
  /** Tool calls, in order. */
  toolCalls: ToolCall[];
  /** Background-agent completion notices, in order. */
  notifications: TaskNotification[];
  /** Counters. */
  stats: ReadStats;
}

/** What {@link readTranscriptRun} found. */
export type RunRead =
  | { kind: "ok"; run: TranscriptRun }
  | { kind: "not_loaded"; stats: ReadStats }
  | { kind: "too_large"; bytes: number; limit: number; stats: ReadStats }
  | { kind: "unknown_shape"; reason: string; stats: ReadStats };

/** Which load starts a run: a skill name (matched by name, `plugin:` prefix ignored) or a test. */
export type SkillSelector = string | ((load: SkillLoad) => boolean);

/** Options of {@link readTranscriptRun} and {@link parseTranscriptText}. */
export interface ReadRunOptions {
  /** The skill whose run is read, or a predicate (e.g. "declares a contract") on each load. */
  skill: SkillSelector;
  /**
   * Installed skills directories (catalog `dirs`). A Read of `<dir>/<name>/SKILL.md` under one of
   * them is a load. When omitted, a Read counts only under a `.claude/skills/` or a
   * `.claude/plugins/…/skills/` directory.
   */
  skillsDirs?: readonly string[];
  /** The parse limit in bytes (default {@link MAX_PARSE_BYTES}). */
  maxParseBytes?: number;
  /**
   * Re-check an earlier run: parse from this byte offset (a {@link SkillLoad.offset}) to the next
   * load of the same skill instead of from the last load to the end.
   */
  fromOffset?: number;
  /** Read size of one chunk in bytes (default 256 KiB; tests use small values). */
  chunkSize?: number;
  /**
   * The backward search for the last load stops at this byte offset: a line that starts at or
   * below it is not looked at, because the caller knows it holds no selected load (an earlier
   * search of the same, append-only file found none). When nothing is found above it the result
   * is `not_loaded`. A floor past the end of the file is ignored.
   */
  scanFloor?: number;
}

/** An I/O failure reading a transcript (exit 3, `SKILL_CONTRACT_STATE_ERROR`). */
export class TranscriptReadError extends Error {
  /** The transcript path. */
  readonly path: string;
  /**
   * Creates the error.
   *
   * @param path The transcript path.
   * @param message What failed.
   */
  constructor(path: string, message: string) {
    super(message);
    this.name = "TranscriptReadError";
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// Record helpers

const KNOWN_TYPES = new Set([
  "user",
  "assistant",
  "progress",
  "attachment",
  "system",
  "summary",
  "file-history-snapshot",
  "file-history-delta",
  "queue-operation",
  "pr-link",
  "agent-name",
  "custom-title",
  "last-prompt",
  "permission-mode",
  "ai-title",
  "agent-setting",
  "bridge-session",
  "worktree-state",
  "mode",
  "atis-latch",
  "api-request-shape",
  "api-request-blob",
  "api-request",
  "tools-used",
  "cost-state",
]);

/** Substrings one of which every line holding a load contains (the backward pre-filter). */
const LOAD_NEEDLES = [
  '"Skill"',
  "<command-name>",
  "SKILL.md",
  "Base directory for this skill",
];

const USER_OR_ASSISTANT_RE = /"type"\s*:\s*"(?:user|assistant)"/;

/** The `type` values of a line too long to parse just to learn its type. */
const TYPE_VALUE_RE = /"type"\s*:\s*"([^"\\]{1,64})"/g;

/**
 * Whether a JSONL line is something this reader does not know: not a JSON object, or a record
 * whose `type` is not one Claude Code writes (`KNOWN_TYPES`). Blank lines are not. A line over
 * 1 MiB is judged by the `type` values in it, unparsed.
 */
function isUnknownRecord(line: string): boolean {
  if (line.trim() === "") return false;
  if (line.length > 1024 * 1024) {
    for (const m of line.matchAll(TYPE_VALUE_RE)) if (KNOWN_TYPES.has(m[1])) return false;
    return true;
  }
  const rec = parseLine(line);
  const type = rec === undefined ? undefined : str(rec.type);
  return type === undefined || !KNOWN_TYPES.has(type);
}

/** The reason an unknown shape gives for a file whose records are none of the known ones. */
const NO_KNOWN_RECORDS =
  "no user or assistant records, and records of a type this reader does not know";

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function cap(s: string, max = MAX_TEXT_CHARS): string {
  return s.length > max ? s.slice(0, max) + "\n[…cut]" : s;
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content) {
    if (typeof b === "string") parts.push(b);
    else if (isRec(b) && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n");
}

function normalizeSkillName(raw: string): { qualifiedName: string; name: string } | undefined {
  const q = raw.trim().replace(/^\//, "").trim();
  if (q === "" || q.length > 200 || /\s/.test(q)) return undefined;
  const i = q.lastIndexOf(":");
  const name = i >= 0 ? q.slice(i + 1) : q;
  if (name === "") return undefined;
  return { qualifiedName: q, name };
}

const COMMAND_NAME_RE = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const BASE_DIR_RE = /^\s*Base directory for this skill:\s*(\S[^\n]*)/;

function trimSlashes(p: string): string {
  return p.replace(/[\\/]+$/, "");
}

function baseName(p: string): string {
  const t = trimSlashes(p);
  const i = Math.max(t.lastIndexOf("/"), t.lastIndexOf("\\"));
  return i >= 0 ? t.slice(i + 1) : t;
}

const DEFAULT_SKILL_READ_RE =
  /[\\/]\.claude[\\/](?:skills|plugins[\\/](?:.+[\\/])?skills)[\\/]([^\\/]+)[\\/]SKILL\.md$/;

/** The skill name a Read of `file_path` loads, when it is a SKILL.md under a skills directory. */
function skillOfRead(
  filePath: string,
  skillsDirs: readonly string[] | undefined,
): string | undefined {
  if (!filePath.endsWith("SKILL.md")) return undefined;
  if (skillsDirs && skillsDirs.length > 0) {
    const norm = filePath.replace(/\\/g, "/");
    for (const d of skillsDirs) {
      const dir = trimSlashes(d.replace(/\\/g, "/"));
      if (dir === "") continue;
      const prefix = dir + "/";
      if (!norm.startsWith(prefix)) continue;
      const rest = norm.slice(prefix.length).split("/");
      if (rest.length === 2 && rest[1] === "SKILL.md" && rest[0] !== "" && rest[0] !== "..") {
        return rest[0];
      }
    }
    return undefined;
  }
  const m = DEFAULT_SKILL_READ_RE.exec(filePath);
  return m ? m[1] : undefined;
}

/** A load found in a record, before it gets a `seq`. */
interface RawLoad {
  qualifiedName: string;
  name: string;
  via: LoadVia;
  toolUseId?: string;
}

/**
 * The main-chain loads in one parsed record, in order. Loads inside a subagent (`progress`,
 * `isSidechain`) are not loads of the main session.
 */
function loadsOfRecord(rec: Rec, skillsDirs: readonly string[] | undefined): RawLoad[] {
  const out: RawLoad[] = [];
  const type = rec.type;
  if (rec.isSidechain === true) return out;
  // An `invoked_skills` attachment is no load: Claude Code writes it when it compacts a
  // conversation, to carry skills already loaded into the summary. Counting it would start a new
  // run and block a later, unrelated turn (the seed's loads are a Skill call, a typed /name, a
  // Read of the SKILL.md).
  if (type !== "user" && type !== "assistant") return out;
  const msg = rec.message;
  if (!isRec(msg)) return out;
  const content = msg.content;
  if (type === "assistant") {
    if (!Array.isArray(content)) return out;
    for (const b of content) {
      if (!isRec(b) || b.type !== "tool_use" || !isRec(b.input)) continue;
      const id = str(b.id);
      if (b.name === "Skill") {
        const raw = str(b.input.skill) ?? str(b.input.command);
        const norm = raw ? normalizeSkillName(raw) : undefined;
        if (norm) out.push({ ...norm, via: "skill_tool", toolUseId: id });
      } else if (b.name === "Read") {
        const fp = str(b.input.file_path);
        const n = fp ? skillOfRead(fp, skillsDirs) : undefined;
        const norm = n ? normalizeSkillName(n) : undefined;
        if (norm) out.push({ ...norm, via: "read", toolUseId: id });
      }
    }
    return out;
  }
  // user
  const text = textOfContent(content);
  if (text === "") return out;
  if (rec.isMeta === true) {
    const m = BASE_DIR_RE.exec(text);
    if (m) {
      const norm = normalizeSkillName(baseName(m[1].trim()));
      if (norm) out.push({ ...norm, via: "base_directory" });
    }
    return out;
  }
  if (text.includes("<command-name>")) {
    const m = COMMAND_NAME_RE.exec(text);
    const norm = m ? normalizeSkillName(m[1]) : undefined;
    if (norm) out.push({ ...norm, via: "command" });
  }
  return out;
}

function selects(selector: SkillSelector, load: SkillLoad): boolean {
  try {
    return typeof selector === "string"
      ? skillNameMatches(load.qualifiedName, selector)
      : selector(load) === true;
  } catch {
    return false;
  }
}

function parseLine(line: string): Rec | undefined {
  const t = line.trim();
  if (t === "") return undefined;
  try {
    const v = JSON.parse(t);
    return isRec(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const NOTIFICATION_TOOL_USE_RE = /<tool-use-id>\s*([^<\s]+)\s*<\/tool-use-id>/;
const NOTIFICATION_TASK_RE = /<task-id>\s*([^<\s]+)\s*<\/task-id>/;
const NOTIFICATION_STATUS_RE = /<status>\s*([^<]+?)\s*<\/status>/;

function emptyStats(fileSize: number): ReadStats {
  return {
    fileSize,
    startOffset: 0,
    endOffset: 0,
    bytesParsed: 0,
    bytesScanned: 0,
    records: 0,
    skippedLines: 0,
    unknownTypes: 0,
    userOrAssistantRecords: 0,
    badContent: 0,
  };
}

/** Picks the tool input fields the checker uses, so a big `Write` body is not kept. */
function keepInput(input: unknown): Record<string, unknown> {
  if (!isRec(input)) return {};
  const out: Record<string, unknown> = {};
  for (
    const k of [
      "command",
      "description",
      "prompt",
      "subagent_type",
      "skill",
      "args",
      "file_path",
      "notebook_path",
      "run_in_background",
      "name",
    ]
  ) {
    const v = input[k];
    if (typeof v === "string") out[k] = cap(v, 64 * 1024);
    else if (typeof v === "boolean") out[k] = v;
  }
  return out;
}

/** Tools whose result text the checker reads (shell output, agent output, skill launch). */
const RESULT_TEXT_TOOLS = new Set([...SHELL_TOOLS, ...AGENT_TOOLS, "Skill", "AskUserQuestion"]);

// ---------------------------------------------------------------------------------------------
// The run builder: fed one line at a time, in file order.

class RunBuilder {
  readonly stats: ReadStats;
  readonly messages: TranscriptMessage[] = [];
  readonly toolCalls: ToolCall[] = [];
  readonly notifications: TaskNotification[] = [];
  readonly loads: SkillLoad[] = [];
  private seq = 0;
  private readonly calls = new Map<string, ToolCall>();
  private readonly byMessageId = new Map<string, TranscriptMessage>();
  private readonly uuids = new Set<string>();
  /** Main assistant records seen since the last selected load (a new run needs one). */
  private assistantSinceLoad = true;
  first: SkillLoad | undefined;
  private lastSelected: SkillLoad | undefined;

  constructor(
    private readonly selector: SkillSelector,
    private readonly skillsDirs: readonly string[] | undefined,
    fileSize: number,
  ) {
    this.stats = emptyStats(fileSize);
  }

  /**
   * Feeds one line. Returns "stop" when `stopAtNextRun` is set and this line starts a new run of
   * the selected skill (the line is then not consumed).
   */
  feed(line: string, offset: number, stopAtNextRun: boolean): "ok" | "stop" {
    const rec = parseLine(line);
    if (!rec) {
      if (line.trim() !== "") this.stats.skippedLines++;
      return "ok";
    }
    const rawLoads = loadsOfRecord(rec, this.skillsDirs);
    const sourceToolUseId = str(rec.sourceToolUseID);
    const continues = (l: RawLoad) =>
      l.via === "base_directory" && this.lastSelected !== undefined &&
      ((sourceToolUseId !== undefined && sourceToolUseId === this.lastSelected.toolUseId) ||
        !this.assistantSinceLoad);
    if (stopAtNextRun && this.first) {
      for (const l of rawLoads) {
        if (
          selects(this.selector, { ...l, seq: 0, offset }) && this.assistantSinceLoad &&
          !continues(l)
        ) {
          return "stop";
        }
      }
    }
    this.stats.records++;
    const uuid = str(rec.uuid);
    if (uuid) {
      if (this.uuids.has(uuid)) return "ok";
      this.uuids.add(uuid);
    }
    let selectedHere = false;
    for (const l of rawLoads) {
      const load: SkillLoad = { ...l, seq: ++this.seq, offset };
      this.loads.push(load);
      if (selects(this.selector, load)) {
        if (!this.first) this.first = load;
        if (!continues(l)) this.lastSelected = load;
        selectedHere = true;
      }
    }
    const type = str(rec.type);
    switch (type) {
      case "user":
      case "assistant":
        this.message(rec, type, rec.isSidechain === true);
        break;
      case "progress": {
        const data = rec.data;
        if (isRec(data) && isRec(data.message)) {
          const nested = data.message;
          const t = nested.type;
          if (t === "user" || t === "assistant") this.message(nested, t, true);
        }
        break;
      }
      case "attachment": {
        const att = rec.attachment;
        if (isRec(att)) {
          const prompt = str(att.prompt) ?? textOfContent(att.content);
          if (prompt) this.notification(prompt);
        }
        break;
      }
      case "queue-operation": {
        const c = str(rec.content);
        if (c) this.notification(c);
        break;
      }
      default:
        if (type === undefined || !KNOWN_TYPES.has(type)) this.stats.unknownTypes++;
    }
    if (selectedHere) this.assistantSinceLoad = false;
    return "ok";
  }

  private notification(text: string): void {
    if (!text.includes("<task-notification>")) return;
    const n: TaskNotification = { seq: ++this.seq };
    const tu = NOTIFICATION_TOOL_USE_RE.exec(text);
    if (tu) n.toolUseId = tu[1];
    const tk = NOTIFICATION_TASK_RE.exec(text);
    if (tk) n.taskId = tk[1];
    const st = NOTIFICATION_STATUS_RE.exec(text);
    if (st) n.status = st[1];
    this.notifications.push(n);
  }

  private message(rec: Rec, role: "user" | "assistant", sidechain: boolean): void {
    this.stats.userOrAssistantRecords++;
    const msg = rec.message;
    const content = isRec(msg) ? msg.content : undefined;
    if (typeof content !== "string" && !Array.isArray(content)) {
      this.stats.badContent++;
      return;
    }
    if (role === "assistant" && !sidechain) this.assistantSinceLoad = true;
    const sessionId = str(rec.sessionId);
    const messageId = role === "assistant" && isRec(msg) ? str(msg.id) : undefined;
    let target: TranscriptMessage | undefined;
    if (role === "user") {
      // Created below only when the record has text: a tool_result-only record is no message.
    } else if (messageId) {
      const key = `${sidechain ? "s" : "m"}:${messageId}`;
      target = this.byMessageId.get(key);
      if (!target) {
        target = this.newMessage(role, rec, sidechain, sessionId, messageId);
        this.byMessageId.set(key, target);
      }
    } else {
      target = this.newMessage(role, rec, sidechain, sessionId, undefined);
    }
    const texts: string[] = [];
    if (typeof content === "string") texts.push(content);
    else {
      for (const b of content) {
        if (typeof b === "string") {
          texts.push(b);
          continue;
        }
        if (!isRec(b)) continue;
        if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
        else if (b.type === "tool_use" && role === "assistant") {
          const id = str(b.id) ?? `anon-${this.seq + 1}`;
          const call: ToolCall = {
            seq: ++this.seq,
            id,
            name: str(b.name) ?? "",
            input: keepInput(b.input),
            sidechain,
          };
          if (sessionId) call.sessionId = sessionId;
          this.toolCalls.push(call);
          this.calls.set(id, call);
          target?.toolUseIds.push(id);
        } else if (b.type === "tool_result" && role === "user") {
          this.result(rec, b);
        }
      }
    }
    if (texts.length > 0) {
      target ??= this.newMessage(role, rec, sidechain, sessionId, undefined);
      const joined = texts.join("\n");
      target.text = cap(target.text === "" ? joined : target.text + "\n" + joined);
      if (role === "user") this.notification(joined);
    }
  }

  private newMessage(
    role: "user" | "assistant",
    rec: Rec,
    sidechain: boolean,
    sessionId: string | undefined,
    messageId: string | undefined,
  ): TranscriptMessage {
    const m: TranscriptMessage = {
      seq: ++this.seq,
      role,
      text: "",
      isMeta: rec.isMeta === true,
      sidechain,
      toolUseIds: [],
    };
    if (messageId) m.messageId = messageId;
    if (sessionId) m.sessionId = sessionId;
    const origin = isRec(rec.origin) ? str(rec.origin.kind) : undefined;
    if (origin) m.origin = origin;
    this.messages.push(m);
    return m;
  }

  private result(rec: Rec, block: Rec): void {
    const id = str(block.tool_use_id);
    if (!id) return;
    const call = this.calls.get(id);
    if (!call) return; // its call is before the run
    const structured = rec.toolUseResult;
    const r: ToolResult = {
      seq: ++this.seq,
      isError: block.is_error === true,
      text: RESULT_TEXT_TOOLS.has(call.name) ? cap(textOfContent(block.content)) : "",
      asyncLaunched: false,
    };
    if (AGENT_TOOLS.includes(call.name) || call.name === "Skill") {
      if (isRec(structured)) {
        r.structured = {
          status: structured.status,
          isAsync: structured.isAsync,
          agentId: structured.agentId,
          success: structured.success,
        };
        if (structured.status === "async_launched" || structured.isAsync === true) {
          r.asyncLaunched = true;
        }
        const agentId = str(structured.agentId);
        if (agentId) r.agentId = agentId;
      } else if (typeof structured === "string") {
        r.structured = cap(structured, 4096);
      }
      if (
        !r.asyncLaunched && AGENT_TOOLS.includes(call.name) &&
        /^\s*Async agent launched successfully/.test(r.text)
      ) {
        r.asyncLaunched = true;
      }
    }
    call.result = r;
  }

  finish(): TranscriptRun | undefined {
    if (!this.first) return undefined;
    return {
      load: this.first,
      loads: this.loads,
      messages: this.messages,
      toolCalls: this.toolCalls,
      notifications: this.notifications,
      stats: this.stats,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Line splitting over byte chunks

const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Line segments of a byte buffer: their byte starts and a decoder of one segment. */
interface Segments {
  /** Segment count (one more than the newlines). */
  count: number;
  /** Byte start of each segment. */
  starts: number[];
  /** Decodes segment `k` (without its newline). */
  line(k: number): string;
}

/** Splits bytes at `\n`, decoding each line on demand (small strings, no big chunk string). */
function segments(bytes: Uint8Array): Segments {
  const starts = [0];
  let i = bytes.indexOf(10);
  while (i >= 0) {
    starts.push(i + 1);
    i = bytes.indexOf(10, i + 1);
  }
  return {
    count: starts.length,
    starts,
    line: (k) => {
      const end = k + 1 < starts.length ? starts[k + 1] - 1 : bytes.length;
      return decoder.decode(bytes.subarray(starts[k], end));
    },
  };
}

/** A byte source: the file, or an in-memory text. */
interface Source {
  size: number;
  read(pos: number, len: number): Uint8Array | Promise<Uint8Array>;
}

interface FoundLoad {
  offset: number;
  load: RawLoad;
}

/** What the backward scan found. */
interface BackwardScan {
  /** The last selected load, if any. */
  found?: FoundLoad;
  /** Whether a user or assistant record was seen. */
  sawMessages: boolean;
  /** Whether, before any message was seen, a line was no record this reader knows. */
  sawUnknown: boolean;
}

/**
 * Scans backward from the end for the last selected load. Only lines that pass the substring
 * pre-filter are parsed. Drives a generator so the same code serves sync and async sources.
 */
function* scanBackward(
  size: number,
  chunkSize: number,
  maxLine: number,
  selector: SkillSelector,
  skillsDirs: readonly string[] | undefined,
  stats: ReadStats,
  floor = 0,
): Generator<[number, number], BackwardScan, Uint8Array> {
  let pos = size;
  let carry: Uint8Array = EMPTY; // bytes [pos, …) up to the end of the line that starts before pos
  let sawMessages = false;
  let sawUnknown = false;
  let giant = false; // the line being assembled is longer than maxLine: discard its bytes
  while (pos > floor) {
    const start = Math.max(floor, pos - chunkSize);
    const chunk: Uint8Array = yield [start, pos - start];
    stats.bytesScanned += chunk.length;
    const combined = giant ? chunk : concat(chunk, carry);
    const seg = segments(combined);
    const starts = seg.starts;
    // The first segment may continue before `start`; keep it unless we reached the file start.
    const lastIndex = seg.count - 1;
    const firstComplete = start === 0 ? 0 : 1;
    // The file's last segment, when it does not end with a newline, may still be being written.
    const tail = pos === size ? lastIndex : -1;
    for (let k = lastIndex; k >= firstComplete; k--) {
      if (giant && k === lastIndex) {
        // tail of a giant line (already given up on)
        if (lastIndex > 0 || start === 0) giant = false;
        continue;
      }
      const line = seg.line(k);
      if (!sawMessages) {
        if (USER_OR_ASSISTANT_RE.test(line)) sawMessages = true;
        else if (!sawUnknown && k !== tail && isUnknownRecord(line)) sawUnknown = true;
      }
      if (!LOAD_NEEDLES.some((n) => line.includes(n))) continue;
      const rec = parseLine(line);
      if (!rec) continue;
      const loads = loadsOfRecord(rec, skillsDirs);
      for (let j = loads.length - 1; j >= 0; j--) {
        const offset = start + starts[k];
        if (selects(selector, { ...loads[j], seq: 0, offset })) {
          return { found: { offset, load: loads[j] }, sawMessages, sawUnknown };
        }
      }
    }
    if (start > 0) {
      const first = combined.subarray(0, starts.length > 1 ? starts[1] - 1 : combined.length);
      if (giant && seg.count === 1) {
        carry = EMPTY;
      } else if (first.length > maxLine) {
        // A line longer than the parse limit cannot be parsed; if it may hold a load, the run is
        // too large for sure, otherwise it is skipped.
        const text = decoder.decode(first.subarray(0, Math.min(first.length, 1 << 20)));
        const named = typeof selector !== "string" ||
          text.toLowerCase().includes(selector.replace(/^.*:/, "").toLowerCase());
        if (named && LOAD_NEEDLES.some((n) => text.includes(n))) {
          return {
            found: { offset: start, load: { qualifiedName: "", name: "", via: "read" } },
            sawMessages,
            sawUnknown,
          };
        }
        carry = EMPTY;
        giant = true;
      } else {
        carry = first.slice();
      }
    }
    pos = start;
  }
  return { sawMessages, sawUnknown };
}

/** Parses forward from `from`, feeding complete lines to the builder. */
function* parseForward(
  size: number,
  from: number,
  chunkSize: number,
  limit: number,
  builder: RunBuilder,
  stopAtNextRun: boolean,
): Generator<[number, number], { end: number; tooLarge: boolean }, Uint8Array> {
  let pos = from;
  let carry: Uint8Array = EMPTY;
  let carryStart = from;
  while (pos < size) {
    const len = Math.min(chunkSize, size - pos);
    const chunk: Uint8Array = yield [pos, len];
    if (chunk.length === 0) break;
    const combined = concat(carry, chunk);
    const seg = segments(combined);
    const starts = seg.starts;
    for (let k = 0; k < seg.count - 1; k++) {
      const offset = carryStart + starts[k];
      if (offset - from > limit) return { end: offset, tooLarge: true };
      if (builder.feed(seg.line(k), offset, stopAtNextRun) === "stop") {
        return { end: offset, tooLarge: false };
      }
    }
    pos += chunk.length;
    const lastStart = starts[starts.length - 1];
    carry = combined.slice(lastStart);
    carryStart = carryStart + lastStart;
    if (carry.length > limit) return { end: pos, tooLarge: true };
  }
  if (carry.length > 0) {
    if (size - from > limit) return { end: size, tooLarge: true };
    if (builder.feed(decoder.decode(carry), carryStart, stopAtNextRun) === "stop") {
      return { end: carryStart, tooLarge: false };
    }
  }
  if (size - from > limit) return { end: size, tooLarge: true };
  return { end: size, tooLarge: false };
}

/** Runs a read generator against a sync source. */
function driveSync<T>(gen: Generator<[number, number], T, Uint8Array>, src: Source): T {
  let step = gen.next(EMPTY);
  while (!step.done) {
    const [pos, len] = step.value;
    step = gen.next(src.read(pos, len) as Uint8Array);
  }
  return step.value;
}

/** Runs a read generator against an async source. */
async function driveAsync<T>(
  gen: Generator<[number, number], T, Uint8Array>,
  src: Source,
): Promise<T> {
  let step = gen.next(EMPTY);
  while (!step.done) {
    const [pos, len] = step.value;
    step = gen.next(await src.read(pos, len));
  }
  return step.value;
}

/** The whole read as one generator of byte requests, so sync and async sources share it. */
function* readRunGen(
  size: number,
  options: ReadRunOptions,
): Generator<[number, number], RunRead, Uint8Array> {
  const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
  const chunkSize = Math.max(16, options.chunkSize ?? 256 * 1024);
  const stats = emptyStats(size);
  // A session with no turns yet (an empty file, or only records such as `summary`) is no shape
  // problem: nothing is loaded in it yet.
  if (size === 0) return { kind: "not_loaded", stats };
  let from: number;
  if (options.fromOffset !== undefined) {
    from = Math.max(0, Math.min(Math.floor(options.fromOffset), size));
  } else {
    // A floor past the end means the file is not the one searched before: search it all.
    const asked = Math.floor(options.scanFloor ?? 0);
    const floor = asked > 0 && asked <= size ? asked : 0;
    const scan = yield* scanBackward(
      size,
      chunkSize,
      limit,
      options.skill,
      options.skillsDirs,
      stats,
      floor,
    );
    if (!scan.found) {
      // Below a floor the file was searched before and had messages: nothing new is not a shape.
      // Nor is a file with no turns yet; only a record this reader does not know is.
      return scan.sawMessages || floor > 0 || !scan.sawUnknown
        ? { kind: "not_loaded", stats }
        : { kind: "unknown_shape", reason: NO_KNOWN_RECORDS, stats };
    }
    from = scan.found.offset;
    if (size - from > limit) {
      stats.startOffset = from;
      return { kind: "too_large", bytes: size - from, limit, stats };
    }
  }
  const builder = new RunBuilder(options.skill, options.skillsDirs, size);
  builder.stats.bytesScanned = stats.bytesScanned;
  const fwd = yield* parseForward(
    size,
    from,
    chunkSize,
    limit,
    builder,
    options.fromOffset !== undefined,
  );
  const s = builder.stats;
  s.startOffset = from;
  s.endOffset = fwd.end;
  s.bytesParsed = fwd.end - from;
  if (fwd.tooLarge) {
    return { kind: "too_large", bytes: Math.max(fwd.end - from, limit + 1), limit, stats: s };
  }
  if (s.badContent > 0) {
    return {
      kind: "unknown_shape",
      reason: `${s.badContent} message(s) with content that is neither text nor a block list`,
      stats: s,
    };
  }
  if (s.userOrAssistantRecords === 0) {
    return s.unknownTypes > 0 || s.skippedLines > 0
      ? { kind: "unknown_shape", reason: NO_KNOWN_RECORDS, stats: s }
      : { kind: "not_loaded", stats: s };
  }
  const run = builder.finish();
  if (!run) return { kind: "not_loaded", stats: s };
  return { kind: "ok", run };
}

/**
 * Reads one run of a skill from a transcript file, parsing only the bytes of that run.
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readTranscriptRun(path: string, options: ReadRunOptions): Promise<RunRead> {
  return withFileSource(path, (src) => driveAsync(readRunGen(src.size, options), src));
}

/** Where the last selected load of a transcript is, without reading its run. */
export type LoadSearch =
  | { kind: "found"; load: SkillLoad }
  | { kind: "not_loaded"; fileSize: number }
  | { kind: "unknown_shape"; reason: string };

/**
 * Finds the last selected load of a transcript by the same backward search as
 * {@link readTranscriptRun}, without parsing the run after it: for a caller that may already
 * know the run's outcome. Read the run afterwards with `fromOffset: load.offset`.
 *
 * @param path The transcript JSONL path.
 * @param options Which skill, skills directories and search floor (`maxParseBytes`,
 * `fromOffset` and `chunkSize` other than the default are ignored, but for `chunkSize`).
 * @returns The load, or why there is none.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function findLastLoad(path: string, options: ReadRunOptions): Promise<LoadSearch> {
  return withFileSource(path, async (src) => {
    const stats = emptyStats(src.size);
    if (src.size === 0) return { kind: "not_loaded", fileSize: 0 };
    const asked = Math.floor(options.scanFloor ?? 0);
    const floor = asked > 0 && asked <= src.size ? asked : 0;
    const chunkSize = Math.max(16, options.chunkSize ?? 256 * 1024);
    const limit = options.maxParseBytes ?? MAX_PARSE_BYTES;
    const scan = await driveAsync(
      scanBackward(src.size, chunkSize, limit, options.skill, options.skillsDirs, stats, floor),
      src,
    );
    if (scan.found) {
      return { kind: "found", load: { ...scan.found.load, seq: 0, offset: scan.found.offset } };
    }
    if (scan.sawMessages || floor > 0 || !scan.sawUnknown) {
      return { kind: "not_loaded", fileSize: src.size };
    }
    return { kind: "unknown_shape", reason: NO_KNOWN_RECORDS };
  });
}

/** Opens a transcript as a byte source for the read generators, and closes it afterwards. */
async function withFileSource<T>(path: string, fn: (src: Source) => Promise<T>): Promise<T> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw new TranscriptReadError(path, errorText(e));
  }
  try {
    let size: number;
    try {
      const st = await file.stat();
      if (!st.isFile) throw new Error("Not a regular file");
      size = st.size;
    } catch (e) {
      throw new TranscriptReadError(path, errorText(e));
    }
    let shared = new Uint8Array(0);
    const src: Source = {
      size,
      // One buffer for every read: the reader copies what it keeps before the next read.
      read: async (pos, len) => {
        if (shared.length < len) shared = new Uint8Array(len);
        const buf = shared.subarray(0, len);
        let got = 0;
        try {
          await file.seek(pos, Deno.SeekMode.Start);
          while (got < len) {
            const n = await file.read(buf.subarray(got));
            if (n === null) break;
            got += n;
          }
        } catch (e) {
          throw new TranscriptReadError(path, errorText(e));
        }
        return got === len ? buf : buf.subarray(0, got);
      },
    };
    return await fn(src);
  } finally {
    try {
      file.close();
    } catch {
      // already closed
    }
  }
}

function errorText(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "No such file";
  if (e instanceof Deno.errors.PermissionDenied) return "Permission denied";
  if (e instanceof Error) return e.message.split("\n")[0].slice(0, 200);
  return String(e).slice(0, 200);
}

/**
 * The same as {@link readTranscriptRun} for a transcript already in memory (tests, small inputs).
 * Never throws.
 *
 * @param text The whole JSONL text.
 * @param options Which skill, skills directories, limits.
 * @returns The run, or why there is none.
 */
export function parseTranscriptText(text: string, options: ReadRunOptions): RunRead {
  const bytes = new TextEncoder().encode(text);
  const src: Source = {
    size: bytes.length,
    read: (pos, len) => bytes.subarray(pos, pos + len),
  };
  try {
    return driveSync(readRunGen(bytes.length, options), src);
  } catch (e) {
    return {
      kind: "unknown_shape",
      reason: `reader failure: ${errorText(e)}`,
      stats: emptyStats(bytes.length),
    };
  }
}

/**
 * Whether a load's name names the wanted skill: a leading `/` is dropped and a `plugin:` prefix is
 * ignored on both sides, so `gstack:investigate` matches `investigate`.
 *
 * @param loaded The loaded name.
 * @param wanted The wanted name.
 * @returns True when they name the same skill.
 */
export function skillNameMatches(loaded: string, wanted: string): boolean {
  const base = (s: string) => {
    const t = s.trim().replace(/^\//, "");
    const i = t.lastIndexOf(":");
    return (i >= 0 ? t.slice(i + 1) : t).toLowerCase();
  };
  const b = base(wanted);
  return b !== "" && base(loaded) === b;
}

/** A STATUS line of a message (`STATUS: DONE`, `**Status:** BLOCKED`, `- status: NEEDS_CONTEXT`). */
export interface StatusLine {
  /** The status word, upper case: `DONE`, `DONE_WITH_CONCERNS`, `BLOCKED`, `NEEDS_CONTEXT`. */
  value: string;
  /** The whole line, trimmed. */
  line: string;
}

const STATUS_RE = /^[\s>*_#|-]*status[\s*_`]*:[\s*_`]*([A-Za-z_]+)/i;
const STATUS_WORDS = new Set(["DONE_WITH_CONCERNS", "DONE", "BLOCKED", "NEEDS_CONTEXT"]);

/**
 * The last STATUS line of a text, if any.
 *
 * @param text A message text.
 * @returns The status line, or undefined.
 */
export function findStatusLine(text: string): StatusLine | undefined {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.length > 400) continue;
    const m = STATUS_RE.exec(line);
    if (!m) continue;
    const value = m[1].toUpperCase();
    if (STATUS_WORDS.has(value)) return { value, line: line.trim() };
  }
  return undefined;
}

/**
 * The turn's final text: the override (the Stop payload's `last_assistant_message`, since the file
 * can lag) when given and non-empty, else the last main-chain assistant message with text.
 *
 * @param run The run.
 * @param override The Stop payload's `last_assistant_message`.
 * @returns The final text ("" when there is none).
 */
export function finalAssistantText(run: TranscriptRun, override?: string): string {
  if (typeof override === "string" && override.trim() !== "") return cap(override);
  for (let i = run.messages.length - 1; i >= 0; i--) {
    const m = run.messages[i];
    if (m.role === "assistant" && !m.sidechain && m.text.trim() !== "") return m.text;
  }
  return "";
}

/**
 * Whether a text's last paragraph ends in a question mark (markdown emphasis, quotes and closing
 * brackets after it ignored).
 *
 * @param text A message text.
 * @returns True when it ends on a question.
 */
export function endsWithQuestion(text: string): boolean {
  const paragraphs = text.trim().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? "";
  return /\?[\s*_`"'’”)\]]*$/.test(last);
}

/**
 * Whether the turn ends on a question to the user: the final text's last paragraph ends in `?`,
 * its STATUS is `NEEDS_CONTEXT`, or the last main-chain tool call is an `AskUserQuestion` with no
 * answer yet.
 *
 * @param run The run.
 * @param finalText The final text override (`last_assistant_message`).
 * @returns True when the model is waiting on the user.
 */
export function endsOnQuestion(run: TranscriptRun, finalText?: string): boolean {
  const text = finalAssistantText(run, finalText);
  if (endsWithQuestion(text)) return true;
  if (findStatusLine(text)?.value === "NEEDS_CONTEXT") return true;
  for (let i = run.toolCalls.length - 1; i >= 0; i--) {
    const c = run.toolCalls[i];
    if (c.sidechain) continue;
    return c.name === "AskUserQuestion" && !c.result;
  }
  return false;
}

/** An Agent/Task dispatch that has not finished. */
export interface PendingAgent {
  /** The dispatch's tool-use id. */
  toolUseId: string;
  /** `input.description`. */
  description: string;
  /** `input.subagent_type`. */
  subagentType?: string;
  /** `no_result` (the call has no result yet) or `async_running` (background, no notice yet). */
  state: "no_result" | "async_running";
  /** Position in the run's event order. */
  seq: number;
}

/**
 * Main-chain Agent/Task dispatches still running: no result yet, or launched in the background
 * (`async_launched`) with no `<task-notification>` naming its tool-use id (or agent id) later.
 *
 * @param run The run.
 * @returns The running dispatches, in order.
 */
export function pendingAgentDispatches(run: TranscriptRun): PendingAgent[] {
  const out: PendingAgent[] = [];
  for (const c of run.toolCalls) {
    if (c.sidechain || !AGENT_TOOLS.includes(c.name)) continue;
    let state: PendingAgent["state"] | undefined;
    if (!c.result) state = "no_result";
    else if (c.result.asyncLaunched) {
      const r = c.result;
      const done = run.notifications.some((n) =>
        n.seq > r.seq &&
        (n.toolUseId === c.id || (r.agentId !== undefined && n.taskId === r.agentId))
      );
      if (!done) state = "async_running";
    }
    if (!state) continue;
    const p: PendingAgent = {
      toolUseId: c.id,
      description: typeof c.input.description === "string" ? c.input.description : "",
      state,
      seq: c.seq,
    };
    if (typeof c.input.subagent_type === "string") p.subagentType = c.input.subagent_type;
    out.push(p);
  }
  return out;
}

/**
 * The transcript's record model: the run a reader gives back (loads, messages, tool calls,
 * notices, counters), the read options and the limits. Types and constants only (and the read
 * error): no parsing here, and no import, so the hooks' fronts can read a turn without the host
 * registry (the tool-name groups the checks use are in `tool_groups.ts`).
 *
 * @module
 */

/** The most bytes of one run that are parsed (32 MiB); a longer run is a state error (exit 3). */
export const MAX_PARSE_BYTES: number = 32 * 1024 * 1024;

/** The longest text kept for one message or tool result; longer text is cut (with a marker). */
export const MAX_TEXT_CHARS: number = 256 * 1024;

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

/**
 * How a shell command ended, as the host wrote it: `passed` (exit 0), `failed` (a non-zero exit,
 * or a host's failure mark), `not_run` (refused by the host, a hook or the user), `unknown` (still
 * running in the background, interrupted, or no status written).
 */
export type CommandStatus = "passed" | "failed" | "not_run" | "unknown";

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
  /** A shell command's end (shell calls only; see `command_status.ts` for each host's rule). */
  status?: CommandStatus;
  /** A shell command's exit code, when the host wrote one. */
  exitCode?: number;
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
  /**
   * The transcript says the session runs unattended: a Copilot CLI `-p` run, whose system prompt
   * says it runs in non-interactive mode. Absent when the transcript does not say.
   */
  nonInteractive?: boolean;
  /**
   * The session's project directory as the transcript gives it (Claude Code: the load record's
   * `cwd`; Copilot CLI: `session.start`'s `context.cwd`; Codex CLI: the run's `turn_context` `cwd`),
   * when it does.
   */
  cwd?: string;
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
   * Read a sub-agent's run: the id of the sub-agent whose records are the run's main chain. Claude
   * Code's sub-agent file (`subagents/agent-<id>.jsonl`, every record `isSidechain`) is that
   * agent's own; in Copilot CLI's `events.jsonl` the records carrying that `agentId` are its.
   * Without it, a sub-agent's records are never a load of the run (Codex CLI gives each sub-agent a
   * rollout of its own, read as any other).
   */
  agent?: string;
  /**
   * The backward search for the last load stops at this byte offset: a line that starts at or
   * below it is not looked at, because the caller knows it holds no selected load (an earlier
   * search of the same, append-only file found none). When nothing is found above it the result
   * is `not_loaded`. A floor past the end of the file is ignored.
   */
  scanFloor?: number;
  /**
   * The most bytes the backward search for the last load reads (default: no bound): it stops that
   * far from the end, as at a floor, so a Stop's work is bounded on a transcript of any size. A
   * load further back is not found ({@link LoadSearch} says `budget: true`).
   */
  scanBudget?: number;
  /**
   * The lines from `fromOffset` to the end of the file, as the search that found the load there
   * decoded them ({@link RunTail}): the run is parsed from them instead of read again while the
   * file still has the size it had then. Other readers ignore it.
   */
  tail?: RunTail;
}

/**
 * The lines of a transcript from a load to the end of the file, kept by the backward search that
 * found the load (a search reads and decodes them anyway), so the run's parse need not read them
 * again.
 */
export interface RunTail {
  /** The file's size when they were read. */
  readonly size: number;
  /** The byte offset of the first line (the load's). */
  readonly offset: number;
  /** The lines, without their newlines (the last one is the file's last segment, maybe empty). */
  readonly lines: readonly string[];
  /** The byte offset of each line. */
  readonly offsets: readonly number[];
  /**
   * The indexes of the lines that hold a load needle (`LOAD_NEEDLES`), ascending, when the search
   * knows them: every other line holds no load, and the run's parse does not look for one there.
   */
  readonly needles?: readonly number[];
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

/**
 * The most bytes {@link readCurrentTurn} reads back from the end of a transcript by default
 * (8 MiB): a turn is nearly always far smaller; of a longer one, only its last 8 MiB are read.
 */
export const MAX_TURN_BYTES: number = 8 * 1024 * 1024;

/** Options of `readCurrentTurn` and `currentTurnOfText`. */
export interface ReadTurnOptions {
  /** The most bytes read back from the end (default {@link MAX_TURN_BYTES}). */
  maxBytes?: number;
  /** Read size of one chunk in bytes (default 64 KiB; tests use small values). */
  chunkSize?: number;
}

/**
 * The current turn of a transcript, read backward from its end: the lines from the turn's first
 * record (the last main-chain user record the user wrote: neither a tool result, nor an `isMeta`
 * record such as stop-hook feedback, nor one of a subagent; a `<task-notification>` prompt does
 * start a turn) to the end of the file.
 */
export interface TurnRead {
  /**
   * Where the turn's lines start: `prompt`, the turn's first record was found; `file-start`, the
   * file has no such record, so every line of it is the turn's; `cut`, none was found within
   * `maxBytes` of the end, so the lines are only the turn's last part.
   */
  start: "prompt" | "file-start" | "cut";
  /** Byte offset of the first line (the prompt's line when `start` is `prompt`). */
  offset: number;
  /** The lines from `offset` to the end of the file, in file order (blank lines left out). */
  lines: string[];
  /** The byte offset of each line. */
  offsets: number[];
  /** The file's size (or the text's, in bytes). */
  fileSize: number;
  /** Bytes read from the file. */
  bytesRead: number;
}

/** The records of a turn (`turnRecords`): a run's, without a load that starts it. */
export type TurnRecords = Omit<TranscriptRun, "load">;

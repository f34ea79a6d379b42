/**
 * The run builder: fed the lines of one skill run in file order, it collects the run's loads,
 * messages (an API message spread over several records merged), tool calls with their results,
 * and background-agent notices, and counts what it skipped.
 *
 * @module
 */

import { AGENT_TOOLS, SHELL_TOOLS } from "./tool_groups.ts";
import type {
  SkillLoad,
  SkillSelector,
  TaskNotification,
  ToolCall,
  ToolResult,
  TranscriptMessage,
  TurnRead,
  TurnRecords,
} from "./model.ts";
import { loadsOfRecord, type RawLoad, selects } from "./loads.ts";
import { RunCollector } from "./run_collector.ts";
import { claudeCommandEnd } from "./command_status.ts";
import { cap, isRec, KNOWN_TYPES, parseLine, type Rec, str, textOfContent } from "./record.ts";

const NOTIFICATION_TOOL_USE_RE = /<tool-use-id>\s*([^<\s]+)\s*<\/tool-use-id>/;
const NOTIFICATION_TASK_RE = /<task-id>\s*([^<\s]+)\s*<\/task-id>/;
const NOTIFICATION_STATUS_RE = /<status>\s*([^<]+?)\s*<\/status>/;

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

/** The loads of a line that holds none. */
const NO_LOADS: readonly RawLoad[] = [];

/** Tools whose result text the checker reads (shell output, agent output, skill launch). */
const RESULT_TEXT_TOOLS = new Set([...SHELL_TOOLS, ...AGENT_TOOLS, "Skill", "AskUserQuestion"]);

/** Builds one run from its lines, fed one at a time in file order. */
export class RunBuilder extends RunCollector {
  private readonly byMessageId = new Map<string, TranscriptMessage>();
  private readonly uuids = new Set<string>();
  /** Main assistant records seen since the last selected load (a new run needs one). */
  private assistantSinceLoad = true;
  private lastSelected: SkillLoad | undefined;

  /**
   * Creates a builder.
   *
   * @param selector Which loads start the run.
   * @param skillsDirs Installed skills directories (see `ReadRunOptions.skillsDirs`).
   * @param fileSize The size of the file (for the counters).
   * @param agentFile Whether the file is a sub-agent's own (its `isSidechain` records are its main
   * chain).
   */
  constructor(
    selector: SkillSelector,
    skillsDirs: readonly string[] | undefined,
    fileSize: number,
    private readonly agentFile = false,
  ) {
    super(selector, skillsDirs, fileSize);
  }

  /**
   * Feeds one line. Returns "stop" when `stopAtNextRun` is set and this line starts a new run of
   * the selected skill (the line is then not consumed).
   *
   * @param line The line (without its newline).
   * @param offset The line's byte offset in the file.
   * @param stopAtNextRun Whether a new run of the selected skill ends this one.
   * @param mayLoad False when the line holds no load needle (`LOAD_NEEDLES`): no load is looked
   * for in it (default true).
   * @returns `stop` when the line starts the next run, else `ok`.
   */
  feed(line: string, offset: number, stopAtNextRun: boolean, mayLoad = true): "ok" | "stop" {
    const rec = parseLine(line);
    if (!rec) {
      if (line.trim() !== "") this.stats.skippedLines++;
      return "ok";
    }
    const rawLoads = mayLoad ? loadsOfRecord(rec, this.skillsDirs, this.agentFile) : NO_LOADS;
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
        if (!this.first) {
          this.first = load;
          this.cwd = str(rec.cwd);
        }
        if (!continues(l)) this.lastSelected = load;
        selectedHere = true;
      }
    }
    const type = str(rec.type);
    switch (type) {
      case "user":
      case "assistant":
        this.message(rec, type, rec.isSidechain === true && !this.agentFile);
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

  /** Records a `<task-notification>` found in a user text or an attachment, if the text has one. */
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

  /** Adds a user or assistant record: its text, its tool calls and its tool results. */
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

  /** Starts a message of the run. */
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

  /** Pairs a `tool_result` block with its call, when the call is in the run. */
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
    if (SHELL_TOOLS.includes(call.name)) {
      const end = claudeCommandEnd(r.isError, r.text, structured);
      r.status = end.status;
      if (end.exitCode !== undefined) r.exitCode = end.exitCode;
    }
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
}

/**
 * Parses a turn's lines (from `readCurrentTurn`, `turn_read.ts`) into its loads, messages, tool calls with
 * their results, and task notices, as a run's are (a result whose call is before the turn is left
 * out).
 *
 * @param turn The turn.
 * @returns Its records, with the read's counters.
 */
export function turnRecords(turn: TurnRead): TurnRecords {
  const builder = new RunBuilder(() => false, undefined, turn.fileSize);
  turn.lines.forEach((line, i) => builder.feed(line, turn.offsets[i], false));
  const stats = builder.stats;
  stats.startOffset = turn.offset;
  stats.endOffset = turn.fileSize;
  stats.bytesParsed = turn.fileSize - turn.offset;
  stats.bytesScanned = turn.bytesRead;
  const { loads, messages, toolCalls, notifications } = builder;
  return { loads, messages, toolCalls, notifications, stats };
}

/**
 * GitHub Copilot CLI's `events.jsonl` (`<COPILOT_HOME>/session-state/<session>/events.jsonl`), one
 * record at a time: which records load a skill, and a builder that turns a run's records into the
 * run model the contract checker reads (`model.ts`), the same as a Claude Code transcript gives.
 *
 * Records are `{type, data, id, timestamp, parentId}`. Observed with Copilot CLI 1.0.102:
 *
 * - `user.message` (`data.content`; a subagent's prompt carries `data.source: "agent-…"`);
 * - `assistant.message` (`content`, `messageId`, `toolRequests: [{toolCallId, name, arguments}]`,
 *   `parentToolCallId` inside a subagent);
 * - `tool.execution_start` / `tool.execution_complete` (`success`, `result.content`,
 *   `error.message`);
 * - `skill.invoked` (`name`, `path`, `trigger`): the client loaded a skill; `trigger:
 *   "agent-invoked"` after the model's `skill` call;
 * - `subagent.started` / `subagent.completed` (`toolCallId`) around a `task` dispatch;
 * - `hook.start` / `hook.end` (`hookType`, `input`, `output`): a hook run, written before the hook
 *   starts and after it answers;
 * - `system.message` (the system prompt: a `-p` run's says it runs in non-interactive mode),
 *   `session.start`, `assistant.turn_start` / `turn_end`, `session.usage_record`, … (skipped).
 *
 * Tool calls are given Claude Code's names, the run model's names for the roles the checks read
 * (`bash` is `Bash`, `edit` is `Edit`, `create` is `Write`, `task` is `Agent` with `agent_type` as
 * `subagent_type`, `skill` is `Skill`, `view` is `Read` with `path` as `file_path`); any other
 * tool keeps its own name.
 *
 * @module
 */

import type {
  SkillLoad,
  SkillSelector,
  TaskNotification,
  ToolCall,
  TranscriptMessage,
  TranscriptRun,
} from "./model.ts";
import { normalizeSkillName, type RawLoad, selects } from "./loads.ts";
import { RunCollector } from "./run_collector.ts";
import type { ActivityFormat } from "./activity.ts";
import { cap, isRec, parseLine, type Rec, str } from "./record.ts";
import { copilotCommandEnd } from "./command_status.ts";

/** The record `type` values Copilot CLI 1.0.102 was seen to write; any other is counted unknown. */
export const COPILOT_KNOWN_TYPES: ReadonlySet<string> = new Set([
  "session.start",
  "session.shutdown",
  "session.usage_record",
  "session.model_change",
  "system.message",
  "user.message",
  "assistant.message",
  "assistant.turn_start",
  "assistant.turn_end",
  "tool.execution_start",
  "tool.execution_complete",
  "skill.invoked",
  "skill.context_delivered_ref",
  "subagent.started",
  "subagent.selected",
  "subagent.configured",
  "subagent.completed",
  "hook.start",
  "hook.end",
]);

/** Substrings one of which every line holding a load contains (the backward pre-filter). */
export const COPILOT_LOAD_NEEDLES: readonly string[] = ['"skill.invoked"', "SKILL.md"];

/** Whether a JSONL line is a Copilot events record: `type` with a dot and a `data` object. */
export function isCopilotRecord(rec: Rec): boolean {
  const type = str(rec.type);
  return type !== undefined && type.includes(".") && isRec(rec.data);
}

/** Copilot's tool names given Claude Code's, and the argument renamed with each. */
const CANONICAL: Readonly<Record<string, { name: string; rename?: Record<string, string> }>> = {
  bash: { name: "Bash" },
  powershell: { name: "PowerShell" },
  edit: { name: "Edit", rename: { path: "file_path" } },
  create: { name: "Write", rename: { path: "file_path" } },
  view: { name: "Read", rename: { path: "file_path" } },
  skill: { name: "Skill" },
  task: { name: "Agent", rename: { agent_type: "subagent_type" } },
};

/** The arguments the checks read, renamed to the run model's names; big bodies are not kept. */
const KEPT_ARGS = [
  "command",
  "description",
  "prompt",
  "subagent_type",
  "skill",
  "file_path",
  "name",
  "mode",
];

/**
 * A Copilot tool request as the run model's tool name and input.
 *
 * @param name The tool's name in Copilot CLI.
 * @param args Its arguments.
 * @returns The canonical name and the kept input.
 */
export function canonicalToolCall(
  name: string,
  args: unknown,
): { name: string; input: Record<string, unknown> } {
  const c = CANONICAL[name];
  const input: Record<string, unknown> = {};
  if (!isRec(args)) return { name: c?.name ?? name, input };
  for (const [k, v] of Object.entries(args)) {
    const key = c?.rename?.[k] ?? k;
    if (!KEPT_ARGS.includes(key)) continue;
    if (typeof v === "string") input[key] = cap(v, 64 * 1024);
    else if (typeof v === "boolean") input[key] = v;
  }
  if (c?.name === "Agent" && input.mode === "background") input.run_in_background = true;
  return { name: c?.name ?? name, input };
}

/** The folders Copilot CLI 1.0.102 reads skills from, as they end a SKILL.md's path. */
const DEFAULT_SKILL_VIEW_RE =
  /[\\/](?:\.github|\.claude|\.agents|\.copilot)[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/;

/** The skill a `view` of `path` loads, when it is a SKILL.md directly under a skills folder. */
function skillOfView(path: string, skillsDirs: readonly string[] | undefined): string | undefined {
  if (!path.endsWith("SKILL.md")) return undefined;
  if (skillsDirs && skillsDirs.length > 0) {
    const norm = path.replace(/\\/g, "/");
    for (const d of skillsDirs) {
      const dir = d.replace(/\\/g, "/").replace(/\/+$/, "");
      if (dir === "" || !norm.startsWith(dir + "/")) continue;
      const rest = norm.slice(dir.length + 1).split("/");
      if (rest.length === 2 && rest[1] === "SKILL.md" && rest[0] !== "" && rest[0] !== "..") {
        return rest[0];
      }
    }
    return undefined;
  }
  return DEFAULT_SKILL_VIEW_RE.exec(path)?.[1];
}

/**
 * Whether a record is a sub-agent's: it carries the sub-agent's `agentId` (Copilot CLI 1.0.102
 * writes it on every record of a sub-agent, its `skill.invoked` included), or its turn names the
 * `task` call it runs under.
 */
function inSubagent(rec: Rec, data: Rec): boolean {
  if (str(rec.agentId) !== undefined) return true;
  if (str(data.parentToolCallId) !== undefined) return true;
  const source = str(data.source);
  return source !== undefined && source.startsWith("agent-");
}

/**
 * Whether a record is outside the run's own chain: with `agent`, any record but that sub-agent's;
 * without, a sub-agent's.
 */
function offChain(rec: Rec, data: Rec, agent: string | undefined): boolean {
  return agent === undefined ? inSubagent(rec, data) : str(rec.agentId) !== agent;
}

/**
 * The main-session loads in one record: a `skill.invoked` (the client loaded the skill, from a
 * `skill` call or a typed `/name`), or a `view` of a SKILL.md under a skills folder.
 *
 * @param rec The record.
 * @param skillsDirs Installed skills directories (see `ReadRunOptions.skillsDirs`).
 * @param agent The sub-agent whose loads count (`ReadRunOptions.agent`); none: the main session's.
 * @returns The loads (often none): a `skill.invoked` is `skill_tool` when the model's `skill` call
 * made it (`trigger: "agent-invoked"`), else `command`.
 */
export function copilotLoadsOf(
  rec: Rec,
  skillsDirs: readonly string[] | undefined,
  agent?: string,
): RawLoad[] {
  const data = rec.data;
  if (!isRec(data) || offChain(rec, data, agent)) return [];
  if (rec.type === "skill.invoked") {
    const norm = normalizeSkillName(str(data.name) ?? "");
    const via = data.trigger === "agent-invoked" ? "skill_tool" : "command";
    return norm ? [{ ...norm, via }] : [];
  }
  if (rec.type !== "assistant.message" || !Array.isArray(data.toolRequests)) return [];
  const out: RawLoad[] = [];
  for (const t of data.toolRequests) {
    if (!isRec(t) || t.name !== "view" || !isRec(t.arguments)) continue;
    const path = str(t.arguments.path);
    const n = path ? skillOfView(path, skillsDirs) : undefined;
    const norm = n ? normalizeSkillName(n) : undefined;
    if (norm) out.push({ ...norm, via: "read", toolUseId: str(t.toolCallId) });
  }
  return out;
}

/** The shell tools, by their run-model names. */
const SHELL_NAMES = new Set(["Bash", "PowerShell"]);

/**
 * What Copilot CLI's events hold for `skillgate report` (`activity.ts`): a prompt is a main-session
 * `user.message` that is not a Stop hook's block handed back (the reason of the `agentStop` block
 * just before it, as {@link CopilotRunBuilder} tells them apart); a load one
 * {@link copilotLoadsOf} finds.
 */
export const COPILOT_ACTIVITY: ActivityFormat = {
  needles: [
    ...COPILOT_LOAD_NEEDLES.map((n) => n.replace(/^"/, "")),
    'type":"user.message"',
    'type":"hook.end"',
  ],
  reader: (dirs) => {
    let feedback: string | undefined;
    return (rec) => {
      const data = rec.data;
      if (!isRec(data)) return { prompt: false, loads: [] };
      if (rec.type === "hook.end") {
        const out = data.output;
        if (data.hookType === "agentStop" && isRec(out) && out.decision === "block") {
          feedback = str(out.reason);
        }
        return { prompt: false, loads: [] };
      }
      if (rec.type === "user.message") {
        const content = str(data.content);
        const fed = feedback !== undefined && content?.trim() === feedback.trim();
        feedback = undefined;
        return { prompt: content !== undefined && !fed && !inSubagent(rec, data), loads: [] };
      }
      return { prompt: false, loads: copilotLoadsOf(rec, dirs) };
    };
  },
};

/** Tools whose result text the checks read (shell output, agent output, skill launch). */
const RESULT_TEXT_TOOLS = new Set([...SHELL_NAMES, "Agent", "Skill"]);

/** Builds one run from Copilot records, fed one line at a time in file order. */
export class CopilotRunBuilder extends RunCollector {
  /** Whether the session's system prompt says it runs in non-interactive mode (`-p`). */
  nonInteractive = false;
  /** The reason of the last agentStop block, until the user message that delivers it. */
  private stopFeedback: string | undefined;

  /**
   * Creates a builder.
   *
   * @param selector Which loads start the run.
   * @param skillsDirs Installed skills directories (see `ReadRunOptions.skillsDirs`).
   * @param fileSize The size of the file (for the counters).
   * @param agent The sub-agent whose records are the run's main chain (`ReadRunOptions.agent`).
   */
  constructor(
    selector: SkillSelector,
    skillsDirs: readonly string[] | undefined,
    fileSize: number,
    private readonly agent?: string,
  ) {
    super(selector, skillsDirs, fileSize);
  }

  /**
   * Feeds one line. With `stopAtNextRun`, a line that starts another run of the selected skill
   * ends this one (it is not consumed).
   *
   * @param line The line (without its newline).
   * @param offset Its byte offset in the file.
   * @param stopAtNextRun Whether a new run of the selected skill ends this one.
   * @returns `stop` when the line starts the next run, else `ok`.
   */
  feed(line: string, offset: number, stopAtNextRun: boolean): "ok" | "stop" {
    const rec = parseLine(line);
    if (!rec || !isCopilotRecord(rec)) {
      if (line.trim() !== "") {
        if (rec) this.stats.unknownTypes++;
        else this.stats.skippedLines++;
      }
      return "ok";
    }
    const raw = copilotLoadsOf(rec, this.skillsDirs, this.agent);
    if (stopAtNextRun && this.first) {
      if (raw.some((l) => selects(this.selector, { ...l, seq: 0, offset }))) return "stop";
    }
    this.stats.records++;
    const data = rec.data as Rec;
    for (const l of raw) this.load(l, offset);
    switch (rec.type) {
      case "user.message":
        this.userMessage(rec, data);
        break;
      case "assistant.message":
        this.assistantMessage(rec, data);
        break;
      case "tool.execution_complete":
        this.result(data);
        break;
      case "subagent.completed": {
        const id = str(data.toolCallId);
        const n: TaskNotification = { seq: ++this.seq, status: "completed" };
        if (id) n.toolUseId = id;
        this.notifications.push(n);
        break;
      }
      case "hook.end": {
        const out = data.output;
        const stop = data.hookType === (this.agent === undefined ? "agentStop" : "subagentStop");
        if (stop && isRec(out) && out.decision === "block") {
          this.stopFeedback = str(out.reason);
        }
        break;
      }
      case "system.message":
        if (
          !inSubagent(rec, data) && /running in non-interactive mode/.test(str(data.content) ?? "")
        ) {
          this.nonInteractive = true;
        }
        break;
      default:
        if (!COPILOT_KNOWN_TYPES.has(String(rec.type))) this.stats.unknownTypes++;
    }
    return "ok";
  }

  private load(l: RawLoad, offset: number): void {
    const load: SkillLoad = { ...l, seq: ++this.seq, offset };
    this.loads.push(load);
    if (!this.first && selects(this.selector, load)) this.first = load;
  }

  private newMessage(
    role: "user" | "assistant",
    rec: Rec,
    data: Rec,
    text: string,
  ): TranscriptMessage {
    const m: TranscriptMessage = {
      seq: ++this.seq,
      role,
      text: cap(text),
      isMeta: false,
      sidechain: offChain(rec, data, this.agent),
      toolUseIds: [],
    };
    const id = str(data.messageId);
    if (id && role === "assistant") m.messageId = id;
    this.messages.push(m);
    return m;
  }

  private userMessage(rec: Rec, data: Rec): void {
    this.stats.userOrAssistantRecords++;
    const content = data.content;
    if (typeof content !== "string") {
      this.stats.badContent++;
      return;
    }
    const m = this.newMessage("user", rec, data, content);
    // An agentStop block reaches the model as the next user message: the hook's, not the user's
    // (inside a sub-agent, a subagentStop block arrives with an empty content and `source:
    // "system"`, the reason only in `transformedContent`).
    const transformed = str(data.transformedContent) ?? "";
    if (
      this.stopFeedback !== undefined &&
      (content.trim() === this.stopFeedback.trim() ||
        (data.source === "system" && transformed.includes(this.stopFeedback.trim())))
    ) {
      m.isMeta = true;
      m.origin = "stop-hook";
    }
    this.stopFeedback = undefined;
  }

  private assistantMessage(rec: Rec, data: Rec): void {
    this.stats.userOrAssistantRecords++;
    const content = data.content ?? "";
    if (typeof content !== "string") {
      this.stats.badContent++;
      return;
    }
    const m = this.newMessage("assistant", rec, data, content);
    if (!Array.isArray(data.toolRequests)) return;
    for (const t of data.toolRequests) {
      if (!isRec(t)) continue;
      const id = str(t.toolCallId) ?? `anon-${this.seq + 1}`;
      const { name, input } = canonicalToolCall(str(t.name) ?? "", t.arguments);
      const call: ToolCall = { seq: ++this.seq, id, name, input, sidechain: m.sidechain };
      this.toolCalls.push(call);
      this.calls.set(id, call);
      m.toolUseIds.push(id);
    }
  }

  private result(data: Rec): void {
    const id = str(data.toolCallId);
    const call = id ? this.calls.get(id) : undefined;
    if (!call) return; // its call is before the run
    const ok = data.success === true;
    const body = isRec(data.result) ? str(data.result.content) : undefined;
    const error = isRec(data.error) ? str(data.error.message) : undefined;
    const text = RESULT_TEXT_TOOLS.has(call.name) ? cap((ok ? body : error ?? body) ?? "") : "";
    call.result = {
      seq: ++this.seq,
      isError: !ok,
      text,
      asyncLaunched: call.name === "Agent" && call.input.run_in_background === true,
    };
    if (SHELL_NAMES.has(call.name)) {
      const end = copilotCommandEnd(data);
      call.result.status = end.status;
      if (end.exitCode !== undefined) call.result.exitCode = end.exitCode;
    }
  }

  /**
   * The run, once every line is fed (marked `nonInteractive` for a `-p` session).
   *
   * @returns The run, or undefined when no selected load was fed.
   */
  override finish(): TranscriptRun | undefined {
    const run = super.finish();
    if (run && this.nonInteractive) run.nonInteractive = true;
    return run;
  }
}

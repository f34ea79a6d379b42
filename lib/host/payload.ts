/**
 * One typed event model for the hook payloads of Claude Code (snake_case) and GitHub Copilot CLI
 * (camelCase, `toolArgs` possibly a JSON string; its PascalCase event names bring snake_case
 * fields). Parsing is total: it never throws on a JSON object, whatever its fields hold.
 *
 * @module
 */

/** The host that sent a payload. */
export type HostKind = "claude" | "copilot";

/** A hook payload, normalised. */
export interface HookEvent {
  /** The host that sent it. */
  readonly host: HostKind;
  /** The event in Claude Code's PascalCase (`UserPromptSubmit`, `PreToolUse`, `Stop`, ...). */
  readonly eventName: string;
  /** The session id. */
  readonly sessionId?: string;
  /** The transcript file the host writes (Claude Code JSONL, or Copilot's `events.jsonl`). */
  readonly transcriptPath?: string;
  /** The session's current directory. */
  readonly cwd?: string;
  /** The submitted prompt (UserPromptSubmit). */
  readonly prompt?: string;
  /** The id of the current user prompt. */
  readonly promptId?: string;
  /** The tool's name (PreToolUse). */
  readonly toolName?: string;
  /** The tool's input, a parsed object when the host sent a JSON string. */
  readonly toolInput?: unknown;
  /** The tool use id (`toolu_...`). */
  readonly toolUseId?: string;
  /** True when this stop happens only because a Stop hook blocked the previous one. */
  readonly stopHookActive: boolean;
  /** The final assistant text of the turn (Stop). */
  readonly lastAssistantMessage?: string;
  /** The payload as received. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Thrown when stdin is not a JSON object. */
export class PayloadError extends Error {
  /**
   * Makes the error.
   *
   * @param message What is wrong with the payload.
   */
  constructor(message: string) {
    super(message);
    this.name = "PayloadError";
  }
}

const COPILOT_EVENTS: Readonly<Record<string, string>> = {
  userpromptsubmitted: "UserPromptSubmit",
  userpromptsubmit: "UserPromptSubmit",
  pretooluse: "PreToolUse",
  posttooluse: "PostToolUse",
  agentstop: "Stop",
  stop: "Stop",
  subagentstop: "SubagentStop",
  sessionstart: "SessionStart",
  sessionend: "SessionEnd",
};

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function pick(obj: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (Object.hasOwn(obj, key) && obj[key] !== undefined) return obj[key];
  return undefined;
}

function normaliseEventName(name: string): string {
  const key = name.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  return COPILOT_EVENTS[key] ?? name;
}

function parseToolInput(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Parses a hook payload.
 *
 * @param raw The text the host wrote to stdin.
 * @returns The normalised event.
 * @throws {PayloadError} When the text is not a JSON object.
 */
export function parsePayload(raw: string): HookEvent {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new PayloadError("Payload is not valid JSON");
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new PayloadError("Payload is not a JSON object");
  }
  const obj = data as Record<string, unknown>;
  const camel = ["sessionId", "toolName", "toolArgs", "transcriptPath", "hookEventName"].some((k) =>
    Object.hasOwn(obj, k)
  );
  const snake = ["session_id", "tool_name", "hook_event_name", "transcript_path"].some((k) =>
    Object.hasOwn(obj, k)
  );
  const host: HostKind = camel && !snake ? "copilot" : "claude";
  const toolName = str(pick(obj, "tool_name", "toolName"));
  const declared = str(pick(obj, "hook_event_name", "hookEventName"));
  let eventName: string;
  if (declared) eventName = normaliseEventName(declared);
  else if (toolName !== undefined) eventName = "PreToolUse";
  else if (typeof pick(obj, "prompt", "userPrompt", "user_prompt") === "string") {
    eventName = "UserPromptSubmit";
  } else if (pick(obj, "stopReason", "stop_reason", "stop_hook_active", "stopHookActive")) {
    eventName = "Stop";
  } else eventName = "";
  return {
    host,
    eventName,
    sessionId: str(pick(obj, "session_id", "sessionId")),
    transcriptPath: str(pick(obj, "transcript_path", "transcriptPath")),
    cwd: str(pick(obj, "cwd")),
    prompt: str(pick(obj, "prompt", "userPrompt", "user_prompt")),
    promptId: str(pick(obj, "prompt_id", "promptId")),
    toolName,
    toolInput: parseToolInput(pick(obj, "tool_input", "toolInput", "toolArgs")),
    toolUseId: str(pick(obj, "tool_use_id", "toolUseId", "toolCallId")),
    stopHookActive: pick(obj, "stop_hook_active", "stopHookActive") === true,
    lastAssistantMessage: str(pick(obj, "last_assistant_message", "lastAssistantMessage")),
    raw: obj,
  };
}

/**
 * One typed event model for the hook payloads of every host. The registry (`mod.ts`) says which
 * host sent a payload, by asking each host whether the payload is its own; a payload no host
 * recognises is refused ({@link UnknownHostPayloadError}), never read as some host's by default.
 * Fields are read tolerantly, under every host's name for them (Copilot CLI's camelCase
 * `agentStop` carries `stop_hook_active`), and `toolArgs` sent as a JSON string is parsed.
 *
 * @module
 */

import {
  canonicalEventName,
  fieldNamesOf,
  foreignClientOf,
  type HostKind,
  HOSTS,
  type PayloadField,
  recogniseHost,
} from "./mod.ts";

export type { HostKind } from "./mod.ts";

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
  /**
   * Set when a sub-agent's work sent the event, or a SubagentStop names the sub-agent that stops
   * (Claude Code's and Codex CLI's `agent_id`, Copilot CLI's `agentId`).
   */
  readonly agentId?: string;
  /** A SubagentStop's transcript of the sub-agent itself (`agent_transcript_path`), when given. */
  readonly agentTranscriptPath?: string;
  /** When the host sent it, in milliseconds (Copilot CLI; its agentStop's marks the stop). */
  readonly timestamp?: number;
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

/**
 * Thrown when a payload is a JSON object that no host in the registry recognises as its own, or
 * one of a client skillgate does not serve (Cursor, VS Code).
 */
export class UnknownHostPayloadError extends PayloadError {
  /**
   * Makes the error.
   *
   * @param client The client that sent it, when known.
   */
  constructor(client?: string) {
    super(
      client
        ? `Payload is ${client}'s, whose hooks skillgate does not serve`
        : `Payload has no field of a known host (${HOSTS.map((h) => h.name).join(", ")})`,
    );
    this.name = "UnknownHostPayloadError";
  }
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function pick(obj: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) if (Object.hasOwn(obj, key) && obj[key] !== undefined) return obj[key];
  return undefined;
}

function field(obj: Record<string, unknown>, name: PayloadField): unknown {
  return pick(obj, fieldNamesOf(name));
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
 * @example A hook of your own reads its payload
 * ```ts
 * import { parsePayload } from "@skillgate/skillgate";
 *
 * const ev = parsePayload('{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false}');
 * console.log(ev.host, ev.eventName); // claude Stop
 * ```
 *
 * @param raw The text the host wrote to stdin.
 * @returns The normalised event.
 * @throws {PayloadError} When the text is not a JSON object.
 * @throws {UnknownHostPayloadError} When no host recognises the object as its payload.
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
  const host = recogniseHost(obj);
  if (!host) throw new UnknownHostPayloadError(foreignClientOf(obj));
  const toolName = str(field(obj, "toolName"));
  const agentId = str(field(obj, "agentId"));
  const agentTranscript = str(field(obj, "agentTranscriptPath"));
  const declared = str(field(obj, "eventName"));
  let eventName: string;
  if (declared) eventName = canonicalEventName(host, declared);
  else if (toolName !== undefined) eventName = "PreToolUse";
  else if (typeof field(obj, "prompt") === "string") eventName = "UserPromptSubmit";
  else if (pick(obj, [...fieldNamesOf("stopReason"), ...fieldNamesOf("stopHookActive")])) {
    // A stop that names the sub-agent it ends is that sub-agent's (Copilot CLI's subagentStop).
    eventName = typeof field(obj, "agentName") === "string" ? "SubagentStop" : "Stop";
  } else eventName = "";
  return {
    host: host.kind,
    eventName,
    sessionId: str(field(obj, "sessionId")),
    transcriptPath: str(field(obj, "transcriptPath")),
    cwd: str(field(obj, "cwd")),
    prompt: str(field(obj, "prompt")),
    promptId: str(field(obj, "promptId")),
    toolName,
    toolInput: parseToolInput(field(obj, "toolInput")),
    toolUseId: str(field(obj, "toolUseId")),
    stopHookActive: field(obj, "stopHookActive") === true,
    lastAssistantMessage: str(field(obj, "lastAssistantMessage")),
    ...(agentId !== undefined ? { agentId } : {}),
    ...(agentTranscript !== undefined ? { agentTranscriptPath: agentTranscript } : {}),
    timestamp: num(field(obj, "timestamp")),
    raw: obj,
  };
}

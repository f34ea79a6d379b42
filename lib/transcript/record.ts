/**
 * One JSONL record of a Claude Code transcript, untyped: parse a line into an object, read a
 * field as a string, join a message content's text blocks, cut long text. Shared by load
 * detection, the run builder and the byte scanner.
 *
 * @module
 */

import { MAX_TEXT_CHARS, type ReadStats } from "./model.ts";

/** The record `type` values Claude Code writes; any other is a format change. */
export const KNOWN_TYPES: ReadonlySet<string> = new Set([
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

/** A parsed JSONL record: a JSON object. */
export type Rec = Record<string, unknown>;

/**
 * Whether a value is a JSON object (not null, not an array).
 *
 * @param v Any value.
 * @returns True for an object.
 */
export function isRec(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The value when it is a string.
 *
 * @param v Any value.
 * @returns The string, or undefined.
 */
export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * Cuts a text at `max` characters, with a marker.
 *
 * @param s The text.
 * @param max The most characters kept (default {@link MAX_TEXT_CHARS}).
 * @returns The text, cut when longer.
 */
export function cap(s: string, max: number = MAX_TEXT_CHARS): string {
  return s.length > max ? s.slice(0, max) + "\n[…cut]" : s;
}

/**
 * The text of a message content: a string as is, a block list's text blocks joined.
 *
 * @param content A `message.content`.
 * @returns The text ("" when there is none).
 */
export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content) {
    if (typeof b === "string") parts.push(b);
    else if (isRec(b) && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n");
}

/**
 * Parses one JSONL line into a record.
 *
 * @param line The line.
 * @returns The record, or undefined for a blank line, bad JSON or a value that is no object.
 */
export function parseLine(line: string): Rec | undefined {
  const t = line.trim();
  if (t === "") return undefined;
  try {
    const v = JSON.parse(t);
    return isRec(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Counters of a read that has read nothing yet.
 *
 * @param fileSize The size of the file (or text).
 * @returns Zeroed counters.
 */
export function emptyStats(fileSize: number): ReadStats {
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

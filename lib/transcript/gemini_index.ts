/**
 * The index of a Gemini CLI chat (`gemini_chat.ts` reads it): its lines and its messages in
 * order, each by where its last record is, found without parsing the message lines the client
 * writes (their ids are read from their start, in bytes when the chat comes from its file), so a
 * read parses only the messages it needs.
 *
 * @module
 */

import type { ReadStats } from "./model.ts";
import { decoder } from "./bytes.ts";
import { emptyStats, isRec, parseLine, type Rec } from "./record.ts";

/** One message of a chat, as its last record says. */
export interface ChatMessage {
  /** The record. */
  readonly rec: Rec;
  /** The byte offset of the line that holds it. */
  readonly offset: number;
}

/** The messages of a chat, in order, each as its last record says. */
export interface GeminiChat {
  /** The messages. */
  readonly messages: readonly ChatMessage[];
  /** Whether the file had the chat header or a message record. */
  readonly known: boolean;
  /** Counters. */
  readonly stats: ReadStats;
}

/**
 * A line the client writes for a message (`{"id":…,"timestamp":…,"type":"user"|"gemini",…}`),
 * known by its start: its id is read without parsing the line.
 */
const MESSAGE_LINE = /^\{"id":"([^"\\]*)","timestamp":"[^"\\]*","type":"(?:user|gemini)"[,}]/;
/** The client's `{"$set":{"lastUpdated":…}}` line, which changes no message. */
const TOUCH_LINE = /^\{"\$set":\{"lastUpdated":"[^"\\]*"\}\}$/;

/** A chat's lines, as text or as the bytes read from its file (decoded only when needed). */
export interface ChatLines {
  /** How many. */
  readonly length: number;
  /** Line `k`'s text. */
  text(k: number): string;
  /** Its byte offset. */
  offset(k: number): number;
  /** Its length in bytes, about (for the counters). */
  size(k: number): number;
  /**
   * What the client's own lines say by their start: a message's id, `null` for a line that
   * changes no message (`{"$set":{"lastUpdated":…}}`), `undefined` for a line to parse.
   */
  quick(k: number): string | null | undefined;
  /** Whether line `k` holds the text (ASCII). */
  mentions(k: number, needle: string): boolean;
}

/** Text lines with their byte offsets. */
export function textLines(lines: readonly string[], offsets: readonly number[]): ChatLines {
  return {
    length: lines.length,
    text: (k) => lines[k],
    offset: (k) => offsets[k],
    size: (k) => lines[k].length,
    quick(k) {
      const line = lines[k];
      const head = line.endsWith("}") ? MESSAGE_LINE.exec(line) : null;
      if (head) return head[1];
      return TOUCH_LINE.test(line) ? null : undefined;
    },
    mentions: (k, needle) => lines[k].includes(needle),
  };
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const ID_HEAD = ascii('{"id":"');
const AFTER_ID = ascii('","timestamp":"');
const AFTER_TIME = ascii('","type":"');
const USER = ascii('user"');
const GEMINI = ascii('gemini"');
const TOUCH_HEAD = ascii('{"$set":{"lastUpdated":"');
const QUOTE = 34;
const BACKSLASH = 92;
const CLOSE = 125;

/** Whether `bytes` holds `part` at `at`. */
function holds(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  if (at + part.length > bytes.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/**
 * The end of a short JSON string's plain text starting at `from` (its closing quote), or -1 for
 * one with an escape, past `limit`, or longer than 256 bytes.
 */
function plainStringEnd(bytes: Uint8Array, from: number, limit: number): number {
  const last = Math.min(limit, from + 256);
  for (let i = from; i < last; i++) {
    const b = bytes[i];
    if (b === QUOTE) return i;
    if (b === BACKSLASH) return -1;
  }
  return -1;
}

/** A short run of bytes as text: ASCII directly, else decoded. */
function shortText(bytes: Uint8Array, from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b >= 128) return decoder.decode(bytes.subarray(from, to));
    out += String.fromCharCode(b);
  }
  return out;
}

/**
 * Where a text occurs in bytes (ASCII): the native search for its rarest byte (`_` in
 * `activate_skill`), then a compare.
 */
function* occurrences(bytes: Uint8Array, needle: string): Generator<number> {
  const n = ascii(needle);
  const anchor = Math.max(0, needle.indexOf("_"));
  for (let i = bytes.indexOf(n[anchor], anchor); i >= 0; i = bytes.indexOf(n[anchor], i + 1)) {
    if (holds(bytes, i - anchor, n)) yield i - anchor;
  }
}

/** The lines of bytes read from a chat, decoded only when a read needs them. */
export function byteLines(bytes: Uint8Array): ChatLines {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (end > start) {
      starts.push(start);
      ends.push(end);
    }
    start = end + 1;
  }
  /** The line that holds a byte offset. */
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const found = new Map<string, Set<number>>();
  return {
    length: starts.length,
    text: (k) => decoder.decode(bytes.subarray(starts[k], ends[k])),
    offset: (k) => starts[k],
    size: (k) => ends[k] - starts[k],
    quick(k) {
      const start = starts[k];
      const end = ends[k];
      if (bytes[end - 1] !== CLOSE) return undefined;
      if (holds(bytes, start, ID_HEAD)) {
        const idEnd = plainStringEnd(bytes, start + ID_HEAD.length, end);
        if (idEnd < 0 || !holds(bytes, idEnd, AFTER_ID)) return undefined;
        const timeEnd = plainStringEnd(bytes, idEnd + AFTER_ID.length, end);
        if (timeEnd < 0 || !holds(bytes, timeEnd, AFTER_TIME)) return undefined;
        const type = timeEnd + AFTER_TIME.length;
        const typeEnd = holds(bytes, type, USER)
          ? type + USER.length
          : holds(bytes, type, GEMINI)
          ? type + GEMINI.length
          : -1;
        if (typeEnd < 0 || (bytes[typeEnd] !== 44 && bytes[typeEnd] !== CLOSE)) return undefined;
        return shortText(bytes, start + ID_HEAD.length, idEnd);
      }
      if (holds(bytes, start, TOUCH_HEAD)) {
        const timeEnd = plainStringEnd(bytes, start + TOUCH_HEAD.length, end);
        return timeEnd === end - 3 && bytes[end - 2] === CLOSE ? null : undefined;
      }
      return undefined;
    },
    mentions(k, needle) {
      let lines = found.get(needle);
      if (!lines) {
        lines = new Set<number>();
        for (const at of occurrences(bytes, needle)) lines.add(lineAt(at));
        found.set(needle, lines);
      }
      return lines.has(k);
    },
  };
}

/** Where a message's last record is: its line, or the record a `$set` of messages gave. */
export interface LastRecord {
  /** The line's index. */
  readonly line: number;
  /** The record, when a `$set` gave it (the line holds the whole list). */
  readonly rec?: Rec;
}

/**
 * A chat's lines and its messages in order, each by where its last record is, found without
 * parsing the message lines the client wrote (their ids are read from their start): only the
 * messages a read needs are parsed ({@link messagesAt}).
 */
export interface ChatIndex {
  /** The lines. */
  readonly lines: ChatLines;
  /** The messages by id, in the place of their first record. */
  readonly messages: ReadonlyMap<string, LastRecord>;
  /** Whether the file had the chat header or a message record. */
  readonly known: boolean;
  /** Counters. */
  readonly stats: ReadStats;
}

/**
 * Indexes a chat's lines: the last record per `id` wins, in the place of its first; a `$set` of
 * `messages` replaces them all; a `$rewindTo` drops the message it names and the rest.
 *
 * @param lines The lines.
 * @param stats The counters to fill.
 * @param quick Whether the client's own lines are taken by their start (else every line is
 *   parsed).
 */
export function indexChat(lines: ChatLines, stats: ReadStats, quick = true): ChatIndex {
  const messages = new Map<string, LastRecord>();
  let known = false;
  for (let k = 0; k < lines.length; k++) {
    const id = quick ? lines.quick(k) : undefined;
    if (id !== undefined) {
      stats.records++;
      if (id === null) continue;
      known = true;
      messages.set(id, { line: k });
      continue;
    }
    const line = lines.text(k);
    const rec = parseLine(line);
    if (!rec) {
      if (line.trim() !== "") stats.skippedLines++;
      continue;
    }
    stats.records++;
    if (typeof rec.sessionId === "string" && typeof rec.projectHash === "string") {
      known = true;
    } else if (isRec(rec.$set)) {
      const all = rec.$set.messages;
      if (!Array.isArray(all)) continue;
      messages.clear();
      for (const m of all) {
        if (isRec(m) && typeof m.id === "string") messages.set(m.id, { line: k, rec: m });
      }
    } else if (typeof rec.$rewindTo === "string") {
      let drop = false;
      for (const id of [...messages.keys()]) {
        if (id === rec.$rewindTo) drop = true;
        if (drop) messages.delete(id);
      }
      if (!drop) messages.clear();
    } else if (typeof rec.id === "string" && (rec.type === "user" || rec.type === "gemini")) {
      known = true;
      messages.set(rec.id, { line: k, rec });
    } else stats.unknownTypes++;
  }
  return { lines, messages, known, stats };
}

/**
 * Some messages of an index, each as its last record says.
 *
 * @param index The chat's index.
 * @param ids Their ids, in order.
 * @returns The messages, or `undefined` when a line taken by its start does not parse (the index
 *   is then made again, every line parsed).
 */
export function messagesAt(index: ChatIndex, ids: Iterable<string>): ChatMessage[] | undefined {
  const out: ChatMessage[] = [];
  for (const id of ids) {
    const at = index.messages.get(id)!;
    const rec = at.rec ?? parseLine(index.lines.text(at.line));
    if (!rec) return undefined;
    out.push({ rec, offset: index.lines.offset(at.line) });
  }
  return out;
}

/** Every message of an index ({@link messagesAt}; the index made again when a line does not parse). */
export function chatOfIndex(index: ChatIndex): GeminiChat {
  const messages = messagesAt(index, index.messages.keys());
  if (messages) return { messages, known: index.known, stats: index.stats };
  const again = indexChat(index.lines, emptyStats(index.stats.fileSize), false);
  return {
    messages: messagesAt(again, again.messages.keys())!,
    known: again.known,
    stats: again.stats,
  };
}

/**
 * Reading the current turn of a transcript: backward from the end of the file to the record that
 * starts the turn, never further back than a bound, whatever the session's size. The lines come
 * back unparsed but for the user records looked at on the way; `turnRecords` (`builder.ts`)
 * parses them when a caller needs the turn's messages and tool calls.
 *
 * @module
 */

import { MAX_TURN_BYTES, type ReadTurnOptions, type TurnRead } from "./model.ts";
import {
  concat,
  driveAsync,
  driveSync,
  EMPTY,
  segments,
  textSource,
  withFileSource,
} from "./bytes.ts";
import { isRec, parseLine, type Rec, textOfContent } from "./record.ts";

const USER_TYPE_RE = /"type"\s*:\s*"user"/;

/**
 * Whether a JSONL line is the record that starts a turn: a main-chain user record the user wrote,
 * with text (not only tool results), neither `isMeta` (skill bodies, reminders, stop-hook feedback)
 * nor a subagent's (`isSidechain`). A `<task-notification>` prompt starts a turn too. The same
 * rule as a message's `role`, `isMeta`, `sidechain` and `text` in a run (`RunBuilder`).
 *
 * @param line One JSONL line.
 * @returns `true` for the record that starts a turn.
 */
export function startsTurn(line: string): boolean {
  if (!line.includes('"user"') || !USER_TYPE_RE.test(line)) return false;
  const rec = parseLine(line);
  return rec !== undefined && isTurnStart(rec);
}

/**
 * Whether a parsed record starts a turn (see {@link startsTurn}).
 *
 * @param rec The record.
 * @returns `true` for a main-chain user record with text, neither `isMeta` nor a subagent's.
 */
export function isTurnStart(rec: Rec): boolean {
  if (rec.type !== "user" || rec.isMeta === true || rec.isSidechain === true) return false;
  const msg = rec.message;
  return isRec(msg) && textOfContent(msg.content).trim() !== "";
}

/** The first chunk of the backward turn read; later chunks double, up to 1 MiB. */
const FIRST_TURN_CHUNK = 64 * 1024;

/**
 * Reads backward from the end until the line that starts the turn ({@link startsTurn}), at most
 * `maxBytes` back. Lines are decoded one at a time, and only those of the turn.
 */
function* scanTurn(
  size: number,
  chunkSize: number,
  maxBytes: number,
): Generator<[number, number], TurnRead, Uint8Array> {
  const floor = Math.max(0, size - Math.max(0, Math.floor(maxBytes)));
  const lines: string[] = []; // the last line first
  const offsets: number[] = [];
  const done = (start: TurnRead["start"], offset: number): TurnRead => ({
    start,
    offset,
    lines: lines.reverse(),
    offsets: offsets.reverse(),
    fileSize: size,
    bytesRead,
  });
  let bytesRead = 0;
  let offset = size; // the first line kept so far
  let pos = size;
  let carry: Uint8Array = EMPTY; // bytes [pos, …) of a line that starts before pos
  let want = chunkSize;
  while (pos > floor) {
    const start = Math.max(floor, pos - want);
    want = Math.max(want, Math.min(want * 2, 1024 * 1024));
    const chunk: Uint8Array = yield [start, pos - start];
    bytesRead += chunk.length;
    // The file shrank under the read: it is not the turn that was asked about; keep what was read.
    if (chunk.length < pos - start) return done("cut", offset);
    const combined = concat(chunk, carry);
    const seg = segments(combined);
    // The first segment may continue before `start`; it is complete only at the file's start.
    for (let k = seg.count - 1; k >= (start === 0 ? 0 : 1); k--) {
      const line = seg.line(k);
      if (line.trim() === "") continue;
      offset = start + seg.starts[k];
      lines.push(line);
      offsets.push(offset);
      if (startsTurn(line)) return done("prompt", offset);
    }
    carry = start > 0
      ? combined.slice(0, seg.count > 1 ? seg.starts[1] - 1 : combined.length)
      : EMPTY;
    pos = start;
  }
  return done(floor === 0 ? "file-start" : "cut", offset);
}

/**
 * Reads the current turn of a transcript: backward from the end to the record that starts it (the
 * last main-chain user record the user wrote, see {@link startsTurn}), reading at most
 * `maxBytes` (default `MAX_TURN_BYTES`, 8 MiB) whatever the file's size. A turn longer than that
 * comes back `cut`: its last part only. Only a regular file is read (a FIFO, socket or device is
 * refused at once), with synchronous reads once it is open.
 *
 * @example The current turn of a session
 * ```ts ignore
 * const turn = await readCurrentTurn(path);
 * if (!turn.lines.some((l) => l.includes(host.unknownSkill.needle))) return; // nothing failed this turn
 * const { messages, toolCalls } = turnRecords(turn);
 * ```
 *
 * @param path The transcript JSONL path.
 * @param options The most bytes read back, and the chunk size.
 * @returns The turn's lines, where they start and how many bytes were read.
 * @throws {TranscriptReadError} When the file cannot be opened or read.
 */
export function readCurrentTurn(path: string, options: ReadTurnOptions = {}): Promise<TurnRead> {
  // Only a regular file is opened, and never so that the process blocks (`withFileSource`).
  return withFileSource(path, (src) => driveAsync(turnGen(src.size, options), src));
}

/**
 * The same as {@link readCurrentTurn} for a transcript already in memory (tests, small inputs).
 *
 * @param text The whole JSONL text.
 * @param options The most bytes read back, and the chunk size.
 * @returns The turn.
 */
export function currentTurnOfText(text: string, options: ReadTurnOptions = {}): TurnRead {
  const src = textSource(text);
  return driveSync(turnGen(src.size, options), src);
}

function turnGen(size: number, options: ReadTurnOptions) {
  return scanTurn(
    size,
    Math.max(16, options.chunkSize ?? FIRST_TURN_CHUNK),
    options.maxBytes ?? MAX_TURN_BYTES,
  );
}

/**
 * One answer per event. When skillgate is registered twice for the same event (user and project
 * settings, or the plugin and `setup`), the host runs both commands with the same payload. Each
 * hook claims the event before it decides anything; the first claim answers, every other one stays
 * silent (no answer, no record, no log line), so the model gets one routing line, one block, one
 * deny.
 *
 * A claim is a file created with `O_CREAT|O_EXCL` (`createNew`), which exactly one process can do,
 * named by a hash of the hook and the payload ({@link eventKey}): the host sends the same payload
 * to every registration of one event, and its payloads carry what tells two events apart (Claude
 * Code's `prompt_id` and `tool_use_id`, Codex CLI's `turn_id`, Copilot CLI's `timestamp`). A claim counts
 * for {@link CLAIM_WINDOW_MS}; an older one is taken over race-free (renamed aside, then created
 * again); one winner in 16 looks whether a sweep is due, and claims past the window are removed
 * at most once per window.
 *
 * A stop's payload may be the same bytes for two events: after a block, the model can end its
 * next reply with the same text, and the stop carries the same session, prompt and final text.
 * What tells them apart is the session's transcript, which has grown in between; so a stop's claim
 * holds a stamp of the transcript (its size and mtime, `stat`ed where the hook may read it), and a
 * claim of the same key whose stamp differs and which is older than {@link SIBLING_MS} is a new
 * event. The stamp is not in the key: the registrations of one event start at once, but the
 * client may still be appending to the transcript, so two of them can see two sizes; a new event
 * comes only after every registration of the last one has ended and the model has replied.
 *
 * Any error (a folder that cannot be made, a planted link) counts as a won claim: the hook answers
 * as it would without this check, so a broken claim folder never silences skillgate.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { readStateFile } from "../base/state_file.ts";

/** The claims folder, under the state root (every hook may read and write it). */
export const CLAIMS_DIR = "claims";

/**
 * How long a claim counts: longer than a host takes to start every registration of one event
 * (Claude Code starts them at once; a host that ran them one after another would wait at most a
 * hook's timeout, 15 s), short enough that the same bytes again (a host without event ids, the
 * same prompt typed twice) are soon a new event.
 */
export const CLAIM_WINDOW_MS = 30_000;

/**
 * How long after a claim another registration of the same event may still come, with the
 * transcript grown under it: the host starts them at once, but may still be appending to the
 * transcript (Claude Code writes it asynchronously). A claim of the same key with another
 * transcript stamp ({@link claimEvent}) is a new event only past it. Observed (two registrations
 * that each slept 1.5 s and `stat`ed the transcript): Claude Code, Codex CLI 0.169.0 and Gemini
 * CLI 0.61.0 start them at once; Copilot CLI 1.0.102 one after another, the transcript unchanged
 * between them, so its later registration has the same stamp. None of them wrote the transcript
 * while its hooks ran.
 */
export const SIBLING_MS = 1000;

const EMPTY = new Uint8Array();

/** The name of the file whose mtime says when the claims were last swept. */
const SWEPT = ".swept";

/** What {@link claimEvent} found. */
export interface ClaimResult {
  /** `true`: this process answers the event; `false`: another registration already does. */
  readonly first: boolean;
  /** Why the claim could not be checked (then `first` is `true`), for one stderr line. */
  readonly error?: string;
}

/** Longer strings stand in a key by their length and their ends (the ids are short). */
const SHORT = 200;

/**
 * The claim key of an event: a hash of the hook id, the payload's length, the first and last 512
 * characters of its text and every short top-level value of it (the ids: `session_id`,
 * `prompt_id`, `tool_use_id`, `turn_id`, `timestamp`, `stop_hook_active`, …; a long value by its
 * length and ends), as 32 hex digits. Bounded work whatever the payload's size.
 *
 * @param hookId The hook (`skill-route`, …): two different hooks never share a claim.
 * @param text The payload's text exactly as read from stdin.
 * @param payload The same, parsed (a non-object counts by its text alone).
 * @returns The key, safe as a file name.
 */
export function eventKey(hookId: string, text: string, payload?: unknown): string {
  const parts = [hookId, String(text.length), text.slice(0, 512), text.slice(-512)];
  if (typeof payload === "object" && payload !== null && !Array.isArray(payload)) {
    for (const key of Object.keys(payload).sort()) {
      const value = (payload as Record<string, unknown>)[key];
      const v = typeof value === "string" ? value : JSON.stringify(value) ?? "";
      parts.push(
        key,
        v.length <= SHORT ? v : `${v.length}:${v.slice(0, SHORT / 2)}:${v.slice(-SHORT / 2)}`,
      );
    }
  }
  return hash128(parts.join("\u0000"));
}

/** Four 32-bit multiplicative hashes of a string's UTF-16 units (not for secrets). */
function hash128(s: string): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193, h3 = 0x9e3779b9, h4 = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x9e3779b1);
    h2 = Math.imul(h2 ^ c, 0x85ebca77);
    h3 = Math.imul(h3 ^ c, 0xc2b2ae3d);
    h4 = Math.imul(h4 ^ c, 0x27d4eb2f);
  }
  h1 ^= h2 >>> 15;
  h2 ^= h3 >>> 13;
  h3 ^= h4 >>> 16;
  h4 ^= h1 >>> 11;
  return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, "0")).join("");
}

/**
 * Claims an event: exactly one process of all those that claim the same key within the window
 * gets `first: true`.
 *
 * @param dir The claims folder (made 0700 when missing; a symbolic link is refused).
 * @param key The event's key ({@link eventKey}).
 * @param now The time, ms (default: now).
 * @param windowMs How long a claim counts (default {@link CLAIM_WINDOW_MS}).
 * @param stamp What the event's transcript looked like ({@link transcriptStamp}), for a stop: a
 * claim of the key with another stamp, older than {@link SIBLING_MS}, was another event.
 * @returns Whether this process answers.
 */
export function claimEvent(
  dir: string,
  key: string,
  now: number = Date.now(),
  windowMs: number = CLAIM_WINDOW_MS,
  stamp?: string,
): ClaimResult {
  if (!isHexKey(key)) return { first: true, error: "bad claim key" };
  const body = stamp ? new TextEncoder().encode(stamp) : EMPTY;
  // A live claim of this event: within the window, and not another event's by its stamp.
  const live = (path: string, info: Deno.FileInfo) =>
    fresh(info, now, windowMs) && !otherEvent(path, info, now, stamp);
  try {
    try {
      if (Deno.lstatSync(dir).isSymlink) {
        return { first: true, error: `${dir} is a symbolic link; claims not checked` };
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    const path = join(dir, key);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (create(path, body)) {
        // One winner in 16 (by its key's first digit) looks whether a sweep is due.
        if (key.startsWith("0")) sweep(dir, now, windowMs);
        return { first: true };
      }
      const info = Deno.lstatSync(path);
      if (!info.isFile) return { first: true, error: `${path} is not a file; claims not checked` };
      if (live(path, info)) return { first: false };
      // A claim past the window (the same bytes again), or one of another stop by its stamp: a
      // new event. Take it over by moving it aside: only one process can move it; one that moved
      // a live claim (made since it looked) moved another's, and stays silent.
      const aside = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.old`;
      try {
        Deno.renameSync(path, aside);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue;
        throw err;
      }
      if (live(aside, Deno.lstatSync(aside))) return { first: false };
      Deno.removeSync(aside);
    }
    return { first: false };
  } catch (err) {
    return {
      first: true,
      error: `claims not checked: ${err instanceof Error ? err.message : err}`,
    };
  }
}

/**
 * Whether a key is 8 to 64 lowercase hex digits (a loop: a regular expression's first use costs a
 * hook process about 0.3 ms).
 */
function isHexKey(key: string): boolean {
  if (key.length < 8 || key.length > 64) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * A stamp of a stop's transcript: its size and mtime, or `undefined` when it cannot be looked at
 * (no path, not a file, or outside the hook's read grant). A `stat`, no read.
 *
 * @param path The transcript's path, from the payload.
 * @returns `<size>:<mtime ms>`, or `undefined`.
 */
export function transcriptStamp(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    const info = Deno.statSync(path);
    return info.isFile ? `${info.size}:${info.mtime?.getTime() ?? 0}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a fresh claim was another event's: both claims carry a transcript stamp, the stamps
 * differ, and the claim is older than {@link SIBLING_MS}.
 */
function otherEvent(
  path: string,
  info: Deno.FileInfo,
  now: number,
  stamp: string | undefined,
): boolean {
  const t = info.mtime?.getTime();
  if (!stamp || t === undefined || now - t < SIBLING_MS) return false;
  const held = readStateFile(path, 256);
  return held !== undefined && held.length > 0 && new TextDecoder().decode(held) !== stamp;
}

/**
 * Creates the file with its content if it does not exist; `false` when it does. `writeFileSync`
 * with `createNew` (`O_CREAT|O_EXCL`): half the cost of `openSync` and `close` in a hook process
 * (measured: 0.29 / 0.54 ms min / median against 0.51 / 0.98, 25 processes each).
 */
function create(path: string, body: Uint8Array): boolean {
  try {
    Deno.writeFileSync(path, body, { createNew: true, mode: 0o600 });
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return false;
    throw err;
  }
}

function fresh(info: Deno.FileInfo, now: number, windowMs: number): boolean {
  const t = info.mtime?.getTime();
  return t !== undefined && now - t < windowMs;
}

/**
 * Removes claims (and claims moved aside) past the window, at most once per window: the time of
 * the last sweep is the mtime of {@link SWEPT}. Best effort: any error leaves the rest.
 */
function sweep(dir: string, now: number, windowMs: number): void {
  const marker = join(dir, SWEPT);
  try {
    const info = Deno.lstatSync(marker);
    if (!info.isFile || fresh(info, now, windowMs)) return;
    Deno.utimeSync(marker, now / 1000, now / 1000);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) return;
    try {
      Deno.writeFileSync(marker, EMPTY, { createNew: true, mode: 0o600 });
    } catch {
      return;
    }
    // A first sweep: nothing can be old enough yet to matter much; go on all the same.
  }
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === SWEPT || !/^[0-9a-f]{8,64}(\.\d+\.[0-9a-f]{8}\.old)?$/.test(entry.name)) {
        continue;
      }
      const path = join(dir, entry.name);
      try {
        const info = Deno.lstatSync(path);
        if (info.isFile && !fresh(info, now, windowMs)) Deno.removeSync(path);
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  } catch {
    // A folder that cannot be listed is swept another time.
  }
}

/**
 * The redirect's Stop path as the hook's front can settle it, before the core is loaded: a Claude
 * Code Stop whose current turn, read as the core reads it (`readCurrentTurn`, the same bound), is
 * in the file already (its final text shown) and holds no `Unknown skill` gets no answer from the
 * core either (`redirectStop` passes with `no-unknown-skill`). Nearly every stop is one, so the
 * front ends the process there, with no answer and no log line, as it does for another tool's
 * call. Anything else, and any failure, is left to the core.
 *
 * @module
 */

import { transcriptsDir } from "../base/locations.ts";
import { isUnder } from "../base/path.ts";
import { turnShowsFinalText } from "../transcript/currency.ts";
import { readCurrentTurn } from "../transcript/turn_read.ts";

/**
 * Whether the redirect's answer to a payload is certainly none: a Claude Code Stop payload whose
 * transcript (under the Claude Code projects folder) already holds the turn, with no failed Skill
 * call (`Unknown skill`) in it.
 *
 * @param raw The payload text.
 * @returns `true` when the core would pass; `false` when the core must decide.
 */
export async function stopSettles(raw: string): Promise<boolean> {
  if (!raw.includes('"Stop"')) return false;
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return false;
  }
  if (!payload || typeof payload !== "object") return false;
  const p = payload as Record<string, unknown>;
  const transcript = p.transcript_path;
  const finalText = p.last_assistant_message;
  if (p.hook_event_name !== "Stop" || typeof transcript !== "string") return false;
  if (typeof finalText !== "string") return false;
  if (!isUnder(transcript, transcriptsDir())) return false;
  try {
    // Only a regular file: a FIFO's open waits for a writer, and the front has no deadline yet.
    if (!Deno.statSync(transcript).isFile) return false;
    const turn = await readCurrentTurn(transcript);
    return turnShowsFinalText(turn, turn.fileSize, finalText) &&
      !turn.lines.some((line) => line.includes("Unknown skill"));
  } catch {
    return false;
  }
}

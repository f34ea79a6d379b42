/**
 * The redirect's Stop path as the hook's front can settle it, before the core is loaded: a stop
 * whose current turn, read as the core reads it (the same turn reader, the same bound), is in the
 * file already (its final text shown) and holds no trace of the host's unknown-skill error
 * (`Host.unknownSkill`) gets no answer from the core either (`redirectStop` passes with
 * `no-unknown-skill`). Nearly every stop is one, so the front ends the process there, with no
 * answer and no log line, as it does for another tool's call. Anything else, and any failure, is
 * left to the core.
 *
 * The front reads only the formats whose turn reader it carries (JSONL with a backward turn read:
 * `claude-code-jsonl`); a stop of a host with another format goes to the core.
 *
 * @module
 */

import { isUnder } from "../base/path.ts";
import { parsePayload } from "../host/payload.ts";
import { hostFor } from "../host/mod.ts";
import { readFolders } from "../host/folders.ts";
import { foldersOf } from "../host/places.ts";
import { turnShowsFinalText } from "../transcript/currency.ts";
import { readCurrentTurn } from "../transcript/turn_read.ts";

/**
 * Whether the redirect's answer to a payload is certainly none: a stop of a host that declares an
 * unknown-skill error, whose transcript (under the host's transcripts folder) already holds the
 * turn, with no such error in it.
 *
 * @param raw The payload text.
 * @returns `true` when the core would pass; `false` when the core must decide.
 */
export async function stopSettles(raw: string): Promise<boolean> {
  try {
    const ev = parsePayload(raw);
    if (ev.eventName !== "Stop") return false;
    const host = hostFor(ev.host);
    const unknown = host.unknownSkill;
    const transcript = ev.transcriptPath;
    if (!unknown || host.transcript !== "claude-code-jsonl") return false;
    if (typeof transcript !== "string" || typeof ev.lastAssistantMessage !== "string") return false;
    const transcripts = readFolders(foldersOf(host)).transcripts;
    if (!transcripts || !isUnder(transcript, transcripts)) return false;
    // Only a regular file is read (a FIFO is refused at once); the process's guard bounds the rest.
    const turn = await readCurrentTurn(transcript);
    return turnShowsFinalText(turn, turn.fileSize, ev.lastAssistantMessage) &&
      !turn.lines.some((line) => line.includes(unknown.needle));
  } catch {
    return false;
  }
}

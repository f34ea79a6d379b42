/**
 * Gemini CLI's acknowledgements of a project's agents (`~/.gemini/acknowledgments/agents.json`,
 * `{"<project root>": {"<agent name>": "<sha256 hex of its file>"}}`): the client loads a
 * project's `.gemini/agents/*.md` only once the user acknowledged it, and asks again when the file
 * changes. skillgate only reads the file.
 *
 * @module
 */

import { readRegularFileSync, readRegularTextSync } from "../base/fs.ts";

/** Where a folder's agents are acknowledged: the file, and the project root it keys them by. */
export interface Acknowledged {
  /** The file of acknowledgements (`~/.gemini/acknowledgments/agents.json`). */
  readonly record: string;
  /** The project root. */
  readonly project: string;
}

/** The largest acknowledgements file read. */
const MAX_RECORD_BYTES = 1024 * 1024;
/** The largest agent file hashed (as the catalog reads no larger one). */
const MAX_AGENT_BYTES = 1024 * 1024;

/**
 * The acknowledgements of a project's agents: agent name to the SHA-256 (hex) of the file the
 * user acknowledged (an empty list when the file is missing or not that shape).
 *
 * @param a The file and the project root it keys them by.
 * @returns The project's acknowledgements.
 */
function acknowledgements(a: Acknowledged): Record<string, unknown> {
  try {
    const all = JSON.parse(readRegularTextSync(a.record, MAX_RECORD_BYTES));
    const mine = all !== null && typeof all === "object" ? all[a.project] : undefined;
    return mine !== null && typeof mine === "object" && !Array.isArray(mine) ? mine : {};
  } catch {
    return {};
  }
}

/** A file's SHA-256, in hex (as Gemini CLI hashes an agent file it asks the user to acknowledge). */
async function sha256Hex(file: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", readRegularFileSync(file, MAX_AGENT_BYTES));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether an agent's file is the one the user acknowledged under its name.
 *
 * @param acks The project's acknowledgements ({@link acknowledgements}).
 * @param name The agent's name.
 * @param file Its file.
 * @returns `true` when the acknowledgement names that file's SHA-256.
 */
async function isAcknowledged(
  acks: Readonly<Record<string, unknown>>,
  name: string,
  file: string,
): Promise<boolean> {
  const want = Object.hasOwn(acks, name) ? acks[name] : undefined;
  return typeof want === "string" && want === await sha256Hex(file);
}

/**
 * The agents of a folder the user acknowledged ({@link isAcknowledged}). The file of
 * acknowledgements is watched with the folder (`mtimes`), so an acknowledgement given or taken
 * back is seen at once; every agent is checked at every scan of the folder.
 *
 * @param a The file and the project.
 * @param agents The folder's agents.
 * @param mtimes The folder's watched mtimes, to which the file's is added (-1 when missing).
 * @returns The acknowledged ones.
 */
export async function acknowledgedOnly<T extends { readonly name: string; readonly file: string }>(
  a: Acknowledged,
  agents: readonly T[],
  mtimes: Record<string, number>,
): Promise<T[]> {
  try {
    mtimes[a.record] = Deno.statSync(a.record).mtime?.getTime() ?? -1;
  } catch {
    mtimes[a.record] = -1;
  }
  const acks = acknowledgements(a);
  const out: T[] = [];
  for (const agent of agents) {
    try {
      if (await isAcknowledged(acks, agent.name, agent.file)) out.push(agent);
    } catch {
      // An agent file that cannot be read is not listed.
    }
  }
  return out;
}

/**
 * Gemini CLI's acknowledgements of a project's agents (`~/.gemini/acknowledgments/agents.json`,
 * `{"<project root>": {"<agent name>": "<sha256 hex of its file>"}}`): the client loads a
 * project's `.gemini/agents/*.md` only once the user acknowledged it, and asks again when the file
 * changes. skillgate only reads the file.
 *
 * @module
 */

/** The largest acknowledgements file read. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * The acknowledgements of a project's agents: agent name to the SHA-256 (hex) of the file the
 * user acknowledged (an empty list when the file is missing or not that shape).
 *
 * @param a The file and the project root it keys them by.
 * @returns The project's acknowledgements.
 */
export function acknowledgements(
  a: { readonly record: string; readonly project: string },
): Record<string, unknown> {
  try {
    const info = Deno.statSync(a.record);
    if (!info.isFile || info.size > MAX_RECORD_BYTES) return {};
    const all = JSON.parse(Deno.readTextFileSync(a.record));
    const mine = all !== null && typeof all === "object" ? all[a.project] : undefined;
    return mine !== null && typeof mine === "object" && !Array.isArray(mine) ? mine : {};
  } catch {
    return {};
  }
}

/** A file's SHA-256, in hex (as Gemini CLI hashes an agent file it asks the user to acknowledge). */
async function sha256Hex(file: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", Deno.readFileSync(file));
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
export async function isAcknowledged(
  acks: Readonly<Record<string, unknown>>,
  name: string,
  file: string,
): Promise<boolean> {
  const want = Object.hasOwn(acks, name) ? acks[name] : undefined;
  return typeof want === "string" && want === await sha256Hex(file);
}

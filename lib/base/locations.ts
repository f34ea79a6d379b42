/**
 * Host-neutral places: a safe environment reader, the home directory and the log folder under a
 * state root. What a host decides (the state root inside a plugin, a host's folders) is in
 * `lib/host/places.ts`.
 *
 * @module
 */

import { join } from "./path.ts";

/**
 * Reads an environment variable without ever throwing.
 *
 * Hooks run with `--allow-env` limited to the names they need; a name outside that list reads as
 * unset instead of failing the hook.
 *
 * @param name The variable's name.
 * @returns Its value, or `undefined` when unset, empty or not permitted.
 */
export function getEnv(name: string): string | undefined {
  try {
    const value = Deno.env.get(name);
    return value === "" ? undefined : value;
  } catch {
    // Not in the hook's --allow-env list.
    return undefined;
  }
}

/**
 * The user's home directory (`HOME`, or `USERPROFILE` on Windows).
 *
 * @returns The home directory.
 * @throws {Error} When neither variable is available.
 */
export function homeDir(): string {
  const home = getEnv("HOME") ?? getEnv("USERPROFILE");
  if (!home) throw new Error("HOME is not set or not readable (grant --allow-env=HOME)");
  return home;
}

/**
 * The directory of skillgate's hook logs.
 *
 * @param root The state root.
 * @returns `<state root>/hooks`.
 */
export function hooksLogDir(root: string): string {
  return join(root, "hooks");
}

/**
 * Where skillgate and its hosts keep things: the state root, the Claude config directory, the
 * transcripts directory, and a safe environment reader.
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
 * The state root: `SKILLGATE_STATE_ROOT`, else the plugin's data directory
 * (`CLAUDE_PLUGIN_DATA`, set when skillgate runs as a Claude Code plugin), else `~/.skillgate`.
 *
 * @returns An absolute path.
 */
export function stateRoot(): string {
  return getEnv("SKILLGATE_STATE_ROOT") ?? getEnv("CLAUDE_PLUGIN_DATA") ??
    join(homeDir(), ".skillgate");
}

/**
 * The Claude Code configuration directory: `CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @returns An absolute path.
 */
export function claudeConfigDir(): string {
  return getEnv("CLAUDE_CONFIG_DIR") ?? join(homeDir(), ".claude");
}

/**
 * The directory under which Claude Code writes session transcripts.
 *
 * @returns `<claude config>/projects`.
 */
export function transcriptsDir(): string {
  return join(claudeConfigDir(), "projects");
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

/**
 * The command a model or a user runs to reach skillgate on this machine: `SKILLGATE_COMMAND`,
 * else the config key `skillgate_command` that `setup` writes, else, inside a Claude Code plugin
 * (which puts nothing on `PATH`), the plugin's own CLI run by `deno`, else `skillgate`.
 *
 * @param configValues The config file's values (from `readConfig().values`).
 * @returns A command, such as `skillgate` or `deno run -A '/abs/cli.ts'`.
 */
export function skillgateCommand(configValues?: Readonly<Record<string, string>>): string {
  const explicit = getEnv("SKILLGATE_COMMAND") ?? configValues?.skillgate_command;
  if (explicit) return explicit;
  const pluginRoot = getEnv("CLAUDE_PLUGIN_ROOT");
  if (pluginRoot) return `deno run -A '${`${pluginRoot}/cli.ts`.replaceAll("'", "'\\''")}'`;
  return "skillgate";
}

/**
 * For the CLI run by a user who installed skillgate as a Claude Code plugin: the plugin's data
 * directory (`<claude config>/plugins/data/skillgate…`), where its hooks keep their state, when
 * nothing else names a state root (no `SKILLGATE_STATE_ROOT`, no `CLAUDE_PLUGIN_DATA`, no
 * `~/.skillgate`) and exactly one such directory exists.
 *
 * @returns The directory, or `undefined`.
 */
export function pluginStateRoot(): string | undefined {
  if (getEnv("SKILLGATE_STATE_ROOT") || getEnv("CLAUDE_PLUGIN_DATA")) return undefined;
  try {
    try {
      Deno.statSync(join(homeDir(), ".skillgate"));
      return undefined;
    } catch {
      // No state root of a setup install: look for the plugin's.
    }
    const dataDir = join(claudeConfigDir(), "plugins", "data");
    const found = [...Deno.readDirSync(dataDir)]
      .filter((e) => e.isDirectory && e.name.startsWith("skillgate"))
      .map((e) => join(dataDir, e.name));
    return found.length === 1 ? found[0] : undefined;
  } catch {
    return undefined;
  }
}

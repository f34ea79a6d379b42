/**
 * Where skillgate and its hosts keep things: the state root, the Claude config directory, the
 * transcripts directory, and a safe environment reader. What is Claude Code's (its variables and
 * folders) comes from its host object, `lib/host/claude.ts`.
 *
 * @module
 */

import { isAbsolute, join, normalize } from "./path.ts";
import { exists } from "./fs.ts";
import { CLAUDE } from "../host/claude.ts";

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
 * The plugin's data directory when this process runs from the skillgate Claude Code plugin: the
 * client sets `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` for a plugin's hooks, and the module
 * that runs (a hook bundle, or the plugin's `cli.ts`) lies under that root. Such a hook holds
 * grants for that directory only (`hooks/hooks.json`), whatever else the environment names.
 *
 * @param mainModule The URL of the module that runs (default `Deno.mainModule`).
 * @returns `CLAUDE_PLUGIN_DATA`, or `undefined` when this is no run from the plugin.
 */
export function pluginDataDir(mainModule: string = Deno.mainModule): string | undefined {
  const data = getEnv(CLAUDE.env.pluginData);
  const root = getEnv(CLAUDE.env.pluginRoot);
  if (!data || !root || !isAbsolute(root) || !mainModule.startsWith("file:///")) return undefined;
  let main: string;
  try {
    main = decodeURIComponent(new URL(mainModule).pathname);
  } catch {
    return undefined;
  }
  const base = normalize(root);
  return main.startsWith(base === "/" ? base : `${base}/`) ? data : undefined;
}

/**
 * The state root: as a hook of the skillgate plugin, the plugin's data directory
 * ({@link pluginDataDir}; `SKILLGATE_STATE_ROOT` is ignored there, since the plugin's hooks may
 * write nowhere else); else `SKILLGATE_STATE_ROOT`, else `CLAUDE_PLUGIN_DATA`, else `~/.skillgate`.
 *
 * @returns An absolute path.
 */
export function stateRoot(): string {
  return pluginDataDir() ?? getEnv("SKILLGATE_STATE_ROOT") ?? getEnv(CLAUDE.env.pluginData) ??
    join(homeDir(), ".skillgate");
}

/**
 * The Claude Code configuration directory: `CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @returns An absolute path.
 */
export function claudeConfigDir(): string {
  // Home is read only when the variable is unset: a hook without HOME still finds a set one.
  return CLAUDE.configDir({
    get home() {
      return homeDir();
    },
    env: getEnv,
  });
}

/**
 * The directory under which Claude Code writes session transcripts.
 *
 * @returns `<claude config>/projects`.
 */
export function transcriptsDir(): string {
  return join(claudeConfigDir(), CLAUDE.layout.transcripts);
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
  const pluginRoot = getEnv(CLAUDE.env.pluginRoot);
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
  if (getEnv("SKILLGATE_STATE_ROOT") || getEnv(CLAUDE.env.pluginData)) return undefined;
  try {
    // A state root of a setup install wins; without one, look for the plugin's.
    if (exists(join(homeDir(), ".skillgate"), { followSymlinks: true })) return undefined;
    const dataDir = join(claudeConfigDir(), CLAUDE.layout.plugins, "data");
    const found = [...Deno.readDirSync(dataDir)]
      .filter((e) => e.isDirectory && e.name.startsWith("skillgate"))
      .map((e) => join(dataDir, e.name));
    return found.length === 1 ? found[0] : undefined;
  } catch {
    return undefined;
  }
}

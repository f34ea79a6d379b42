/**
 * Where things are on this machine, as the running process sees them: skillgate's state root
 * (inside the skillgate plugin, the plugin's data directory), the command that reaches skillgate,
 * and a host's folders resolved from home and the environment. The host facts behind them (the
 * plugin's variables, each host's config directory variable and layout) live on the host objects;
 * `lib/base` knows none of them.
 *
 * Kept small: every hook's front reads the state root from here.
 *
 * @module
 */

import { isAbsolute, join, normalize } from "../base/path.ts";
import { getEnv, homeDir } from "../base/locations.ts";
import { markStateRoot } from "../base/state_file.ts";
import { PLUGIN_ENV } from "./plugin.ts";
import type { Host, HostFolders } from "./host.ts";

/**
 * The plugin's data directory when this process runs from the skillgate plugin: the client sets
 * the plugin's root and data variables ({@link PLUGIN_ENV}) for a plugin's hooks, and the module
 * that runs (a hook bundle, or the plugin's `cli.ts`) lies under that root. Such a hook holds
 * grants for that directory only (`hooks/hooks.json`), whatever else the environment names.
 *
 * @param mainModule The URL of the module that runs (default `Deno.mainModule`).
 * @returns The plugin's data directory, or `undefined` when this is no run from the plugin.
 */
export function pluginDataDir(mainModule: string = Deno.mainModule): string | undefined {
  const data = getEnv(PLUGIN_ENV.data);
  const root = getEnv(PLUGIN_ENV.root);
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

/** The name of the user's state root in home, and beside the Claude config folder. */
export const USER_STATE_DIR = ".skillgate";

/**
 * The user's state root as `setup`'s hooks and the CLI name it: `SKILLGATE_STATE_ROOT`, else
 * `~/.skillgate`.
 *
 * @param env Reads a variable (default: this process's environment).
 * @returns An absolute path, or `undefined` when home cannot be read.
 */
export function userStateRoot(
  env: (name: string) => string | undefined = getEnv,
): string | undefined {
  const set = env("SKILLGATE_STATE_ROOT");
  if (set) return set;
  const home = env("HOME") ?? env("USERPROFILE");
  return home ? join(home, USER_STATE_DIR) : undefined;
}

/**
 * The state root of the skillgate plugin's hooks: the user's state root ({@link userStateRoot}),
 * when it is the folder `.skillgate` beside the Claude config folder (`~/.skillgate` beside
 * `~/.claude`: the one the plugin's `hooks/hooks.json` grants, as
 * `${CLAUDE_PLUGIN_DATA}/../../../../.skillgate`); else the plugin's data directory. Decided from
 * the two paths alone (no file is looked at), so every hook of one install picks the same root,
 * and the plugin and setup's hooks share one: one claim per event, one record, one config.
 *
 * @param data The plugin's data directory (`<claude config>/plugins/data/<id>`).
 * @param user The user's state root (default {@link userStateRoot}).
 * @returns The directory the plugin's hooks keep their state in.
 */
export function pluginHookStateRoot(
  data: string,
  user: string | undefined = userStateRoot(),
): string {
  if (user === undefined || !isAbsolute(user) || !isAbsolute(data)) return data;
  const shared = normalize(join(data, "..", "..", "..", "..", USER_STATE_DIR));
  return normalize(user) === shared ? shared : data;
}

/**
 * The state root: as a hook (or the CLI) of the skillgate plugin, {@link pluginHookStateRoot}
 * (the user's state root when it lies beside the Claude config folder, else the plugin's data
 * directory: the two roots the plugin's grants name, whatever else is exported); else `SKILLGATE_STATE_ROOT`, else the
 * plugin data variable, else `~/.skillgate`. It is marked as a state root (`markStateRoot`):
 * every state folder under it is checked to be a real folder, never a link.
 *
 * @returns An absolute path.
 * @throws {Error} When it falls back to home and `HOME` cannot be read.
 */
export function stateRoot(): string {
  const plugin = pluginDataDir();
  const root = plugin !== undefined
    ? pluginHookStateRoot(plugin)
    : getEnv("SKILLGATE_STATE_ROOT") ?? getEnv(PLUGIN_ENV.data) ?? join(homeDir(), USER_STATE_DIR);
  // Every folder between it and a state file must be a real folder, never a link.
  markStateRoot(root);
  return root;
}

/**
 * The command a model or a user runs to reach skillgate on this machine: `SKILLGATE_COMMAND`,
 * else the config key `skillgate_command` that `setup` writes, else, inside the plugin (which puts
 * nothing on `PATH`), the plugin's own CLI run by `deno`, else `skillgate`.
 *
 * @param configValues The config file's values (from `readConfig(root).values`).
 * @returns A command, such as `skillgate` or `deno run -A '/abs/cli.ts'`.
 */
export function skillgateCommand(configValues?: Readonly<Record<string, string>>): string {
  const explicit = getEnv("SKILLGATE_COMMAND") ?? configValues?.skillgate_command;
  if (explicit) return explicit;
  const pluginRoot = getEnv(PLUGIN_ENV.root);
  if (pluginRoot) return `deno run -A '${`${pluginRoot}/cli.ts`.replaceAll("'", "'\\''")}'`;
  return "skillgate";
}

/**
 * A host's config directory on this machine (its variable, else its default under home). Home is
 * read only when the variable is unset: a hook without `HOME` still finds a set one.
 *
 * @param host The host.
 * @returns An absolute path.
 * @throws {Error} When home is needed and cannot be read.
 */
export function configDirOf(host: Host): string {
  return host.configDir({
    get home() {
      return homeDir();
    },
    env: getEnv,
  });
}

/**
 * A host's folders on this machine: its config directory, home and layout (`folders.ts` lists
 * them as paths).
 *
 * @param host The host.
 * @returns The folders.
 */
export function foldersOf(host: Host): HostFolders {
  const configDir = configDirOf(host);
  let home = "";
  try {
    home = homeDir();
  } catch {
    // Without home, the folders under it (`homeSkills`) are not read.
  }
  return { configDir, home, layout: host.layout };
}

/**
 * The project directory a host names for its hooks (its project variable), when set.
 *
 * @param host The host.
 * @returns The directory, or `undefined`.
 */
export function projectDirOf(host: Host): string | undefined {
  return host.env.projectDir ? getEnv(host.env.projectDir) : undefined;
}

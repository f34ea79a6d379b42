/**
 * The Claude Code plugin's `hooks/hooks.json`, generated from the hook table (`lib/hook/table.ts`)
 * so that the plugin, `setup` and `doctor` run every hook under the same flags.
 *
 * The plugin file is in exec form: `"command": "deno"` with `args`, because Claude Code then
 * spawns deno directly (no shell). In exec form Claude Code substitutes only
 * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and `${CLAUDE_PROJECT_DIR}` (observed with
 * Claude Code 2.1.328: `${HOME}` and `${CLAUDE_CONFIG_DIR}` stay literal), so:
 * - the state root is `${CLAUDE_PLUGIN_DATA}`, or the user's state root when it is `.skillgate`
 *   beside the Claude config directory, granted as `${CLAUDE_PLUGIN_DATA}/../../../../.skillgate`
 *   (`pluginHookStateRoot` in `lib/host/places.ts` picks one at run time): with `setup` in use
 *   too, both installs then share one state root, so they answer each event once between them;
 * - the Claude config directory (skills, agents, plugins, transcripts) is reached as
 *   `${CLAUDE_PLUGIN_DATA}/../../..`: the client keeps plugin data in
 *   `<config dir>/plugins/data/<plugin id>`, and Deno normalises `..` in permission paths;
 * - project grants are `.claude/…` relative to the hook's working directory and its parents
 *   (`../.claude/…`, up to three levels), never `${CLAUDE_PROJECT_DIR}/…`: exec form has no shell to
 *   keep a comma in that value from splitting the grant list (a comma there would add a grant).
 *
 * @module
 */

import {
  denoRunArgs,
  type HookRow,
  HOOKS,
  hostRegistration,
  type PermissionPaths,
} from "../hook/table.ts";
import { CLAUDE } from "../host/claude.ts";
import { USER_STATE_DIR } from "../host/places.ts";
import { PARENT_DIRS, runtimeGrants } from "./hook_commands.ts";

/** The placeholder Claude Code replaces with the plugin's root directory. */
export const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";
/** The placeholder Claude Code replaces with the plugin's persistent data directory. */
export const PLUGIN_DATA = "${CLAUDE_PLUGIN_DATA}";
/** The Claude config directory as a plugin hook can name it: three levels above its data dir. */
export const PLUGIN_CONFIG_DIR = "${CLAUDE_PLUGIN_DATA}/../../..";
/** The user's state root beside the Claude config directory, as a plugin hook can name it. */
export const PLUGIN_USER_STATE_ROOT = `${PLUGIN_CONFIG_DIR}/../${USER_STATE_DIR}`;

// node:path's join would fold "<placeholder>/../../.." away, so the table is given a token that
// no path operation touches, and the token is replaced in the finished arguments.
const CONFIG_TOKEN = "@@SKILLGATE_CLAUDE_CONFIG_DIR@@";
const USER_ROOT_TOKEN = "@@SKILLGATE_USER_STATE_ROOT@@";

/** One command handler of a plugin hooks file. */
export interface PluginHookHandler {
  /** Always `command`. */
  type: "command";
  /** The executable: `deno`. */
  command: string;
  /** Its arguments, with host placeholders. */
  args: string[];
  /** Seconds before the host gives up on it. */
  timeout: number;
}

/** One matcher group of a plugin hooks file. */
export interface PluginHookGroup {
  /** The tool matcher, for events that take one. */
  matcher?: string;
  /** The handlers of this group. */
  hooks: PluginHookHandler[];
}

/** The whole `hooks/hooks.json` of the plugin. */
export interface PluginHooksFile {
  /** Shown by the host next to the plugin's hooks. */
  description: string;
  /** Handlers per Claude Code event. */
  hooks: Record<string, PluginHookGroup[]>;
}

/** The permission paths of a plugin hook, with the config directory still as a token. */
function pluginPaths(): PermissionPaths {
  return {
    stateRoot: PLUGIN_DATA,
    sharedStateRoot: USER_ROOT_TOKEN,
    hostFolders: { configDir: CONFIG_TOKEN, home: "", layout: CLAUDE.layout },
    runtimeProjectDir: PARENT_DIRS,
  };
}

/**
 * The exact `deno` arguments a plugin hook runs with.
 *
 * @param row The hook table row.
 * @returns `run --no-prompt --no-config <permission flags> ${CLAUDE_PLUGIN_ROOT}/<entry>`.
 */
export function pluginHookArgs(row: HookRow): string[] {
  return denoRunArgs(row, pluginPaths(), `${PLUGIN_ROOT}/${row.bundle}`)
    .flatMap(runtimeGrants)
    .map((a) =>
      a.replaceAll(CONFIG_TOKEN, PLUGIN_CONFIG_DIR).replaceAll(
        USER_ROOT_TOKEN,
        PLUGIN_USER_STATE_ROOT,
      )
    );
}

/**
 * Builds the plugin's hooks file from the hook table: one group per event and matcher, in table
 * order, each handler in exec form.
 *
 * @param rows The hook table (the real one unless a test passes another).
 * @returns The file's content as an object.
 */
export function pluginHooksFile(rows: readonly HookRow[] = HOOKS): PluginHooksFile {
  const hooks: Record<string, PluginHookGroup[]> = {};
  for (const row of rows) {
    const reg = hostRegistration(CLAUDE, row);
    if (!reg) continue;
    const groups = hooks[reg.event] ??= [];
    let group = groups.find((g) => g.matcher === reg.matcher);
    if (!group) {
      group = reg.matcher === undefined ? { hooks: [] } : { matcher: reg.matcher, hooks: [] };
      groups.push(group);
    }
    group.hooks.push({
      type: "command",
      command: "deno",
      args: pluginHookArgs(row),
      timeout: row.timeoutSec,
    });
  }
  return {
    description: "skillgate: skill routing, skill contracts and the skill-to-agent redirect",
    hooks,
  };
}

/**
 * The plugin's hooks file as text (two-space JSON, final newline), as committed.
 *
 * @param rows The hook table.
 * @returns The file's text.
 */
export function renderPluginHooksJson(rows: readonly HookRow[] = HOOKS): string {
  return JSON.stringify(pluginHooksFile(rows), null, 2) + "\n";
}

if (import.meta.main) {
  // Regenerate: deno run --allow-write=hooks/hooks.json lib/install/claude_plugin.ts
  Deno.writeTextFileSync("hooks/hooks.json", renderPluginHooksJson());
}

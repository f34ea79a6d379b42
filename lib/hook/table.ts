/**
 * The one table of skillgate's hooks: event, matcher, entry, permissions and timeout. `setup`,
 * `doctor`, the plugin's `hooks/hooks.json` and the end-to-end tests are all generated from it, so
 * a hook runs under exactly these flags wherever it is installed.
 *
 * @module
 */

import { join } from "../base/path.ts";
import type { LogFile } from "./log.ts";
import type { SwitchName } from "../base/config.ts";

/** The id of a hook registration. */
export type HookId = "skill-route" | "skill-contract" | "skill-redirect" | "skill-redirect-stop";

/** The paths a hook's permission flags are built from (absolute, or host placeholders). */
export interface PermissionPaths {
  /** skillgate's state root. */
  readonly stateRoot: string;
  /** The Claude Code config directory (`~/.claude` or `CLAUDE_CONFIG_DIR`). */
  readonly claudeConfigDir: string;
  /** The project directory, when known (for example `${CLAUDE_PROJECT_DIR}`); else omitted. */
  readonly projectDir?: string;
  /**
   * The project directory as the host names it when the hook runs, for a command written before
   * the project is known (setup's settings.json and Copilot hook files): the placeholder
   * `${CLAUDE_PROJECT_DIR}`, which the shell form of the command expands (see `hookCommand`).
   * Granted besides `projectDir`.
   */
  readonly runtimeProjectDir?: string;
  /** Extra skill directories from config `skill_dirs`. */
  readonly extraSkillDirs?: readonly string[];
  /** Extra agent directories from config `agent_dirs`. */
  readonly extraAgentDirs?: readonly string[];
}

/** The Deno permissions of one hook. */
export interface HookPermissions {
  /** Paths the hook may read. */
  readonly read: readonly string[];
  /** Paths the hook may write. */
  readonly write: readonly string[];
  /** Environment variables the hook may read (a trailing `*` is a prefix). */
  readonly env: readonly string[];
}

/** One row of the hook table. */
export interface HookRow {
  /** The registration's id. */
  readonly id: HookId;
  /** The Claude Code event. */
  readonly claudeEvent: "UserPromptSubmit" | "PreToolUse" | "Stop";
  /** The Copilot CLI event, when the hook runs there. */
  readonly copilotEvent?: "userPromptSubmitted" | "preToolUse" | "agentStop";
  /** The Claude Code matcher, for events that take one. */
  readonly matcher?: string;
  /** The Copilot CLI matcher (anchored regex on the tool name), for events that take one. */
  readonly copilotMatcher?: string;
  /** The entry module, relative to the package root. */
  readonly entry: string;
  /**
   * The same entry bundled into one file (`deno task bundle`), relative to the package root: what
   * `setup` registers from a checkout and the plugin runs. One file loads about 10 ms faster than
   * the module graph, and carries the YAML parser, so a first run downloads nothing.
   */
  readonly bundle: string;
  /** The package export that runs it (`jsr:@skillgate/skillgate/<key>`). */
  readonly exportKey: string;
  /** The switch that turns it on or off. */
  readonly switchName: SwitchName;
  /** The log it writes. */
  readonly logFile: LogFile;
  /** The host's timeout for it, in seconds. */
  readonly timeoutSec: number;
  /** What it does, in one line. */
  readonly summary: string;
  /** The permissions it runs with. */
  readonly permissions: (paths: PermissionPaths) => HookPermissions;
}

/** Environment variables every hook may read. */
export const HOOK_ENV: readonly string[] = [
  "HOME",
  "SKILLGATE_STATE_ROOT",
  "SKILLGATE_SKILL_ROUTING",
  "SKILLGATE_SKILL_CONTRACTS",
  "SKILLGATE_SKILL_REDIRECT",
  "SKILLGATE_SKILL_ROUTE_HINT",
  "SKILLGATE_COMMAND",
  "SKILLGATE_HEADLESS",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_PLUGIN_DATA",
  "CLAUDE_PLUGIN_ROOT",
  "CLAUDE_CODE_ENTRYPOINT",
  "CI",
  "GITHUB_ACTIONS",
];

/** The project directories whose `.claude` folders a hook reads. */
function projectDirs(p: PermissionPaths): string[] {
  return [p.projectDir, p.runtimeProjectDir].filter((d): d is string => !!d);
}

function skillDirs(p: PermissionPaths): string[] {
  const dirs = [
    join(p.claudeConfigDir, "skills"),
    join(p.claudeConfigDir, "plugins"),
    ".claude/skills",
  ];
  for (const d of projectDirs(p)) dirs.push(`${d}/.claude/skills`);
  return [...dirs, ...(p.extraSkillDirs ?? [])];
}

function agentDirs(p: PermissionPaths): string[] {
  const dirs = [join(p.claudeConfigDir, "agents"), ".claude/agents"];
  for (const d of projectDirs(p)) dirs.push(`${d}/.claude/agents`);
  return [...dirs, ...(p.extraAgentDirs ?? [])];
}

/** The hook table. */
export const HOOKS: readonly HookRow[] = [
  {
    id: "skill-route",
    claudeEvent: "UserPromptSubmit",
    copilotEvent: "userPromptSubmitted",
    entry: "hooks/skill_route.ts",
    bundle: "hooks/dist/skill_route.js",
    exportKey: "./hooks/skill-route",
    switchName: "skill_routing",
    logFile: "skill-route.log",
    timeoutSec: 10,
    summary: "Adds one line naming the installed skill that fits the prompt",
    permissions: (p) => ({
      read: [...skillDirs(p), p.stateRoot],
      write: [p.stateRoot],
      env: HOOK_ENV,
    }),
  },
  {
    id: "skill-contract",
    claudeEvent: "Stop",
    entry: "hooks/skill_contract.ts",
    bundle: "hooks/dist/skill_contract.js",
    exportKey: "./hooks/skill-contract",
    switchName: "skill_contracts",
    logFile: "skill-contract.log",
    timeoutSec: 15,
    summary: "Blocks a stop once when a loaded skill's contract is unmet",
    permissions: (p) => ({
      read: [...skillDirs(p), join(p.claudeConfigDir, "projects"), p.stateRoot],
      write: [p.stateRoot],
      env: HOOK_ENV,
    }),
  },
  {
    id: "skill-redirect",
    claudeEvent: "PreToolUse",
    copilotEvent: "preToolUse",
    matcher: "Skill",
    copilotMatcher: "skill|Skill",
    entry: "hooks/skill_redirect.ts",
    bundle: "hooks/dist/skill_redirect.js",
    exportKey: "./hooks/skill-redirect",
    switchName: "skill_redirect",
    logFile: "skill-redirect.log",
    timeoutSec: 10,
    summary: "Denies a Skill call that names an agent, pointing at the Agent tool",
    permissions: redirectPermissions,
  },
  {
    id: "skill-redirect-stop",
    claudeEvent: "Stop",
    entry: "hooks/skill_redirect.ts",
    bundle: "hooks/dist/skill_redirect.js",
    exportKey: "./hooks/skill-redirect",
    switchName: "skill_redirect",
    logFile: "skill-redirect.log",
    timeoutSec: 10,
    summary: "Blocks a stop once after a Skill call for an agent failed as Unknown skill",
    permissions: redirectPermissions,
  },
];

function redirectPermissions(p: PermissionPaths): HookPermissions {
  return {
    read: [
      ...skillDirs(p),
      ...agentDirs(p),
      join(p.claudeConfigDir, "projects"),
      join(p.stateRoot, "config.yaml"),
      join(p.stateRoot, "catalog"),
      join(p.stateRoot, "skill-redirect"),
      // Its own log only, not the folder: Deno's rename (log rotation) needs a read grant on the
      // file it moves, and the runner counts a session's failures in it.
      join(p.stateRoot, "hooks", "skill-redirect.log"),
    ],
    // The log folder, not only the log file: the first hook to log creates `<state root>/hooks`.
    write: [join(p.stateRoot, "hooks"), join(p.stateRoot, "skill-redirect")],
    env: HOOK_ENV,
  };
}

/**
 * Looks up a hook row.
 *
 * @param id The hook id.
 * @returns The row.
 * @throws {Error} When there is no such hook.
 */
export function hookRow(id: HookId): HookRow {
  const row = HOOKS.find((h) => h.id === id);
  if (!row) throw new Error(`Unknown hook: ${id}`);
  return row;
}

/**
 * The Deno permission flags of a hook. Paths that contain a comma cannot be passed to Deno's
 * list flags and are refused.
 *
 * @param row The hook.
 * @param paths The paths to grant.
 * @returns Flags such as `--allow-read=/a,/b`.
 * @throws {Error} When a path contains a comma.
 */
export function permissionFlags(row: HookRow, paths: PermissionPaths): string[] {
  const perms = row.permissions(paths);
  for (const p of [...perms.read, ...perms.write]) {
    if (p.includes(",")) throw new Error(`A path with a comma cannot be granted to Deno: ${p}`);
  }
  const unique = (xs: readonly string[]) => [...new Set(xs)];
  return [
    `--allow-read=${unique(perms.read).join(",")}`,
    `--allow-write=${unique(perms.write).join(",")}`,
    `--allow-env=${unique(perms.env).join(",")}`,
  ];
}

/**
 * The arguments after `deno` that run a hook: `run --quiet --no-prompt --no-config <flags>
 * <entry>`. `--quiet` keeps Deno's own notices (a first run's `Download …` lines) off stderr,
 * which carries at most skillgate's one line.
 *
 * @param row The hook.
 * @param paths The paths to grant.
 * @param entry The module to run (an absolute path, a `jsr:` specifier, or a placeholder path).
 * @returns The argument list.
 */
export function denoRunArgs(row: HookRow, paths: PermissionPaths, entry: string): string[] {
  return ["run", "--quiet", "--no-prompt", "--no-config", ...permissionFlags(row, paths), entry];
}

/**
 * The one table of skillgate's hooks: event, matcher, entry, permissions and timeout. `setup`,
 * `doctor`, the plugin's `hooks/hooks.json` and the end-to-end tests are all generated from it, so
 * a hook runs under exactly these flags wherever it is installed.
 *
 * Rows are host-neutral: a row names its event canonically and its tools by role, and each host
 * (`lib/host/`) says what that is in its own hook file ({@link hostRegistration}).
 *
 * @module
 */

import { basename, dirname, isAbsolute, join } from "../base/path.ts";
import type { LogFile } from "./log.ts";
import type { SwitchName } from "../base/config.ts";
import { readFolders } from "../host/folders.ts";
import { PROJECT_OVERLAY_DIR } from "../catalog/overlay_index.ts";
import {
  type HookEventName,
  type Host,
  type HostFolders,
  HOSTS,
  type ToolRole,
  type TranscriptFormat,
} from "../host/mod.ts";

/** The id of a hook registration. */
export type HookId =
  | "skill-route"
  | "skill-contract"
  | "skill-contract-subagent"
  | "skill-redirect"
  | "skill-redirect-stop";

/** The paths a hook's permission flags are built from (absolute, or host placeholders). */
export interface PermissionPaths {
  /** skillgate's state root. */
  readonly stateRoot: string;
  /**
   * Another state root the hook may use instead, granted as {@link PermissionPaths.stateRoot} is:
   * the plugin's hooks keep their state in the user's state root when it lies beside the Claude
   * config folder (`pluginHookStateRoot`, `lib/host/places.ts`), else in the plugin's data folder.
   */
  readonly sharedStateRoot?: string;
  /**
   * The folders of the host the registration is for (its config directory, home and layout): its
   * skill, agent and transcript folders are granted, as the catalog scans them
   * (`lib/host/folders.ts`), and no other host's.
   */
  readonly hostFolders: HostFolders;
  /** The project directory, when known; else omitted. */
  readonly projectDir?: string;
  /**
   * The project directory as the host names it when the hook runs, for a command written before
   * the project is known (setup's hook files): a placeholder of the host's project variable, which
   * the shell form of the command expands (see `hookCommand`).
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
  /** The event, by its canonical name; each host names it in its hook file (`Host.hookEvents`). */
  readonly event: HookEventName;
  /** The tools the hook is for (PreToolUse), by role; each host matches its own names for them. */
  readonly tools?: ToolRole;
  /**
   * The transcript formats the hook reads, when it reads one: only hosts that write one of them
   * get the hook (the contract hook has a reader per format: `lib/transcript/readers.ts`).
   */
  readonly transcripts?: readonly TranscriptFormat[];
  /** What else a host must declare to get the hook (the redirect's Stop: its unknown-skill error). */
  readonly onlyIf?: (host: Host) => boolean;
  /** The entry module, relative to the package root. */
  readonly entry: string;
  /**
   * The same entry bundled (`deno task gen`), relative to the package root: what `setup` registers
   * from a checkout and the plugin runs. It is the hook's front, which imports its core from the
   * file beside it (`<bundle>_core.js`; see `lib/hook/front.ts`). Bundles load about 10 ms faster
   * than the module graph, and carry the YAML parser, so a first run downloads nothing.
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

/** Environment variables every hook may read: skillgate's own, every host's, then CI markers. */
export const HOOK_ENV: readonly string[] = [
  ...new Set([
    "HOME",
    "SKILLGATE_STATE_ROOT",
    "SKILLGATE_SKILL_ROUTING",
    "SKILLGATE_SKILL_CONTRACTS",
    "SKILLGATE_SKILL_REDIRECT",
    "SKILLGATE_SKILL_ROUTE_HINT",
    "SKILLGATE_COMMAND",
    "SKILLGATE_HEADLESS",
    ...HOSTS.flatMap((h) => h.env.hookReads),
    "CI",
    "GITHUB_ACTIONS",
  ]),
];

/** The state roots a hook is granted: its own, and the shared one it may use instead. */
function stateRoots(p: PermissionPaths): string[] {
  return p.sharedStateRoot === undefined ? [p.stateRoot] : [p.stateRoot, p.sharedStateRoot];
}

/** The project directories whose project folders (`.claude`, `.github`, …) a hook reads. */
function projectDirs(p: PermissionPaths): string[] {
  return [p.projectDir, p.runtimeProjectDir].filter((d): d is string => !!d);
}

/**
 * A host's folders of one kind: its own (and its plugins and extensions), and relative to a project.
 */
function hostDirs(p: PermissionPaths, kind: "skills" | "agents"): string[] {
  const f = readFolders(p.hostFolders);
  const dirs = [...(kind === "skills" ? f.skillDirs : f.agentDirs)];
  if (kind === "skills" && f.plugins) dirs.push(f.plugins);
  // An extension's manifest, install record and enablement are read for either kind.
  if (f.extensions) dirs.push(f.extensions);
  // A project's agents loaded once acknowledged, and the acknowledgements.
  if (kind === "agents" && f.acknowledgedAgents) {
    const { dir, record } = f.acknowledgedAgents;
    dirs.push(dir, ...projectDirs(p).map((d) => `${d}/${dir}`), record);
  }
  for (const rel of kind === "skills" ? f.projectSkills : f.projectAgents) {
    dirs.push(rel);
    for (const d of projectDirs(p)) dirs.push(`${d}/${rel}`);
  }
  return dirs;
}

/**
 * A project's overlay folder (`.skillgate`, holding `skills.yaml`: `lib/catalog/overlay_index.ts`),
 * relative (the hook's working directory) and under each project directory. The user's overlay file
 * is under the state root, which the hooks that read overlays may read already.
 */
function overlayDirs(p: PermissionPaths): string[] {
  return [PROJECT_OVERLAY_DIR, ...projectDirs(p).map((d) => `${d}/${PROJECT_OVERLAY_DIR}`)];
}

function skillDirs(p: PermissionPaths): string[] {
  return [...hostDirs(p, "skills"), ...(p.extraSkillDirs ?? [])];
}

function agentDirs(p: PermissionPaths): string[] {
  return [...hostDirs(p, "agents"), ...(p.extraAgentDirs ?? [])];
}

/** The host's transcripts folder (Claude Code's `projects`, Copilot CLI's `session-state`, …). */
function transcriptDirs(p: PermissionPaths): string[] {
  const t = readFolders(p.hostFolders).transcripts;
  return t ? [t] : [];
}

/** The contract hook at the session's stop (the sub-agent row is the same at SubagentStop). */
const CONTRACT_ROW: HookRow = {
  id: "skill-contract",
  event: "Stop",
  // A reader per format (`lib/transcript/readers.ts`): every host's transcript is read.
  transcripts: [
    "claude-code-jsonl",
    "copilot-events-jsonl",
    "codex-rollout-jsonl",
    "gemini-chat-jsonl",
  ],
  entry: "hooks/skill_contract.ts",
  bundle: "hooks/dist/skill_contract.js",
  exportKey: "./hooks/skill-contract",
  switchName: "skill_contracts",
  logFile: "skill-contract.log",
  timeoutSec: 15,
  summary: "Blocks a stop once when a loaded skill's contract is unmet",
  permissions: (p) => ({
    read: [...skillDirs(p), ...overlayDirs(p), ...transcriptDirs(p), ...stateRoots(p)],
    write: stateRoots(p),
    env: HOOK_ENV,
  }),
};

/** The hook table. */
export const HOOKS: readonly HookRow[] = [
  {
    id: "skill-route",
    event: "UserPromptSubmit",
    entry: "hooks/skill_route.ts",
    bundle: "hooks/dist/skill_route.js",
    exportKey: "./hooks/skill-route",
    switchName: "skill_routing",
    logFile: "skill-route.log",
    timeoutSec: 10,
    summary: "Adds one line naming the installed skill that fits the prompt",
    permissions: (p) => ({
      read: [...skillDirs(p), ...overlayDirs(p), ...stateRoots(p)],
      write: stateRoots(p),
      env: HOOK_ENV,
    }),
  },
  CONTRACT_ROW,
  {
    id: "skill-redirect",
    event: "PreToolUse",
    tools: "skill",
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
    event: "Stop",
    // The formats with a turn reader (`TURN_READERS`, `lib/transcript/turn_readers.ts`; a test
    // keeps the two equal), for hosts that declare the error
    // a turn shows for an unknown skill (they reject such a call before any tool hook runs).
    transcripts: ["claude-code-jsonl", "gemini-chat-jsonl"],
    onlyIf: (host) => host.unknownSkill !== undefined,
    entry: "hooks/skill_redirect.ts",
    bundle: "hooks/dist/skill_redirect.js",
    exportKey: "./hooks/skill-redirect",
    switchName: "skill_redirect",
    logFile: "skill-redirect.log",
    timeoutSec: 10,
    summary: "Blocks a stop once after a skill call for an agent failed as an unknown skill",
    permissions: redirectPermissions,
  },
  {
    // The same hook at a sub-agent's stop: a skill the sub-agent loaded is checked then.
    ...CONTRACT_ROW,
    id: "skill-contract-subagent",
    event: "SubagentStop",
    summary: "Blocks a sub-agent's stop once when a skill it loaded has an unmet contract",
  },
];

function redirectPermissions(p: PermissionPaths): HookPermissions {
  return {
    read: [
      ...skillDirs(p),
      ...agentDirs(p),
      ...transcriptDirs(p),
      ...stateRoots(p).flatMap((root) => [
        join(root, "config.yaml"),
        join(root, "catalog"),
        join(root, "skill-redirect"),
        // The event claims every hook shares (one answer per event: lib/hook/event_claim.ts).
        join(root, "claims"),
        // The log folder: Deno's rename (log rotation) needs a read grant on the file it moves,
        // the runner counts a session's failures in the log, and each state folder is looked at
        // (`lstat`) so that one planted as a link is never written through. The other hooks'
        // logs there hold names and counts only.
        join(root, "hooks"),
      ]),
    ],
    // The log folder, not only the log file: the first hook to log creates `<state root>/hooks`.
    write: stateRoots(p).flatMap((root) => [
      join(root, "hooks"),
      join(root, "skill-redirect"),
      join(root, "claims"),
    ]),
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

/** How one hook is registered in one host's hook file. */
export interface HostRegistration {
  /** The event, as the host names it. */
  readonly event: string;
  /** The tool matcher (an anchored regular expression over the host's tool names), if any. */
  readonly matcher?: string;
}

/**
 * How a hook is registered for a host: its event as the host names it, and for a hook of some
 * tools the matcher over the host's names for them. A host that lacks the event, or does not write
 * the transcript format the hook reads, does not get the hook.
 *
 * @param host The host.
 * @param row The hook.
 * @returns The registration, or `undefined` when the hook does not run under that host.
 */
export function hostRegistration(host: Host, row: HookRow): HostRegistration | undefined {
  if (row.transcripts !== undefined && !row.transcripts.includes(host.transcript)) return undefined;
  if (row.onlyIf && !row.onlyIf(host)) return undefined;
  const event = host.hookEvents[row.event];
  if (event === undefined) return undefined;
  if (row.tools === undefined) return { event };
  // A host whose model loads a skill by a shell read of its SKILL.md: the skill hooks watch its
  // shell tools.
  const role = row.tools === "skill" && host.skillLoad === "shell-read" ? "shell" : row.tools;
  return { event, matcher: host.tools[role].join("|") };
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
  // A folder reached through a link (a `~/.claude` kept in a dotfiles folder) is granted where it
  // leads too: Deno checks the resolved target of some file operations against the grants.
  const read = withTargets(perms.read);
  const write = withTargets(perms.write);
  for (const p of [...read, ...write]) {
    if (p.includes(",")) throw new Error(`A path with a comma cannot be granted to Deno: ${p}`);
  }
  const unique = (xs: readonly string[]) => [...new Set(xs)];
  return [
    `--allow-read=${unique(read).join(",")}`,
    `--allow-write=${unique(write).join(",")}`,
    `--allow-env=${unique(perms.env).join(",")}`,
  ];
}

/**
 * Where a path leads when a link is on its way: the real path of its deepest existing folder, with
 * the rest of the path after it. The path itself when nothing on its way is a link, it is not
 * absolute (a placeholder), or it cannot be looked at.
 *
 * @param path An absolute path (it need not exist yet).
 * @returns The resolved path.
 */
export function linkTarget(path: string): string {
  if (!isAbsolute(path) || path.includes("$")) return path;
  const rest: string[] = [];
  let dir = path;
  for (;;) {
    try {
      const real = Deno.realPathSync(dir);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) return path;
    }
    const parent = dirname(dir);
    if (parent === dir) return path;
    rest.push(basename(dir));
    dir = parent;
  }
}

/** Each path, and after it where it leads when that differs ({@link linkTarget}). */
function withTargets(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    const target = linkTarget(p);
    return target === p ? [p] : [p, target];
  });
}

/**
 * The V8 flags every hook runs with (see docs/benchmarks.md):
 *
 * - `--no-lazy`: compile every function of a module when it is first loaded, not each one at its
 *   first call. Deno keeps V8's code cache of a module as it was right after that compile, so
 *   every later run starts with all of the hook's code compiled; without it each run compiles
 *   every function it calls again (measured: 2–4 ms of a routing or contract Stop call).
 * - `--no-sparkplug`: no baseline compiler. A hook process lives for milliseconds, too short to
 *   win back what compiling its warm functions to machine code costs (measured: 0.3–1.2 ms less
 *   for a routed prompt, a Skill call and a contract Stop; the optimising compilers stay, so the
 *   long paths, such as a cold catalog scan or 150 intent patterns, are as fast as before).
 */
export const HOOK_V8_FLAGS = "--v8-flags=--no-lazy,--no-sparkplug";

/**
 * The arguments after `deno` that run a hook: `run --quiet --no-prompt --no-config
 * --v8-flags=--no-lazy,--no-sparkplug <flags> <entry>`. `--quiet` keeps Deno's own notices (a
 * first run's `Download …` lines) off stderr, which carries at most skillgate's one line; for the
 * V8 flags see {@link HOOK_V8_FLAGS}.
 *
 * @param row The hook.
 * @param paths The paths to grant.
 * @param entry The module to run (an absolute path, a `jsr:` specifier, or a placeholder path).
 * @returns The argument list.
 */
export function denoRunArgs(row: HookRow, paths: PermissionPaths, entry: string): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    HOOK_V8_FLAGS,
    ...permissionFlags(row, paths),
    entry,
  ];
}

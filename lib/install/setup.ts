/**
 * `skillgate setup`: register, update and remove skillgate's hooks in one host's hook file: Claude
 * Code's `settings.json` (or the project's `.claude/settings.json`) by default, another host's with
 * `--<host>` (`--copilot`: the Copilot CLI hook file). Every host is set up the same way, from its
 * host object (`lib/host/`): its hook file's place and shape, its event names and matchers.
 *
 * A hook is registered only when its switch is on; a switch flag is saved to config; a second run
 * changes nothing; `--uninstall` removes every skillgate entry and nothing else.
 *
 * @module
 */

import { exists } from "../base/fs.ts";
import { isAbsolute, join, resolve } from "node:path";
import {
  configList,
  configString,
  parseSwitchValue,
  readConfig,
  resolveSwitch,
  SWITCH_NAMES,
  type SwitchName,
  type SwitchResolution,
  writeConfigValue,
} from "../base/config.ts";
import { type HookRow, HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import {
  hookCommand,
  hookModule,
  type ModuleSource,
  PARENT_DIRS,
  PORTABLE,
  portableConfigDir,
  RUNTIME_PROJECT_DIR,
  shellJoin,
} from "./hook_commands.ts";
import { type DesiredHook, type HookChange, mergeHooks } from "../host/hook_file.ts";
import { SettingsFileError, updateJsonFile, type UpdateResult } from "../host/json_file.ts";
import { DEFAULT_HOST, hostFor, type HostKind, HOSTS } from "../host/mod.ts";
import { pluginHookStateRoot } from "../host/places.ts";
import { binDirOf, type CommandRunner, compilePlans, runCompile, runProcess } from "./compile.ts";
import { LockTimeoutError } from "../base/state_file.ts";
import { loadCatalog } from "../catalog/catalog.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { didYouMean } from "../cli/did_you_mean.ts";
import { missingDirs, noteHookFile } from "./install_record.ts";
import {
  findPluginRegistrations,
  findRegistrations,
  projectRoot,
  registrationFiles,
  skillgateOwner,
} from "./registrations.ts";

export { projectRoot, skillgateOwner } from "./registrations.ts";
import type { TrustBefore } from "./uninstall_trust.ts";

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The switch flag names, by switch. */
export const SWITCH_FLAGS: Readonly<Record<SwitchName, string>> = Object.freeze({
  skill_routing: "skill-routing",
  skill_contracts: "skill-contracts",
  skill_redirect: "skill-redirect",
});

/** The parsed command line of `skillgate setup`. */
export interface SetupArgs {
  /** Switch values given as flags. */
  readonly switches: Partial<Record<SwitchName, boolean>>;
  /** `--project`: the project's settings instead of the user's. */
  readonly project: boolean;
  /** The host whose hook file is written: `--<kind>` (`--copilot`), else the default host. */
  readonly host: HostKind;
  /** `--dry-run`: print the change as a diff, write nothing. */
  readonly dryRun: boolean;
  /** `--uninstall`: remove every skillgate entry. */
  readonly uninstall: boolean;
  /** `--compile`: build and register compiled binaries. */
  readonly compile: boolean;
  /** `--help`. */
  readonly help: boolean;
}

/** The hosts chosen by a flag, `--<kind>`: every host but the default. */
const FLAGGED_HOSTS = HOSTS.filter((h) => h.kind !== DEFAULT_HOST.kind);

/** The project file of each host, as `--project` explains it. */
const PROJECT_FILES = `${DEFAULT_HOST.setup.projectFile} (${
  FLAGGED_HOSTS.map((h) => `or ${h.setup.projectFile} with --${h.kind}`).join(", ")
})`;

/** One usage line per host flag. */
const HOST_FLAG_LINES = FLAGGED_HOSTS.map((h) =>
  `  ${`--${h.kind}`.padEnd(13)} Write ${h.setup.target}\n`
).join("");

/** The usage text of `skillgate setup`. */
export const SETUP_USAGE: string = `Usage: skillgate setup [options]

Registers skillgate's hooks in ${DEFAULT_HOST.setup.target},
one per switch that is on. Running it again changes nothing.

Options:
  --skill-routing, --no-skill-routing       Turn the routing hook on or off (saved to config)
  --skill-contracts, --no-skill-contracts   Turn the contract Stop hook on or off (saved)
  --skill-redirect, --no-skill-redirect     Turn the skill-to-agent redirect on or off (saved)
  --skill-routing=on|off                    The same with a value (also yes/no, true/false, 1/0)
  --project     Use the project's ${PROJECT_FILES}
${HOST_FLAG_LINES}  --dry-run     Print the change as a diff and write nothing
  --uninstall   Remove every skillgate hook entry and nothing else
  --compile     Build one binary per hook with deno compile into <state root>/bin/<host>-<key>
                (a folder per hook file) and register it
  --help        Show this text

The hooks run the Deno that runs setup, unless it lives in an npx cache: then a deno on PATH
that does not, or setup refuses (exit 1, EPHEMERAL_DENO). SKILLGATE_DENO=<absolute path> names
the Deno to register instead.`;

/** Every flag setup takes, for "did you mean". */
const SETUP_FLAGS: readonly string[] = [
  ...SWITCH_NAMES.flatMap((n) => [`--${SWITCH_FLAGS[n]}`, `--no-${SWITCH_FLAGS[n]}`]),
  ...FLAGGED_HOSTS.map((h) => `--${h.kind}`),
  "--project",
  "--dry-run",
  "--uninstall",
  "--compile",
  "--help",
];

/**
 * Parses the arguments of `skillgate setup`.
 *
 * @param args The arguments after `setup`.
 * @returns The parsed flags, or an error message for an unknown argument.
 */
export function parseSetupArgs(args: readonly string[]): SetupArgs | { error: string } {
  const switches: Partial<Record<SwitchName, boolean>> = {};
  const flags = { project: false, dryRun: false, uninstall: false, compile: false };
  let host: HostKind = DEFAULT_HOST.kind;
  let help = false;
  for (const arg of args) {
    let matched = false;
    for (const name of SWITCH_NAMES) {
      const flag = SWITCH_FLAGS[name];
      if (arg === `--${flag}`) switches[name] = true;
      else if (arg === `--no-${flag}`) switches[name] = false;
      else if (arg.startsWith(`--${flag}=`)) {
        const value = parseSwitchValue(arg.slice(flag.length + 3));
        if (value === undefined) {
          // A value that is not on or off is a usage error: taking it as the default would remove
          // or add a hook the user did not ask about.
          return {
            error: `${sanitizeLine(arg, 80)}: expected on or off (also yes/no, true/false, 1/0)`,
          };
        }
        switches[name] = value;
      } else continue;
      matched = true;
      break;
    }
    if (matched) continue;
    const flagged = FLAGGED_HOSTS.find((h) => arg === `--${h.kind}`);
    if (flagged) {
      if (host !== DEFAULT_HOST.kind && host !== flagged.kind) {
        return { error: `--${host} and --${flagged.kind} do not mix` };
      }
      host = flagged.kind;
      continue;
    }
    switch (arg) {
      case "--project":
        flags.project = true;
        break;
      case "--dry-run":
        flags.dryRun = true;
        break;
      case "--uninstall":
        flags.uninstall = true;
        break;
      case "--compile":
        flags.compile = true;
        break;
      case "--help":
      case "-h":
        help = true;
        break;
      default:
        return {
          error: arg.startsWith("-")
            ? `Unknown option '${sanitizeLine(arg, 80)}'${
              didYouMean(arg.split("=")[0], SETUP_FLAGS)
            }`
            : `Unexpected argument '${sanitizeLine(arg, 80)}'`,
        };
    }
  }
  if (flags.uninstall && flags.compile) return { error: "--uninstall and --compile do not mix" };
  return { switches, ...flags, host, help };
}

/** Everything setup reads from its surroundings (so tests can point it at temp dirs). */
export interface SetupContext {
  /** The state root. */
  readonly stateRoot: string;
  /** The Claude Code config directory: where Claude Code's skills and agents are read. */
  readonly claudeConfigDir: string;
  /** The user's home directory. */
  readonly home: string;
  /** Each host's config directory (`hostConfigDirs` in `lib/host/mod.ts`), holding its hook file. */
  readonly hostDirs: Readonly<Record<HostKind, string>>;
  /** The working directory (the project is the repository around it). */
  readonly cwd: string;
  /** The absolute path of the Deno executable to register. */
  readonly denoPath: string;
  /** Where the hook modules come from. */
  readonly source: ModuleSource;
  /** The command that runs the skillgate CLI here, saved to config `skillgate_command`. */
  readonly cliCommand?: string;
  /** Prints a line to stdout. */
  readonly print: (line: string) => void;
  /** Prints a line to stderr. */
  readonly warn: (line: string) => void;
  /** Runs `deno compile` (tests replace it). */
  readonly runCommand?: CommandRunner;
  /**
   * Pre-cache each registered hook's module graph (`deno cache --no-config`), so that a hook's
   * first run never downloads a dependency under its narrow permissions. On in real runs.
   */
  readonly precache?: boolean;
  /** Lock timeout for the settings file. */
  readonly lockTimeoutMs?: number;
}

/** How each switch resolved for this run. */
export type SwitchStates = Record<SwitchName, SwitchResolution>;

/**
 * Resolves every switch for this run: a flag wins (source `flag`); otherwise the environment,
 * config and default decide.
 *
 * @param args The parsed flags.
 * @param stateRoot The state root (for the config file).
 * @returns Each switch's resolution.
 */
export function resolveSwitches(args: SetupArgs, stateRoot: string): SwitchStates {
  const config = readConfig(stateRoot);
  const out = {} as SwitchStates;
  for (const name of SWITCH_NAMES) {
    const flag = args.switches[name];
    out[name] = flag !== undefined ? { on: flag, source: "flag" } : resolveSwitch(name, config);
  }
  return out;
}

/**
 * The paths a hook's flags grant, for this user and target.
 *
 * @param ctx The surroundings.
 * @param projectDir The project root when writing project settings.
 * @param host The host written for (default: `setup`'s default host): its hooks are granted its
 * own skill, agent and transcript folders, and no other host's.
 * @returns The permission paths.
 */
export function permissionPathsFor(
  ctx: SetupContext,
  projectDir?: string,
  host: HostKind = DEFAULT_HOST.kind,
): PermissionPaths {
  const config = readConfig(ctx.stateRoot);
  const abs = (dirs: string[]) => dirs.filter((d) => isAbsolute(d));
  return {
    stateRoot: ctx.stateRoot,
    hostFolders: { configDir: ctx.hostDirs[host], home: ctx.home, layout: hostFor(host).layout },
    ...(projectDir ? { projectDir } : {}),
    extraSkillDirs: abs(configList(config, "skill_dirs", [])),
    extraAgentDirs: abs(configList(config, "agent_dirs", [])),
  };
}

/**
 * The registrations wanted for a host, given the switches: every hook whose switch is on and that
 * runs under the host, with the host's event name and matcher.
 *
 * @param host The host.
 * @param states The switches.
 * @param commandOf The command of each hook.
 * @param rows The hook table.
 * @returns The wanted registrations, in table order.
 */
export function desiredHooks(
  host: HostKind,
  states: SwitchStates,
  commandOf: (row: HookRow) => string,
  rows: readonly HookRow[] = HOOKS,
): DesiredHook[] {
  const out: DesiredHook[] = [];
  for (const row of rows) {
    if (!states[row.switchName].on) continue;
    const reg = hostRegistration(hostFor(host), row);
    if (!reg) continue;
    out.push({
      hookId: row.id,
      event: reg.event,
      ...(reg.matcher !== undefined ? { matcher: reg.matcher } : {}),
      command: commandOf(row),
      timeout: row.timeoutSec,
    });
  }
  return out;
}

/**
 * Whether setup writes commands a team can share: `--project` from a published package (JSR, or a
 * mirror of it), whose commands find Deno on `PATH` and name every folder through the environment
 * of the machine that runs them. From a checkout or as compiled binaries the commands name this
 * machine's paths.
 *
 * @param args The parsed flags.
 * @param source Where the hook modules come from.
 * @returns `true` for a portable project file.
 */
export function isPortable(args: SetupArgs, source: ModuleSource): boolean {
  return args.project && !args.compile && (source.kind === "jsr" || source.kind === "remote");
}

/**
 * Where setup writes for these flags: the host's user hook file, or with `--project` the project's
 * shared hook file when the commands are portable ({@link isPortable}), else the host's local one
 * when it has one (Claude Code's `.claude/settings.local.json`, which is not committed).
 *
 * @param args The parsed flags.
 * @param ctx The surroundings.
 * @returns The file.
 */
export function targetPath(args: SetupArgs, ctx: SetupContext): string {
  const file = hostFor(args.host).hookFile;
  if (args.project) {
    const paths = file.projectPaths(projectRoot(ctx.cwd));
    return !isPortable(args, ctx.source) && paths.length > 1 ? paths[1] : paths[0];
  }
  return file.userPath(ctx.hostDirs[args.host]);
}

/**
 * The paths of a portable command: placeholders the shell expands on the machine that runs the
 * hook (`PORTABLE`), the project's folders relative to the working directory and under the root
 * the host names. Config `skill_dirs` and `agent_dirs` are this user's: not granted.
 */
function portablePaths(kind: HostKind): PermissionPaths {
  const host = hostFor(kind);
  return {
    stateRoot: PORTABLE.stateRoot,
    hostFolders: { configDir: portableConfigDir(kind), home: PORTABLE.home, layout: host.layout },
    runtimeProjectDir: host.env.projectDir === "CLAUDE_PROJECT_DIR"
      ? RUNTIME_PROJECT_DIR
      : PARENT_DIRS,
  };
}

function describe(
  change: HookChange,
  path: string,
  states: SwitchStates,
  dry: boolean,
  uninstall = false,
): string {
  const would = dry ? "would be " : "";
  const id = change.hookId ?? "a stale skillgate entry";
  switch (change.action) {
    case "added":
      return `skillgate: ${id} (${change.event}) ${would}registered in ${path}`;
    case "updated":
      return `skillgate: ${id} (${change.event}) ${would}updated in ${path}`;
    case "removed": {
      const row = HOOKS.find((h) => h.id === change.hookId);
      const why = uninstall
        ? " (uninstall)"
        : row && !states[row.switchName].on
        ? ` (${row.switchName} is off)`
        : "";
      return `skillgate: ${id} (${change.event}) ${would}removed from ${path}${why}`;
    }
    default:
      return "";
  }
}

/**
 * Runs `skillgate setup`.
 *
 * @param args The parsed flags.
 * @param ctx The surroundings.
 * @returns The exit code: 0 done, 1 refused or failed, 2 usage.
 */
export async function runSetup(args: SetupArgs, ctx: SetupContext): Promise<number> {
  if (args.help) {
    ctx.print(SETUP_USAGE);
    return 0;
  }
  const path = targetPath(args, ctx);
  const host = hostFor(args.host);

  // 1. Switch flags: saved to config once the settings file is written (never in a dry run or an
  // uninstall), so a settings file that is refused leaves the config as it was.
  const states = resolveSwitches(args, ctx.stateRoot);
  for (const name of SWITCH_NAMES) {
    if (states[name].warning) ctx.warn(`skillgate setup: WARN ${states[name].warning}`);
  }
  if (args.uninstall && Object.keys(args.switches).length > 0) {
    ctx.warn("skillgate setup: WARN Switch flags are not saved with --uninstall");
  }
  const configNow = readConfig(ctx.stateRoot);
  if (!configNow.readable) {
    ctx.warn(
      `skillgate setup: CONFIG_UNREADABLE ${configNow.path} exists but cannot be read (${configNow.error}); ` +
        "every hook not turned on by a flag is treated as off",
    );
  }
  ctx.print(
    "skillgate: switches: " +
      SWITCH_NAMES.map((n) => `${n} ${states[n].on ? "on" : "off"} (${states[n].source})`).join(
        ", ",
      ),
  );

  // 2. The commands: compiled binaries, or deno run of the module.
  const wanted: SwitchStates = args.uninstall
    ? Object.fromEntries(
      SWITCH_NAMES.map((n) => [n, { on: false, source: "flag" }]),
    ) as SwitchStates
    : states;
  const paths = permissionPathsFor(
    ctx,
    args.project ? projectRoot(ctx.cwd) : undefined,
    host.kind,
  );
  let source: ModuleSource = ctx.source;
  const rowsOn = HOOKS.filter((r) =>
    wanted[r.switchName].on && hostRegistration(host, r) !== undefined
  );
  if (args.compile && rowsOn.length > 0) {
    const binDir = binDirOf(ctx.stateRoot, host.kind, path);
    let plans;
    try {
      plans = compilePlans(rowsOn, { denoPath: ctx.denoPath, source: ctx.source, paths, binDir });
    } catch (err) {
      ctx.warn(`skillgate setup: PATH ${err instanceof Error ? err.message : err}`);
      return 1;
    }
    if (args.dryRun) {
      for (const plan of plans) ctx.print(`would run: ${shellJoin(plan.argv)}`);
    } else {
      const outcome = await runCompile(plans, ctx.runCommand);
      if (!outcome.ok) {
        ctx.warn(`skillgate setup: COMPILE_FAILED ${outcome.message}`);
        return 1;
      }
      for (const built of outcome.built) ctx.print(`skillgate: built ${built}`);
    }
    source = { kind: "compiled", binDir };
  }
  // A command in settings is written before the session's project is known: its shell expands
  // the project root the host names (CLAUDE_PROJECT_DIR); a host that names none gets the working
  // directory's parents. A compiled binary's flags are fixed when it is built, so it has only the
  // grants above.
  const portable = isPortable(args, source);
  const commandPaths: PermissionPaths = portable ? portablePaths(host.kind) : {
    ...paths,
    runtimeProjectDir: host.env.projectDir === "CLAUDE_PROJECT_DIR"
      ? RUNTIME_PROJECT_DIR
      : PARENT_DIRS,
  };
  const denoPath = portable ? "deno" : ctx.denoPath;
  let desired: DesiredHook[];
  try {
    desired = desiredHooks(
      host.kind,
      wanted,
      (row) => hookCommand(row, { denoPath, source, paths: commandPaths }),
    );
  } catch (err) {
    ctx.warn(`skillgate setup: PATH ${err instanceof Error ? err.message : err}`);
    return 1;
  }

  // A host that trusts hooks one by one (Codex CLI): which of skillgate's hooks in this file the
  // client trusts, so that --uninstall takes their trust entries back too.
  const trustBefore = host.hookTrust === "app-server" && args.uninstall && exists(path)
    ? await ownTrustBefore(ctx, path)
    : undefined;

  // 3. Merge and write, noting the file (and any folder made for it) for `skillgate uninstall`.
  const newDirs = missingDirs(path);
  let changes: HookChange[] = [];
  let result: UpdateResult;
  try {
    result = updateJsonFile(path, (current) => {
      const merged = mergeHooks(host.hookFile.format, current, desired, skillgateOwner);
      changes = merged.changes;
      return merged.doc;
    }, {
      dryRun: args.dryRun,
      lockTimeoutMs: ctx.lockTimeoutMs,
      dirMode: args.project ? 0o755 : 0o700,
      stateDir: ctx.stateRoot,
      comments: host.hookFile.comments,
    });
  } catch (err) {
    if (err instanceof SettingsFileError) {
      ctx.warn(`skillgate setup: SETTINGS_INVALID ${err.message}`);
    } else if (err instanceof LockTimeoutError) {
      ctx.warn(
        `skillgate setup: LOCKED ${err.message}; another setup may be running. Nothing was changed`,
      );
    } else {
      ctx.warn(
        `skillgate setup: WRITE_FAILED Cannot update ${path}: ${
          err instanceof Error ? err.message : err
        }. ` +
          "Nothing was changed",
      );
    }
    return 1;
  }
  if (!args.dryRun && !args.uninstall && desired.length > 0) {
    try {
      noteHookFile(ctx.stateRoot, path, host.kind, result.status === "created", newDirs);
    } catch (err) {
      ctx.warn(
        `skillgate setup: STATE_ERROR Could not note ${path} for uninstall: ${errorText(err)}`,
      );
    }
  }
  if (!args.dryRun && !args.uninstall) {
    const config = readConfig(ctx.stateRoot);
    for (const name of SWITCH_NAMES) {
      const value = args.switches[name];
      if (value === undefined) continue;
      const word = value ? "on" : "off";
      if (config.readable && config.values[name] === word) continue;
      try {
        writeConfigValue(name, word, ctx.stateRoot);
      } catch (err) {
        ctx.warn(
          `skillgate setup: STATE_ERROR Could not save ${name}: ${
            err instanceof Error ? err.message : err
          }`,
        );
      }
    }
    if (ctx.cliCommand && configString(config, "skillgate_command", "") !== ctx.cliCommand) {
      try {
        writeConfigValue("skillgate_command", ctx.cliCommand, ctx.stateRoot);
      } catch (err) {
        ctx.warn(
          `skillgate setup: STATE_ERROR Could not save skillgate_command: ${
            err instanceof Error ? err.message : err
          }`,
        );
      }
    }
  }

  // 4. Warm Deno's cache with every module a registered hook loads (lazy imports included).
  if (ctx.precache && !args.dryRun && source.kind !== "compiled") {
    const modules = [...new Set(rowsOn.map((row) => hookModule(row, source)))];
    if (modules.length > 0) {
      const argv = [ctx.denoPath, "cache", "--no-config", ...modules];
      let outcome: { code: number; stderr: string };
      try {
        outcome = await (ctx.runCommand ?? runProcess)(argv);
      } catch (err) {
        outcome = { code: -1, stderr: err instanceof Error ? err.message : String(err) };
      }
      if (outcome.code !== 0) {
        const last = outcome.stderr.trim().split("\n").at(-1) ?? "";
        ctx.warn(
          `skillgate setup: PRECACHE_FAILED Could not pre-cache the hook modules (${
            sanitizeLine(last, 200)
          }); ` +
            "a hook's first run may fail open until they are cached: run skillgate setup again",
        );
      }
    }
  }

  // 5. Warm the catalog index (skills and agents), so that no hook parses YAML on its first run
  // and the redirect hook, which may not write the index, finds the agents indexed.
  if (!args.dryRun && !args.uninstall && rowsOn.length > 0) {
    await loadCatalog({
      hostFolders: paths.hostFolders,
      cwd: ctx.cwd,
      stateRoot: ctx.stateRoot,
      extraSkillDirs: configList(readConfig(ctx.stateRoot), "skill_dirs", []),
      extraAgentDirs: configList(readConfig(ctx.stateRoot), "agent_dirs", []),
    });
  }

  // 6. Whether the project file can be shared; another registration of the same hooks.
  if (args.project && !args.uninstall && desired.length > 0) {
    if (portable) {
      ctx.print(
        `skillgate: ${path} holds no path of this machine: commit it to share the hooks ` +
          "(each machine needs Deno on PATH; the hooks come from the package)",
      );
      if ((paths.extraSkillDirs?.length ?? 0) + (paths.extraAgentDirs?.length ?? 0) > 0) {
        ctx.warn(
          "skillgate setup: WARN Config skill_dirs and agent_dirs are this machine's: the " +
            "shared project file does not grant them",
        );
      }
    } else {
      ctx.print(
        `skillgate: ${path} names this machine's paths (Deno, skillgate, your home): it is ` +
          "for this machine only; do not commit it" +
          (source.kind === "local" || source.kind === "compiled"
            ? " (from a published package, setup --project writes a file a team can share)"
            : ""),
      );
    }
  }
  if (!args.dryRun && !args.uninstall && desired.length > 0) {
    for (const line of otherInstalls(ctx, path, host.kind)) ctx.warn(line);
  }

  // 7. Report.
  if (args.dryRun) {
    if (result.status === "unchanged") ctx.print(`skillgate: ${path} would not change`);
    else ctx.print(result.diff.trimEnd());
  }
  for (const change of changes) {
    const line = describe(change, path, wanted, args.dryRun, args.uninstall);
    if (line) ctx.print(line);
  }
  if (!args.dryRun) {
    if (result.status === "unchanged") ctx.print(`skillgate: ${path} is up to date`);
    if (result.backupPath) ctx.print(`skillgate: previous file saved as ${result.backupPath}`);
  }
  if (host.hookTrust === "app-server" && !args.dryRun && !args.uninstall && desired.length > 0) {
    await trustOwnHooks(ctx, host.kind, path, desired);
  }
  if (trustBefore && changes.some((c) => c.action === "removed")) {
    const { removeTrustAfter } = await import("./uninstall_trust.ts");
    const done = await removeTrustAfter(trustBefore, [path], args.dryRun);
    for (const u of done.untrusted) {
      ctx.print(
        `skillgate: ${args.dryRun ? "would remove" : "removed"} the hook trust entry ` +
          `${sanitizeLine(u.key, 300)} from ${u.path}`,
      );
    }
    for (const k of done.kept) ctx.warn(`skillgate setup: WARN Kept ${k.path}: ${k.why}`);
  }
  return 0;
}

/**
 * Warnings for every other place that registers skillgate's hooks for the same host: the host's
 * other hook files (user or project) and, for Claude Code, an installed plugin. Each such install
 * runs its hooks too (one answers per event, but each costs a process).
 */
function otherInstalls(ctx: SetupContext, written: string, kind: HostKind): string[] {
  const dctx = { cwd: ctx.cwd, hostDirs: ctx.hostDirs, claudeConfigDir: ctx.claudeConfigDir };
  const files = registrationFiles(dctx).filter((f) =>
    f.host === kind && resolve(f.path) !== resolve(written)
  );
  const others = new Set(findRegistrations(files).hooks.map((h) => h.file));
  const out = [...others].map((file) =>
    `skillgate setup: INSTALLED_TWICE skillgate's hooks are also registered in ${file}: each ` +
    "event runs both (one answers); keep one (setup --uninstall, with --project for a project's file)"
  );
  if (kind === DEFAULT_HOST.kind) {
    const plugin = findPluginRegistrations(dctx);
    if (plugin.hooks.length > 0 || plugin.notes.length > 0) {
      // The plugin's hooks share this state root (and its claims) only when it lies beside the
      // Claude config folder (`pluginHookStateRoot`).
      const data = join(ctx.claudeConfigDir, "plugins", "data", "skillgate");
      const shared = pluginHookStateRoot(data, resolve(ctx.stateRoot)) !== data;
      out.push(
        "skillgate setup: INSTALLED_TWICE the skillgate plugin is installed too: each event runs " +
          (shared
            ? "both (one answers)"
            : "both, and both answer (the plugin keeps its own state root)") +
          "; keep one (claude plugin uninstall skillgate@skillgate, or skillgate setup --uninstall)",
      );
    }
  }
  return out;
}

/** Before `setup --uninstall` on a host that trusts hooks: what the client trusts in the file. */
async function ownTrustBefore(ctx: SetupContext, path: string): Promise<TrustBefore> {
  const { findCodex } = await import("./codex_trust.ts");
  const { trustBeforeRemoval } = await import("./uninstall_trust.ts");
  const PATH = envOf("PATH") ?? "/usr/bin:/bin";
  const bin = findCodex({ SKILLGATE_CODEX_BIN: envOf("SKILLGATE_CODEX_BIN"), PATH });
  return await trustBeforeRemoval([path], ctx, { bin, env: { HOME: ctx.home, PATH } });
}

/** An environment variable, or `undefined` when unset or not readable. */
function envOf(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * Codex CLI runs a hook only once it is trusted: trusts the hooks setup just wrote (and only
 * those), through the client's own app-server, as its hook review does; without the client, says
 * how to review them.
 */
async function trustOwnHooks(
  ctx: SetupContext,
  kind: HostKind,
  path: string,
  desired: readonly DesiredHook[],
): Promise<void> {
  const { findCodex, trustCodexHooks } = await import("./codex_trust.ts");
  const PATH = envOf("PATH") ?? "/usr/bin:/bin";
  const bin = findCodex({ SKILLGATE_CODEX_BIN: envOf("SKILLGATE_CODEX_BIN"), PATH });
  const review = "Codex CLI skips hooks until they are trusted: start `codex` in this project " +
    "and trust skillgate's hooks when it asks (or in /hooks), then check with `skillgate doctor`";
  if (!bin) {
    ctx.warn(`skillgate setup: CODEX_TRUST codex not found on PATH. ${review}`);
    return;
  }
  const commands = new Set(desired.map((d) => d.command));
  try {
    const done = await trustCodexHooks(
      { bin, cwd: ctx.cwd, env: { HOME: ctx.home, PATH, CODEX_HOME: ctx.hostDirs[kind] } },
      (h) => h.sourcePath === path && commands.has(h.command),
    );
    const n = done.trusted.length + done.already.length;
    if (n < desired.length) {
      ctx.warn(
        `skillgate setup: CODEX_TRUST Codex CLI lists ${n} of skillgate's ${desired.length} hooks. ${review}`,
      );
      return;
    }
    ctx.print(
      `skillgate: ${done.trusted.length} hook(s) trusted in Codex CLI through codex app-server` +
        (done.already.length ? ` (${done.already.length} already trusted)` : ""),
    );
  } catch (err) {
    ctx.warn(
      `skillgate setup: CODEX_TRUST Could not trust the hooks (${
        sanitizeLine(errorText(err), 200)
      }). ${review}`,
    );
  }
}

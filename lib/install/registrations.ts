/**
 * Where skillgate is registered on this machine: every host's user and project hook files, and an
 * installed Claude Code plugin; what setup, doctor and uninstall read to find skillgate's own
 * entries (recognised by their command, `lib/install/hook_commands.ts`).
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { readRegularTextSync } from "../base/fs.ts";
import { recogniseCommand, shellJoin } from "./hook_commands.ts";
import { listOwnedHooks, type OwnedHook } from "../host/hook_file.ts";
import { parseJsonObjectText, SettingsFileError } from "../host/json_file.ts";
import { CLAUDE } from "../host/claude.ts";
import { hostFor, type HostKind, HOSTS } from "../host/mod.ts";

/** Where to look: the working directory (its project) and each host's config directory. */
export interface RegistrationPlaces {
  /** The working directory (the project around it is checked too). */
  readonly cwd: string;
  /** Each host's config directory (`hostConfigDirs` in `lib/host/mod.ts`), holding its hook file. */
  readonly hostDirs: Readonly<Record<HostKind, string>>;
  /** The Claude Code config directory: its plugins. */
  readonly claudeConfigDir: string;
}

/** A file that may hold skillgate registrations. */
export interface RegistrationFile {
  /** The file. */
  readonly path: string;
  /** Which host reads it. */
  readonly host: HostKind;
}

/** A registration found on disk. */
export interface RegisteredHook extends OwnedHook {
  /** The file it is in. */
  readonly file: string;
  /** Which host runs it. */
  readonly host: HostKind;
  /** Variables the host sets for it (a plugin hook's `CLAUDE_PLUGIN_ROOT` and the like). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The project root around a directory: the nearest folder (itself or a parent) with a `.git`
 * entry, else the directory itself.
 *
 * @param cwd The working directory.
 * @returns The project root.
 */
export function projectRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    try {
      Deno.statSync(join(dir, ".git"));
      return dir;
    } catch {
      // Not here.
    }
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

/**
 * The command recogniser over the hook table.
 *
 * @param command A registered command line.
 * @param event The event it is registered on.
 * @returns `null` for a foreign command, else the hook it registers.
 */
export function skillgateOwner(command: string, event: string): { hookId?: string } | null {
  return recogniseCommand(command, event);
}

/**
 * The files doctor reads: every host's user hook file and the project's hook files (for Claude
 * Code `settings.json`, its project's `settings.json` and `settings.local.json`; for Copilot CLI
 * both `hooks/skillgate.json` files).
 *
 * @param ctx Where to look.
 * @returns The files, whether or not they exist.
 */
export function registrationFiles(ctx: RegistrationPlaces): RegistrationFile[] {
  const project = projectRoot(ctx.cwd);
  const files: RegistrationFile[] = HOSTS.flatMap((h) =>
    [h.hookFile.userPath(ctx.hostDirs[h.kind]), ...h.hookFile.projectPaths(project)]
      .map((path) => ({ path, host: h.kind }))
  );
  return files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i);
}

/**
 * Reads skillgate's registrations from the given files.
 *
 * @param files The files.
 * @returns The registrations, and a message for each file that exists but cannot be read.
 */
export function findRegistrations(
  files: readonly RegistrationFile[],
): { hooks: RegisteredHook[]; problems: string[] } {
  const hooks: RegisteredHook[] = [];
  const problems: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = Deno.readTextFileSync(file.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue;
      problems.push(`${file.path}: cannot be read (${err instanceof Error ? err.message : err})`);
      continue;
    }
    try {
      const hookFile = hostFor(file.host).hookFile;
      const doc = parseJsonObjectText(text, file.path, hookFile.comments);
      const owned = listOwnedHooks(hookFile.format, doc, skillgateOwner);
      for (const hook of owned) hooks.push({ ...hook, file: file.path, host: file.host });
    } catch (err) {
      problems.push(err instanceof SettingsFileError ? err.message : `${file.path}: ${err}`);
    }
  }
  return { hooks, problems };
}

/** A string array, or `undefined`. */
function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : undefined;
}

/** The largest `installed_plugins.json`, `plugin.json` or plugin `hooks.json` read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * The hooks of an installed skillgate Claude Code plugin, with the plugin variables filled in the
 * way the client fills them: `${CLAUDE_PLUGIN_ROOT}` (the install), `${CLAUDE_PLUGIN_DATA}` (its
 * data directory, `<claude config>/plugins/data/skillgate…`) and `${CLAUDE_PROJECT_DIR}`. Only
 * installs listed in `plugins/installed_plugins.json` and inside `<claude config>/plugins` count;
 * an install whose data directory the client has not made yet is noted, not probed.
 *
 * @param ctx Where to look.
 * @returns The registrations, a message for each install that cannot be read, and notes.
 */
export function findPluginRegistrations(
  ctx: Pick<RegistrationPlaces, "claudeConfigDir" | "cwd">,
): { hooks: RegisteredHook[]; problems: string[]; notes: string[] } {
  const hooks: RegisteredHook[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  const pluginsDir = resolve(ctx.claudeConfigDir, CLAUDE.layout.plugins);
  let installs: string[] = [];
  try {
    const data = JSON.parse(
      readRegularTextSync(join(pluginsDir, "installed_plugins.json"), MAX_MANIFEST_BYTES),
    );
    for (const value of Object.values((data?.plugins ?? {}) as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const path = (item as { installPath?: unknown })?.installPath;
        if (typeof path === "string" && resolve(path).startsWith(pluginsDir + "/")) {
          installs.push(resolve(path));
        }
      }
    }
  } catch {
    return { hooks, problems, notes };
  }
  installs = [...new Set(installs)].sort();
  let dataDirs: string[] = [];
  try {
    dataDirs = [...Deno.readDirSync(join(pluginsDir, "data"))]
      .filter((e) => e.isDirectory && e.name.startsWith("skillgate"))
      .map((e) => join(pluginsDir, "data", e.name)).sort();
  } catch {
    // No plugin has run yet.
  }
  for (const install of installs) {
    let name: unknown;
    try {
      name = JSON.parse(
        readRegularTextSync(join(install, ".claude-plugin", "plugin.json"), MAX_MANIFEST_BYTES),
      ).name;
    } catch {
      continue;
    }
    if (name !== "skillgate") continue;
    const file = join(install, "hooks", "hooks.json");
    let doc: Record<string, unknown>;
    try {
      doc = parseJsonObjectText(readRegularTextSync(file, MAX_MANIFEST_BYTES), file);
    } catch (err) {
      problems.push(err instanceof SettingsFileError ? err.message : `${file}: ${err}`);
      continue;
    }
    if (dataDirs.length === 0) {
      // The client makes the data directory when the plugin first runs; doctor makes nothing.
      notes.push(
        `the skillgate plugin in ${install} has not run yet (no ${pluginsDir}/data/skillgate…): ` +
          "start Claude Code once, then run doctor again to probe its hooks",
      );
      continue;
    }
    const vars: Record<string, string> = {
      [CLAUDE.env.pluginRoot]: install,
      [CLAUDE.env.pluginData]: dataDirs[0],
      [CLAUDE.env.projectDir]: projectRoot(ctx.cwd),
    };
    const fill = (s: string) => s.replace(/\$\{(CLAUDE_[A-Z_]+)\}/g, (m, k) => vars[k] ?? m);
    const events = (doc.hooks ?? {}) as Record<string, unknown>;
    for (const [event, groups] of Object.entries(events)) {
      for (const group of Array.isArray(groups) ? groups : []) {
        const items = (group as { hooks?: unknown })?.hooks;
        for (const item of Array.isArray(items) ? items : []) {
          const h = item as { command?: unknown; args?: unknown; timeout?: unknown };
          if (typeof h.command !== "string") continue;
          const args = strings(h.args);
          const command = args ? shellJoin([fill(h.command), ...args.map(fill)]) : fill(h.command);
          const owner = skillgateOwner(command, event);
          hooks.push({
            hookId: owner?.hookId,
            event,
            matcher: typeof (group as { matcher?: unknown }).matcher === "string"
              ? (group as { matcher: string }).matcher
              : undefined,
            command,
            timeout: typeof h.timeout === "number" ? h.timeout : undefined,
            file,
            host: CLAUDE.kind,
            env: vars,
          });
        }
      }
    }
  }
  return { hooks, problems, notes };
}

/**
 * `skillgate uninstall`: takes back everything `setup` wrote. For every host in the registry
 * (`lib/host/mod.ts`) it visits the user's hook file and the current project's, plus every hook
 * file `setup` noted writing into (`install_record.ts`), and removes each skillgate entry and
 * nothing else; a hook file setup created that holds nothing else is deleted, and so is a folder
 * setup created for one once it is empty. With `--purge` it also deletes skillgate's files in the
 * state root (config, records, logs, indexes, backups, locks, compiled hooks, the install record),
 * and the state root itself when nothing else is in it. It says what it removed, and what it kept
 * and why. {@link uninstallWithTrust} also takes back Codex CLI's trust of the hooks it removes
 * (`uninstall_trust.ts`).
 *
 * @module
 */

import { exists } from "../base/fs.ts";
import { join } from "node:path";
import { mergeHooks } from "../host/hook_file.ts";
import { SettingsFileError, updateJsonFile } from "../host/json_file.ts";
import { type HostKind, HOSTS } from "../host/mod.ts";
import { isJsonObject } from "../host/json.ts";
import { LockTimeoutError } from "../base/state_file.ts";
import { readInstallRecord } from "./install_record.ts";
import { projectRoot, skillgateOwner } from "./setup.ts";
import {
  removeTrustAfter,
  trustBeforeRemoval,
  type TrustClient,
  trustingHost,
} from "./uninstall_trust.ts";

/**
 * The names skillgate makes at the top of its state root. `--purge` deletes these and keeps
 * anything else (and says so), so a state root pointed at a folder with other files in it loses
 * only skillgate's.
 */
export const STATE_ENTRIES: readonly string[] = [
  "config.yaml",
  "hooks",
  "skill-contracts",
  "skill-redirect",
  "catalog",
  "backups",
  "locks",
  "bin",
  "install.json",
  "claims",
];

/** Whether a top-level name in the state root is skillgate's (with its lock and temp files). */
export function isStateEntry(name: string): boolean {
  return STATE_ENTRIES.some((e) => name === e || name.startsWith(`${e}.`));
}

/** The flags of `skillgate uninstall`. */
export interface UninstallArgs {
  /** Also delete skillgate's files in the state root. */
  readonly purge: boolean;
  /** Say what would be removed and change nothing. */
  readonly dryRun: boolean;
}

/** What uninstall reads from its surroundings. */
export interface UninstallContext {
  /** The state root. */
  readonly stateRoot: string;
  /** Each host's config directory. */
  readonly hostDirs: Readonly<Record<HostKind, string>>;
  /** The working directory (its project's hook files are visited too). */
  readonly cwd: string;
  /** Whether the skillgate Claude Code plugin is installed (it is removed in the client). */
  readonly pluginInstalled?: boolean;
  /** Lock timeout for each hook file. */
  readonly lockTimeoutMs?: number;
}

/** What uninstall did (or, in a dry run, would do). */
export interface UninstallReport {
  /** Each hook entry removed. */
  readonly removed: { path: string; hookId: string; event: string }[];
  /** Each file or folder deleted. */
  readonly deleted: string[];
  /**
   * Each trust entry of a skillgate hook removed from a host's config (Codex CLI's
   * `hooks.state."<key>"` in its `config.toml`: `lib/install/uninstall_trust.ts`).
   */
  readonly untrusted: { path: string; key: string }[];
  /** What was left in place, and why. */
  readonly kept: { path: string; why: string }[];
  /** Files that could not be changed (exit 1). */
  readonly failed: { path: string; why: string }[];
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Every hook file to visit, with its host: each host's user file and the current project's files,
 * then every file setup noted.
 *
 * @param ctx The surroundings.
 * @returns Paths and hosts, each path once.
 */
export function hookFilesToVisit(ctx: UninstallContext): { path: string; host: HostKind }[] {
  const out = new Map<string, HostKind>();
  const root = projectRoot(ctx.cwd);
  for (const host of HOSTS) {
    out.set(host.hookFile.userPath(ctx.hostDirs[host.kind]), host.kind);
    for (const p of host.hookFile.projectPaths(root)) out.set(p, host.kind);
  }
  for (const [path, file] of Object.entries(readInstallRecord(ctx.stateRoot).files)) {
    if (HOSTS.some((h) => h.kind === file.host) && !out.has(path)) out.set(path, file.host);
  }
  return [...out].map(([path, host]) => ({ path, host }));
}

/**
 * Removes every skillgate entry from every host's hook files, and with `purge` skillgate's state.
 *
 * @param args The flags.
 * @param ctx The surroundings.
 * @returns What was done.
 */
export function runUninstall(args: UninstallArgs, ctx: UninstallContext): UninstallReport {
  const report: UninstallReport = { removed: [], deleted: [], untrusted: [], kept: [], failed: [] };
  const record = readInstallRecord(ctx.stateRoot);
  const goneFiles: string[] = [];
  for (const { path, host: kind } of hookFilesToVisit(ctx)) {
    if (!exists(path)) continue;
    const host = HOSTS.find((h) => h.kind === kind)!;
    const created = record.files[path]?.created === true;
    // The transform runs twice (a first look, then under the lock): the last run's findings count.
    let removed: { path: string; hookId: string; event: string }[] = [];
    let emptied = false;
    try {
      const result = updateJsonFile(path, (current) => {
        const merged = mergeHooks(host.hookFile.format, current, [], skillgateOwner);
        removed = merged.changes.filter((c) => c.action === "removed").map((c) => ({
          path,
          hookId: c.hookId ?? "a stale entry",
          event: c.event,
        }));
        // A file the host's format drops once empty, or an empty `{}` that setup created.
        emptied = removed.length > 0 && (merged.doc === undefined ||
          (created && isJsonObject(merged.doc) && Object.keys(merged.doc).length === 0));
        return emptied ? undefined : merged.doc;
      }, {
        dryRun: args.dryRun,
        lockTimeoutMs: ctx.lockTimeoutMs,
        // The backup goes to the state root: kept there, or deleted with it by --purge.
        stateDir: ctx.stateRoot,
        comments: host.hookFile.comments,
      });
      if (result.status === "unchanged") continue;
      report.removed.push(...removed);
      if (emptied) {
        report.deleted.push(path);
        goneFiles.push(path);
      }
    } catch (err) {
      const why = err instanceof SettingsFileError || err instanceof LockTimeoutError
        ? err.message
        : errorText(err);
      report.failed.push({ path, why: `not changed (${why})` });
    }
  }

  // Folders setup created for a hook file now gone: deepest first, only when empty.
  const dirs = [...record.dirs].sort((a, b) => b.length - a.length);
  for (const dir of dirs) {
    if (!goneFiles.some((f) => f.startsWith(`${dir}/`)) || !exists(dir)) continue;
    const left = [...Deno.readDirSync(dir)].filter((e) =>
      !report.deleted.includes(join(dir, e.name))
    );
    if (left.length > 0) {
      report.kept.push({ path: dir, why: "setup made this folder, but other files are in it now" });
      continue;
    }
    if (!args.dryRun) {
      try {
        Deno.removeSync(dir);
      } catch (err) {
        report.kept.push({ path: dir, why: `could not delete it (${errorText(err)})` });
        continue;
      }
    }
    report.deleted.push(dir);
  }

  purgeOrKeep(args, ctx, report);
  if (ctx.pluginInstalled) {
    report.kept.push({
      path: "the skillgate Claude Code plugin",
      why: "remove it in Claude Code: /plugin uninstall skillgate@skillgate",
    });
  }
  return report;
}

function purgeOrKeep(args: UninstallArgs, ctx: UninstallContext, report: UninstallReport): void {
  const root = ctx.stateRoot;
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(root);
  } catch {
    return;
  }
  if (!args.purge) {
    report.kept.push({
      path: root,
      why: "config, records, logs and backups: skillgate uninstall --purge deletes them",
    });
    return;
  }
  if (!info.isDirectory) {
    report.kept.push({ path: root, why: "not a folder (a link or a file): delete it yourself" });
    return;
  }
  const foreign: string[] = [];
  for (const entry of Deno.readDirSync(root)) {
    const path = join(root, entry.name);
    if (!isStateEntry(entry.name)) {
      foreign.push(entry.name);
      continue;
    }
    if (!args.dryRun) {
      try {
        // Never through a link: a link at the top is removed itself, not what it points to.
        Deno.removeSync(path, { recursive: !entry.isSymlink && entry.isDirectory });
      } catch (err) {
        report.failed.push({ path, why: `could not delete it (${errorText(err)})` });
        continue;
      }
    }
    report.deleted.push(path);
  }
  if (foreign.length > 0) {
    report.kept.push({
      path: root,
      why: `it also holds files skillgate did not make (${foreign.slice(0, 5).join(", ")})`,
    });
    return;
  }
  if (!args.dryRun && report.failed.length === 0) {
    try {
      Deno.removeSync(root);
    } catch (err) {
      report.kept.push({ path: root, why: `could not delete it (${errorText(err)})` });
      return;
    }
  }
  report.deleted.push(root);
}

/**
 * `skillgate uninstall`: runs the uninstall and takes back the trust entries of skillgate's hooks.
 *
 * @param args The flags.
 * @param ctx The surroundings.
 * @param client How to reach the client.
 * @param run The uninstall itself (default {@link runUninstall}; called exactly once).
 * @returns What was done, trust entries included (`untrusted`, and `kept` lines).
 */
export async function uninstallWithTrust(
  args: UninstallArgs,
  ctx: UninstallContext,
  client: TrustClient,
  run: () => UninstallReport = () => runUninstall(args, ctx),
): Promise<UninstallReport> {
  const host = trustingHost();
  const files = host
    ? hookFilesToVisit(ctx).filter((f) => f.host === host.kind && exists(f.path)).map((f) => f.path)
    : [];
  const before = await trustBeforeRemoval(files, ctx, client);
  const report = run();
  // Only where the hook entries are gone: a file that could not be changed keeps its hooks.
  const removedFrom = files.filter((f) => report.removed.some((r) => r.path === f));
  const done = await removeTrustAfter(before, removedFrom, args.dryRun);
  report.untrusted.push(...done.untrusted);
  report.kept.push(...done.kept);
  return report;
}

/**
 * `skillgate uninstall [--purge] [--dry-run] [--json]`: the command-line front of
 * {@link runUninstall}.
 *
 * @module
 */

import { getEnv, homeDir } from "../base/locations.ts";
import { stateRoot } from "../host/places.ts";
import { hostConfigDirs } from "../host/mod.ts";
import { type UninstallReport, uninstallWithTrust } from "../install/uninstall.ts";
import { findCodex } from "../install/codex_trust.ts";
import { findPluginRegistrations } from "../install/doctor.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { errorCause } from "../base/errors.ts";
import { commandError, type CommandSpec, parseCommand } from "./args.ts";

/** `skillgate uninstall`. */
export const UNINSTALL_SPEC: CommandSpec = {
  name: "uninstall",
  usage: ["[--purge] [--dry-run] [--json]"],
  description: "Removes every skillgate hook entry, for every host skillgate supports: the " +
    "user's hook files, this project's, and every file setup wrote into; other entries are kept. " +
    "A hook file setup created that is left empty is deleted, with any folder setup made for it. " +
    "It prints what it removed, and what it kept and why.",
  options: {
    purge: {
      type: "boolean",
      description: "Also delete skillgate's state: config, records, logs, indexes, backups, " +
        "locks and compiled hooks (the state root, ~/.skillgate by default)",
    },
    "dry-run": { type: "boolean", description: "Say what would be removed; change nothing" },
    json: {
      type: "boolean",
      description: "Print one JSON object: removed, deleted, kept, failed",
    },
  },
  notes: "Exit codes: 0 done, 1 a file could not be changed (it is named), 2 usage error. " +
    "The Claude Code plugin is removed in Claude Code (/plugin uninstall skillgate@skillgate); " +
    "a CLI installed with deno install -g by deno uninstall -g skillgate.",
};

function text(path: string): string {
  return sanitizeLine(path, 300);
}

/**
 * The report as lines: one per removed entry, deleted file or folder, kept item and failure.
 *
 * @param report What uninstall did.
 * @param dryRun Whether nothing was changed.
 * @returns The lines.
 */
export function reportLines(report: UninstallReport, dryRun: boolean): string[] {
  const [removed, deleted] = dryRun ? ["would remove", "would delete"] : ["removed", "deleted"];
  const lines = [
    ...report.removed.map((r) => `${removed}: ${r.hookId} (${r.event}) from ${text(r.path)}`),
    ...report.deleted.map((p) => `${deleted}: ${text(p)}`),
    ...report.untrusted.map((u) =>
      `${removed}: the hook trust entry ${text(u.key)} from ${text(u.path)}`
    ),
    ...report.kept.map((k) => `kept: ${text(k.path)}: ${k.why}`),
    ...report.failed.map((f) => `failed: ${text(f.path)}: ${f.why}`),
  ];
  if (report.removed.length === 0) {
    lines.unshift("skillgate uninstall: no skillgate hook entry found");
  }
  return lines;
}

/**
 * Runs `skillgate uninstall`.
 *
 * @param args The arguments after `uninstall`.
 * @returns 0 done, 1 a file could not be changed, 2 usage.
 */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(UNINSTALL_SPEC, args);
  if (!parsed.ok) return parsed.exit;
  const a = parsed.args;
  let report: UninstallReport;
  try {
    const home = homeDir();
    const claude = hostConfigDirs({ home, env: getEnv }).claude;
    const cwd = Deno.cwd();
    const plugin = findPluginRegistrations({ claudeConfigDir: claude, cwd });
    const hostDirs = hostConfigDirs({ home, env: getEnv });
    const PATH = getEnv("PATH") ?? "/usr/bin:/bin";
    report = await uninstallWithTrust({ purge: a.flag("purge"), dryRun: a.flag("dry-run") }, {
      stateRoot: stateRoot(),
      hostDirs,
      cwd,
      pluginInstalled: plugin.hooks.length > 0 || plugin.notes.length > 0,
    }, {
      // Codex CLI's hook trust is removed through the client (lib/install/uninstall_trust.ts).
      bin: findCodex({ SKILLGATE_CODEX_BIN: getEnv("SKILLGATE_CODEX_BIN"), PATH }),
      env: { HOME: home, PATH },
    });
  } catch (err) {
    return commandError(UNINSTALL_SPEC, 1, "FAILED", errorCause(err), a.json);
  }
  const exit = report.failed.length > 0 ? 1 : 0;
  if (a.json) console.log(JSON.stringify({ exit, dryRun: a.flag("dry-run"), ...report }));
  else for (const line of reportLines(report, a.flag("dry-run"))) console.log(line);
  return exit;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);

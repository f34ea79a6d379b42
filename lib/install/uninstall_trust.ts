/**
 * `skillgate uninstall` for a host that trusts hooks one by one (`Host.hookTrust`: Codex CLI keeps
 * a trusted hash per hook in its `config.toml`, as `hooks.state."<hooks file>:<event>:<group>:<index>"`,
 * and `setup --codex` writes one for each of skillgate's hooks). The hook entries go with the other
 * hosts' ({@link runUninstall}); their trust entries go through the client's own app-server, never
 * by editing the user's TOML: before the removal it lists the hooks (`hooks/list`) and notes the
 * keys of skillgate's hooks that hold a trust entry; after it, it deletes those entries
 * (`config/batchWrite`) and lists again, to name any hook of the user's that lost its trust because
 * its place in the file changed. Without the client (`codex` not on `PATH`, no
 * `SKILLGATE_CODEX_BIN`) it removes the hooks and says which file keeps the entries and why.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { HOSTS } from "../host/mod.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { type CodexHookState, listCodexHooks, removeCodexTrust } from "./codex_trust.ts";
import {
  hookFilesToVisit,
  runUninstall,
  type UninstallArgs,
  type UninstallContext,
  type UninstallReport,
} from "./uninstall.ts";
import { skillgateOwner } from "./setup.ts";

/** How to reach the client whose trust entries to remove. */
export interface TrustClient {
  /** Its executable (`findCodex()`), or undefined when it is not installed. */
  readonly bin: string | undefined;
  /** Its environment (`HOME`, `PATH`; its config directory's variable is added). */
  readonly env: Record<string, string>;
  /** How long each app-server session may take (default 20 s). */
  readonly timeoutMs?: number;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function errorText(err: unknown): string {
  return sanitizeLine(err instanceof Error ? err.message : String(err), 200);
}

/**
 * Runs the uninstall and takes back the trust entries of skillgate's hooks in every host that
 * trusts hooks one by one (Codex CLI).
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
  const host = HOSTS.find((h) => h.hookTrust === "app-server");
  if (!host) return run();
  const files = hookFilesToVisit(ctx).filter((f) => f.host === host.kind && exists(f.path))
    .map((f) => f.path);
  const config = join(ctx.hostDirs[host.kind], "config.toml");
  if (files.length === 0) return run();
  if (!client.bin) {
    const report = run();
    let text = "";
    try {
      text = Deno.readTextFileSync(config);
    } catch {
      // no config: no trust entry either
    }
    const removedFrom = files.filter((f) => report.removed.some((r) => r.path === f));
    if (removedFrom.some((f) => text.includes(`${JSON.stringify(f).slice(0, -1)}:`))) {
      report.kept.push({
        path: config,
        why: "its hook trust entries (hooks.state) for skillgate's hooks stay: codex is not on " +
          "PATH (nor SKILLGATE_CODEX_BIN) to remove them through; they trust nothing once the " +
          "hooks are gone, and skillgate uninstall with codex on PATH removes them",
      });
    }
    return report;
  }
  const root = ctx.cwd;
  const cwds = [
    ...new Set([
      root,
      ...files.filter((f) => f !== host.hookFile.userPath(ctx.hostDirs[host.kind]))
        .map((f) => dirname(dirname(f)))
        .filter((d) => host.hookFile.projectPaths(d).some((p) => files.includes(p))),
    ]),
  ];
  const env = { ...client.env };
  if (host.env.configDir) env[host.env.configDir] = ctx.hostDirs[host.kind];
  const opts = { bin: client.bin, env, cwd: root, cwds, timeoutMs: client.timeoutMs };
  let before: CodexHookState[];
  try {
    before = await listCodexHooks(opts);
  } catch (err) {
    const report = run();
    report.kept.push({
      path: config,
      why: `its hook trust entries for skillgate's hooks stay: codex app-server could not list ` +
        `the hooks (${errorText(err)})`,
    });
    return report;
  }
  const inFiles = before.filter((h) => files.includes(h.sourcePath));
  const mine = (h: CodexHookState) => skillgateOwner(h.command, "") !== null;
  // An entry exists for a trusted hook, and for one changed since it was trusted (`modified`).
  const entries = inFiles.filter((h) =>
    mine(h) && (h.trustStatus === "trusted" || h.trustStatus === "modified")
  );
  const trustedOthers = inFiles.filter((h) => !mine(h) && h.trustStatus === "trusted");
  const report = run();
  // Only where the hook entries are gone: a file that could not be changed keeps its hooks.
  const failed = new Set(report.failed.map((f) => f.path));
  const keys = entries.filter((h) => !failed.has(h.sourcePath)).map((h) => h.key);
  if (keys.length === 0) return report;
  if (args.dryRun) {
    for (const key of keys) report.untrusted.push({ path: config, key });
    return report;
  }
  let after: CodexHookState[];
  try {
    after = await removeCodexTrust(opts, keys);
  } catch (err) {
    report.kept.push({
      path: config,
      why: `its hook trust entries for skillgate's hooks stay: codex app-server did not remove ` +
        `them (${errorText(err)})`,
    });
    return report;
  }
  for (const key of keys) report.untrusted.push({ path: config, key });
  // The client keys trust by a hook's place in its file: a user's hook that moved up when
  // skillgate's went is no longer trusted. Say so; its trust is the user's to give again.
  for (const h of trustedOthers) {
    const now = after.find((a) => a.sourcePath === h.sourcePath && a.command === h.command);
    if (now && now.trustStatus !== "trusted") {
      report.kept.push({
        path: h.sourcePath,
        why: `Codex CLI no longer trusts your ${sanitizeLine(h.eventName, 40)} hook ` +
          `'${sanitizeLine(h.command, 120)}' (its place in the file changed when skillgate's ` +
          `hooks were removed): trust it again in codex (/hooks)`,
      });
    }
  }
  return report;
}

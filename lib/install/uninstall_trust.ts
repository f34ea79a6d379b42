/**
 * Taking back the trust of skillgate's hooks in a host that trusts hooks one by one
 * (`Host.hookTrust`: Codex CLI keeps a trusted hash per hook in its `config.toml`, as
 * `hooks.state."<hooks file>:<event>:<group>:<index>"`, and `setup --codex` writes one for each of
 * skillgate's hooks), when `skillgate uninstall` or `setup --codex --uninstall` removes the hooks.
 * Always through the client's own app-server, never by editing the user's TOML: before the removal
 * {@link trustBeforeRemoval} lists the hooks (`hooks/list`) and notes the keys of skillgate's hooks
 * that hold a trust entry; after it {@link removeTrustAfter} deletes those entries
 * (`config/batchWrite`) and lists again, to name any hook of the user's that lost its trust because
 * its place in the file changed. Without the client (`codex` not on `PATH`, no
 * `SKILLGATE_CODEX_BIN`) the hooks still go, and it says which file keeps the entries and why.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { Host, HostKind } from "../host/host.ts";
import { HOSTS } from "../host/mod.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import {
  type CodexHookState,
  type CodexTrustOptions,
  listCodexHooks,
  removeCodexTrust,
} from "./codex_trust.ts";
import { recogniseCommand } from "./hook_commands.ts";

/** How to reach the client whose trust entries to remove. */
export interface TrustClient {
  /** Its executable (`findCodex()`), or undefined when it is not installed. */
  readonly bin: string | undefined;
  /** Its environment (`HOME`, `PATH`; its config directory's variable is added). */
  readonly env: Record<string, string>;
  /** How long each app-server session may take (default 20 s). */
  readonly timeoutMs?: number;
}

/** Where the hook files are. */
export interface TrustPlaces {
  /** Each host's config directory. */
  readonly hostDirs: Readonly<Record<HostKind, string>>;
  /** The working directory (its project's hooks are listed too). */
  readonly cwd: string;
}

/** What {@link trustBeforeRemoval} found, for {@link removeTrustAfter}. */
export type TrustBefore =
  | { readonly kind: "none" }
  | { readonly kind: "kept"; readonly config: string; readonly why: string }
  | {
    readonly kind: "listed";
    readonly config: string;
    readonly opts: CodexTrustOptions;
    /** skillgate's hooks that hold a trust entry. */
    readonly entries: readonly CodexHookState[];
    /** The user's hooks in the same files that the client trusts. */
    readonly trustedOthers: readonly CodexHookState[];
  };

/** What {@link removeTrustAfter} did. */
export interface TrustRemoval {
  /** Each trust entry removed (or, in a dry run, that would be). */
  readonly untrusted: { path: string; key: string }[];
  /** What stays, and why. */
  readonly kept: { path: string; why: string }[];
}

function errorText(err: unknown): string {
  return sanitizeLine(err instanceof Error ? err.message : String(err), 200);
}

/** The host whose hooks need trust, if any. */
export function trustingHost(): Host<HostKind> | undefined {
  return HOSTS.find((h) => h.hookTrust === "app-server");
}

/**
 * Before skillgate's hooks are removed from `files` (the trusting host's hook files): which of them
 * hold a trust entry, as the client says.
 *
 * @param files The host's hook files that exist.
 * @param places The host's config directory and the working directory.
 * @param client How to reach the client.
 * @returns What to remove after the hooks are gone, or why nothing can be.
 */
export async function trustBeforeRemoval(
  files: readonly string[],
  places: TrustPlaces,
  client: TrustClient,
): Promise<TrustBefore> {
  const host = trustingHost();
  if (!host || files.length === 0) return { kind: "none" };
  const config = join(places.hostDirs[host.kind], "config.toml");
  if (!client.bin) {
    return {
      kind: "kept",
      config,
      why: "its hook trust entries (hooks.state) for skillgate's hooks stay: codex is not on " +
        "PATH (nor SKILLGATE_CODEX_BIN) to remove them through; they trust nothing once the " +
        "hooks are gone, and skillgate uninstall with codex on PATH removes them",
    };
  }
  const userFile = host.hookFile.userPath(places.hostDirs[host.kind]);
  const cwds = [
    ...new Set([
      places.cwd,
      ...files.filter((f) => f !== userFile).map((f) => dirname(dirname(f)))
        .filter((d) => host.hookFile.projectPaths(d).some((p) => files.includes(p))),
    ]),
  ];
  const env = { ...client.env };
  if (host.env.configDir) env[host.env.configDir] = places.hostDirs[host.kind];
  const opts = { bin: client.bin, env, cwd: places.cwd, cwds, timeoutMs: client.timeoutMs };
  let hooks: CodexHookState[];
  try {
    hooks = (await listCodexHooks(opts)).filter((h) => files.includes(h.sourcePath));
  } catch (err) {
    return {
      kind: "kept",
      config,
      why: `its hook trust entries for skillgate's hooks stay: codex app-server could not list ` +
        `the hooks (${errorText(err)})`,
    };
  }
  // skillgate's own by its command, as setup and uninstall recognise them (`skillgateOwner`).
  const mine = (h: CodexHookState) => recogniseCommand(h.command, "") !== null;
  return {
    kind: "listed",
    config,
    opts,
    // An entry exists for a trusted hook, and for one changed since it was trusted (`modified`).
    entries: hooks.filter((h) =>
      mine(h) && (h.trustStatus === "trusted" || h.trustStatus === "modified")
    ),
    trustedOthers: hooks.filter((h) => !mine(h) && h.trustStatus === "trusted"),
  };
}

/**
 * After skillgate's hooks were removed: deletes their trust entries through the client (not in a
 * dry run), and names the user's hooks that lost their trust.
 *
 * @param before What {@link trustBeforeRemoval} found.
 * @param removedFrom The files skillgate's hooks were removed from (or would be, in a dry run).
 * @param dryRun Whether to change nothing.
 * @returns The entries removed and what stays.
 */
export async function removeTrustAfter(
  before: TrustBefore,
  removedFrom: readonly string[],
  dryRun: boolean,
): Promise<TrustRemoval> {
  const out: TrustRemoval = { untrusted: [], kept: [] };
  if (before.kind === "none" || removedFrom.length === 0) return out;
  if (before.kind === "kept") {
    let text = "";
    try {
      text = Deno.readTextFileSync(before.config);
    } catch {
      // no config: no trust entry either
    }
    // Said only when the config names one of those files (an entry key starts with its path).
    if (removedFrom.some((f) => text.includes(`${JSON.stringify(f).slice(0, -1)}:`))) {
      out.kept.push({ path: before.config, why: before.why });
    }
    return out;
  }
  const keys = before.entries.filter((h) => removedFrom.includes(h.sourcePath)).map((h) => h.key);
  if (keys.length === 0) return out;
  if (dryRun) {
    for (const key of keys) out.untrusted.push({ path: before.config, key });
    return out;
  }
  let after: CodexHookState[];
  try {
    after = await removeCodexTrust(before.opts, keys);
  } catch (err) {
    out.kept.push({
      path: before.config,
      why: `its hook trust entries for skillgate's hooks stay: codex app-server did not remove ` +
        `them (${errorText(err)})`,
    });
    return out;
  }
  for (const key of keys) out.untrusted.push({ path: before.config, key });
  // The client keys trust by a hook's place in its file: a user's hook that moved up when
  // skillgate's went is no longer trusted. Say so; its trust is the user's to give again.
  for (const h of before.trustedOthers) {
    if (!removedFrom.includes(h.sourcePath)) continue;
    const now = after.find((a) => a.sourcePath === h.sourcePath && a.command === h.command);
    if (now && now.trustStatus !== "trusted") {
      out.kept.push({
        path: h.sourcePath,
        why: `Codex CLI no longer trusts your ${sanitizeLine(h.eventName, 40)} hook ` +
          `'${sanitizeLine(h.command, 120)}' (its place in the file changed when skillgate's ` +
          `hooks were removed): trust it again in codex (/hooks)`,
      });
    }
  }
  return out;
}

/**
 * What `setup` wrote outside the state root, so that `skillgate uninstall` can take it all back:
 * each hook file it wrote entries into (with its host, and whether setup created the file), and
 * each folder it created for one. Kept in `<state root>/install.json` (atomic, 0600, under a lock).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { readJsonFile, withLock, writeFileAtomic } from "../base/state_file.ts";
import type { HostKind } from "../host/mod.ts";

/** One hook file setup wrote into. */
export interface RecordedFile {
  /** The host whose file it is. */
  readonly host: HostKind;
  /** Whether setup created it (so an uninstall that empties it deletes it). */
  readonly created: boolean;
}

/** The record. */
export interface InstallRecord {
  /** Hook files setup wrote into, by absolute path. */
  readonly files: Readonly<Record<string, RecordedFile>>;
  /** Folders setup created for those files, by absolute path. */
  readonly dirs: readonly string[];
}

/**
 * Where the record lives.
 *
 * @param stateRoot The state root.
 * @returns `<state root>/install.json`.
 */
export function installRecordPath(stateRoot: string): string {
  return join(stateRoot, "install.json");
}

/**
 * Reads the record; a missing or unreadable one is empty (uninstall then still visits every
 * host's usual files).
 *
 * @param stateRoot The state root.
 * @returns The record.
 */
export function readInstallRecord(stateRoot: string): InstallRecord {
  try {
    const doc = readJsonFile(installRecordPath(stateRoot)) as Partial<InstallRecord> | undefined;
    const files: Record<string, RecordedFile> = {};
    for (const [path, v] of Object.entries(doc?.files ?? {})) {
      if (v && typeof v.host === "string") {
        files[path] = { host: v.host, created: v.created === true };
      }
    }
    const dirs = Array.isArray(doc?.dirs) ? doc.dirs.filter((d) => typeof d === "string") : [];
    return { files, dirs };
  } catch {
    return { files: {}, dirs: [] };
  }
}

/**
 * The folders that must be created for a file: its missing ancestors, outermost first.
 *
 * @param path The file.
 * @returns Absolute folder paths that do not exist yet.
 */
export function missingDirs(path: string): string[] {
  const out: string[] = [];
  let dir = dirname(path);
  for (;;) {
    try {
      Deno.lstatSync(dir);
      break;
    } catch {
      out.unshift(dir);
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return out;
}

/**
 * Changes the record under its lock.
 *
 * @param stateRoot The state root.
 * @param change Gives the new record from the current one.
 */
export function updateInstallRecord(
  stateRoot: string,
  change: (record: InstallRecord) => InstallRecord,
): void {
  const path = installRecordPath(stateRoot);
  withLock(`${path}.lock`, () => {
    const next = change(readInstallRecord(stateRoot));
    writeFileAtomic(path, JSON.stringify(next, null, 2) + "\n");
  });
}

/**
 * Notes that setup wrote a hook file.
 *
 * @param stateRoot The state root.
 * @param path The hook file.
 * @param host Its host.
 * @param created Whether this write created it.
 * @param dirs The folders this write created.
 */
export function noteHookFile(
  stateRoot: string,
  path: string,
  host: HostKind,
  created: boolean,
  dirs: readonly string[],
): void {
  updateInstallRecord(stateRoot, (r) => ({
    files: { ...r.files, [path]: { host, created: created || r.files[path]?.created === true } },
    dirs: [...new Set([...r.dirs, ...dirs])],
  }));
}

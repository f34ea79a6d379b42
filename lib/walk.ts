/**
 * A small bounded directory walker: no symlink is followed, depth and file count are bounded,
 * over-long names and unreadable entries are skipped and counted, never thrown.
 *
 * @module
 */

import { join } from "./path.ts";

/** Limits of a walk. */
export interface WalkLimits {
  /** The deepest directory visited below the root (the root is depth 0; default 8). */
  readonly maxDepth?: number;
  /** The most directory entries looked at in one walk (default 10,000). */
  readonly maxEntries?: number;
  /** The longest entry name accepted (default 256). */
  readonly maxNameLength?: number;
  /** Directory names never entered (default `.git` and `node_modules`). */
  readonly skipDirs?: readonly string[];
}

/** A file the walk found. */
export interface WalkFile {
  /** The file's path. */
  readonly path: string;
  /** Its name. */
  readonly name: string;
  /** The directory that holds it. */
  readonly dir: string;
  /** Its depth below the root (a file directly in the root is at depth 1). */
  readonly depth: number;
}

/** What a walk found. */
export interface WalkResult {
  /** The files that matched. */
  readonly files: WalkFile[];
  /** Every directory visited. */
  readonly dirs: string[];
  /** Entries skipped: unreadable, symlinks, over-long names, past the bounds. */
  readonly skipped: number;
  /** Entries looked at. */
  readonly entries: number;
  /** Whether a bound cut the walk short. */
  readonly truncated: boolean;
}

/**
 * Walks a directory tree for files whose name passes `match`.
 *
 * @param root The directory to walk; a missing or unreadable root gives an empty result.
 * @param match Which file names to return.
 * @param limits The bounds.
 * @returns What was found. Never throws.
 */
export function walkFiles(
  root: string,
  match: (name: string) => boolean,
  limits: WalkLimits = {},
): WalkResult {
  const maxDepth = limits.maxDepth ?? 8;
  const maxEntries = limits.maxEntries ?? 10_000;
  const maxName = limits.maxNameLength ?? 256;
  const skipDirs = new Set(limits.skipDirs ?? [".git", "node_modules"]);
  const files: WalkFile[] = [];
  const dirs: string[] = [];
  let skipped = 0;
  let entries = 0;
  let truncated = false;
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  try {
    const info = Deno.lstatSync(root);
    if (!info.isDirectory) return { files, dirs, skipped: 1, entries, truncated };
  } catch {
    return { files, dirs, skipped: 0, entries, truncated };
  }
  while (stack.length > 0) {
    const { dir, depth } = stack.pop()!;
    dirs.push(dir);
    let list: Deno.DirEntry[];
    try {
      list = [...Deno.readDirSync(dir)];
    } catch {
      skipped++;
      continue;
    }
    list.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of list) {
      if (++entries > maxEntries) {
        truncated = true;
        return { files, dirs, skipped: skipped + 1, entries: maxEntries, truncated };
      }
      if (entry.isSymlink || entry.name.length > maxName) {
        skipped++;
        continue;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (skipDirs.has(entry.name)) continue;
        if (depth + 1 > maxDepth) {
          skipped++;
          truncated = true;
          continue;
        }
        stack.push({ dir: path, depth: depth + 1 });
      } else if (entry.isFile && match(entry.name)) {
        files.push({ path, name: entry.name, dir, depth: depth + 1 });
      }
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, dirs, skipped, entries, truncated };
}

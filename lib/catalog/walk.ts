/**
 * A small bounded directory walker: depth and file count are bounded, over-long names and
 * unreadable entries are skipped and counted, never thrown. Symlinks are skipped, or, with
 * `followSymlinks`, followed the way Claude Code follows them (a linked skill folder, a linked
 * skills root), each real directory entered once, so a link loop ends at once.
 *
 * Every read goes through the path as found (`<root>/<link>/…`), never through the link's target:
 * Deno checks read permission on the path as given, so a hook granted the root reads a linked
 * folder wherever it points.
 *
 * @module
 */

import { join } from "../base/path.ts";

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
  /**
   * Follow symlinks to directories and files (default false: skip them). A directory whose real
   * path was entered already (a loop, or a second link to it) is skipped; among the entries of
   * one directory, real directories are taken before links.
   */
  readonly followSymlinks?: boolean;
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
  /** The symlinks followed (the root too, when it is one), as found: directories and files. */
  readonly links: string[];
  /** Entries skipped: unreadable, symlinks not followed, dangling links, directories entered
   * already, over-long names, past the bounds. */
  readonly skipped: number;
  /** Entries looked at. */
  readonly entries: number;
  /** Whether a bound cut the walk short. */
  readonly truncated: boolean;
}

/** The real path of a directory, or `undefined` when it cannot be resolved. */
function realPathOf(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Walks a directory tree for files whose name passes `match`.
 *
 * @param root The directory to walk; a missing or unreadable root gives an empty result. With
 *   `followSymlinks`, the root may be a symlink to a directory.
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
  const follow = limits.followSymlinks === true;
  const files: WalkFile[] = [];
  const dirs: string[] = [];
  const links: string[] = [];
  let skipped = 0;
  let entries = 0;
  let truncated = false;
  const result = () => {
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, dirs, links, skipped, entries, truncated };
  };
  // The real path of every directory entered (only when links are followed). A directory reached
  // without a link has its parent's real path plus its name, so only a link costs a lookup.
  const visited = new Set<string>();
  let rootReal = root;
  try {
    const info = Deno.lstatSync(root);
    if (info.isSymlink && follow) {
      if (!Deno.statSync(root).isDirectory) return { ...result(), skipped: 1 };
      links.push(root);
    } else if (!info.isDirectory) return { ...result(), skipped: 1 };
    if (follow) {
      rootReal = realPathOf(root) ?? root;
      visited.add(rootReal);
    }
  } catch {
    return result();
  }
  const stack: Array<{ dir: string; depth: number; real: string }> = [
    { dir: root, depth: 0, real: rootReal },
  ];
  while (stack.length > 0) {
    const { dir, depth, real } = stack.pop()!;
    dirs.push(dir);
    let list: Deno.DirEntry[];
    try {
      list = [...Deno.readDirSync(dir)];
    } catch {
      skipped++;
      continue;
    }
    list.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    // Real entries first, so that a directory and a link to it in the same folder keep the
    // directory's own name.
    if (follow) list.sort((a, b) => Number(a.isSymlink) - Number(b.isSymlink));
    for (const entry of list) {
      if (++entries > maxEntries) {
        truncated = true;
        return { ...result(), skipped: skipped + 1, entries: maxEntries };
      }
      if ((entry.isSymlink && !follow) || entry.name.length > maxName) {
        skipped++;
        continue;
      }
      const path = join(dir, entry.name);
      let isDirectory = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        try {
          const target = Deno.statSync(path);
          isDirectory = target.isDirectory;
          isFile = target.isFile;
        } catch {
          // Dangling, a loop of links, or not readable.
          skipped++;
          continue;
        }
      }
      if (isDirectory) {
        if (skipDirs.has(entry.name)) continue;
        if (depth + 1 > maxDepth) {
          skipped++;
          truncated = true;
          continue;
        }
        let childReal = join(real, entry.name);
        if (follow) {
          if (entry.isSymlink) {
            const resolved = realPathOf(path);
            if (resolved === undefined) {
              skipped++;
              continue;
            }
            childReal = resolved;
          }
          if (visited.has(childReal)) {
            skipped++;
            continue;
          }
          visited.add(childReal);
          if (entry.isSymlink) links.push(path);
        }
        stack.push({ dir: path, depth: depth + 1, real: childReal });
      } else if (isFile && match(entry.name)) {
        if (entry.isSymlink) links.push(path);
        files.push({ path, name: entry.name, dir, depth: depth + 1 });
      }
    }
  }
  return result();
}

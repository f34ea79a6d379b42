/**
 * The project folders a session searches: from its directory up to the repository root, then from
 * the project root. The catalog looks for project skills and agents in them, the overlay files for
 * a project's `.skillgate/skills.yaml`.
 *
 * @module
 */

import { dirname, join, resolve } from "../base/path.ts";
import { exists } from "../base/fs.ts";

/**
 * The folders whose `.claude` may hold project skills and agents: the session's directory and
 * each parent up to the repository root (the first with a `.git`), and the same from the project
 * root (the host's project variable), as the hosts search them. A folder whose `.git` this process may
 * not read cannot be known not to be the root: the walk goes on past it, and only the folders it
 * may read (its grants) give anything. A project's overlay file is looked for in the same folders.
 *
 * @param cwd The session's directory.
 * @param projectDir The project root.
 * @returns The folders, nearest to `cwd` first.
 */
export function projectBases(cwd: string | undefined, projectDir: string | undefined): string[] {
  const bases: string[] = [];
  for (const start of [cwd, projectDir]) {
    if (!start) continue;
    let dir = resolve(start);
    for (let i = 0; i < 32; i++) {
      if (!bases.includes(dir)) bases.push(dir);
      const git = join(dir, ".git");
      // A `.git` entry (a directory, or a file in a worktree) marks the repository root.
      if (
        Deno.permissions.querySync({ name: "read", path: git }).state === "granted" && exists(git)
      ) {
        break;
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return bases;
}

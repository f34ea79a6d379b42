/**
 * Small file-system questions asked in many places, answered without throwing.
 *
 * @module
 */

/** Options of {@link exists}. */
export interface ExistsOptions {
  /**
   * Follow a symbolic link: the path exists only when its target does (`stat`). Default `false`:
   * the entry itself is asked about (`lstat`), so a dangling link exists.
   */
  readonly followSymlinks?: boolean;
}

/**
 * Whether something is at a path. Any failure (not found, no permission, a bad path) is `false`.
 *
 * @param path The path.
 * @param options Whether a symbolic link must lead somewhere.
 * @returns True when the path (or, following links, its target) exists.
 *
 * @example
 * ```ts
 * import { exists } from "./fs.ts";
 * exists("/"); // true
 * exists("/no/such/path"); // false
 * ```
 */
export function exists(path: string, options: ExistsOptions = {}): boolean {
  try {
    if (options.followSymlinks) Deno.statSync(path);
    else Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

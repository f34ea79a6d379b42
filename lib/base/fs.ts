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

/** Thrown for a path that names no regular file (a FIFO, socket, device or folder): never opened. */
export class NotRegularFileError extends Error {
  /** The path. */
  readonly path: string;
  /**
   * @param path The path.
   * @param what What it is instead.
   */
  constructor(path: string, what: string) {
    super(`Not a regular file (${what})`);
    this.name = "NotRegularFileError";
    this.path = path;
  }
}

/**
 * What a file is when it is no regular file, in a few words (`undefined` for a regular file).
 *
 * @param info The file's `stat`.
 * @returns For example `a FIFO`.
 */
function notRegularKind(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return undefined;
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

/**
 * Checks that a path (links followed) is a regular file, without opening it: a FIFO, socket or
 * device is refused at once, never waited on.
 *
 * @param path The path (from a payload, say).
 * @returns Its `stat`.
 * @throws {NotRegularFileError} When it is no regular file.
 * @throws {Error} What `Deno.statSync` throws (`NotFound`, a missing grant).
 */
function statRegularFile(path: string): Deno.FileInfo {
  const info = Deno.statSync(path);
  const what = notRegularKind(info);
  if (what) throw new NotRegularFileError(path, what);
  return info;
}

/**
 * Opens a file for reading only when it is a regular file, and never blocks the process: the
 * type is checked first ({@link statRegularFile}), and the open itself is asynchronous, so a path
 * turned into a FIFO in between waits for a writer off the main thread (the hook's deadline still
 * ends it), never in it. Once open, the file's own type is checked again.
 *
 * @param path The path (from a payload, say).
 * @returns The open file; the caller closes it.
 * @throws {NotRegularFileError} When it is no regular file.
 * @throws {Error} What `Deno.open` throws (`NotFound`, a missing grant).
 */
export async function openRegularFile(path: string): Promise<Deno.FsFile> {
  statRegularFile(path);
  const file = await Deno.open(path, { read: true });
  try {
    const what = notRegularKind(file.statSync());
    if (what) throw new NotRegularFileError(path, what);
    return file;
  } catch (err) {
    file.close();
    throw err;
  }
}

/**
 * Small file-system questions asked in many places, answered without throwing, and the opening of
 * files a hook is handed (regular files only, through links the hook is granted).
 *
 * @module
 */

import { isUnder } from "./path.ts";

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
  const before = statRegularFile(path);
  const file = await Deno.open(path, { read: true });
  try {
    regularOpened(file, path, before);
    return file;
  } catch (err) {
    file.close();
    throw err;
  }
}

/** The `stat` of a file opened by a path whose `stat` was `before`: still a regular file. */
function regularOpened(file: Deno.FsFile, path: string, before: Deno.FileInfo): Deno.FileInfo {
  const info = statOpenFile(file, path, before);
  const what = notRegularKind(info);
  if (what) throw new NotRegularFileError(path, what);
  return info;
}

/**
 * Reads a whole file synchronously when it is a regular file (links followed) of at most
 * `maxBytes`: for a file whose path comes from disk (a `SKILL.md`, a manifest, an index under the
 * state root). A FIFO, socket or device is refused by its `stat`, never opened, so the read never
 * waits for a writer nor reads forever; a larger file is refused unread. Once open, the file must
 * still be a regular file (for a file read through a link out of the grants, which Deno does not
 * let the open file `stat`: the path's `stat` again, naming the same file), and no more than its
 * size then is read.
 *
 * @param path The path.
 * @param maxBytes The largest file read.
 * @returns Its bytes.
 * @throws {NotRegularFileError} When it is no regular file.
 * @throws {FileTooLargeError} When it is larger than `maxBytes`.
 * @throws {ReplacedFileError} When its path names another file after the open than before.
 * @throws {Error} What `Deno.statSync`, `Deno.openSync` or {@link statOpenFile} throws
 *   (`NotFound`, a missing grant).
 *
 * @example
 * ```ts
 * import { readRegularFileSync } from "./fs.ts";
 * readRegularFileSync("/etc/hostname", 4096);
 * ```
 */
export function readRegularFileSync(path: string, maxBytes: number): Uint8Array<ArrayBuffer> {
  const before = statRegularFile(path);
  if (before.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
  using file = Deno.openSync(path, { read: true });
  let opened: Deno.FileInfo;
  try {
    opened = regularOpened(file, path, before);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotCapable)) throw err;
    // Read through a link out of the grants (a linked skill folder: read as the host reads it),
    // which Deno does not let the open file `stat`: the path's own `stat`, still the same file.
    opened = statRegularFile(path);
    if (opened.ino !== before.ino || opened.dev !== before.dev) throw new ReplacedFileError(path);
  }
  if (opened.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
  return readSizeSync(file, opened.size);
}

/**
 * {@link readRegularFileSync} as text (UTF-8, as `Deno.readTextFileSync` decodes it: a byte
 * order mark kept, a bad byte replaced).
 *
 * @param path The path.
 * @param maxBytes The largest file read.
 * @returns Its text.
 * @throws {Error} What {@link readRegularFileSync} throws.
 */
export function readRegularTextSync(path: string, maxBytes: number): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(readRegularFileSync(path, maxBytes));
}

/** Thrown for a file larger than a reader's cap: never read. */
export class FileTooLargeError extends Error {
  /** The path. */
  readonly path: string;
  /**
   * @param path The path.
   * @param maxBytes The cap.
   */
  constructor(path: string, maxBytes: number) {
    super(`Larger than ${maxBytes} bytes`);
    this.name = "FileTooLargeError";
    this.path = path;
  }
}

/** The folders marked by {@link followLinksTo}, without a trailing `/`. */
const followedFolders = new Set<string>();

/**
 * Marks a granted folder whose links on the way are followed as setup grants them (no Deno grant
 * is added: {@link statOpenFile} answers by path where Deno refuses): a `~/.claude`
 * (or its `projects/`) kept in a dotfiles folder is granted where it leads too when setup writes
 * the commands (`linkTarget` in `lib/hook/table.ts`), but the plugin's commands name the folder by
 * a placeholder, so nothing can be granted where it leads. Deno opens and reads a file under the
 * granted path all the same, and refuses only the `stat` of the open file (it checks the file's
 * resolved path): {@link statOpenFile} then answers from the path, for a file whose resolved path
 * lies where the folder's resolved path does, as setup's grant would allow. The hook runner marks
 * the host's transcripts folder; `markStateRoot` marks the state root.
 *
 * @param folder An absolute folder the hook is granted.
 */
export function followLinksTo(folder: string): void {
  followedFolders.add(folder.replace(/\/+$/, ""));
}

/**
 * Whether a path lies under a folder marked by {@link followLinksTo}, and resolved, under that
 * folder resolved: a link above the folder or at it leads there; a link below it (a transcript
 * linked to a file elsewhere) does not.
 */
function underGrantedTarget(path: string): boolean {
  for (const folder of followedFolders) {
    if (!isUnder(path, folder)) continue;
    try {
      const real = Deno.realPathSync(path);
      const target = Deno.realPathSync(folder);
      if (real.startsWith(target.endsWith("/") ? target : `${target}/`)) return true;
    } catch {
      // Cannot be resolved: not followed.
    }
  }
  return false;
}

/** Thrown when a file's path no longer names the file opened (it was replaced meanwhile). */
export class ReplacedFileError extends Error {
  /** @param path The path. */
  constructor(path: string) {
    super(`Replaced while it was opened: ${path}`);
    this.name = "ReplacedFileError";
  }
}

/**
 * The `stat` of an open file. Deno 2.9 checks `FsFile.stat` against the grants by the file's
 * resolved path, so a file reached through a linked granted folder opens and reads but does not
 * `stat`. For a path under a folder marked by {@link followLinksTo} whose resolved path lies
 * under the folder's resolved path, the path's own `stat` answers then, and when `before` is given
 * it must name the same file (device and inode) as before the open. Checked twice by the path,
 * not by the open file: a file swapped and swapped back between the two is not caught (Deno has no
 * `openat`/`fstatat`; docs/internals.md).
 *
 * @param file The open file.
 * @param path The path it was opened by.
 * @param before The path's `stat` (or `lstat`) taken before the open, to compare with.
 * @param statPath How to `stat` the path (`Deno.lstatSync` for a state file, never a link).
 * @returns Its `stat`.
 * @throws {Deno.errors.NotCapable} For a file reached through any other link out of the grants.
 * @throws {ReplacedFileError} When the path names another file than before the open.
 */
export function statOpenFile(
  file: Deno.FsFile,
  path: string,
  before?: Deno.FileInfo,
  statPath: (path: string) => Deno.FileInfo = Deno.statSync,
): Deno.FileInfo {
  try {
    return file.statSync();
  } catch (err) {
    if (!(err instanceof Deno.errors.NotCapable) || !underGrantedTarget(path)) throw err;
  }
  const named = statPath(path);
  if (before && before.ino !== null && (named.ino !== before.ino || named.dev !== before.dev)) {
    throw new ReplacedFileError(path);
  }
  return named;
}

/**
 * Reads an open file's first `size` bytes synchronously (fewer when it ends first).
 *
 * @param file The open file, at its start.
 * @param size How many bytes (its size, say).
 * @returns The bytes read.
 */
export function readSizeSync(file: Deno.FsFile, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let got = 0;
  while (got < size) {
    const n = file.readSync(out.subarray(got));
    if (n === null) break;
    got += n;
  }
  return got === size ? out : out.subarray(0, got);
}

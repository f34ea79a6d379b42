/**
 * Safe state files: atomic private writes (temp file in the same folder, fsync, rename, mode
 * 0600), an exclusive lock on a dedicated lock file, bounded JSON reads, and the check that a
 * session id is safe to use as a file name.
 *
 * A state file that is a symbolic link (or anything but a regular file) is refused: it is never
 * read, appended to or locked through, because the link may point anywhere, outside the state
 * root too, and Deno's permission grants do not stop a process from following it. An atomic
 * write renames over the link itself, so it never follows one. So is a state folder: every
 * folder between a state root ({@link markStateRoot}) and a state file under it must be a real
 * folder, checked before a file is opened or written and again once it is, so a folder swapped
 * for a link in between is caught too (the state root itself may be a link: the user chose it).
 *
 * A write under the file's own lock (`<file>.lock`, {@link withLock}) goes through one temp file
 * name, `.<file>.tmp`: one left behind by a writer killed before its rename is older than the lock
 * now held, so the next writer removes it.
 *
 * @module
 */

import { followLinksTo, readSizeSync, statOpenFile } from "./fs.ts";
import { basename, dirname, join } from "./path.ts";

/** A state file or folder that is a symbolic link (or of another type): refused, never followed. */
export class StateFileRefusedError extends Error {
  /** The refused file or folder. */
  readonly path: string;
  /**
   * @param path The refused file or folder.
   * @param what What it is instead of a regular file (or a real folder).
   * @param noun `file`, or `folder` for a state folder.
   */
  constructor(path: string, what = "a symbolic link", noun: "file" | "folder" = "file") {
    super(`Refusing a state ${noun} that is ${what}; delete it`);
    this.name = "StateFileRefusedError";
    this.path = path;
  }
}

/** The state roots this process uses ({@link markStateRoot}), without a trailing `/`. */
const stateRoots = new Set<string>();

/**
 * Marks a folder as a state root: from now on every folder between it and a state file under it
 * must be a real folder ({@link checkStateFolders}). `stateRoot()` (`lib/host/places.ts`) marks
 * the root it returns, so every state file under the root a process uses is checked.
 *
 * @param root The state root (it may itself be a link: the user chose it).
 */
export function markStateRoot(root: string): void {
  const r = root.replace(/\/+$/, "");
  if (!r) return;
  stateRoots.add(r);
  // A state root reached through a link the commands cannot grant (the plugin's data folder in a
  // linked `~/.claude`) is read as setup's grant of where it leads would allow.
  followLinksTo(r);
}

/** The folders from the state root down to a file under it, outermost first (none elsewhere). */
function foldersBelowRoot(path: string): string[] {
  let root = "";
  for (const r of stateRoots) {
    if (r.length > root.length && path.startsWith(r + "/")) root = r;
  }
  if (!root) return [];
  const parts = path.slice(root.length + 1).split("/").slice(0, -1);
  const out: string[] = [];
  let dir = root;
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    dir = join(dir, part);
    out.push(dir);
  }
  return out;
}

/**
 * Checks every folder between the state root and a state file: each must be a real folder (not a
 * link), looked at with `lstat`. A path outside the state root is not checked.
 *
 * @param path The state file.
 * @param create Create the missing folders (mode 0700); else a missing one ends the check.
 * @throws {StateFileRefusedError} When a folder is a symbolic link or no folder.
 */
export function checkStateFolders(path: string, create = false): void {
  const folders = foldersBelowRoot(path);
  for (const [i, dir] of folders.entries()) {
    if (create) {
      try {
        Deno.mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if (i === 0 && err instanceof Deno.errors.NotFound) {
          // No state root yet: made with its first folder (a grant on that folder is enough).
          Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
        } else if (!(err instanceof Deno.errors.AlreadyExists)) {
          // Another process made it, or something is there: the lstat below says what.
          throw err;
        }
      }
    }
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(dir);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      // A folder this process may not look at: the hook table grants every hook read on each
      // state folder it writes (a linked one it could not look at was written through: the
      // redirect created its log through a linked `hooks/`), so this is one it never writes.
      if (err instanceof Deno.errors.NotCapable) continue;
      throw err;
    }
    if (info.isSymlink) throw new StateFileRefusedError(dir, "a symbolic link", "folder");
    if (!info.isDirectory) throw new StateFileRefusedError(dir, "no folder", "folder");
  }
}

function kindOf(info: Deno.FileInfo): string | undefined {
  if (info.isSymlink) return "a symbolic link";
  if (!info.isFile) return info.isDirectory ? "a directory" : "not a regular file";
  return undefined;
}

/**
 * Checks that a state file is a regular file or does not exist (`lstat`, never following a link),
 * and that its state folders are real folders ({@link checkStateFolders}).
 *
 * @param path The state file.
 * @throws {StateFileRefusedError} When it or a state folder is a symbolic link, or of another type.
 * @throws {Error} When it cannot be looked at (a missing read grant, say).
 */
export function checkStateFile(path: string): void {
  lstatStateFile(path);
}

/** {@link checkStateFile}, giving the file's `lstat` (`undefined` when it does not exist). */
function lstatStateFile(path: string): Deno.FileInfo | undefined {
  checkStateFolders(path);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  const what = kindOf(info);
  if (what) throw new StateFileRefusedError(path, what);
  return info;
}

/**
 * Opens a state file without going through a symbolic link: the path must not be a link before it
 * is opened, and must still name the very file opened afterwards (so a link planted in between is
 * caught too, before anything is read or written).
 *
 * @param path The state file.
 * @param options How to open it (as `Deno.openSync`).
 * @returns The open file; the caller closes it.
 * @throws {StateFileRefusedError} When the path is a symbolic link or not a regular file.
 * @throws {Error} What `Deno.openSync` throws (`NotFound` for a missing file without `create`).
 */
export function openStateFile(path: string, options: Deno.OpenOptions): Deno.FsFile {
  const before = lstatStateFile(path);
  const file = Deno.openSync(path, options);
  try {
    const opened = statOpenFile(file, path, before, Deno.lstatSync);
    const named = Deno.lstatSync(path);
    const what = kindOf(named) ?? kindOf(opened);
    if (what) throw new StateFileRefusedError(path, what);
    if (
      opened.ino !== null && named.ino !== null &&
      (opened.ino !== named.ino || opened.dev !== named.dev)
    ) {
      throw new StateFileRefusedError(path, "replaced while it was opened");
    }
    // The path named this very file, and its folders are real now: it was opened in them.
    checkStateFolders(path);
    return file;
  } catch (err) {
    file.close();
    throw err;
  }
}

/**
 * Reads a whole state file through {@link openStateFile}.
 *
 * @param path The state file.
 * @param maxBytes The largest file accepted.
 * @returns Its bytes, or `undefined` when it does not exist.
 * @throws {CorruptFileError} When it is larger than `maxBytes`.
 * @throws {StateFileRefusedError} When it is a symbolic link or not a regular file.
 */
export function readStateFile(path: string, maxBytes: number): Uint8Array | undefined {
  let file: Deno.FsFile;
  try {
    file = openStateFile(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  try {
    const size = statOpenFile(file, path, undefined, Deno.lstatSync).size;
    if (size > maxBytes) throw new CorruptFileError(path, `larger than ${maxBytes} bytes`);
    return readSizeSync(file, size);
  } finally {
    file.close();
  }
}

/**
 * Writes a file atomically and privately: the data goes to a temp file in the same folder, is
 * flushed to disk, and is renamed over the target, so a reader sees the old or the new content,
 * never a mix. Missing parent folders are created with mode 0700.
 *
 * @param path The target file.
 * @param data The content.
 * @throws {Error} When the folder is not writable or the disk is full; the target is unchanged.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  if (foldersBelowRoot(path).length > 0) checkStateFolders(path, true);
  else Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  // Under the file's lock no other writer is at work: a temp file by the lock's one name is an
  // orphan (its writer was killed before the rename), removed here.
  const locked = heldLocks.has(`${path}.lock`);
  const tmp = join(
    dir,
    locked ? `.${basename(path)}.tmp` : `.${basename(path)}.${crypto.randomUUID()}.tmp`,
  );
  if (locked) removeOrphan(tmp);
  try {
    const file = Deno.openSync(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      // Created in the real folders, not through a folder swapped for a link meanwhile.
      checkStateFolders(path);
      for (let offset = 0; offset < bytes.length;) {
        offset += file.writeSync(bytes.subarray(offset));
      }
      file.syncSync();
    } finally {
      file.close();
    }
    Deno.chmodSync(tmp, 0o600);
    Deno.renameSync(tmp, path);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // The temp file was never created or is already gone.
    }
    throw err;
  }
}

/**
 * Writes a cache file (an index, a memo: anything rebuilt when missing) as {@link writeFileAtomic}
 * does, under the file's own lock (`<file>.lock`, {@link withLock}): processes that race on it
 * write one at a time through the one temp name `.<file>.tmp`, and a temp file left behind by a
 * writer killed before its rename is removed by the next writer. A reader never sees a partial
 * file (the rename is atomic). The lock is waited for at most `timeoutMs`: a cache not written
 * costs speed, not answers.
 *
 * @param path The cache file.
 * @param data The content.
 * @param timeoutMs How long to wait for the lock.
 * @throws {LockTimeoutError} When another writer held the lock for longer.
 * @throws {Error} What {@link writeFileAtomic} throws; the file is unchanged.
 */
export function writeCacheFile(path: string, data: string | Uint8Array, timeoutMs = 250): void {
  withLock(`${path}.lock`, () => writeFileAtomic(path, data), { timeoutMs });
}

/** Removes an orphan temp file, if there is one (a link is removed, never followed). */
function removeOrphan(tmp: string): void {
  try {
    Deno.removeSync(tmp);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

/** The lock files this process holds now ({@link withLock}). */
const heldLocks = new Set<string>();

/** Options of {@link withLock}. */
export interface LockOptions {
  /** How long to wait for the lock before giving up (default 3000 ms). */
  readonly timeoutMs?: number;
}

/** Thrown when a lock could not be taken in time. */
export class LockTimeoutError extends Error {
  /**
   * @param path The lock file.
   * @param timeoutMs How long was waited.
   */
  constructor(path: string, timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms waiting for the lock ${path}`);
    this.name = "LockTimeoutError";
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` while holding an exclusive lock on `lockPath` (a dedicated file, never the file that
 * gets renamed over). The lock is advisory, released when `fn` returns or throws, and released by
 * the OS if the process dies.
 *
 * @param lockPath The lock file; created (mode 0600) when missing.
 * @param fn The work to do under the lock.
 * @param options How long to wait.
 * @returns What `fn` returned.
 * @throws {LockTimeoutError} When the lock was not free in time.
 * @throws {StateFileRefusedError} When the lock file is a symbolic link.
 */
export function withLock<T>(lockPath: string, fn: () => T, options: LockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 3000;
  if (foldersBelowRoot(lockPath).length > 0) checkStateFolders(lockPath, true);
  else Deno.mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const file = openStateFile(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    const start = Date.now();
    let wait = 2;
    while (!file.tryLockSync(true)) {
      if (Date.now() - start >= timeoutMs) throw new LockTimeoutError(lockPath, timeoutMs);
      sleepSync(wait);
      wait = Math.min(wait * 2, 50);
    }
    heldLocks.add(lockPath);
    try {
      return fn();
    } finally {
      heldLocks.delete(lockPath);
      file.unlockSync();
    }
  } finally {
    file.close();
  }
}

/** Thrown by {@link readJsonFile} when a file is not valid JSON or too large. */
export class CorruptFileError extends Error {
  /**
   * @param path The file.
   * @param cause Why it is corrupt.
   */
  constructor(readonly path: string, cause: string) {
    super(`${path}: ${cause}`);
    this.name = "CorruptFileError";
  }
}

/**
 * Reads and parses a JSON state file (never through a symbolic link).
 *
 * @param path The file.
 * @param maxBytes The largest file accepted (default 16 MiB).
 * @returns The parsed value, or `undefined` when the file does not exist.
 * @throws {CorruptFileError} When the file is too large or not valid JSON.
 * @throws {StateFileRefusedError} When the file is a symbolic link or not a regular file.
 */
export function readJsonFile(path: string, maxBytes = 16 * 1024 * 1024): unknown {
  const bytes = readStateFile(path, maxBytes);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new CorruptFileError(
      path,
      `not valid JSON (${err instanceof Error ? err.message : err})`,
    );
  }
}

/**
 * Whether an id (a session id, say) is safe to use as a file name: 1 to 128 characters of
 * `[A-Za-z0-9_-]`, not starting with `-`.
 *
 * @param id The id from a payload.
 * @returns `true` when it may become a file name.
 */
export function isSafeFileStem(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/.test(id);
}

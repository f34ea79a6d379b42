/**
 * Safe state files: atomic private writes (temp file in the same folder, fsync, rename, mode
 * 0600), an exclusive lock on a dedicated lock file, bounded JSON reads, and the check that a
 * session id is safe to use as a file name.
 *
 * A state file that is a symbolic link (or anything but a regular file) is refused: it is never
 * read, appended to or locked through, because the link may point anywhere, outside the state
 * root too, and Deno's permission grants do not stop a process from following it. An atomic
 * write renames over the link itself, so it never follows one.
 *
 * @module
 */

import { basename, dirname, join } from "./path.ts";

/** A state file that is a symbolic link (or no regular file): refused, never followed. */
export class StateFileRefusedError extends Error {
  /** The refused file. */
  readonly path: string;
  /**
   * @param path The refused file.
   * @param what What it is instead of a regular file.
   */
  constructor(path: string, what = "a symbolic link") {
    super(`Refusing a state file that is ${what}; delete it`);
    this.name = "StateFileRefusedError";
    this.path = path;
  }
}

function kindOf(info: Deno.FileInfo): string | undefined {
  if (info.isSymlink) return "a symbolic link";
  if (!info.isFile) return info.isDirectory ? "a directory" : "not a regular file";
  return undefined;
}

/**
 * Checks that a state file is a regular file or does not exist (`lstat`, never following a link).
 *
 * @param path The state file.
 * @throws {StateFileRefusedError} When it is a symbolic link or not a regular file.
 * @throws {Error} When it cannot be looked at (a missing read grant, say).
 */
export function checkStateFile(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  const what = kindOf(info);
  if (what) throw new StateFileRefusedError(path, what);
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
  checkStateFile(path);
  const file = Deno.openSync(path, options);
  try {
    const opened = file.statSync();
    const named = Deno.lstatSync(path);
    const what = kindOf(named) ?? kindOf(opened);
    if (what) throw new StateFileRefusedError(path, what);
    if (
      opened.ino !== null && named.ino !== null &&
      (opened.ino !== named.ino || opened.dev !== named.dev)
    ) {
      throw new StateFileRefusedError(path, "replaced while it was opened");
    }
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
    const size = file.statSync().size;
    if (size > maxBytes) throw new CorruptFileError(path, `larger than ${maxBytes} bytes`);
    const out = new Uint8Array(size);
    let got = 0;
    while (got < size) {
      const n = file.readSync(out.subarray(got));
      if (n === null) break;
      got += n;
    }
    return got === size ? out : out.subarray(0, got);
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
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const tmp = join(dir, `.${basename(path)}.${crypto.randomUUID()}.tmp`);
  try {
    const file = Deno.openSync(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
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
  Deno.mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const file = openStateFile(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    const start = Date.now();
    let wait = 2;
    while (!file.tryLockSync(true)) {
      if (Date.now() - start >= timeoutMs) throw new LockTimeoutError(lockPath, timeoutMs);
      sleepSync(wait);
      wait = Math.min(wait * 2, 50);
    }
    try {
      return fn();
    } finally {
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

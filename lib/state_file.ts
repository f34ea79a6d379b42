/**
 * Safe state files: atomic private writes (temp file in the same folder, fsync, rename, mode
 * 0600), an exclusive lock on a dedicated lock file, bounded JSON reads, and the check that a
 * session id is safe to use as a file name.
 *
 * @module
 */

import { basename, dirname, join } from "./path.ts";

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
 */
export function withLock<T>(lockPath: string, fn: () => T, options: LockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 3000;
  Deno.mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const file = Deno.openSync(lockPath, { read: true, write: true, create: true, mode: 0o600 });
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
 * Reads and parses a JSON file.
 *
 * @param path The file.
 * @param maxBytes The largest file accepted (default 16 MiB).
 * @returns The parsed value, or `undefined` when the file does not exist.
 * @throws {CorruptFileError} When the file is too large or not valid JSON.
 */
export function readJsonFile(path: string, maxBytes = 16 * 1024 * 1024): unknown {
  let bytes: Uint8Array;
  try {
    const info = Deno.statSync(path);
    if (info.size > maxBytes) throw new CorruptFileError(path, `larger than ${maxBytes} bytes`);
    bytes = Deno.readFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
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

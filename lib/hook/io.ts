/**
 * The I/O every hook process starts with, kept free of other imports so that an entry can read
 * its payload before it loads anything else: reading stdin (bounded in size and time, a terminal
 * never waited on) and deadlines.
 *
 * @module
 */

/** The default deadline of a hook, in milliseconds (config `hook_deadline_ms`). */
export const DEFAULT_DEADLINE_MS = 5000;

/** The largest payload read from stdin. */
export const MAX_STDIN_BYTES: number = 8 * 1024 * 1024;

/** Why stdin gave no payload. */
export class StdinError extends Error {
  /**
   * Makes the error.
   *
   * @param message What went wrong, in a few words.
   */
  constructor(message: string) {
    super(message);
    this.name = "StdinError";
  }
}

/** A deadline: a signal that aborts, and a promise that rejects, when the time is up. */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly promise: Promise<never>;
  clear(): void;
}

/**
 * Starts a deadline. It uses `AbortSignal.timeout`, not `setTimeout`: in Deno 2.9 the first
 * `setTimeout` of a process costs about 10 ms of timer set-up, a large share of a hook's budget.
 * `clear()` removes the listener, so a finished hook exits at once instead of at the deadline.
 */
export function deadline(ms: number, makeError: () => Error): Deadline {
  const signal = AbortSignal.timeout(ms);
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(makeError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => {});
  return { signal, promise, clear: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * A promise that rejects with `makeError()` after `ms`, from V8's `Atomics.waitAsync` timeout: in
 * a fresh Deno 2.9 process it takes about 0.06 ms to set up, where the first `AbortSignal.timeout`
 * takes 0.5 ms and the first `setTimeout` 4–18 ms. It does not keep the event loop alive by
 * itself, so it may only race an operation that does (a pending read).
 *
 * @param ms The time, in milliseconds.
 * @param makeError The rejection.
 * @returns The promise (already handled: racing it is what reports the error).
 */
export function expiry(ms: number, makeError: () => Error): Promise<never> {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const wait = Atomics.waitAsync(cell, 0, 0, Math.max(0, ms));
  const done = wait.async ? wait.value : Promise.resolve(wait.value);
  const promise = done.then(() => Promise.reject(makeError()));
  promise.catch(() => {});
  return promise;
}

/**
 * Reads stdin fully, up to `max` bytes and `deadlineMs`. A terminal is not waited on. It uses
 * `Deno.stdin.read`, not `Deno.stdin.readable`: the first web stream of a process costs about
 * 10 ms and 5 MiB (measured), a large share of a hook's budget; and its deadline is an
 * {@link expiry} (the pending read keeps the process alive until one of them settles). A read
 * abandoned at its deadline cannot be cancelled and keeps the process alive: the entry ends it
 * with `Deno.exit`.
 *
 * @param max The size cap.
 * @param deadlineMs How long to wait for the host to finish writing.
 * @returns The text.
 * @throws {StdinError} When stdin is a terminal, too large, or not finished in time.
 */
export async function readStdin(max: number = MAX_STDIN_BYTES, deadlineMs = 3000): Promise<string> {
  if (Deno.stdin.isTerminal()) {
    throw new StdinError("stdin is a terminal, not a payload");
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  const timeout = expiry(
    deadlineMs,
    () => new StdinError(`stdin not closed within ${deadlineMs} ms`),
  );
  while (true) {
    const n = await Promise.race([Deno.stdin.read(buf), timeout]);
    if (n === null) break;
    total += n;
    if (total > max) throw new StdinError(`payload larger than ${max} bytes`);
    chunks.push(buf.slice(0, n));
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  return decodeUtf8(all);
}

/** Payloads up to this size that are all ASCII are decoded without a `TextDecoder`. */
const ASCII_FAST_BYTES = 64 * 1024;

/**
 * Decodes UTF-8, replacing what is not valid (as `TextDecoder`). A small all-ASCII payload, the
 * usual one, is read byte by byte: a process's first `TextDecoder` costs a hook about 0.15 ms.
 *
 * @param bytes The bytes.
 * @returns The text.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (bytes.length <= ASCII_FAST_BYTES) {
    let text = "";
    for (let i = 0; i < bytes.length; i += 4096) {
      const part = bytes.subarray(i, i + 4096);
      if (part.some((b) => b > 0x7f)) return new TextDecoder().decode(bytes);
      text += String.fromCharCode(...part);
    }
    return text;
  }
  return new TextDecoder().decode(bytes);
}

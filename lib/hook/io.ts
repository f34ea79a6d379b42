/**
 * The I/O every hook process starts with, kept free of other imports so that an entry can read
 * its payload before it loads anything else: reading stdin (bounded in size and time, a terminal
 * never waited on) and deadlines.
 *
 * @module
 */

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
 * Reads stdin fully, up to `max` bytes and `deadlineMs`. A terminal is not waited on. It uses
 * `Deno.stdin.read`, not `Deno.stdin.readable`: the first web stream of a process costs about
 * 10 ms and 5 MiB (measured), a large share of a hook's budget. A read abandoned at its deadline
 * cannot be cancelled and keeps the process alive: the entry ends it with `Deno.exit`.
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
  const timeout = deadline(
    deadlineMs,
    () => new StdinError(`stdin not closed within ${deadlineMs} ms`),
  );
  try {
    while (true) {
      const n = await Promise.race([Deno.stdin.read(buf), timeout.promise]);
      if (n === null) break;
      total += n;
      if (total > max) throw new StdinError(`payload larger than ${max} bytes`);
      chunks.push(buf.slice(0, n));
    }
  } finally {
    timeout.clear();
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  return new TextDecoder().decode(all);
}

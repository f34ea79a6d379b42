/**
 * Byte plumbing of the transcript readers: line segments of a chunk, a byte source (a file or a
 * text in memory), and the drivers that run a reader's generator of byte requests against one,
 * so the same reading code serves files (async or sync) and texts.
 *
 * @module
 */

import { errorCause } from "../base/errors.ts";
import { openRegularFile, statOpenFile } from "../base/fs.ts";
import { TranscriptReadError } from "./model.ts";

/** The UTF-8 decoder the readers share. */
export const decoder: TextDecoder = new TextDecoder();

/** No bytes. */
export const EMPTY: Uint8Array = new Uint8Array(0);

/**
 * Two byte arrays as one (either itself when the other is empty).
 *
 * @param a The first bytes.
 * @param b The bytes after them.
 * @returns The joined bytes.
 */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Line segments of a byte buffer: their byte starts and a decoder of one segment. */
export interface Segments {
  /** Segment count (one more than the newlines). */
  count: number;
  /** Byte start of each segment. */
  starts: number[];
  /** Decodes segment `k` (without its newline). */
  line(k: number): string;
}

/**
 * Splits bytes at `\n`, decoding each line on demand (small strings, no big chunk string).
 *
 * @param bytes The bytes.
 * @returns Their line segments.
 */
export function segments(bytes: Uint8Array): Segments {
  const starts = [0];
  let i = bytes.indexOf(10);
  while (i >= 0) {
    starts.push(i + 1);
    i = bytes.indexOf(10, i + 1);
  }
  return {
    count: starts.length,
    starts,
    line: (k) => {
      const end = k + 1 < starts.length ? starts[k + 1] - 1 : bytes.length;
      return decoder.decode(bytes.subarray(starts[k], end));
    },
  };
}

/** A byte source: the file, or an in-memory text. */
export interface Source {
  /** Its size in bytes. */
  size: number;
  /** The `len` bytes at `pos` (fewer at the end); a file source may reuse the buffer. */
  read(pos: number, len: number): Uint8Array | Promise<Uint8Array>;
}

/** A generator of byte requests (`[position, length]`), answered with the bytes read. */
export type ByteRequests<T> = Generator<[number, number], T, Uint8Array>;

/**
 * A source over a text in memory (its UTF-8 bytes).
 *
 * @param text The text.
 * @returns The source.
 */
export function textSource(text: string): Source {
  const bytes = new TextEncoder().encode(text);
  return { size: bytes.length, read: (pos, len) => bytes.subarray(pos, pos + len) };
}

/**
 * Runs a read generator against a sync source.
 *
 * @param gen The reader: yields `[pos, len]` byte requests, returns its result.
 * @param src The source (its `read` must not return a promise).
 * @returns The reader's result.
 */
export function driveSync<T>(gen: ByteRequests<T>, src: Source): T {
  let step = gen.next(EMPTY);
  while (!step.done) {
    const [pos, len] = step.value;
    step = gen.next(src.read(pos, len) as Uint8Array);
  }
  return step.value;
}

/**
 * Runs a read generator against an async source.
 *
 * @param gen The reader: yields `[pos, len]` byte requests, returns its result.
 * @param src The source.
 * @returns The reader's result.
 */
export async function driveAsync<T>(gen: ByteRequests<T>, src: Source): Promise<T> {
  let step = gen.next(EMPTY);
  while (!step.done) {
    const [pos, len] = step.value;
    step = gen.next(await src.read(pos, len));
  }
  return step.value;
}

/**
 * Opens a transcript as a byte source for the read generators, and closes it afterwards. Only a
 * regular file is opened (`openRegularFile`): a FIFO, socket or device is refused at once, and the
 * open never blocks the process. Its reads are synchronous: in a fresh hook process the first
 * asynchronous file operations cost more than the reads themselves (2 ms for the 1 MiB a Stop
 * reads back over a 768 KiB run), and a regular file's read never waits.
 *
 * @param path The transcript.
 * @param fn What reads it.
 * @returns What `fn` returns.
 * @throws {TranscriptReadError} When the file cannot be opened or read, or is no regular file.
 */
export async function withFileSource<T>(path: string, fn: (src: Source) => Promise<T>): Promise<T> {
  let file: Deno.FsFile;
  try {
    file = await openRegularFile(path);
  } catch (e) {
    throw new TranscriptReadError(path, errorCause(e));
  }
  try {
    let size: number;
    try {
      size = statOpenFile(file, path).size;
    } catch (e) {
      throw new TranscriptReadError(path, errorCause(e));
    }
    // One buffer for every read: the reader copies what it keeps before the next read.
    let shared = new Uint8Array(0);
    const buffer = (len: number) => {
      if (shared.length < len) shared = new Uint8Array(len);
      return shared.subarray(0, len);
    };
    const read = (pos: number, len: number) => {
      const buf = buffer(len);
      let got = 0;
      try {
        file.seekSync(pos, Deno.SeekMode.Start);
        while (got < len) {
          const n = file.readSync(buf.subarray(got));
          if (n === null || n === 0) break;
          got += n;
        }
      } catch (e) {
        throw new TranscriptReadError(path, errorCause(e));
      }
      return got === len ? buf : buf.subarray(0, got);
    };
    return await fn({ size, read });
  } finally {
    try {
      file.close();
    } catch {
      // already closed
    }
  }
}

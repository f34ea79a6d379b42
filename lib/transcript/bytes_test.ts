/**
 * Tests of the transcript byte source: a regular file read synchronously, a FIFO refused at once
 * (never opened, so nothing waits for a writer), a missing file reported.
 *
 * @module
 */
import assert from "node:assert/strict";
import { driveAsync, withFileSource } from "./bytes.ts";
import { TranscriptReadError } from "./model.ts";

Deno.test("withFileSource reads a regular file's bytes at any position, synchronously", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.jsonl`;
    const bytes = new TextEncoder().encode("ab\ncdé\n".repeat(1000));
    Deno.writeFileSync(path, bytes);
    const got = await withFileSource(path, (src) => {
      assert.equal(src.size, bytes.length);
      const first = src.read(bytes.length - 5, 5);
      // A regular file is read without a promise.
      assert(first instanceof Uint8Array);
      assert.deepEqual([...first], [...bytes.subarray(bytes.length - 5)]);
      // A read past the end gives what there is.
      assert.equal((src.read(bytes.length - 3, 10) as Uint8Array).length, 3);
      function* all(): Generator<[number, number], number[], Uint8Array> {
        const a: Uint8Array = yield [0, 4000];
        const head = a.slice();
        const b: Uint8Array = yield [4000, bytes.length - 4000];
        return [...head, ...b];
      }
      return driveAsync(all(), src);
    });
    assert.deepEqual(got, [...bytes]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withFileSource refuses a FIFO at once, never opening it (no writer needed)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/fifo.jsonl`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    if (!made.success) return; // no mkfifo here
    await assert.rejects(
      withFileSource(fifo, () => Promise.resolve("read")),
      (e) => e instanceof TranscriptReadError && /Not a regular file \(a FIFO\)/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withFileSource reports a missing file as a TranscriptReadError", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      withFileSource(`${dir}/missing.jsonl`, () => Promise.resolve(0)),
      TranscriptReadError,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

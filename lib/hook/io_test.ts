/**
 * Tests of the stdin deadline and of the payload's decoding.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeUtf8, expiry } from "./io.ts";

Deno.test("expiry() rejects with its error once its time is up, while something keeps the process busy", async () => {
  // A timer stands for the pending read that keeps a hook process alive.
  const busy = setTimeout(() => {}, 5000);
  try {
    const never = new Promise<never>(() => {});
    await assert.rejects(
      Promise.race([never, expiry(20, () => new Error("late"))]),
      /^Error: late$/,
    );
    await assert.rejects(expiry(0, () => new Error("now")), /^Error: now$/);
  } finally {
    clearTimeout(busy);
  }
});

Deno.test("expiry() does not reject before a faster operation settles", async () => {
  const value = await Promise.race([
    Promise.resolve("read"),
    expiry(1000, () => new Error("late")),
  ]);
  assert.equal(value, "read");
});

Deno.test("decodeUtf8() reads any bytes as TextDecoder does (ASCII, UTF-8, invalid, a BOM, large)", () => {
  const same = (bytes: Uint8Array) =>
    assert.equal(decodeUtf8(bytes), new TextDecoder().decode(bytes), `${bytes.length} bytes`);
  fc.assert(fc.property(fc.uint8Array({ maxLength: 9000 }), (b) => same(b)));
  fc.assert(fc.property(fc.uint8Array({ max: 0x7f, maxLength: 9000 }), (b) => same(b)));
  fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (t) => {
    same(new TextEncoder().encode(t));
  }));
  const enc = new TextEncoder();
  for (
    const text of [
      "",
      '{"prompt":"fix the bug"}',
      "\uFEFF{}",
      "caf\u00e9 \u{1F600}",
      "x".repeat(64 * 1024),
      "x".repeat(64 * 1024 + 1),
      "x".repeat(5000) + "\u00e9",
    ]
  ) same(enc.encode(text));
  same(new Uint8Array([0x7b, 0xff, 0x7d, 0xc3]));
});

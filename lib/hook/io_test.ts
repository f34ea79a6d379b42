/**
 * Tests of the stdin deadline.
 *
 * @module
 */

import assert from "node:assert/strict";
import { expiry } from "./io.ts";

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

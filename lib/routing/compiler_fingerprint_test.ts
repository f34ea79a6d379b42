import assert from "node:assert/strict";
import { COMPILER_FINGERPRINT } from "./compiler_fingerprint.ts";
import { indexFingerprint } from "./index_fingerprint.ts";
import { compilerFingerprint } from "./score.ts";

Deno.test("the generated fingerprint is the one the sources compute (else: deno task gen)", () => {
  assert.equal(COMPILER_FINGERPRINT, indexFingerprint());
  assert.ok(COMPILER_FINGERPRINT.startsWith(`${compilerFingerprint()}-`));
});

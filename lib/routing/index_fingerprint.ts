/**
 * What the routing index's contents depend on besides the skills: the trigger compiler
 * (`compilerFingerprint()` of `score.ts`), the description tier's terms (`describe.ts`) and the
 * built-in packs' entries (`pack_data.ts`). `deno task gen` writes it into
 * `compiler_fingerprint.ts`, so that an index built by another version of any of them is built
 * again, and the hook never hashes them itself.
 *
 * @module
 */

import { compilerFingerprint } from "./score.ts";
import { DESCRIPTION_STOP_WORDS, DESCRIPTION_TERMS_VERSION } from "./describe.ts";
import { PACK_LINES } from "./pack_data.ts";

/**
 * The routing index's fingerprint: the trigger compiler's, then a hash of the description tier's
 * version and word list and of the pack entries.
 *
 * @returns The fingerprint.
 */
export function indexFingerprint(): string {
  const text = [
    String(DESCRIPTION_TERMS_VERSION),
    JSON.stringify([...DESCRIPTION_STOP_WORDS]),
    PACK_LINES,
  ].join("\n");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${compilerFingerprint()}-${(h >>> 0).toString(16)}`;
}

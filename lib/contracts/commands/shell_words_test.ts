import assert from "node:assert/strict";
import { shellWords, splitCommandParts } from "./shell_words.ts";

Deno.test("splitCommandParts() splits on the shell's list and pipe operators", () => {
  assert.deepEqual(splitCommandParts("a && b || c; d | e"), ["a", "b", "c", "d", "e"]);
  assert.deepEqual(splitCommandParts("pytest 2>&1 | tail"), ["pytest", "tail"]);
});

Deno.test("shellWords() keeps quoted text as one word and each operator as a word", () => {
  assert.deepEqual(shellWords(`sg contract waive a --reason "docs only; no test" && ls`), [
    "sg",
    "contract",
    "waive",
    "a",
    "--reason",
    "docs only; no test",
    "&",
    "&",
    "ls",
  ]);
  assert.deepEqual(shellWords(`a\\ b 'c d`), ["a b", "c d"]);
});

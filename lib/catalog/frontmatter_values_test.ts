import assert from "node:assert/strict";
import { asStrings, boundedCopy, firstInstruction } from "./frontmatter_values.ts";

Deno.test("firstInstruction() takes the first list item, else the first line of text", () => {
  assert.equal(
    firstInstruction("# T\n\nIntro text.\n\n1. **Reproduce** it.\n2. Fix.\n"),
    "Reproduce it.",
  );
  assert.equal(firstInstruction("# T\n```sh\nrun\n```\nJust text."), "Just text.");
  assert.equal(firstInstruction("# Only a heading\n"), undefined);
});

Deno.test("asStrings() keeps non-empty trimmed strings of a string, a list or a keywords object", () => {
  assert.deepEqual(asStrings("  debug  "), ["debug"]);
  assert.deepEqual(asStrings(["a", " ", 3, " b "]), ["a", "b"]);
  assert.deepEqual(asStrings({ keywords: ["x"] }), ["x"]);
  assert.deepEqual(asStrings(7), []);
});

Deno.test("boundedCopy() copies small blocks and replaces an alias bomb by a rejected block", () => {
  assert.deepEqual(boundedCopy({ a: [1, { b: 2 }] }), { a: [1, { b: 2 }] });
  let bomb: unknown = ["x"];
  for (let i = 0; i < 20; i++) bomb = [bomb, bomb];
  const copy = boundedCopy({ items: bomb }) as { version?: string };
  assert.match(String(copy.version), /^too large/);
});

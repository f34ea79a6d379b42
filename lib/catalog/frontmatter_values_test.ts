import assert from "node:assert/strict";
import { asStrings, boundedCopy, firstInstruction, sendsTo } from "./frontmatter_values.ts";

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

Deno.test("sendsTo() reads the skills a skill's text sends a kind of request to", () => {
  const qa = "Runs QA testing, then fixes bugs. For report-only mode, use /qa-only.\n";
  assert.deepEqual(sendsTo(qa), ["qa-only"]);
  assert.deepEqual(sendsTo("For the full test-fix-verify loop, use /qa instead."), ["qa"]);
  assert.deepEqual(sendsTo("Need a deploy? Use `/ship` instead, then come back."), ["ship"]);
  assert.deepEqual(
    sendsTo("For existing sites, use /plan-design-review. For plugins, use /acme:lint."),
    ["plan-design-review", "acme:lint"],
  );
  // A prerequisite, a skill used along the way, a code block: no redirect.
  for (
    const text of [
      "Auth flows (use /setup-browser-cookies first).",
      "As you use /review, /ship and other skills, log what you learn.",
      "```\nFor report-only mode, use /qa-only\n```\n",
      "For report-only mode use the report skill.",
    ]
  ) {
    assert.deepEqual(sendsTo(text), [], text);
  }
  const many = Array.from({ length: 20 }, (_, i) => `For mode ${i}, use /s${i}.`).join(" ");
  assert.equal(sendsTo(many).length, 8);
});

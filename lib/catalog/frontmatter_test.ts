import assert from "node:assert/strict";
import fc from "fast-check";
import { lenientParse, parseFrontmatter, splitFrontmatter } from "./frontmatter.ts";

Deno.test("splitFrontmatter() handles BOM, CRLF and a missing closing line", () => {
  assert.deepEqual(splitFrontmatter("\uFEFF---\r\nname: a\r\n---\r\nbody\r\n"), {
    yaml: "name: a\n",
    body: "body\n",
  });
  assert.deepEqual(splitFrontmatter("---\nname: a\n"), { yaml: "name: a\n", body: "" });
  assert.deepEqual(splitFrontmatter("no frontmatter\n---\n"), { body: "no frontmatter\n---\n" });
});

Deno.test("parseFrontmatter() parses strict YAML with block scalars and lists", async () => {
  const fm = await parseFrontmatter(
    "---\nname: investigate\ndescription: |\n  Line one.\n  Line two.\ntriggers:\n  - debug this\n  - fix this bug\ncontract: { version: 1, items: [] }\n---\n# Body\n",
  );
  assert.equal(fm.data.name, "investigate");
  assert.equal(fm.data.description, "Line one.\nLine two.\n");
  assert.deepEqual(fm.data.triggers, ["debug this", "fix this bug"]);
  assert.deepEqual(fm.data.contract, { version: 1, items: [] });
  assert.equal(fm.body, "# Body\n");
  assert.deepEqual(fm.warnings, []);
});

Deno.test("parseFrontmatter() falls back to the lenient reader where strict YAML fails", async () => {
  const fm = await parseFrontmatter(
    "---\nname: lenient\ndescription: Use when: the user says fix it: now\ntriggers:\n  - a b\n---\nbody",
  );
  assert.equal(fm.data.name, "lenient");
  assert.equal(fm.data.description, "Use when: the user says fix it: now");
  assert.deepEqual(fm.data.triggers, ["a b"]);
  assert.equal(fm.warnings.length, 1);
});

Deno.test("lenientParse() takes name only from the top level", () => {
  const data = lenientParse("invokes:\n  - name: nested-one\n    x: 1\nname: top\n");
  assert.equal(data.name, "top");
  const nestedOnly = lenientParse("meta:\n  name: inner\n");
  assert.equal(nestedOnly.name, undefined);
});

Deno.test("parseFrontmatter() never throws and always returns an object (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: "binary", maxLength: 300 }), async (s) => {
      for (const text of [s, `---\n${s}\n---\nbody`, `---\n${s}`]) {
        const fm = await parseFrontmatter(text);
        assert.equal(typeof fm.data, "object");
        assert.ok(fm.data !== null && !Array.isArray(fm.data));
        assert.equal(typeof fm.body, "string");
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("parseFrontmatter() reads every other key strictly when one key is not strict YAML", async () => {
  const fm = await parseFrontmatter(
    "---\nname: colon\ndescription: Use when: the user says fix it\ncontract:\n  version: 1\n" +
      "  items:\n    - id: a\n      kind: check_after_last_edit\n---\nbody",
  );
  assert.equal(fm.data.description, "Use when: the user says fix it");
  // The contract block below the description is the mapping it is, not lenient text.
  assert.deepEqual(fm.data.contract, {
    version: 1,
    items: [{ id: "a", kind: "check_after_last_edit" }],
  });
  assert.deepEqual(fm.yamlErrors?.map((e) => [e.key, e.line]), [["description", 3]]);
  assert.match(fm.yamlErrors![0].message, /mapping/);
});

import assert from "node:assert/strict";
import fc from "fast-check";
import { createScanner } from "npm:jsonc-parser@^3.3.1";
import { editJsonText, formattingOf, hasComments, minimalEdit, parseJsonc } from "./json_edit.ts";

/** A settings.json as a person keeps it: tabs, one-line arrays, a blank line, odd spacing. */
const HAND = Deno.readTextFileSync(
  new URL("../../fixtures/settings/hand_formatted.json", import.meta.url),
);

const linesOf = (text: string) => text.split("\n");

Deno.test("editJsonText: adding a hook entry keeps every other line of a hand-formatted file", () => {
  const next = JSON.parse(HAND);
  next.hooks.Stop.push({ hooks: [{ type: "command", command: "deno run x.js", timeout: 15 }] });
  next.hooks.UserPromptSubmit = [{ hooks: [{ type: "command", command: "deno run r.js" }] }];
  const out = editJsonText(HAND, next);
  assert.deepEqual(JSON.parse(out), next);
  // Every line of the original is still there, in order, byte for byte, but for the comma the
  // Stop list's old last entry gains.
  const before = linesOf(HAND);
  const after = linesOf(out);
  let j = 0;
  for (const line of before) {
    while (j < after.length && after[j] !== line && after[j] !== `${line},`) j++;
    assert.ok(j < after.length, `line kept: ${JSON.stringify(line)}\n${out}`);
    j++;
  }
  // The inserted values use the file's tabs.
  assert.match(out, /\n\t\t\t\t"hooks": \[/);
  assert.ok(!/\n {2}"/.test(out), out);
  assert.ok(out.endsWith("}\n"));
});

Deno.test("editJsonText: removing and updating an entry touches only its lines", () => {
  const withOurs = editJsonText(HAND, {
    ...JSON.parse(HAND),
    hooks: {
      Stop: [
        { hooks: [{ type: "command", command: "~/bin/my-stop.sh" }] },
        { hooks: [{ type: "command", command: "deno run old.js" }] },
      ],
    },
  });
  const updated = JSON.parse(withOurs);
  updated.hooks.Stop[1].hooks[0].command = "deno run new.js";
  const out = editJsonText(withOurs, updated);
  assert.deepEqual(JSON.parse(out), updated);
  assert.equal(out.replace("deno run new.js", "deno run old.js"), withOurs);
  const removed = JSON.parse(out);
  removed.hooks.Stop.pop();
  const back = editJsonText(out, removed);
  assert.deepEqual(JSON.parse(back), JSON.parse(HAND));
  assert.ok(
    back.includes(`\t"permissions": { "allow": ["Bash(git status)", "Read"], "deny": [] },\n\n`),
  );
  assert.ok(
    back.includes(`\t\t\t{ "hooks": [ { "type": "command", "command": "~/bin/my-stop.sh" } ] }\n`),
  );
});

Deno.test("editJsonText: a key removed, CRLF line ends, a BOM and no change at all", () => {
  const crlf = '\uFEFF{\r\n    "a": 1,\r\n    "b": [1, 2]\r\n}\r\n';
  assert.equal(editJsonText(crlf, { a: 1, b: [1, 2] }), crlf);
  const out = editJsonText(crlf, { b: [1, 2], c: { d: true } });
  assert.ok(out.startsWith("\uFEFF"));
  assert.deepEqual(JSON.parse(out.slice(1)), { b: [1, 2], c: { d: true } });
  assert.ok(!/[^\r]\n/.test(out), JSON.stringify(out));
  assert.match(out, /\r\n {4}"c": \{\r\n {8}"d": true\r\n {4}\}/);
});

Deno.test("formattingOf: tabs, four spaces, none", () => {
  assert.deepEqual(formattingOf('{\n\t"a": 1\n}'), { unit: "\t", eol: "\n" });
  assert.deepEqual(formattingOf('{\n    "a": 1\n}'), { unit: "    ", eol: "\n" });
  assert.deepEqual(formattingOf('{"a": 1}\r\n'), { unit: "  ", eol: "\r\n" });
});

Deno.test("editJsonText: any change of any JSON object parses to the new value (property)", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, true, false, 0, 1.5, "s", "x,y"),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom("a", "b", "hooks", "Stop", 'k"q'), tie("value"), {
        maxKeys: 4,
      }),
    ),
  })).value;
  const obj = fc.dictionary(fc.constantFrom("a", "b", "c", "hooks"), json, { maxKeys: 4 });
  fc.assert(
    fc.property(obj, obj, fc.constantFrom(0, 2, 4, "\t"), (a, b, indent) => {
      const text = JSON.stringify(a, null, indent) + "\n";
      const out = minimalEdit(text, b);
      assert.ok(out !== undefined, `edits gave the value: ${text} -> ${JSON.stringify(b)}`);
      assert.deepEqual(JSON.parse(out), b);
      if (JSON.stringify(a) === JSON.stringify(b)) assert.equal(out, text);
    }),
    { numRuns: 500 },
  );
});

/** A file with comments everywhere a person puts them. */
const COMMENTED = `{
  "a": 1, // about a
  // about b
  "b": 2,
  "x": 3,
  // about c
  "c": [1, /* one */ 2],
  /* before d */ "d": 4 // d
}
`;

/** The comments of a JSON text, as the scanner reads them (never a `//` inside a string). */
function commentsOf(text: string): string[] {
  const scanner = createScanner(text, false);
  const out: string[] = [];
  for (let t = scanner.scan(); t !== 17; t = scanner.scan()) {
    // 12: a line comment, 13: a block comment (`SyntaxKind`).
    if (t === 12 || t === 13) out.push(scanner.getTokenValue().trim());
  }
  return out;
}

Deno.test("editJsonText: a removal in a file with comments keeps every comment around it, wherever it stands", () => {
  const v = parseJsonc(COMMENTED) as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    const next = { ...v };
    delete next[key];
    const out = editJsonText(COMMENTED, next);
    assert.deepEqual(parseJsonc(out), next, `${key}:\n${out}`);
    // All but one inside the removed value.
    const kept = commentsOf(COMMENTED).filter((c) => key !== "c" || c !== "/* one */");
    assert.deepEqual(commentsOf(out), kept, `${key}:\n${out}`);
  }
  // A line with nothing but the removed key goes whole; its neighbours' lines stay as they were.
  const noA = editJsonText(COMMENTED, { b: 2, x: 3, c: [1, 2], d: 4 });
  assert.ok(noA.startsWith("{\n  // about a\n  // about b\n"), noA);
  const noX = editJsonText(COMMENTED, { a: 1, b: 2, c: [1, 2], d: 4 });
  assert.equal(noX, COMMENTED.replace('  "x": 3,\n', ""));
});

Deno.test("editJsonText: an addition then its removal in a file with comments gives back the same bytes", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("a", "b", "x", "c", "d"),
      fc.jsonValue(),
      (after, value) => {
        const v = parseJsonc(COMMENTED) as Record<string, unknown>;
        const keys = Object.keys(v);
        const next: Record<string, unknown> = {};
        for (const k of keys) {
          next[k] = v[k];
          if (k === after) next.added = value;
        }
        const added = editJsonText(COMMENTED, next);
        assert.deepEqual(parseJsonc(added), JSON.parse(JSON.stringify(next)));
        assert.deepEqual(commentsOf(added), commentsOf(COMMENTED));
        assert.equal(editJsonText(added, v), COMMENTED);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("hasComments() sees comments, not `//` in a string", () => {
  assert.equal(hasComments('{"u": "https://x//y"}'), false);
  assert.equal(hasComments('{"u": 1} // c'), true);
  assert.equal(hasComments('{/* c */"u": 1}'), true);
});

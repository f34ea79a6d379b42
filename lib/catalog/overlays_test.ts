import assert from "node:assert/strict";
import { overlayLines, parseOverlayText } from "./overlays.ts";

const GOOD = `# my overlays
systematic-debugging:
  triggers: [debug this, find the root cause]
  route: true
  contract:
    version: 1
    items:
      - {id: root-cause, kind: report_labels, heading: ROOT CAUSE, labels: [Cause, Evidence]}
      - id: tests
        kind: report_labels
        heading: TESTS
        labels: [Ran]

"superpowers:brainstorming":
  triggers: let us brainstorm
`;

Deno.test("parseOverlayText: entries, fields and their lines", async () => {
  const p = await parseOverlayText(GOOD);
  assert.deepEqual(p.problems, []);
  const e = p.entries["systematic-debugging"];
  assert.deepEqual(e.triggers, ["debug this", "find the root cause"]);
  assert.equal(e.route, true);
  assert.deepEqual(e.lines, { entry: 2, triggers: 3, route: 4, contract: 5 });
  const c = e.contract as { version: number; items: { id: string }[] };
  assert.equal(c.version, 1);
  assert.deepEqual(c.items.map((i) => i.id), ["root-cause", "tests"]);
  const b = p.entries["superpowers:brainstorming"];
  assert.deepEqual(b.triggers, ["let us brainstorm"]);
  assert.deepEqual(b.lines, { entry: 14, triggers: 15 });
  assert.equal(Object.getPrototypeOf(p.entries), null);
});

Deno.test("overlayLines: contract items in block and flow style", () => {
  const at = overlayLines(GOOD);
  assert.deepEqual(at.items.get("systematic-debugging"), [8, 9]);
  const flow = overlayLines("a:\n  contract:\n    version: 1\n    items: [{id: x}, {id: y}]\n");
  assert.deepEqual(flow.items.get("a"), [4]);
  const inline = overlayLines("a:\n  contract: {version: 1, items: [{id: x}]}\n");
  assert.deepEqual(inline.items.get("a"), [2]);
  assert.equal(inline.fields.get("a")?.get("contract"), 2);
});

Deno.test("parseOverlayText: every problem with its line", async () => {
  const text = [
    "alpha:", //                          1
    "  triggers: [ok, 3]", //             2
    "  route: yes", //                    3
    "  colour: blue", //                  4
    "beta: just text", //                 5
    "gamma:", //                          6
    "delta:", //                          7
    "  contract:", //                     8
    "  triggers: fine", //                9
  ].join("\n");
  const p = await parseOverlayText(text);
  assert.deepEqual(p.problems.map((x) => [x.severity, x.line]), [
    ["error", 2],
    ["error", 3],
    ["warning", 4],
    ["error", 5],
    ["warning", 6],
    ["error", 8],
  ]);
  assert.match(p.problems[0].message, /^alpha: triggers must be/);
  assert.match(p.problems[1].message, /^alpha: route must be true or false \(got "yes"\)/);
  assert.match(p.problems[2].message, /unknown field "colour" ignored/);
  assert.match(p.problems[5].message, /^delta: contract is empty/);
  // What was right is kept.
  assert.deepEqual(p.entries.delta.triggers, ["fine"]);
  assert.equal(p.entries.alpha.triggers, undefined);
  assert.equal(p.entries.beta, undefined);
});

Deno.test("parseOverlayText: YAML errors, duplicate keys and a file that is not a mapping", async () => {
  const bad = await parseOverlayText("a:\n  triggers: [x\nb: 1\n");
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0].severity, "error");
  assert.match(bad.problems[0].message, /^Not valid YAML: /);
  assert.equal(typeof bad.problems[0].line, "number");
  const dup = await parseOverlayText("a:\n  route: true\na:\n  route: false\n");
  assert.equal(dup.problems[0].line, 3);
  assert.match(dup.problems[0].message, /duplicated mapping key/);
  const list = await parseOverlayText("- a\n- b\n");
  assert.deepEqual(list.problems.map((x) => x.line), [1]);
  const empty = await parseOverlayText("");
  assert.deepEqual([Object.keys(empty.entries), empty.problems], [[], []]);
});

Deno.test("parseOverlayText: an alias bomb in a contract is bounded", async () => {
  const lines = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (let i = 0; i < 8; i++) {
    const prev = String.fromCharCode(97 + i);
    const next = String.fromCharCode(98 + i);
    lines.push(`${next}: &${next} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`);
  }
  const ok = `refs:\n  ${lines.join("\n  ")}\nbomb:\n  contract:\n    version: 1\n    items: *i\n`;
  const p = await parseOverlayText(ok);
  const c = p.entries.bomb?.contract as { version: unknown };
  assert.match(String(c.version), /^too large/);
});

import assert from "node:assert/strict";
import { lintOverlayText, lintSkillText } from "./lint.ts";

const skill = (items: string) =>
  `---\nname: verify\ndescription: d\ncontract:\n  version: 1\n  items:\n${items}---\n# body\n`;

Deno.test("lintSkillText() accepts the check, test-first and file kinds, with hold", async () => {
  const r = await lintSkillText(skill(
    "    - id: checks-pass\n      kind: check_passed_after_last_edit\n      hold: 2\n" +
      '    - id: red-green\n      kind: test_first\n      test_paths: ["tests/**", "*_check.py"]\n' +
      "    - id: plan-saved\n      kind: file_written\n      path: docs/plans/*.md\n",
  ));
  assert.equal(r.status, "ok", JSON.stringify(r.problems));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.contract?.items.map((i) => i.kind), [
    "check_passed_after_last_edit",
    "test_first",
    "file_written",
  ]);
});

Deno.test("lintSkillText() reports every problem of the new kinds and of hold in one run", async () => {
  const r = await lintSkillText(skill(
    "    - id: a\n      kind: check_passed_after_last_edit\n      hold: 9\n" +
      "    - id: b\n      kind: test_first\n      test_paths: []\n" +
      "    - id: c\n      kind: file_written\n" +
      '    - id: d\n      kind: file_written\n      path: "~/plans/*.md"\n',
  ));
  assert.equal(r.status, "invalid");
  const errors = r.problems.filter((p) => p.severity === "error").map((p) => p.message);
  assert.deepEqual(errors, [
    'item "a": hold must be a whole number from 1 to 5 (blocks per run)',
    'item "b": test_paths must be a list of 1 to 20 non-empty globs',
    'item "c": file_written needs path',
    'item "d": path starts with ~ (write the absolute path)',
  ]);
});

Deno.test("lintOverlayText: a valid overlay", async () => {
  const r = await lintOverlayText(
    "systematic-debugging:\n  triggers: [debug this]\n  contract:\n    version: 1\n    items:\n" +
      "      - {id: root-cause, kind: report_labels, heading: ROOT CAUSE, labels: [Cause]}\n",
  );
  assert.deepEqual(r, { status: "ok", problems: [] });
  assert.equal((await lintOverlayText("a:\n  route: true\n")).status, "no-contract");
});

Deno.test("lintOverlayText: every problem, shape and contract, with its line", async () => {
  const text = [
    "debugging:", //                                                        1
    "  route: maybe", //                                                    2
    "  contract:", //                                                       3
    "    version: 1", //                                                    4
    "    items:", //                                                        5
    "      - {id: ok, kind: report_labels, heading: H, labels: [A]}", //    6
    "      - id: Bad Id", //                                                7
    "        kind: report_labels", //                                       8
    "        heading: H", //                                                9
    "        labels: [A]", //                                              10
    "      - {id: ok, kind: no_such_kind}", //                             11
    "review:", //                                                          12
    "  contract: {version: 2, items: []}", //                              13
  ].join("\n");
  const r = await lintOverlayText(text);
  assert.equal(r.status, "invalid");
  assert.deepEqual(r.problems.map((p) => [p.severity, p.line]), [
    ["error", 2],
    ["error", 7],
    ["error", 11],
    ["error", 11],
    ["error", 13],
  ]);
  assert.match(r.problems[0].message, /^debugging: route must be true or false/);
  assert.match(r.problems[1].message, /^debugging: item 2: id must be/);
  assert.match(r.problems[2].message, /^debugging: item "ok": unknown kind "no_such_kind"/);
  assert.match(r.problems[3].message, /^debugging: duplicate item id "ok"/);
  assert.match(r.problems[4].message, /^review: unsupported contract version 2/);
});

Deno.test("lintOverlayText: a YAML error has its line", async () => {
  const r = await lintOverlayText("a:\n  triggers: [x\n  route: true\n");
  assert.equal(r.status, "invalid");
  assert.equal(r.problems.length, 1);
  assert.ok((r.problems[0].line ?? 0) >= 2);
});

import assert from "node:assert/strict";
import { lintSkillText } from "./lint.ts";

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

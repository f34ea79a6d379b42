import assert from "node:assert/strict";
import { skillReadTarget } from "./skill_read.ts";

Deno.test("skillReadTarget: a read of <skills root>/<name>/SKILL.md gives the name", () => {
  for (
    const [cmd, name] of [
      ["cat .agents/skills/prompt-writer/SKILL.md", "prompt-writer"],
      ["cat /home/u/.codex/skills/prompt-writer/SKILL.md", "prompt-writer"],
      ["sed -n '1,200p' '/repo/.agents/skills/test-runner/SKILL.md'", "test-runner"],
      ['cd /repo && cat ".agents/skills/investigate/SKILL.md"', "investigate"],
      ["head -50 ~/.agents/skills/x_y.z/SKILL.md | cat", "x_y.z"],
    ] as const
  ) assert.equal(skillReadTarget(cmd), name, cmd);
});

Deno.test("skillReadTarget: writes, other programs, other paths and junk give nothing", () => {
  for (
    const cmd of [
      "echo hi > .agents/skills/prompt-writer/SKILL.md",
      "mkdir -p .agents/skills/a && cat .agents/skills/a/SKILL.md",
      "rm .agents/skills/a/SKILL.md",
      "cat docs/a/SKILL.md",
      "cat .agents/skills/SKILL.md",
      "cat .agents/skills/a/SKILL.md .agents/skills/b/SKILL.md",
      "cat .agents/skills/a/SKILL.mdx",
      "bash ./test.sh",
      "",
    ]
  ) assert.equal(skillReadTarget(cmd), undefined, cmd);
  for (const junk of [undefined, null, 3, {}, ["cat"], "x".repeat(5000) + "SKILL.md"]) {
    assert.equal(skillReadTarget(junk), undefined);
  }
});

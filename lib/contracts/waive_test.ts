import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES } from "../../tests/_helpers.ts";
import { installedSkills, waiveItem, type WaiveSkill } from "./waive.ts";
import { parseWaiveCommand } from "./waivers.ts";
import { parseFrontmatter } from "../catalog/frontmatter.ts";

const investigate: WaiveSkill = await (async () => {
  const file = join(FIXTURES, "world", "skills", "investigate", "SKILL.md");
  const fm = await parseFrontmatter(Deno.readTextFileSync(file));
  return { name: "investigate", file, contract: fm.data.contract };
})();
const skills = () => Promise.resolve([investigate]);

Deno.test("waiveItem() acknowledges an item of an installed contract, and names what is wrong", async () => {
  const ok = await waiveItem({
    item: "repro-after-fix",
    reason: " docs only ",
    skill: "investigate",
  }, skills);
  assert.equal(ok.exit, 0);
  assert.match(ok.message, /^Waived repro-after-fix for investigate: docs only\. /);
  assert.deepEqual(ok.waived, {
    item: "repro-after-fix",
    skill: "investigate",
    reason: "docs only",
  });
  assert.equal((await waiveItem({ item: undefined, reason: "x" }, skills)).exit, 2);
  assert.equal((await waiveItem({ item: "a", reason: " " }, skills)).exit, 2);
  assert.equal((await waiveItem({ item: "nope", reason: "x" }, skills)).exit, 2);
  assert.equal((await waiveItem({ item: "a", reason: "x", skill: "nosuch" }, skills)).exit, 5);
  const broken = () => Promise.reject(new Error("boom"));
  assert.equal((await waiveItem({ item: "a", reason: "x" }, broken)).exit, 3);
});

Deno.test("waive's own command line is what the checker reads as a waiver", () => {
  assert.deepEqual(
    parseWaiveCommand(
      `skillgate contract waive repro-after-fix --reason "docs-only change" --skill investigate`,
    ),
    { item: "repro-after-fix", reason: "docs-only change", skill: "investigate" },
  );
});

Deno.test("installedSkills() finds a skill installed only for Copilot CLI ($COPILOT_HOME/skills)", async () => {
  const dir = await Deno.makeTempDir();
  const saved = ["COPILOT_HOME", "CLAUDE_CONFIG_DIR", "SKILLGATE_STATE_ROOT"].map((k) =>
    [k, Deno.env.get(k)] as const
  );
  try {
    await Deno.mkdir(`${dir}/copilot/skills/investigate`, { recursive: true });
    await Deno.copyFile(
      new URL("../../fixtures/host/skills/investigate/SKILL.md", import.meta.url),
      `${dir}/copilot/skills/investigate/SKILL.md`,
    );
    Deno.env.set("COPILOT_HOME", `${dir}/copilot`);
    Deno.env.set("CLAUDE_CONFIG_DIR", `${dir}/claude`);
    Deno.env.set("SKILLGATE_STATE_ROOT", `${dir}/state`);
    const skills = await installedSkills();
    const found = skills.find((s) => s.name === "investigate");
    assert.ok(found, JSON.stringify(skills.map((s) => s.name)));
    assert.ok(found.file.startsWith(`${dir}/copilot/skills/`));
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await Deno.remove(dir, { recursive: true });
  }
});

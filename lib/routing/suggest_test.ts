import assert from "node:assert/strict";
import { join } from "node:path";
import { suggestSkill } from "./suggest.ts";
import { copyDir, FIXTURES } from "../../tests/_helpers.ts";

async function withSkills(fn: (configDir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-suggest-" });
  try {
    copyDir(join(FIXTURES, "world", "skills"), join(dir, "skills"));
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("suggestSkill() names the skill that fits and the line the hook would add", async () => {
  await withSkills(async (configDir) => {
    const s = await suggestSkill("the login test is failing, please fix this bug", {
      host: "claude",
      configDir,
    });
    assert.equal(s.skill, "investigate");
    assert.match(s.line ?? "", /^skillgate skill routing .*fits the installed skill \/investigate/);
    assert.equal(s.candidates[0].name, "investigate");
    assert.ok(s.candidates[0].score >= s.threshold);
  });
});

Deno.test("suggestSkill() says why nothing routes", async () => {
  await withSkills(async (configDir) => {
    assert.equal(
      (await suggestSkill("/investigate now", { host: "claude", configDir })).reason,
      "slash-command",
    );
    const none = await suggestSkill("rename this variable to userCount", {
      host: "claude",
      configDir,
    });
    assert.equal(none.skill, undefined);
    assert.equal(none.line, undefined);
    assert.ok(none.reason === "no-match" || none.reason === "below-threshold", none.reason);
    const strict = await suggestSkill("the login test is failing, please fix this bug", {
      host: "claude",
      configDir,
      routable: ["review"],
    });
    assert.equal(strict.skill, undefined);
    assert.equal(strict.reason, "not-routable");
  });
});

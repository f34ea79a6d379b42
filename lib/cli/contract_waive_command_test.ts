import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld } from "../../tests/_helpers.ts";
import { main } from "./contract_waive_command.ts";
import { capture, runCli } from "./_kit_test.ts";
import type { WaiveSkill } from "../contracts/waive.ts";
import { parseFrontmatter } from "../catalog/frontmatter.ts";

const investigate: WaiveSkill = await (async () => {
  const file = join(FIXTURES, "world", "skills", "investigate", "SKILL.md");
  const fm = await parseFrontmatter(Deno.readTextFileSync(file));
  return { name: "investigate", file, contract: fm.data.contract };
})();
const SKILLS: WaiveSkill[] = [
  investigate,
  { name: "review", file: "/skills/review/SKILL.md", contract: undefined },
  { name: "broken", file: "/skills/broken/SKILL.md", contract: { version: 2, items: [] } },
];

function waive(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return capture(() => main(args, () => Promise.resolve(SKILLS)));
}

Deno.test("waive acknowledges an item of the named skill's contract (exit 0)", async () => {
  const r = await waive([
    "repro-after-fix",
    "--reason",
    "docs-only change, nothing to run",
    "--skill",
    "investigate",
  ]);
  assert.equal(r.code, 0);
  assert.equal(
    r.out,
    "Waived repro-after-fix for investigate: docs-only change, nothing to run. This waiver counts for this session's current run only and is still counted as a miss for follow-up.",
  );
});

Deno.test("waive without --skill accepts an item some installed contract has", async () => {
  const r = await waive(["debug-report", "--reason=no bug was found"]);
  assert.equal(r.code, 0);
  assert.match(r.out, /^Waived debug-report for investigate: no bug was found\./);
});

Deno.test("waive exits 2 without an item", async () => {
  const r = await waive(["--reason", "x"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.err,
    "skillgate contract waive: SKILL_CONTRACT_USAGE Missing <item>: waive needs an item id",
  );
});

Deno.test("waive exits 2 without a reason or with an empty one", async () => {
  for (const args of [["repro-after-fix"], ["repro-after-fix", "--reason", "  "]]) {
    const r = await waive(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.err, /^skillgate contract waive: SKILL_CONTRACT_USAGE Missing --reason "</);
  }
});

Deno.test("waive exits 2 for an item the skill's contract lacks", async () => {
  const r = await waive(["tests-pass", "--reason", "x", "--skill", "investigate"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.err,
    "skillgate contract waive: SKILL_CONTRACT_USAGE The contract of investigate has no item tests-pass (items: debug-report, repro-after-fix)",
  );
  const any = await waive(["tests-pass", "--reason", "x"]);
  assert.equal(any.code, 2);
  assert.match(any.err, /No installed skill's contract has an item tests-pass/);
});

Deno.test("waive exits 2 for a malformed item id or extra arguments, and on unknown options", async () => {
  assert.equal((await waive(["Repro After", "--reason", "x"])).code, 2);
  assert.equal((await waive(["a", "b", "--reason", "x"])).code, 2);
  assert.equal((await waive(["a", "--reason", "x", "--force"])).code, 2);
});

Deno.test("waive exits 5 when --skill names no skill or one without a valid contract", async () => {
  for (const skill of ["nosuch", "review", "broken"]) {
    const r = await waive(["debug-report", "--reason", "x", "--skill", skill]);
    assert.equal(r.code, 5, skill);
    assert.match(r.err, /^skillgate contract waive: SKILL_CONTRACT_NO_CONTRACT /);
  }
});

Deno.test("waive --json states the result as JSON", async () => {
  const r = await waive(["repro-after-fix", "--reason", "x", "--skill", "investigate", "--json"]);
  assert.equal(r.code, 0);
  const j = JSON.parse(r.out);
  assert.equal(j.word, "SKILL_CONTRACT_MET");
  assert.equal(j.item, "repro-after-fix");
  assert.equal(j.skill, "investigate");
});

Deno.test("skillgate contract waive runs through the CLI against the installed skills", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    const run = async (args: string[]) => {
      const r = await runCli(["contract", "waive", ...args], {
        home: world.home,
        cwd: world.projectDir,
      });
      return { code: r.code, stdout: r.out, stderr: r.err };
    };
    const ok = await run(["repro-after-fix", "--reason", "docs only", "--skill", "investigate"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^Waived repro-after-fix for investigate: docs only\./);
    const bad = await run(["no-such-item", "--reason", "x", "--skill", "investigate"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /SKILL_CONTRACT_USAGE The contract of investigate has no item/);
  } finally {
    await world.cleanup();
  }
});

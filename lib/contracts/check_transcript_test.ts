import assert from "node:assert/strict";
import { join } from "node:path";
import { checkTranscript } from "./check_transcript.ts";
import { copyDir, FIXTURES } from "../../tests/_helpers.ts";

const TRANSCRIPTS = join(FIXTURES, "transcripts");

async function withSkills(fn: (configDir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-check-transcript-" });
  try {
    copyDir(join(FIXTURES, "world", "skills"), join(dir, "skills"));
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("checkTranscript() gives the seed's verdict in one call: unmet with its block line, met", async () => {
  await withSkills(async (configDir) => {
    const unmet = await checkTranscript({
      transcript: join(TRANSCRIPTS, "investigate_unmet.jsonl"),
      skill: "investigate",
      configDir,
      command: "skillgate",
    });
    assert.equal(unmet.exit, 1);
    assert.equal(unmet.word, "SKILL_CONTRACT_UNMET");
    assert.match(
      unmet.blockLine ?? "",
      /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing debug-report, repro-after-fix\. /,
    );
    assert.equal(typeof unmet.run?.loadOffset, "number");
    const met = await checkTranscript({
      transcript: join(TRANSCRIPTS, "stop_met.jsonl"),
      skill: "/investigate",
      configDir,
    });
    assert.equal(met.exit, 0);
    assert.equal(met.result?.outcome, "met");
    assert.equal(met.blockLine, undefined);
  });
});

Deno.test("checkTranscript() says why there is no verdict: no contract, not loaded, unreadable", async () => {
  await withSkills(async (configDir) => {
    const base = { configDir, transcript: join(TRANSCRIPTS, "stop_met.jsonl") };
    const none = await checkTranscript({ ...base, skill: "no-such-skill" });
    assert.deepEqual([none.exit, none.word], [5, "SKILL_CONTRACT_NO_CONTRACT"]);
    const notLoaded = await checkTranscript({
      ...base,
      skill: "investigate",
      transcript: join(TRANSCRIPTS, "redirect_unknown_skill.jsonl"),
    });
    assert.equal(notLoaded.exit, 6);
    const missing = await checkTranscript({
      ...base,
      skill: "investigate",
      transcript: join(configDir, "absent.jsonl"),
    });
    assert.equal(missing.exit, 3);
    assert.match(missing.message ?? "", /absent\.jsonl/);
    const bad = await checkTranscript({ ...base, skill: "investigate", contract: { version: 9 } });
    assert.equal(bad.exit, 5);
    assert.match(bad.message ?? "", /^The contract has an invalid contract: /);
  });
});

Deno.test("checkTranscript() reads a Codex CLI rollout: the real run, blocked then fixed, is met", async () => {
  await withSkills(async (configDir) => {
    const rollout = await Deno.makeTempDir({ prefix: "skillgate-check-rollout-" });
    try {
      // Named as Codex CLI names its rollouts, which picks the rollout reader.
      const path = join(rollout, "rollout-2026-12-01T01-09-00-01a22f25.jsonl");
      Deno.copyFileSync(join(TRANSCRIPTS, "codex", "contract_met_after_block.jsonl"), path);
      const v = await checkTranscript({
        transcript: path,
        skill: "investigate",
        skillFile: join(FIXTURES, "host", "skills", "investigate", "SKILL.md"),
        configDir,
      });
      assert.equal(v.word, "SKILL_CONTRACT_MET", JSON.stringify(v));
      assert.equal(v.run?.loadVia, "read");
    } finally {
      await Deno.remove(rollout, { recursive: true });
    }
  });
});

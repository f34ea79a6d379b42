import assert from "node:assert/strict";
import { renderBlockLine, waiveCommandPrefix } from "./block_line.ts";
import { checkContract } from "./check.ts";
import { FIX, INVESTIGATE, runOf } from "./_kit_test.ts";

const SEED_BLOCK =
  `SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason "<why>" (this session only; counted as a miss for follow). This blocks once.`;

Deno.test("checkContract() reproduces the seed's worked example block line", async () => {
  const text = await Deno.readTextFile(new URL("investigate_unmet.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.equal(r.outcome, "unmet");
  assert.equal(renderBlockLine(r), SEED_BLOCK);
});

Deno.test("renderBlockLine() names the installed skillgate command", async () => {
  const text = await Deno.readTextFile(new URL("investigate_unmet.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.ok(
    renderBlockLine(r, { command: "/opt/sg/bin/skillgate" }).includes(
      `run '/opt/sg/bin/skillgate' contract waive <item> --reason "<why>"`,
    ),
  );
  assert.equal(
    waiveCommandPrefix("deno run -A /abs/cli.ts"),
    "deno run -A /abs/cli.ts contract",
  );
  assert.equal(waiveCommandPrefix(), "'skillgate' contract");
});

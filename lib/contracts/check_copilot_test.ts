import assert from "node:assert/strict";
import { INVESTIGATE, statuses } from "./_kit_test.ts";
import { checkContract, type CheckResult } from "./check.ts";
import { parseCopilotText } from "../transcript/copilot_read.ts";
import type { TranscriptRun } from "../transcript/model.ts";

function check(run: TranscriptRun): CheckResult {
  return checkContract(run, INVESTIGATE, { skill: "investigate" });
}

/** A real Copilot CLI session (host tests), as the file was at its `n`-th agentStop (from 1). */
function atStop(name: string, n: number): TranscriptRun {
  const url = new URL(`../../fixtures/transcripts/copilot/${name}.jsonl`, import.meta.url);
  const lines = Deno.readTextFileSync(url).split("\n").filter((l) => l.trim() !== "");
  let seen = 0;
  const at = lines.findIndex((l) =>
    l.includes('"hook.start"') && l.includes('"agentStop"') && ++seen === n
  );
  assert.ok(at >= 0, `${name} has stop ${n}`);
  const read = parseCopilotText(lines.slice(0, at + 1).join("\n") + "\n", { skill: "investigate" });
  assert.equal(read.kind, "ok");
  return (read as { run: TranscriptRun }).run;
}

Deno.test("contract check over Copilot CLI sessions: unmet at the first stop, met after the test and report", () => {
  const first = check(atStop("met_after_block", 1));
  assert.equal(first.outcome, "unmet");
  assert.deepEqual(statuses(first), { "debug-report": "missing", "repro-after-fix": "missing" });
  const second = check(atStop("met_after_block", 2));
  assert.equal(second.outcome, "met");
});

Deno.test("contract check over Copilot CLI sessions: a file created and never tested stays unmet", () => {
  for (const n of [1, 2]) {
    const r = check(atStop("miss", n));
    assert.equal(r.outcome, "unmet");
    assert.equal(statuses(r)["repro-after-fix"], "missing");
  }
});

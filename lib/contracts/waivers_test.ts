import assert from "node:assert/strict";
import { findWaivers, parseWaiveCommand } from "./waivers.ts";
import {
  bash,
  call,
  edit,
  type Rec,
  result,
  say,
  SESSION,
  skillLoad,
} from "../../fixtures/transcripts/_build.ts";
import { ACK, check, INVESTIGATE, REPORT, runOf } from "./_kit_test.ts";

Deno.test("a successful waive call waives an item; the run is met but marked waived", () => {
  const recs = [
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    ...bash(
      "w1",
      `skillgate contract waive repro-after-fix --reason "docs-only change"`,
      ACK,
    ),
    say(REPORT),
  ];
  const r = check(recs);
  assert.equal(r.outcome, "met");
  assert.equal(r.waived, true);
  assert.equal(r.items[1].status, "waived");
  assert.equal(r.items[1].waiverReason, "docs-only change");
});

Deno.test("a waive that failed, has no reason, or names another skill does not count", () => {
  const base = [...skillLoad("s", "investigate"), ...edit("e1"), say(REPORT)];
  const cases: Rec[][] = [
    bash("w1", `skillgate contract waive repro-after-fix --reason "x"`, "Exit code 2", true),
    bash("w2", `skillgate contract waive repro-after-fix`, ACK),
    bash("w3", `skillgate contract waive repro-after-fix --reason ""`, ACK),
    bash("w4", `skillgate contract waive repro-after-fix --reason "x" --skill review`, ACK),
    bash("w5", `echo contract waive repro-after-fix --reason "x"`, ACK),
    // Found in review: an echo of the whole line, and a failure hidden behind `|| true`.
    bash("w7", `echo skillgate contract waive repro-after-fix --reason "x"`),
    bash(
      "w8",
      `skillgate contract waive repro-after-fix --reason "x" || true`,
      "bash: skillgate: command not found",
    ),
  ];
  for (const w of cases) {
    assert.equal(check([...base, ...w]).outcome, "unmet", JSON.stringify(w[0]));
  }
  const sameSkill = bash(
    "w6",
    `skillgate contract waive repro-after-fix --reason "x" --skill investigate`,
    ACK,
  );
  assert.equal(check([...base, ...sameSkill]).outcome, "met");
});

Deno.test("a waive from another session does not count when a session id is given", () => {
  const other = [
    call("w1", "Bash", { command: `skillgate contract waive repro-after-fix --reason "x"` }),
    result("w1", ACK, { session: "other" }),
  ];
  (other[0] as Rec).sessionId = "other-session";
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...other, say(REPORT)];
  assert.equal(check(recs, INVESTIGATE, { sessionId: SESSION }).outcome, "unmet");
  assert.equal(check(recs).outcome, "met");
});

Deno.test("parseWaiveCommand() reads the installed command forms", () => {
  assert.deepEqual(parseWaiveCommand(`'skillgate' contract waive a --reason "why"`), {
    item: "a",
    reason: "why",
  });
  assert.deepEqual(
    parseWaiveCommand(`deno run -A /x/cli.ts contract waive a --reason=why --skill investigate`),
    { item: "a", reason: "why", skill: "investigate" },
  );
  assert.equal(parseWaiveCommand(`sg contract waive a --reason why`), undefined);
  assert.deepEqual(parseWaiveCommand(`sg contract waive a --reason why`, "/usr/bin/sg")?.item, "a");
  const run = runOf([
    ...skillLoad("s", "investigate"),
    ...bash("w", "skillgate contract waive a --reason b", "Waived a for investigate: b."),
  ]);
  assert.equal(findWaivers(run, { skill: "investigate" }).length, 1);
});

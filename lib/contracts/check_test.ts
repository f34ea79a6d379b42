import assert from "node:assert/strict";
import { checkContract, findEarlyEnd } from "./check.ts";
import type { Contract } from "./schema.ts";
import { bash, call, edit, say, skillLoad } from "../../fixtures/transcripts/_build.ts";
import { check, contract, FIX, INVESTIGATE, REPORT, REVIEW, runOf, statuses } from "./_kit_test.ts";

Deno.test("checkContract() is met after bun test and a DEBUG REPORT", async () => {
  const text = await Deno.readTextFile(new URL("investigate_met.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.equal(r.outcome, "met");
  assert.deepEqual(statuses(r), { "debug-report": "met", "repro-after-fix": "met" });
});

Deno.test("checkContract() reads the final text override (last_assistant_message)", () => {
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...bash("b1", "bun test")];
  assert.equal(statuses(check(recs))["debug-report"], "missing");
  assert.equal(statuses(check(recs, INVESTIGATE, { finalText: REPORT }))["debug-report"], "met");
});

Deno.test("an early end counts as met: STATUS: BLOCKED or Nothing to review", () => {
  const recs = [...skillLoad("s", "investigate"), ...edit("e1")];
  const blocked = check([...recs, say("I cannot reproduce it.\nSTATUS: BLOCKED")]);
  assert.equal(blocked.outcome, "met");
  assert.equal(blocked.earlyEnd, "blocked");
  assert.equal(check([...recs, say("DEBUG REPORT\nStatus: BLOCKED")]).outcome, "met");
  const review = check(
    [...skillLoad("s", "review"), say("Nothing to review: the diff is empty.")],
    REVIEW,
  );
  assert.equal(review.earlyEnd, "nothing_to_review");
  assert.equal(review.outcome, "met");
  assert.equal(findEarlyEnd("STATUS: BLOCKED\nlater\nSTATUS: DONE"), undefined);
});

Deno.test("a backtracking-prone match answers on long dispatch prompts and commands (RE2)", async () => {
  // Under JavaScript's backtracking RegExp each of these checks runs for minutes.
  const hostile = "[^!]{0,99}".repeat(5) + "!";
  const c = await contract({
    version: 1,
    items: [
      { id: "sec", kind: "agent_dispatch", match: hostile },
      { id: "e2e", kind: "check_after_last_edit", match: "(a+)+$" },
    ],
  });
  const recs = [
    ...skillLoad("s", "investigate"),
    call("a", "Agent", { description: "x".repeat(115), prompt: "x".repeat(5000) }),
    ...edit("e1"),
    ...bash("b1", "a".repeat(5000) + "!"),
  ];
  assert.deepEqual(statuses(check(recs, c)), { sec: "missing", e2e: "missing" });
  const met = [
    ...recs,
    call("a2", "Agent", { description: "go!", prompt: "p" }),
    ...bash("b2", "aaa"),
  ];
  assert.deepEqual(statuses(check(met, c)), { sec: "met", e2e: "met" });
});

Deno.test("checkContract() refuses a hand-built contract whose match was never compiled", () => {
  const c = { version: 1, items: [{ id: "e2e", kind: "check_after_last_edit", match: "x" }] };
  assert.throws(
    () => check([...skillLoad("s", "investigate"), ...edit("e1")], c as Contract),
    /^TypeError: Contract item e2e has a match but no matcher: validate the contract/,
  );
});

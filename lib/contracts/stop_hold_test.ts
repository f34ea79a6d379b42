import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES } from "../../tests/_helpers.ts";
import { decideStop, type StopInput } from "./stop.ts";
import { contract, investigateStop } from "./_kit_test.ts";
import { parseTranscriptText } from "../transcript/read.ts";
import type { TranscriptRun } from "../transcript/model.ts";
import type { RunRecord } from "./records.ts";

const T0 = new Date("2026-11-05T10:00:00.000Z");

function run(fixture: string): TranscriptRun {
  const text = Deno.readTextFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`));
  const r = parseTranscriptText(text, { skill: "investigate" });
  if (r.kind !== "ok") throw new Error(`${fixture}: ${r.kind}`);
  return r.run;
}

/** investigate's contract with `hold` on its report item. */
const held = (hold: number, reproHold?: number) =>
  contract({
    version: 1,
    items: [
      {
        id: "debug-report",
        kind: "report_labels",
        heading: "DEBUG REPORT",
        labels: ["Symptom", "Root cause", "Fix", "Evidence"],
        hold,
      },
      {
        id: "repro-after-fix",
        kind: "check_after_last_edit",
        ...(reproHold ? { hold: reproHold } : {}),
      },
    ],
  });

async function input(
  fixture: string,
  hold: number,
  extra: Partial<StopInput> = {},
): Promise<StopInput> {
  return investigateStop(run(fixture), { now: T0, contract: await held(hold), ...extra });
}

/** Plays `stops` unmet stops of one run, each after the one before (stop_hook_active after a block). */
async function play(hold: number, stops: number): Promise<{ actions: string[]; last?: RunRecord }> {
  let rec: RunRecord | undefined;
  const actions: string[] = [];
  for (let i = 0; i < stops; i++) {
    const fixture = i === 0 ? "stop_unmet" : "stop_unmet_again";
    // Each stop is a new one: the transcript grew (a duplicate stop's fingerprint never repeats).
    const inp = await input(fixture, hold, { stopHookActive: i > 0, finalText: `Done, try ${i}.` });
    const d = decideStop(inp, rec);
    actions.push(d.action);
    rec = d.next ?? rec;
  }
  return { actions, last: rec };
}

Deno.test("hold: N blocks a run up to N times, then records miss and lets the stop through", async () => {
  for (const n of [1, 2, 3, 5]) {
    const { actions, last } = await play(n, n + 2);
    assert.deepEqual(actions, [...Array(n).fill("block"), "allow", "allow"], `hold ${n}`);
    assert.equal(last?.outcome, "miss", `hold ${n}`);
    assert.equal(last?.blocks, n, `hold ${n}`);
  }
});

Deno.test("hold: the block line says how many blocks are left; a fixed run is met_after_block", async () => {
  const first = decideStop(await input("stop_unmet", 2), undefined);
  assert.match(first.blockText!, /This blocks up to 2 times \(block 1 of 2\)\.$/);
  const second = decideStop(
    await input("stop_unmet_again", 2, { stopHookActive: true, finalText: "again" }),
    first.next,
  );
  assert.equal(second.action, "block");
  assert.match(second.blockText!, /\(block 2 of 2\)\.$/);
  const fixed = decideStop(
    await input("stop_fixed_after_block", 2, { stopHookActive: true }),
    second.next,
  );
  assert.equal(fixed.action, "allow");
  assert.equal(fixed.next?.outcome, "met_after_block");
});

Deno.test("hold: only the missing items' holds count", async () => {
  // The held report is there; the unheld repro is missing: one block, then miss.
  const c = await contract({
    version: 1,
    items: [
      { id: "debug-report", kind: "report_labels", heading: "NEVER PRINTED", labels: ["A"] },
      { id: "repro-after-fix", kind: "check_after_last_edit", hold: 3 },
    ],
  });
  const first = decideStop(investigateStop(run("stop_unmet"), { now: T0, contract: c }), undefined);
  assert.equal(first.action, "block");
  assert.match(first.blockText!, /up to 3 times/);
  const unheld = await contract({
    version: 1,
    items: [{ id: "debug-report", kind: "report_labels", heading: "NEVER PRINTED", labels: ["A"] }],
  });
  const d = decideStop(
    investigateStop(run("stop_unmet"), { now: T0, contract: unheld }),
    undefined,
  );
  assert.match(d.blockText!, /This blocks once\.$/);
});

Deno.test("hold: a question turn is not blocked again, and the run stays blocked for the next stop", async () => {
  const first = decideStop(await input("stop_unmet", 3), undefined);
  const q = decideStop(
    await input("stop_question", 3, {
      stopHookActive: true,
      finalText: "Should I also fix signup?",
    }),
    first.next,
  );
  assert.equal(q.action, "allow");
  assert.equal(q.reason, "held-ends-on-question");
  assert.equal(q.next, undefined, "nothing recorded: still blocked");
  const again = decideStop(
    await input("stop_unmet_again", 3, { stopHookActive: true, finalText: "x" }),
    first.next,
  );
  assert.equal(again.action, "block");
  assert.equal(again.next?.blocks, 2);
});

Deno.test("hold: while agents run the stop goes through, the run stays blocked; stalled agents block again", async () => {
  const first = decideStop(await input("stop_unmet", 2), undefined);
  const running = decideStop(
    await input("stop_agents_running", 2, { stopHookActive: true, finalText: "waiting" }),
    first.next,
  );
  assert.equal(running.action, "allow");
  assert.equal(running.reason, "held-agents-running");
  assert.equal(running.next?.outcome, "blocked");
  assert.ok(running.next?.pending);
  const stalled = decideStop(
    await input("stop_agents_running", 2, {
      stopHookActive: true,
      finalText: "still waiting",
      now: new Date(T0.getTime() + 11 * 60_000),
    }),
    running.next,
  );
  assert.equal(stalled.action, "block");
  assert.equal(stalled.next?.blocks, 2);
});

Deno.test("hold: stop_hook_active without an own block still never blocks; a duplicate stop is not counted", async () => {
  const d = decideStop(await input("stop_unmet", 3, { stopHookActive: true }), undefined);
  assert.equal(d.action, "allow");
  const first = decideStop(await input("stop_unmet", 3), undefined);
  const dup = decideStop(await input("stop_unmet", 3), first.next);
  assert.equal(dup.reason, "duplicate-stop");
});

Deno.test("validateContract() takes hold from 1 to 5 on any kind", async () => {
  for (const bad of [0, 6, 1.5, "2", -1]) {
    await assert.rejects(() => held(bad as number), /hold must be a whole number from 1 to 5/);
  }
  const c = await held(5, 1);
  assert.equal(c.items[0].hold, 5);
  assert.equal(c.items[1].hold, 1);
});

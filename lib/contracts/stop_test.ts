import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld } from "../../tests/_helpers.ts";
import {
  bumpCanary,
  canaryPath,
  decideStop,
  isFinalTurn,
  runContractStop,
  STALL_MS,
  type StopInput,
  type StopProgress,
} from "./stop.ts";
import type { RunRecord } from "./records.ts";
import { investigateStop, SESSION } from "./_kit_test.ts";
import { parseTranscriptText } from "../transcript/read.ts";
import type { TranscriptRun } from "../transcript/model.ts";
import { parsePayload } from "../host/payload.ts";
import { hookRow } from "../hook/table.ts";
import { readConfig } from "../base/config.ts";
import type { HookContext } from "../hook/runner.ts";
import { claudeContext } from "../host/_kit_test.ts";

const SEED_BLOCK =
  "SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason \"<why>\" (this session only; counted as a miss for follow). This blocks once.";

function run(fixture: string): TranscriptRun {
  const text = Deno.readTextFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`));
  const r = parseTranscriptText(text, { skill: "investigate" });
  if (r.kind !== "ok") throw new Error(`${fixture}: ${r.kind}`);
  return r.run;
}

const T0 = new Date("2026-11-05T10:00:00.000Z");

function input(fixture: string, extra: Partial<StopInput> = {}): StopInput {
  return investigateStop(run(fixture), { now: T0, ...extra });
}

function after(minutes: number): Date {
  return new Date(T0.getTime() + minutes * 60_000);
}

// The seed's worked example.

Deno.test("decideStop() blocks the seed's worked example once with the seed's exact text", () => {
  const d = decideStop(input("stop_unmet"), undefined);
  assert.equal(d.action, "block");
  assert.equal(d.blockText, SEED_BLOCK);
  assert.equal(d.next?.outcome, "blocked");
  assert.equal(d.next?.blocks, 1);
  assert.deepEqual(d.next?.missing, ["debug-report", "repro-after-fix"]);
  assert.equal(d.next?.key, `investigate@${run("stop_unmet").load.offset}`);
});

Deno.test("decideStop() names the installed command in the waive text", () => {
  const d = decideStop(
    input("stop_unmet", { command: "deno run -A /opt/skillgate/cli.ts" }),
    undefined,
  );
  assert.match(d.blockText!, /run deno run -A \/opt\/skillgate\/cli\.ts contract waive <item>/);
});

Deno.test("decideStop() records met_after_block when the model fixes the run after the block", () => {
  const first = decideStop(input("stop_unmet"), undefined);
  const d = decideStop(input("stop_fixed_after_block", { stopHookActive: true }), first.next);
  assert.equal(d.action, "allow");
  assert.equal(d.next?.outcome, "met_after_block");
  assert.deepEqual(d.next?.missing, []);
});

Deno.test("decideStop() records miss on a second unmet stop and never blocks twice", () => {
  const first = decideStop(input("stop_unmet"), undefined);
  const d = decideStop(input("stop_unmet_again", { stopHookActive: true }), first.next);
  assert.equal(d.action, "allow");
  assert.equal(d.next?.outcome, "miss");
  assert.equal(d.next?.blocks, 1);
});

Deno.test("decideStop() never blocks a blocked run again when stop_hook_active stays false", () => {
  const first = decideStop(input("stop_unmet"), undefined);
  const d = decideStop(input("stop_unmet_again", { stopHookActive: false }), first.next);
  assert.equal(d.action, "allow");
  assert.equal(d.next?.outcome, "miss");
});

Deno.test("decideStop() treats the same stop seen twice as a duplicate: no second block, no miss", () => {
  const first = decideStop(input("stop_unmet"), undefined);
  const d = decideStop(input("stop_unmet"), first.next);
  assert.equal(d.action, "allow");
  assert.equal(d.reason, "duplicate-stop");
  assert.equal(d.next, undefined);
});

Deno.test("decideStop() upgrades a miss to met_after_block when a later stop finds the run met", () => {
  const first = decideStop(input("stop_unmet"), undefined);
  const miss = decideStop(input("stop_unmet_again"), first.next);
  assert.equal(miss.next?.outcome, "miss");
  const d = decideStop(input("stop_fixed_after_block"), miss.next);
  assert.equal(d.action, "allow");
  assert.equal(d.next?.outcome, "met_after_block");
});

Deno.test("decideStop() records met for a met run and leaves a settled run alone on a later turn", () => {
  const met = decideStop(input("stop_met"), undefined);
  assert.equal(met.action, "allow");
  assert.equal(met.next?.outcome, "met");
  // The unrelated turn edits again without a test: unmet by itself, but the run is settled.
  const fresh = decideStop(input("stop_unrelated_turn"), undefined);
  assert.equal(fresh.action, "block");
  const d = decideStop(input("stop_unrelated_turn"), met.next);
  assert.equal(d.action, "allow");
  assert.equal(d.reason, "already-met");
  assert.equal(d.next, undefined);
});

for (const outcome of ["met", "met_waived", "met_after_block"] as const) {
  Deno.test(`decideStop() never changes a run recorded ${outcome}`, () => {
    const rec: RunRecord = {
      ...decideStop(input("stop_unmet"), undefined).next!,
      outcome,
      blocks: 0,
    };
    const d = decideStop(input("stop_unmet_again"), rec);
    assert.equal(d.action, "allow");
    assert.equal(d.next, undefined);
  });
}

// Final turns.

Deno.test("decideStop() does not block an interactive turn that ends on a question", () => {
  const d = decideStop(input("stop_question"), undefined);
  assert.equal(d.action, "allow");
  assert.equal(d.reason, "ends-on-question");
  assert.equal(d.next, undefined);
});

Deno.test("decideStop() checks a question-ending turn in a headless or spawned session", () => {
  for (const kind of ["headless", "spawned"] as const) {
    const d = decideStop(input("stop_question", { kind }), undefined);
    assert.equal(d.action, "block", kind);
  }
});

Deno.test("decideStop() checks a turn with a STATUS line even when it ends on a question", () => {
  const d = decideStop(input("stop_status_question"), undefined);
  assert.equal(d.action, "block");
});

Deno.test("decideStop() does not block NEEDS_CONTEXT or a pending AskUserQuestion", () => {
  assert.equal(decideStop(input("stop_needs_context"), undefined).action, "allow");
  assert.equal(decideStop(input("stop_ask_user"), undefined).action, "allow");
  assert.equal(decideStop(input("stop_ask_user"), undefined).reason, "ends-on-question");
});

Deno.test("isFinalTurn() names why a turn is final", () => {
  assert.deepEqual(isFinalTurn(run("stop_unmet"), undefined, "interactive"), {
    final: true,
    why: "no-question",
  });
  assert.equal(
    isFinalTurn(run("stop_status_question"), undefined, "interactive").why,
    "status-line",
  );
  assert.equal(isFinalTurn(run("stop_question"), undefined, "headless").why, "session-headless");
  assert.equal(isFinalTurn(run("stop_question"), undefined, "interactive").final, false);
});

Deno.test("decideStop() reads the payload's last_assistant_message before the lagging transcript", () => {
  // The file still ends at the edit's answer; the payload already has the DEBUG REPORT.
  const report = [
    "DEBUG REPORT",
    "Symptom: the login page crashed",
    "Root cause: session.user was null",
    "Fix: guard the null user in src/auth.ts",
    "Evidence: none yet",
    "Status: DONE",
  ].join("\n");
  const d = decideStop(input("stop_unmet", { finalText: report }), undefined);
  assert.equal(d.action, "block");
  assert.deepEqual(d.next?.missing, ["repro-after-fix"]);
  const q = decideStop(input("stop_unmet", { finalText: "Shall I run the tests now?" }), undefined);
  assert.equal(q.action, "allow");
});

// stop_hook_active.

Deno.test("decideStop() never blocks with stop_hook_active and records nothing for an unmet run", () => {
  const d = decideStop(input("stop_unmet", { stopHookActive: true }), undefined);
  assert.equal(d.action, "allow");
  assert.equal(d.reason, "stop-hook-active");
  assert.equal(d.next, undefined);
  const m = decideStop(input("stop_met", { stopHookActive: true }), undefined);
  assert.equal(m.next?.outcome, "met");
});

// Agents.

Deno.test("decideStop() defers while a background agent runs, then checks once it is stalled", () => {
  const d1 = decideStop(input("stop_agents_running"), undefined);
  assert.equal(d1.action, "allow");
  assert.equal(d1.reason, "agents-running");
  assert.equal(d1.next?.outcome, "deferred");
  assert.deepEqual(d1.next?.pending, { toolu_agent01: T0.toISOString() });
  // Five minutes on: still running, first-seen time kept.
  const d2 = decideStop(input("stop_agents_running", { now: after(5) }), d1.next);
  assert.equal(d2.action, "allow");
  assert.deepEqual(d2.next?.pending, { toolu_agent01: T0.toISOString() });
  // Ten minutes after the stop that first saw it: stalled, the contract is checked.
  const d3 = decideStop(
    input("stop_agents_running", { now: new Date(T0.getTime() + STALL_MS) }),
    d2.next,
  );
  assert.equal(d3.action, "block");
  assert.equal(d3.reason, "unmet-agents-stalled");
  assert.equal(d3.next?.pending, undefined);
});

Deno.test("decideStop() restarts the stall clock for an agent it has not seen before", () => {
  const d1 = decideStop(input("stop_agents_running"), undefined);
  const old = { ...d1.next!, pending: { toolu_other: T0.toISOString() } };
  const d2 = decideStop(input("stop_agents_running", { now: after(11) }), old);
  assert.equal(d2.action, "allow");
  assert.deepEqual(d2.next?.pending, { toolu_agent01: after(11).toISOString() });
});

Deno.test("decideStop() checks the run once the background agent's completion notice arrives", () => {
  const d1 = decideStop(input("stop_agents_running"), undefined);
  const d2 = decideStop(input("stop_agents_done"), d1.next);
  assert.equal(d2.action, "block");
  assert.equal(d2.reason, "unmet");
});

// Waivers.

Deno.test("decideStop() accepts a successful waive call: met_waived, no block", () => {
  const d = decideStop(input("stop_waived"), undefined);
  assert.equal(d.action, "allow");
  assert.equal(d.next?.outcome, "met_waived");
  assert.deepEqual(d.next?.waived, ["repro-after-fix"]);
});

Deno.test("decideStop() rejects a failed waive call and one that names another skill", () => {
  for (const f of ["stop_waive_failed", "stop_waive_other_skill"]) {
    const d = decideStop(input(f), undefined);
    assert.equal(d.action, "block", f);
    assert.deepEqual(d.next?.missing, ["repro-after-fix"], f);
  }
});

Deno.test("decideStop() ignores a waiver recorded in another session", () => {
  const d = decideStop(input("stop_waived", { sessionId: "another-session" }), undefined);
  assert.equal(d.action, "block");
});

Deno.test("bumpCanary() counts unknown shapes in <state root>/hooks/skill-contract.canary.json", async () => {
  const root = await Deno.makeTempDir();
  try {
    assert.equal(bumpCanary(root, "no user or assistant records"), 1);
    assert.equal(bumpCanary(root, "no user or assistant records"), 2);
    const v = JSON.parse(Deno.readTextFileSync(canaryPath(root)));
    assert.equal(v.count, 2);
    assert.equal(v.reason, "no user or assistant records");
    // A corrupt canary restarts at 1 rather than failing.
    Deno.writeTextFileSync(canaryPath(root), "{nope");
    assert.equal(bumpCanary(root, "x"), 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runContractStop() notes what it works on in the caller's progress, last the session record", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    const transcript = join(world.root, `${SESSION}.jsonl`);
    Deno.copyFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"), transcript);
    const raw = JSON.parse(
      Deno.readTextFileSync(join(FIXTURES, "payloads", "stop_claude_no_last_message.json")),
    );
    const ev = parsePayload(
      JSON.stringify({ ...raw, transcript_path: transcript, cwd: world.projectDir }),
    );
    const ctx: HookContext = {
      row: hookRow("skill-contract"),
      stateRoot: world.stateRoot,
      ...claudeContext(world.claudeDir),
      config: readConfig(world.stateRoot),
      signal: new AbortController().signal,
      commit() {},
      log() {},
    };
    const progress: StopProgress = {};
    const answer = await runContractStop(ev, ctx, {
      progress,
      kind: () => "headless",
      catchUpMs: 0,
    });
    assert.ok(answer !== null, "the unmet run is blocked");
    assert.equal(progress.path, join(world.stateRoot, "skill-contracts", `${SESSION}.json`));
  } finally {
    await world.cleanup();
  }
});

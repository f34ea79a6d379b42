import assert from "node:assert/strict";
import { buildReport, formatReport, type Rechecker } from "./report.ts";
import { listSessionRecords } from "./records.ts";
import { hookRecord, noRecheck, withRoot, writeRecord } from "./_records_kit_test.ts";

Deno.test("buildReport() counts miss and met_waived runs by skill and item; met runs are not misses", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "s-miss", hookRecord(["stop_unmet", "stop_unmet_again"], "s-miss"));
    writeRecord(root, "s-waived", hookRecord(["stop_waived"], "s-waived"));
    writeRecord(root, "s-met", hookRecord(["stop_met"], "s-met"));
    writeRecord(root, "s-mab", hookRecord(["stop_unmet", "stop_fixed_after_block"], "s-mab"));
    const report = await buildReport(listSessionRecords(root), noRecheck);
    assert.equal(report.sessions, 4);
    assert.deepEqual(
      report.runs.map((r) => [r.session, r.outcome, r.miss]),
      [
        ["s-mab", "met_after_block", false],
        ["s-met", "met", false],
        ["s-miss", "miss", true],
        ["s-waived", "met_waived", true],
      ],
    );
    assert.deepEqual(report.byItem, [
      { skill: "investigate", item: "repro-after-fix", count: 2 },
      { skill: "investigate", item: "debug-report", count: 1 },
    ]);
    const text = formatReport(report);
    assert.match(text, /^Contract misses: 2 of 4 run\(s\) in 4 session\(s\)/);
    assert.match(text, /investigate {2}repro-after-fix {2}2/);
    assert.match(
      text,
      /s-miss {2}investigate {2}investigate@\d+ {2}miss {2}missing: debug-report, repro-after-fix/,
    );
    assert.match(
      text,
      /s-waived {2}investigate {2}investigate@\d+ {2}met_waived {2}waived: repro-after-fix/,
    );
    assert.match(text, /Other runs: met_after_block 1, met 1/);
  });
});

Deno.test("buildReport() reads a still-blocked run as fixed_after_block when its re-check is met", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "s1", hookRecord(["stop_unmet"], "s1"));
    const fixed: Rechecker = () => Promise.resolve({ outcome: "met", items: [] });
    const r1 = await buildReport(listSessionRecords(root), fixed);
    assert.equal(r1.runs[0].outcome, "fixed_after_block");
    assert.equal(r1.runs[0].miss, false);
    assert.equal(r1.runs[0].rechecked, true);
    const unmet: Rechecker = () =>
      Promise.resolve({ outcome: "unmet", items: ["repro-after-fix"] });
    const r2 = await buildReport(listSessionRecords(root), unmet);
    assert.equal(r2.runs[0].outcome, "miss");
    assert.deepEqual(r2.runs[0].items, ["repro-after-fix"]);
    // Without its transcript a blocked run is a miss with the recorded items.
    const r3 = await buildReport(listSessionRecords(root), noRecheck);
    assert.equal(r3.runs[0].outcome, "blocked");
    assert.equal(r3.runs[0].miss, true);
    assert.deepEqual(r3.runs[0].items, ["debug-report", "repro-after-fix"]);
    assert.match(formatReport(r3), /not re-checked: transcript is gone/);
  });
});

Deno.test("buildReport() re-checks a deferred run and leaves it out of the misses when it cannot", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "s1", hookRecord(["stop_agents_running"], "s1"));
    const r = await buildReport(listSessionRecords(root), noRecheck);
    assert.equal(r.runs[0].outcome, "deferred");
    assert.equal(r.runs[0].miss, false);
    const unmet: Rechecker = () => Promise.resolve({ outcome: "unmet", items: ["debug-report"] });
    const r2 = await buildReport(listSessionRecords(root), unmet);
    assert.equal(r2.runs[0].outcome, "miss");
    assert.equal(r2.runs[0].miss, true);
  });
});

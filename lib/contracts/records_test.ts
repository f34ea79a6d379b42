import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  CorruptRecordError,
  listSessionRecords,
  MAX_RUNS_PER_RECORD,
  parseSessionRecord,
  readSessionRecord,
  recordPath,
  runKey,
  type RunRecord,
  UnsafeSessionIdError,
  updateSessionRecord,
  upsertRun,
} from "./records.ts";

const NOW = new Date("2026-11-05T10:00:00.000Z");

function runRec(offset: number, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    key: runKey("investigate", { offset }),
    skill: "investigate",
    loadOffset: offset,
    loadVia: "skill_tool",
    outcome: "met",
    missing: [],
    waived: [],
    blocks: 0,
    stops: 1,
    first: NOW.toISOString(),
    updated: NOW.toISOString(),
    ...extra,
  };
}

async function withRoot(fn: (root: string) => Promise<void> | void): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-records-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("runKey() identifies a run by skill and the byte offset of its load", () => {
  assert.equal(runKey("investigate", { offset: 1636 }), "investigate@1636");
});

Deno.test("recordPath() refuses session ids that are not safe file names", () => {
  for (const bad of ["", "../etc/passwd", "a/b", "-rf", "a b", "x".repeat(200), "a\u0000b"]) {
    assert.throws(() => recordPath("/s", bad), UnsafeSessionIdError, JSON.stringify(bad));
  }
  assert.equal(
    recordPath("/s", "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f"),
    "/s/skill-contracts/5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f.json",
  );
});

Deno.test("updateSessionRecord() writes the record with mode 0600 and reads it back", async () => {
  await withRoot((root) => {
    const out = updateSessionRecord(root, "s1", (cur) => {
      assert.equal(cur, undefined);
      return { record: upsertRun(cur, "s1", runRec(10), NOW, "/t.jsonl"), result: 42 };
    });
    assert.equal(out, 42);
    const path = recordPath(root, "s1");
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    const rec = readSessionRecord(root, "s1")!;
    assert.equal(rec.session, "s1");
    assert.equal(rec.transcript, "/t.jsonl");
    assert.deepEqual(rec.runs, [runRec(10)]);
    // No temp files are left next to it.
    const names = [...Deno.readDirSync(join(root, "skill-contracts"))].map((e) => e.name).sort();
    assert.deepEqual(names, ["s1.json", "s1.json.lock"]);
  });
});

Deno.test("updateSessionRecord() leaves the file alone when the update returns no record", async () => {
  await withRoot((root) => {
    updateSessionRecord(root, "s1", () => ({ result: 0 }));
    assert.equal(readSessionRecord(root, "s1"), undefined);
  });
});

Deno.test("updateSessionRecord() refuses a corrupt record and does not overwrite it", async () => {
  await withRoot((root) => {
    const path = recordPath(root, "s1");
    Deno.mkdirSync(join(root, "skill-contracts"), { recursive: true });
    Deno.writeTextFileSync(path, '{"version":1,"session":"s1","runs":[');
    let called = false;
    assert.throws(
      () =>
        updateSessionRecord(root, "s1", () => {
          called = true;
          return { record: upsertRun(undefined, "s1", runRec(1), NOW), result: 0 };
        }),
      (e: unknown) => e instanceof CorruptRecordError && e.path === path,
    );
    assert.equal(called, false);
    assert.equal(Deno.readTextFileSync(path), '{"version":1,"session":"s1","runs":[');
  });
});

Deno.test("parseSessionRecord() refuses records of another shape", () => {
  const good = { version: 1, session: "s", updated: "", runs: [runRec(1)] };
  assert.equal(parseSessionRecord(good, "/p").runs.length, 1);
  for (
    const bad of [
      null,
      [],
      { ...good, version: 2 },
      { ...good, runs: "x" },
      { ...good, runs: [{ ...runRec(1), outcome: "fine" }] },
      { ...good, runs: [{ ...runRec(1), missing: [1] }] },
      { ...good, runs: [{ ...runRec(1), pending: { a: 5 } }] },
    ]
  ) {
    assert.throws(() => parseSessionRecord(bad, "/p"), CorruptRecordError);
  }
});

Deno.test("parseSessionRecord() never throws anything but CorruptRecordError (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      try {
        parseSessionRecord(v, "/p");
      } catch (e) {
        return e instanceof CorruptRecordError;
      }
      return true;
    }),
    { numRuns: 500 },
  );
});

Deno.test("upsertRun() replaces the run with the same key, keeps order and caps the list", () => {
  let rec = upsertRun(undefined, "s", runRec(20), NOW);
  rec = upsertRun(rec, "s", runRec(10), NOW);
  rec = upsertRun(rec, "s", runRec(20, { outcome: "miss" }), NOW);
  assert.deepEqual(rec.runs.map((r) => [r.loadOffset, r.outcome]), [[10, "met"], [20, "miss"]]);
  for (let i = 0; i < MAX_RUNS_PER_RECORD + 5; i++) rec = upsertRun(rec, "s", runRec(100 + i), NOW);
  assert.equal(rec.runs.length, MAX_RUNS_PER_RECORD);
  assert.equal(rec.runs.at(-1)!.loadOffset, 100 + MAX_RUNS_PER_RECORD + 4);
});

Deno.test("listSessionRecords() lists safe record files only, and none without a directory", async () => {
  await withRoot((root) => {
    assert.deepEqual(listSessionRecords(root), []);
    const dir = join(root, "skill-contracts");
    Deno.mkdirSync(dir, { recursive: true });
    for (const n of ["b.json", "a.json", "-x.json", "c.json.lock", ".a.json.tmp"]) {
      Deno.writeTextFileSync(join(dir, n), "{}");
    }
    assert.deepEqual(listSessionRecords(root).map((f) => f.session), ["a", "b"]);
  });
});

Deno.test("updateSessionRecord() loses no update when 8 processes write one session at once", async () => {
  await withRoot(async (root) => {
    const mod = new URL("./records.ts", import.meta.url).href;
    const procs = Array.from({ length: 8 }, (_, i) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `import { updateSessionRecord, upsertRun } from ${JSON.stringify(mod)};
           updateSessionRecord(${JSON.stringify(root)}, "s1", (cur) => ({
             record: upsertRun(cur, "s1", { key: "k${i}", skill: "investigate", loadOffset: ${i},
               loadVia: "skill_tool", outcome: "met", missing: [], waived: [], blocks: 0, stops: 1,
               first: "", updated: "" }, new Date()),
             result: 0,
           }), { timeoutMs: 20000 });`,
        ],
        stdout: "null",
        stderr: "piped",
      }).output());
    const outs = await Promise.all(procs);
    for (const o of outs) assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
    const rec = readSessionRecord(root, "s1")!;
    assert.deepEqual(rec.runs.map((r) => r.key), Array.from({ length: 8 }, (_, i) => `k${i}`));
  });
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld, REPO_ROOT, type TempWorld } from "../../tests/_helpers.ts";
import { buildReport, formatReport, main, type Rechecker } from "./report.ts";
import {
  listSessionRecords,
  recordPath,
  type RunRecord,
  updateSessionRecord,
  upsertRun,
} from "./records.ts";
import { decideStop, type StopInput } from "./stop.ts";
import { type Contract, validateContract } from "./schema.ts";
import { parseFrontmatter } from "../catalog/frontmatter.ts";
import { parseTranscriptText } from "../transcript/read.ts";

const NOW = new Date("2026-11-05T10:00:00.000Z");
/** The session id inside the fixture transcripts (waivers count for it only). */
const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";

const contract: Contract = await (async () => {
  const text = Deno.readTextFileSync(join(FIXTURES, "world", "skills", "investigate", "SKILL.md"));
  const v = await validateContract((await parseFrontmatter(text)).data.contract);
  if (!v.ok) throw new Error(v.error);
  return v.contract;
})();

function fixtureText(name: string): string {
  return Deno.readTextFileSync(join(FIXTURES, "transcripts", `${name}.jsonl`));
}

/** The run record the Stop hook would leave after stops on these fixtures, in order. */
function hookRecord(fixtures: string[], _recordedAs: string): RunRecord {
  let rec: RunRecord | undefined;
  for (const f of fixtures) {
    const r = parseTranscriptText(fixtureText(f), { skill: "investigate" });
    if (r.kind !== "ok") throw new Error(f);
    const input: StopInput = {
      run: r.run,
      contract,
      skill: "investigate",
      stopHookActive: false,
      kind: "interactive",
      sessionId: SESSION,
      command: "skillgate",
      now: NOW,
    };
    rec = decideStop(input, rec).next ?? rec;
  }
  return rec!;
}

function writeRecord(root: string, session: string, run: RunRecord, transcript?: string) {
  updateSessionRecord(root, session, (cur) => ({
    record: upsertRun(cur, session, run, NOW, transcript),
    result: 0,
  }));
}

async function capture(fn: () => Promise<number>) {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await fn();
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-report-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const noRecheck: Rechecker = () => Promise.resolve({ note: "transcript is gone" });

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

Deno.test("report exits 3 and names a corrupt record, still reporting the others", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "good", hookRecord(["stop_waived"], "good"));
    Deno.writeTextFileSync(recordPath(root, "bad"), "{not json");
    const r = await capture(() => main([], { stateRoot: root, recheck: noRecheck }));
    assert.equal(r.code, 3);
    assert.match(r.out, /Contract misses: 1 of 1 run\(s\) in 1 session\(s\)/);
    assert.match(r.out, /SKILL_CONTRACT_STATE_ERROR .*bad\.json: Corrupt record/);
  });
});

Deno.test("report --session reads one session; an unsafe id is exit 2", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "a", hookRecord(["stop_waived"], "a"));
    writeRecord(root, "b", hookRecord(["stop_met"], "b"));
    const r = await capture(() =>
      main(["--json", "--session", "b"], { stateRoot: root, recheck: noRecheck })
    );
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out);
    assert.equal(j.sessions, 1);
    assert.deepEqual(j.runs.map((x: { session: string }) => x.session), ["b"]);
    const bad = await capture(() => main(["--session", "../x"], { stateRoot: root }));
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^SKILL_CONTRACT_USAGE/);
    const unknown = await capture(() => main(["--bogus"], { stateRoot: root }));
    assert.equal(unknown.code, 2);
  });
});

Deno.test("report with no records says so and exits 0", async () => {
  await withRoot(async (root) => {
    const r = await capture(() => main([], { stateRoot: root, recheck: noRecheck }));
    assert.equal(r.code, 0);
    assert.equal(r.out, "Contract misses: 0 of 0 run(s) in 0 session(s)");
  });
});

function installTranscript(world: TempWorld, fixture: string, session: string): string {
  const dir = join(world.claudeDir, "projects", "-work-project");
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `${session}.jsonl`);
  Deno.copyFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`), path);
  return path;
}

Deno.test("skillgate contract report re-checks blocked runs against their transcripts", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    // s-fixed was blocked, then fixed after the block without a recorded second stop.
    writeRecord(
      world.stateRoot,
      "s-fixed",
      hookRecord(["stop_unmet"], "s-fixed"),
      installTranscript(world, "stop_fixed_after_block", "s-fixed"),
    );
    // s-open was blocked and the model stopped again unmet without the hook seeing it.
    writeRecord(
      world.stateRoot,
      "s-open",
      hookRecord(["stop_unmet"], "s-open"),
      installTranscript(world, "stop_unmet_again", "s-open"),
    );
    // s-gone was blocked; its transcript is gone.
    writeRecord(
      world.stateRoot,
      "s-gone",
      hookRecord(["stop_unmet"], "s-gone"),
      join(world.claudeDir, "projects", "-work-project", "s-gone.jsonl"),
    );
    // s-outside names a transcript outside the Claude projects directory: never read.
    writeRecord(
      world.stateRoot,
      "s-outside",
      hookRecord(["stop_unmet"], "s-outside"),
      "/etc/passwd",
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-prompt", join(REPO_ROOT, "cli.ts"), "contract", "report", "--json"],
      cwd: world.projectDir,
      clearEnv: true,
      env: {
        HOME: world.home,
        PATH: Deno.env.get("PATH") ?? "",
        NO_COLOR: "1",
        DENO_DIR: Deno.env.get("DENO_DIR") ??
          join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const j = JSON.parse(new TextDecoder().decode(out.stdout));
    const by = Object.fromEntries(
      j.runs.map((r: { session: string }) => [r.session, r]),
    ) as Record<string, { outcome: string; miss: boolean; recheckNote?: string }>;
    assert.equal(by["s-fixed"].outcome, "fixed_after_block");
    assert.equal(by["s-fixed"].miss, false);
    assert.equal(by["s-open"].outcome, "miss");
    assert.equal(by["s-gone"].outcome, "blocked");
    assert.equal(by["s-gone"].recheckNote, "transcript is gone");
    assert.equal(
      by["s-outside"].recheckNote,
      "transcript is not under the Claude projects directory",
    );
  } finally {
    await world.cleanup();
  }
});

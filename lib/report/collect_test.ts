import assert from "node:assert/strict";
import { join } from "node:path";
import { collectUsage, type TranscriptPlace } from "./collect.ts";
import { CLAUDE } from "../host/claude.ts";
import { COPILOT } from "../host/copilot.ts";
import { CODEX } from "../host/codex.ts";
import { formatLogLine } from "../hook/log.ts";
import type { Rechecker } from "../contracts/report.ts";
import { jsonl, skillLoad, user } from "../../fixtures/transcripts/_build.ts";

const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const noRecheck: Rechecker = () => Promise.resolve({ note: "not in this test" });

interface World {
  root: string;
  state: string;
  places: TranscriptPlace[];
}

async function withWorld(fn: (w: World) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-report-" });
  const state = join(root, "state");
  Deno.mkdirSync(join(state, "hooks"), { recursive: true });
  Deno.mkdirSync(join(state, "skill-contracts"), { recursive: true });
  const places = [
    { host: CLAUDE, dir: join(root, "claude", "projects") },
    { host: COPILOT, dir: join(root, "copilot", "session-state") },
    { host: CODEX, dir: join(root, "codex", "sessions") },
  ];
  for (const p of places) Deno.mkdirSync(p.dir, { recursive: true });
  try {
    await fn({ root, state, places });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function log(w: World, file: string, time: number, fields: Record<string, string>): void {
  const line = formatLogLine({ hook: "h", event: "e", outcome: "x", ...fields }, new Date(time));
  Deno.writeTextFileSync(join(w.state, "hooks", file), line + "\n", { append: true });
}

function write(path: string, text: string): string {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
  return path;
}

function claudeTranscript(time: number, skill = "investigate"): string {
  return jsonl([
    { ...user("a prompt"), timestamp: iso(time) },
    ...skillLoad("toolu_1", skill).map((r) => ({ ...r, timestamp: iso(time + 1000) })),
  ]);
}

function record(w: World, session: string, transcript: string | undefined, updated: number) {
  const rec = {
    version: 1,
    session,
    ...(transcript ? { transcript } : {}),
    updated: iso(updated),
    runs: [{
      key: "investigate@1",
      skill: "investigate",
      loadOffset: 1,
      loadVia: "skill_tool",
      outcome: "miss",
      missing: ["debug-report"],
      waived: [],
      blocks: 1,
      stops: 2,
      first: iso(updated),
      updated: iso(updated),
    }],
  };
  write(join(w.state, "skill-contracts", `${session}.json`), JSON.stringify(rec));
}

Deno.test("collect: a session's transcript from its record, its log line, or its host's folder", async () => {
  await withWorld(async (w) => {
    const t = NOW - 3600_000;
    // 1. Named by the record.
    const a = write(join(w.places[0].dir, "-p", "s-rec.jsonl"), claudeTranscript(t));
    record(w, "s-rec", a, t);
    // 2. Named by the routing log's transcript field.
    const b = write(join(w.places[0].dir, "-q", "elsewhere.jsonl"), claudeTranscript(t));
    log(w, "skill-route.log", t, {
      session: "s-log",
      outcome: "routed",
      skill: "investigate",
      transcript_path: b,
    });
    // 3. Found by id: Copilot CLI's folder, and a Codex CLI rollout.
    const copilot = Deno.readTextFileSync(
      join(import.meta.dirname!, "..", "..", "fixtures", "transcripts", "copilot", "miss.jsonl"),
    );
    write(join(w.places[1].dir, "s-cop", "events.jsonl"), copilot);
    log(w, "skill-contract.log", t, { session: "s-cop", outcome: "allow" });
    const id = "019a0000-1111-2222-3333-444455556666";
    const codex = Deno.readTextFileSync(
      join(
        import.meta.dirname!,
        "..",
        "..",
        "fixtures",
        "transcripts",
        "codex",
        "contract_met_after_block.jsonl",
      ),
    );
    write(
      join(w.places[2].dir, "2026", "12", "01", `rollout-2026-12-01T10-00-00-${id}.jsonl`),
      codex,
    );
    log(w, "skill-contract.log", t, { session: id, outcome: "allow" });
    // 4. Named outside every host's folder: not read.
    const outside = write(join(w.root, "outside.jsonl"), claudeTranscript(t));
    record(w, "s-out", outside, t);

    const got = await collectUsage({
      stateRoot: w.state,
      since: 0,
      places: w.places,
      recheck: noRecheck,
    });
    const hosts = Object.fromEntries(got.sessions.map((s) => [s.session, s.host]));
    assert.deepEqual(hosts, {
      "s-log": "claude",
      "s-cop": "copilot",
      [id]: "codex",
      "s-rec": "claude",
      "s-out": "unknown",
    });
    assert.equal(got.transcripts, 4);
    assert.deepEqual(got.unread.map((u) => u.session), ["s-out"]);
    const [row] = got.rows;
    assert.equal(row.skill, "investigate");
    assert.equal(row.loaded, 4);
    assert.equal(row.routed, 1);
    assert.equal(row.followed, 1, "s-log: the model loaded it a second after the route");
    assert.equal(row.miss, 2);
    assert.deepEqual(row.missed_items, [{ item: "debug-report", count: 2 }]);
    assert.deepEqual(Object.keys(row.hosts).sort(), ["claude", "codex", "copilot", "unknown"]);
  });
});

Deno.test("collect: the window keeps recent sessions, routes and runs only; --host keeps one host", async () => {
  await withWorld(async (w) => {
    const old = NOW - 30 * 86_400_000;
    const recent = NOW - 3600_000;
    const a = write(join(w.places[0].dir, "-p", "old.jsonl"), claudeTranscript(old, "qa"));
    record(w, "old", a, old);
    log(w, "skill-route.log", old, { session: "old", outcome: "routed", skill: "qa" });
    const b = write(join(w.places[0].dir, "-p", "new.jsonl"), claudeTranscript(recent, "review"));
    log(w, "skill-route.log", recent, {
      session: "new",
      outcome: "routed",
      skill: "review",
      transcript_path: b,
    });
    const since = NOW - 7 * 86_400_000;
    const got = await collectUsage({
      stateRoot: w.state,
      since,
      places: w.places,
      recheck: noRecheck,
    });
    assert.deepEqual(got.sessions.map((s) => s.session), ["new"]);
    assert.deepEqual(got.rows.map((r) => [r.skill, r.routed, r.loaded, r.runs]), [[
      "review",
      1,
      1,
      0,
    ]]);
    const none = await collectUsage({
      stateRoot: w.state,
      since: 0,
      places: w.places,
      recheck: noRecheck,
      host: "copilot",
    });
    assert.deepEqual(none.sessions, []);
  });
});

Deno.test("collect: a corrupt record and an unreadable log are listed, the rest is reported", async () => {
  await withWorld(async (w) => {
    write(join(w.state, "skill-contracts", "bad.json"), "{not json");
    Deno.mkdirSync(join(w.state, "hooks", "skill-redirect.log"));
    const got = await collectUsage({
      stateRoot: w.state,
      since: 0,
      places: w.places,
      recheck: noRecheck,
    });
    const paths = got.unread.map((u) => u.path ?? "");
    assert.ok(paths.some((p) => p.endsWith("bad.json")), JSON.stringify(got.unread));
    assert.ok(paths.some((p) => p.endsWith("skill-redirect.log")), JSON.stringify(got.unread));
  });
});

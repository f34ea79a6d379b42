import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempWorld } from "../../tests/_helpers.ts";
import { main } from "./contract_report_command.ts";
import { recordPath } from "../contracts/records.ts";
import {
  hookRecord,
  installTranscript,
  noRecheck,
  withRoot,
  writeRecord,
} from "../contracts/_records_kit_test.ts";
import { capture, runCli } from "./_kit_test.ts";
import { copyDir, FIXTURES } from "../../tests/_helpers.ts";
import { INVESTIGATE, investigateStop } from "../contracts/_kit_test.ts";
import { decideStop } from "../contracts/stop.ts";
import { parseCopilotText } from "../transcript/copilot_read.ts";
import { parseCodexRolloutText } from "../transcript/codex_rollout.ts";
import type { TranscriptRun } from "../transcript/model.ts";

/** The record a first, headless Stop of an unmet investigate run writes. */
function firstStopRecord(run: TranscriptRun, session: string) {
  const now = new Date("2026-01-01T00:00:00Z");
  const input = { contract: INVESTIGATE, kind: "headless", sessionId: session, now } as const;
  return decideStop(investigateStop(run, input), undefined).next!;
}

/**
 * A Copilot CLI session (the host tests' real events.jsonl) in `~/.copilot/session-state`, with
 * the record its first agentStop wrote (blocked), and the skill in Copilot's own folder.
 */
function copilotSession(home: string, session: string) {
  const text = Deno.readTextFileSync(
    join(FIXTURES, "transcripts", "copilot", "met_after_block.jsonl"),
  );
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes('"hook.start"') && l.includes('"agentStop"'));
  const read = parseCopilotText(lines.slice(0, at + 1).join("\n") + "\n", { skill: "investigate" });
  const run = (read as { run: TranscriptRun }).run;
  const blocked = firstStopRecord(run, session);
  const dir = join(home, ".copilot", "session-state", session);
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(dir, "events.jsonl"), text);
  copyDir(join(FIXTURES, "host", "skills"), join(home, ".copilot", "skills"));
  return { blocked, transcript: join(dir, "events.jsonl") };
}

/**
 * A Codex CLI session (the host tests' real rollout) in `~/.codex/sessions/Y/M/D`, with the record
 * its first Stop wrote (blocked: edited, no test, no report), and the skill in Codex's own folder.
 */
async function codexSession(home: string, session: string) {
  const text = Deno.readTextFileSync(
    join(FIXTURES, "transcripts", "codex", "contract_met_after_block.jsonl"),
  );
  const lines = text.split("\n");
  // The rollout as it stood at the first Stop: up to the block's <hook_prompt>.
  const at = lines.findIndex((l) => l.includes("<hook_prompt"));
  assert.ok(at > 0);
  const read = await parseCodexRolloutText(lines.slice(0, at).join("\n") + "\n", {
    skill: "investigate",
  });
  const run = (read as { run: TranscriptRun }).run;
  const blocked = firstStopRecord(run, session);
  const dir = join(home, ".codex", "sessions", "2026", "12", "01");
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-2026-12-01T01-09-31-${session}.jsonl`);
  Deno.writeTextFileSync(path, text);
  copyDir(join(FIXTURES, "host", "skills"), join(home, ".codex", "skills"));
  return { blocked, transcript: path };
}

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
    assert.match(bad.err, /^skillgate contract report: SKILL_CONTRACT_USAGE --session takes/);
    const unknown = await capture(() => main(["--bogus"], { stateRoot: root }));
    assert.equal(unknown.code, 2);
  });
});

Deno.test("report --session with no such session says so and exits 3", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "a", hookRecord(["stop_waived"], "a"));
    const r = await capture(() =>
      main(["--session", "nope"], { stateRoot: root, recheck: noRecheck })
    );
    assert.equal(r.code, 3);
    assert.equal(r.out, "");
    assert.match(
      r.err,
      /^skillgate contract report: SKILL_CONTRACT_STATE_ERROR No such session: nope \(no record .*nope\.json\)$/,
    );
    const j = await capture(() =>
      main(["--session", "nope", "--json"], { stateRoot: root, recheck: noRecheck })
    );
    assert.equal(JSON.parse(j.out).word, "SKILL_CONTRACT_STATE_ERROR");
  });
});

Deno.test("report --json gives no SKILL_CONTRACT_MET word when runs were missed, and counts them", async () => {
  await withRoot(async (root) => {
    writeRecord(root, "s-waived", hookRecord(["stop_waived"], "s-waived"));
    writeRecord(root, "s-met", hookRecord(["stop_met"], "s-met"));
    const r = await capture(() => main(["--json"], { stateRoot: root, recheck: noRecheck }));
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out);
    assert.equal(j.word, undefined);
    assert.equal(j.exit, 0);
    assert.equal(j.misses, 1);
  });
});

Deno.test("report with no records says so and exits 0", async () => {
  await withRoot(async (root) => {
    const r = await capture(() => main([], { stateRoot: root, recheck: noRecheck }));
    assert.equal(r.code, 0);
    assert.equal(r.out, "Contract misses: 0 of 0 run(s) in 0 session(s)");
  });
});

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
    // s-copilot: a Copilot CLI session blocked at its first agentStop, then fixed.
    const cp = copilotSession(world.home, "s-copilot");
    assert.equal(cp.blocked.outcome, "blocked");
    writeRecord(world.stateRoot, "s-copilot", cp.blocked, cp.transcript);
    // s-codex: a Codex CLI session blocked at its first Stop, then fixed (test run, report).
    const cx = await codexSession(world.home, "s-codex");
    assert.equal(cx.blocked.outcome, "blocked");
    assert.deepEqual(cx.blocked.missing, ["debug-report", "repro-after-fix"]);
    writeRecord(world.stateRoot, "s-codex", cx.blocked, cx.transcript);
    // s-outside names a transcript outside the Claude projects directory: never read.
    writeRecord(
      world.stateRoot,
      "s-outside",
      hookRecord(["stop_unmet"], "s-outside"),
      "/etc/passwd",
    );
    const out = await runCli(["contract", "report", "--json"], {
      home: world.home,
      cwd: world.projectDir,
    });
    assert.equal(out.code, 0, out.err);
    const j = JSON.parse(out.out);
    const by = Object.fromEntries(
      j.runs.map((r: { session: string }) => [r.session, r]),
    ) as Record<
      string,
      { outcome: string; miss: boolean; rechecked: boolean; recheckNote?: string }
    >;
    assert.equal(by["s-fixed"].outcome, "fixed_after_block");
    assert.equal(by["s-fixed"].miss, false);
    assert.equal(by["s-open"].outcome, "miss");
    assert.equal(by["s-gone"].outcome, "blocked");
    assert.equal(by["s-gone"].recheckNote, "transcript is gone");
    assert.equal(by["s-copilot"].outcome, "fixed_after_block", JSON.stringify(by["s-copilot"]));
    assert.equal(by["s-codex"].outcome, "fixed_after_block", JSON.stringify(by["s-codex"]));
    assert.equal(by["s-codex"].rechecked, true);
    assert.equal(
      by["s-outside"].recheckNote,
      "transcript is not under a host's transcripts directory",
    );
  } finally {
    await world.cleanup();
  }
});

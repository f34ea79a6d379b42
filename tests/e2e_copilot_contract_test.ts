/**
 * The bundled skill contract hook under a Copilot CLI `agentStop`, spawned with the flags `setup
 * --copilot` writes (Copilot's skill folders and `session-state` granted, nothing of Claude
 * Code's), over the real `events.jsonl` the host tests recorded (`fixtures/transcripts/copilot/`),
 * cut where each stop saw it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { COPILOT } from "../lib/host/copilot.ts";
import type { HostFolders } from "../lib/host/mod.ts";
import {
  copyDir,
  FIXTURES,
  makeTempWorld,
  readLog,
  runHookProcess,
  type TempWorld,
} from "./_helpers.ts";

const SESSION = "8d0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const BLOCK =
  "SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason \"<why>\" (this session only; counted as a miss for follow). This blocks once.";

/** The fixture's lines, and the agentStop stops in it: the line index and payload timestamp. */
function stopsOf(fixture: string): { lines: string[]; stops: { at: number; timestamp: number }[] } {
  const lines = Deno.readTextFileSync(join(FIXTURES, "transcripts", "copilot", `${fixture}.jsonl`))
    .split("\n").filter((l) => l.trim() !== "");
  const stops: { at: number; timestamp: number }[] = [];
  lines.forEach((l, at) => {
    const r = JSON.parse(l);
    if (r.type === "hook.start" && r.data?.hookType === "agentStop") {
      stops.push({ at, timestamp: r.data.input.timestamp });
    }
  });
  return { lines, stops };
}

interface CopilotWorld {
  world: TempWorld;
  folders: HostFolders;
  events: string;
}

async function withWorld(fn: (w: CopilotWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld();
  try {
    copyDir(
      join(FIXTURES, "host", "skills", "investigate"),
      join(world.projectDir, ".github", "skills", "investigate"),
    );
    const configDir = join(world.home, ".copilot");
    const events = join(configDir, COPILOT.layout.transcripts!, SESSION, "events.jsonl");
    Deno.mkdirSync(join(events, ".."), { recursive: true });
    await fn({ world, folders: { configDir, home: world.home, layout: COPILOT.layout }, events });
  } finally {
    await world.cleanup();
  }
}

/** Writes the fixture's lines up to and including line `at`, as the file was at that stop. */
function cut(w: CopilotWorld, lines: string[], at: number): void {
  Deno.writeTextFileSync(w.events, lines.slice(0, at + 1).join("\n") + "\n");
}

async function agentStop(w: CopilotWorld, timestamp: number, active: boolean, env = {}) {
  const payload = {
    sessionId: SESSION,
    timestamp,
    cwd: w.world.projectDir,
    transcriptPath: w.events,
    stopReason: "end_turn",
    stop_hook_active: active,
  };
  const r = await runHookProcess("skill-contract", payload, {
    world: w.world,
    host: w.folders,
    env: { COPILOT_HOME: w.folders.configDir, ...env },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    !r.args.some((a) => a.includes(w.world.claudeDir)),
    "nothing of Claude Code's config folder is granted",
  );
  assert.ok(r.args.some((a) => a.includes(join(w.folders.configDir, "session-state"))));
  return r;
}

function outcomes(world: TempWorld): string[] {
  const rec = JSON.parse(
    Deno.readTextFileSync(join(world.stateRoot, "skill-contracts", `${SESSION}.json`)),
  );
  return rec.runs.map((r: { outcome: string }) => r.outcome);
}

Deno.test("copilot agentStop: the real session is blocked once with the exact text, then met_after_block", async () => {
  await withWorld(async (w) => {
    const { lines, stops } = stopsOf("met_after_block");
    assert.equal(stops.length, 2, "the fixture has two agentStop stops");
    cut(w, lines, stops[0].at);
    const first = await agentStop(w, stops[0].timestamp, false);
    assert.deepEqual(first.json, { decision: "block", reason: BLOCK });
    assert.equal(first.stderr, "");
    assert.deepEqual(outcomes(w.world), ["blocked"]);
    cut(w, lines, stops[1].at);
    const second = await agentStop(w, stops[1].timestamp, true);
    assert.equal(second.stdout, "");
    assert.equal(second.stderr, "");
    assert.deepEqual(outcomes(w.world), ["met_after_block"]);
    const log = readLog(w.world, "skill-contract.log");
    // A -p run's system prompt says it is non-interactive: the session is headless.
    assert.match(log, /outcome=block reason=unmet skill=investigate .*kind=headless/);
  });
});

Deno.test("copilot agentStop: a second unmet stop of the real session is a miss", async () => {
  await withWorld(async (w) => {
    const { lines, stops } = stopsOf("miss");
    cut(w, lines, stops[0].at);
    assert.equal(
      ((await agentStop(w, stops[0].timestamp, false)).json as { decision: string }).decision,
      "block",
    );
    cut(w, lines, stops[1].at);
    const again = await agentStop(w, stops[1].timestamp, true);
    assert.equal(again.stdout, "");
    assert.deepEqual(outcomes(w.world), ["miss"]);
  });
});

Deno.test("copilot agentStop: a question in an interactive session is not blocked", async () => {
  await withWorld(async (w) => {
    const { lines, stops } = stopsOf("question_interactive");
    cut(w, lines, stops[0].at);
    const r = await agentStop(w, stops[0].timestamp, false, { SKILLGATE_HEADLESS: "interactive" });
    assert.equal(r.stdout, "");
    assert.match(readLog(w.world, "skill-contract.log"), /reason=ends-on-question/);
  });
});

Deno.test("copilot agentStop: a file that does not hold the stop yet decides nothing", async () => {
  await withWorld(async (w) => {
    const { lines, stops } = stopsOf("met_after_block");
    // The turn is there, but not the stop's own hook.start: the file is behind.
    cut(w, lines, stops[0].at - 1);
    const r = await agentStop(w, stops[0].timestamp, false);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.match(readLog(w.world, "skill-contract.log"), /outcome=allow reason=transcript-behind/);
  });
});

Deno.test("copilot agentStop: a changed events format fails open and counts the canary", async () => {
  await withWorld(async (w) => {
    const { lines, stops } = stopsOf("met_after_block");
    const changed = lines.slice(0, stops[0].at).map((l) => {
      const r = JSON.parse(l);
      return JSON.stringify({ kind: r.type, payload: r.data });
    });
    Deno.writeTextFileSync(w.events, [...changed, lines[stops[0].at]].join("\n") + "\n");
    const r = await agentStop(w, stops[0].timestamp, false);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /SKILL_CONTRACT_STATE_ERROR .*unknown transcript shape/);
    const canary = JSON.parse(
      Deno.readTextFileSync(join(w.world.stateRoot, "hooks", "skill-contract.canary.json")),
    );
    assert.equal(canary.count, 1);
  });
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists } from "../lib/base/fs.ts";
import { FIXTURES, makeTempWorld, readLog, runHookProcess, type TempWorld } from "./_helpers.ts";

const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const SEED_BLOCK =
  "SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason \"<why>\" (this session only; counted as a miss for follow). This blocks once.";
const STATE_ERROR_RE =
  /^skillgate: SKILL_CONTRACT_STATE_ERROR (.+?): (.+); stop allowed, miss not recorded \(see README#state-error\)$/;

async function withWorld(fn: (world: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

function transcriptPath(world: TempWorld): string {
  return join(world.claudeDir, "projects", "-work-project", `${SESSION}.jsonl`);
}

/** Puts a fixture transcript where Claude Code writes it (replacing the previous one). */
function install(world: TempWorld, fixture: string): string {
  const path = transcriptPath(world);
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.copyFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`), path);
  return path;
}

/** The Stop payload over a fixture; without last_assistant_message the transcript's text is used. */
function payload(
  world: TempWorld,
  fixture: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base = JSON.parse(
    Deno.readTextFileSync(join(FIXTURES, "payloads", "stop_claude_no_last_message.json")),
  );
  return { ...base, transcript_path: install(world, fixture), cwd: world.projectDir, ...extra };
}

function recordFile(world: TempWorld): string {
  return join(world.stateRoot, "skill-contracts", `${SESSION}.json`);
}

function record(world: TempWorld): { runs: { outcome: string; blocks: number }[] } {
  return JSON.parse(Deno.readTextFileSync(recordFile(world)));
}

function outcomes(world: TempWorld): string[] {
  return record(world).runs.map((r) => r.outcome);
}

async function stop(
  world: TempWorld,
  p: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  const r = await runHookProcess("skill-contract", p, { world, env });
  assert.equal(r.code, 0, r.stderr);
  return r;
}

// Block once, then allow.

Deno.test("skill_contract hook blocks the seed's unmet run once with the seed's text, then allows", async () => {
  await withWorld(async (world) => {
    const seedPayload = {
      ...JSON.parse(Deno.readTextFileSync(join(FIXTURES, "payloads", "stop_claude.json"))),
      transcript_path: install(world, "stop_unmet"),
      cwd: world.projectDir,
    };
    const first = await stop(world, seedPayload);
    assert.deepEqual(first.json, { decision: "block", reason: SEED_BLOCK });
    assert.equal(first.stderr, "");
    assert.deepEqual(outcomes(world), ["blocked"]);
    assert.equal(Deno.statSync(recordFile(world)).mode! & 0o777, 0o600);
    const again = await stop(world, seedPayload);
    assert.equal(again.stdout, "");
    assert.equal(again.stderr, "");
    assert.deepEqual(outcomes(world), ["blocked"]);
    const log = readLog(world, "skill-contract.log");
    assert.match(log, /outcome=block reason=unmet skill=investigate/);
    assert.match(log, /outcome=allow reason=duplicate-stop/);
  });
});

Deno.test("skill_contract hook names the installed skillgate command in the waive text", async () => {
  await withWorld(async (world) => {
    const r = await stop(world, payload(world, "stop_unmet"), {
      SKILLGATE_COMMAND: "/opt/skillgate/bin/skillgate",
    });
    assert.match(
      (r.json as { reason: string }).reason,
      /run '\/opt\/skillgate\/bin\/skillgate' contract waive <item> --reason "<why>"/,
    );
  });
});

Deno.test("skill_contract hook records met_after_block when the run is fixed after its block", async () => {
  await withWorld(async (world) => {
    assert.equal(
      ((await stop(world, payload(world, "stop_unmet"))).json as { decision: string }).decision,
      "block",
    );
    const r = await stop(
      world,
      payload(world, "stop_fixed_after_block", { stop_hook_active: true }),
    );
    assert.equal(r.stdout, "");
    assert.deepEqual(outcomes(world), ["met_after_block"]);
  });
});

Deno.test("skill_contract hook records a miss on a second unmet stop, even with stop_hook_active false", async () => {
  await withWorld(async (world) => {
    await stop(world, payload(world, "stop_unmet"));
    const r = await stop(world, payload(world, "stop_unmet_again", { stop_hook_active: false }));
    assert.equal(r.stdout, "");
    assert.deepEqual(outcomes(world), ["miss"]);
    assert.equal(record(world).runs[0].blocks, 1);
    // And a third stop is still allowed.
    assert.equal((await stop(world, payload(world, "stop_unmet_again"))).stdout, "");
  });
});

Deno.test("skill_contract hook never blocks with stop_hook_active and records nothing unmet", async () => {
  await withWorld(async (world) => {
    const r = await stop(world, payload(world, "stop_unmet", { stop_hook_active: true }));
    assert.equal(r.stdout, "");
    assert.equal(exists(recordFile(world)), false);
    assert.match(readLog(world, "skill-contract.log"), /reason=stop-hook-active/);
  });
});

Deno.test("skill_contract hook never blocks a later unrelated turn of a met run", async () => {
  await withWorld(async (world) => {
    assert.equal((await stop(world, payload(world, "stop_met"))).stdout, "");
    assert.deepEqual(outcomes(world), ["met"]);
    const r = await stop(world, payload(world, "stop_unrelated_turn"));
    assert.equal(r.stdout, "");
    assert.deepEqual(outcomes(world), ["met"]);
  });
});

// Waivers.

Deno.test("skill_contract hook accepts a successful waive call: met_waived, no block", async () => {
  await withWorld(async (world) => {
    const r = await stop(world, payload(world, "stop_waived"));
    assert.equal(r.stdout, "");
    assert.deepEqual(outcomes(world), ["met_waived"]);
  });
});

Deno.test("skill_contract hook rejects a failed waive call and one for another skill", async () => {
  for (const fixture of ["stop_waive_failed", "stop_waive_other_skill"]) {
    await withWorld(async (world) => {
      const r = await stop(world, payload(world, fixture));
      const reason = (r.json as { reason: string }).reason;
      assert.match(
        reason,
        /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing repro-after-fix\./,
        fixture,
      );
      assert.deepEqual(outcomes(world), ["blocked"]);
    });
  }
});

// Final turns.

Deno.test("skill_contract hook does not block an interactive turn that ends on a question", async () => {
  await withWorld(async (world) => {
    for (const fixture of ["stop_question", "stop_ask_user", "stop_needs_context"]) {
      const r = await stop(world, payload(world, fixture), { CLAUDE_CODE_ENTRYPOINT: "cli" });
      assert.equal(r.stdout, "", fixture);
      assert.equal(r.stderr, "", fixture);
    }
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook checks a question-ending turn in a headless or spawned session", async () => {
  for (
    const env of [
      { SKILLGATE_HEADLESS: "1" } as Record<string, string>,
      { CLAUDE_CODE_ENTRYPOINT: "sdk-cli" },
      { CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
      { CI: "true" },
    ]
  ) {
    await withWorld(async (world) => {
      const r = await stop(world, payload(world, "stop_question"), env);
      assert.equal((r.json as { decision?: string })?.decision, "block", JSON.stringify(env));
    });
  }
});

Deno.test("skill_contract hook decides nothing while the transcript lags behind last_assistant_message", async () => {
  await withWorld(async (world) => {
    // A short deadline keeps the wait short: the wait is 40 % of it.
    Deno.mkdirSync(world.stateRoot, { recursive: true });
    Deno.writeTextFileSync(join(world.stateRoot, "config.yaml"), "hook_deadline_ms: 500\n");
    const r = await stop(
      world,
      payload(world, "stop_unmet", {
        last_assistant_message: "I edited src/auth.ts. Do you want me to run the tests?",
      }),
    );
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.equal(exists(recordFile(world)), false, "nothing settled");
    assert.match(
      Deno.readTextFileSync(join(world.stateRoot, "hooks", "skill-contract.log")),
      /outcome=allow reason=transcript-behind waited=\d+ polls=\d+/,
    );
  });
});

// Agents.

Deno.test("skill_contract hook defers while an agent runs, then checks once it has stalled", async () => {
  await withWorld(async (world) => {
    const r1 = await stop(world, payload(world, "stop_agents_running"));
    assert.equal(r1.stdout, "");
    assert.deepEqual(outcomes(world), ["deferred"]);
    // Still running on the next stop: still deferred.
    assert.equal((await stop(world, payload(world, "stop_agents_running"))).stdout, "");
    assert.deepEqual(outcomes(world), ["deferred"]);
    // Eleven minutes since the stop that first saw the agent: move that time back.
    const rec = JSON.parse(Deno.readTextFileSync(recordFile(world)));
    const eleven = new Date(Date.now() - 11 * 60_000).toISOString();
    for (const id of Object.keys(rec.runs[0].pending)) rec.runs[0].pending[id] = eleven;
    Deno.writeTextFileSync(recordFile(world), JSON.stringify(rec));
    const r3 = await stop(world, payload(world, "stop_agents_running"));
    assert.equal((r3.json as { decision: string }).decision, "block");
    assert.deepEqual(outcomes(world), ["blocked"]);
    assert.match(readLog(world, "skill-contract.log"), /reason=unmet-agents-stalled/);
  });
});

Deno.test("skill_contract hook checks a deferred run once the agent's completion notice arrives", async () => {
  await withWorld(async (world) => {
    await stop(world, payload(world, "stop_agents_running"));
    const r = await stop(world, payload(world, "stop_agents_done"));
    assert.equal((r.json as { decision: string }).decision, "block");
  });
});

// Concurrency.

Deno.test("20 concurrent Stop hooks on one session leave one valid record and exactly one block", async () => {
  await withWorld(async (world) => {
    const p = payload(world, "stop_unmet");
    const runs = await Promise.all(
      Array.from({ length: 20 }, () => runHookProcess("skill-contract", p, { world })),
    );
    for (const r of runs) {
      assert.equal(r.code, 0);
      assert.equal(r.stderr, "");
    }
    const blocks = runs.filter((r) => (r.json as { decision?: string })?.decision === "block");
    assert.equal(blocks.length, 1);
    assert.equal(runs.filter((r) => r.stdout.trim() === "").length, 19);
    const rec = record(world);
    assert.equal(rec.runs.length, 1);
    assert.equal(rec.runs[0].outcome, "blocked");
    assert.equal(rec.runs[0].blocks, 1);
    const leftovers = [...Deno.readDirSync(join(world.stateRoot, "skill-contracts"))]
      .map((e) => e.name).filter((n) => n.endsWith(".tmp"));
    assert.deepEqual(leftovers, []);
  });
});

// Failure behaviour: the stop goes through, nothing is recorded, one stderr line.

function assertStateError(r: { stdout: string; stderr: string }, path: RegExp | string) {
  assert.equal(r.stdout, "");
  const lines = r.stderr.split("\n");
  assert.equal(lines.length, 1, r.stderr);
  const m = STATE_ERROR_RE.exec(lines[0]);
  assert.ok(m, r.stderr);
  if (typeof path === "string") assert.equal(m[1], path);
  else assert.match(m[1], path);
}

Deno.test("skill_contract hook fails open on an unwritable state root", async () => {
  await withWorld(async (world) => {
    Deno.mkdirSync(world.stateRoot, { recursive: true });
    Deno.writeTextFileSync(join(world.stateRoot, "skill-contracts"), "not a directory");
    const r = await stop(world, payload(world, "stop_unmet"));
    // The line names the state folder that is no folder (issue 32 checks every state folder).
    assertStateError(r, join(world.stateRoot, "skill-contracts"));
    assert.match(r.stderr, /Refusing a state folder that is no folder/);
  });
});

Deno.test("skill_contract hook fails open on an unreadable state root", async () => {
  await withWorld(async (world) => {
    Deno.mkdirSync(join(world.stateRoot, "config.yaml"), { recursive: true });
    const r = await stop(world, payload(world, "stop_unmet"));
    assertStateError(r, join(world.stateRoot, "config.yaml"));
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook fails open on a corrupt record and leaves it as it was", async () => {
  await withWorld(async (world) => {
    Deno.mkdirSync(join(world.stateRoot, "skill-contracts"), { recursive: true });
    Deno.writeTextFileSync(recordFile(world), "{corrupt");
    const r = await stop(world, payload(world, "stop_unmet"));
    assertStateError(r, recordFile(world));
    assert.match(r.stderr, /Corrupt record/);
    assert.equal(Deno.readTextFileSync(recordFile(world)), "{corrupt");
  });
});

Deno.test("skill_contract hook fails open on a missing transcript", async () => {
  await withWorld(async (world) => {
    const p = payload(world, "stop_unmet");
    Deno.removeSync(transcriptPath(world));
    const r = await stop(world, p);
    assertStateError(r, transcriptPath(world));
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook fails open on a skill run over the 32 MiB limit", async () => {
  await withWorld(async (world) => {
    const p = payload(world, "stop_unmet");
    // Grow the run past 32 MiB after the load.
    const line = JSON.stringify({
      type: "assistant",
      sessionId: SESSION,
      message: {
        id: "msg_big",
        role: "assistant",
        content: [{ type: "text", text: "x".repeat(1 << 20) }],
      },
    }) + "\n";
    const f = Deno.openSync(transcriptPath(world), { append: true });
    const bytes = new TextEncoder().encode(line);
    for (let i = 0; i < 33; i++) f.writeSync(bytes);
    f.close();
    const r = await stop(world, p);
    assertStateError(r, transcriptPath(world));
    assert.match(r.stderr, /over the 33554432-byte limit/);
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook fails open past its deadline and records nothing", async () => {
  await withWorld(async (world) => {
    Deno.mkdirSync(world.stateRoot, { recursive: true });
    Deno.writeTextFileSync(join(world.stateRoot, "config.yaml"), "hook_deadline_ms: 1\n");
    const r = await stop(world, payload(world, "stop_unmet"));
    assertStateError(r, /.+/);
    // The runner (after the work) or the record update (before its write) notices it first.
    assert.match(r.stderr, /hook ran past its (?:1 ms )?deadline/);
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook reports an invalid contract block naming that SKILL.md", async () => {
  await withWorld(async (world) => {
    const skill = join(world.claudeDir, "skills", "investigate", "SKILL.md");
    Deno.writeTextFileSync(
      skill,
      "---\nname: investigate\ncontract:\n  version: 2\n  items: []\n---\n# /investigate\n",
    );
    const r = await stop(world, payload(world, "stop_unmet"));
    assertStateError(r, skill);
    assert.match(r.stderr, /invalid contract block/);
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook fails open on an unknown transcript shape and counts the canary", async () => {
  await withWorld(async (world) => {
    const r1 = await stop(world, payload(world, "stop_unknown_shape"));
    assertStateError(r1, transcriptPath(world));
    assert.match(r1.stderr, /unknown transcript shape/);
    await stop(world, payload(world, "stop_unknown_shape"));
    const canary = JSON.parse(
      Deno.readTextFileSync(join(world.stateRoot, "hooks", "skill-contract.canary.json")),
    );
    assert.equal(canary.count, 2);
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook counts no canary for a session with no turns yet", async () => {
  await withWorld(async (world) => {
    const path = transcriptPath(world);
    const p = payload(world, "stop_unmet");
    const canary = join(world.stateRoot, "hooks", "skill-contract.canary.json");
    for (
      const text of [
        "",
        '{"type":"summary","summary":"Earlier work","leafUuid":"u1"}\n',
        '{"type":"file-history-snapshot","messageId":"m1","snapshot":{}}\n' +
        '{"type":"progress","data":{"type":"hook_progress","hookEvent":"SessionStart"}}\n' +
        '{"type":"queue-operation","operation":"enqueue","content":"hi"}\n' +
        '{"type":"system","subtype":"informational"}\n',
      ]
    ) {
      Deno.writeTextFileSync(path, text);
      const r = await stop(world, p);
      assert.equal(r.stdout, "", text);
      assert.equal(r.stderr, "", text);
      assert.equal(exists(canary), false, text);
    }
    assert.match(readLog(world, "skill-contract.log"), /reason=no-contract-skill-loaded/);
  });
});

/** Makes `path` a symbolic link to `target` (its folder made first). */
function plantLink(path: string, target: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.symlinkSync(target, path);
}

Deno.test("skill_contract hook refuses a record, lock, memo or log planted as a symbolic link", async () => {
  await withWorld(async (world) => {
    // What the record would be after this stop, with the run settled: read, it would pass quietly.
    const first = await stop(world, payload(world, "stop_unmet"));
    assert.equal((first.json as { decision?: string }).decision, "block");
    const settled = record(world);
    settled.runs[0].outcome = "met";
    const outside = join(world.root, "outside.json");
    const secret = JSON.stringify(settled);
    const files = {
      record: recordFile(world),
      lock: `${recordFile(world)}.lock`,
      memo: join(world.stateRoot, "skill-contracts", `${SESSION}.scan.json`),
      log: join(world.stateRoot, "hooks", "skill-contract.log"),
    };
    for (const [name, planted] of Object.entries(files)) {
      Deno.removeSync(world.stateRoot, { recursive: true });
      Deno.writeTextFileSync(outside, secret);
      plantLink(planted, outside);
      const r = await stop(world, payload(world, "stop_unmet"));
      assert.equal(r.stdout, "", name);
      assertStateError(r, planted);
      assert.match(r.stderr, /Refusing a state file that is a symbolic link/, name);
      assert.equal(Deno.readTextFileSync(outside), secret, name);
      assert.equal(Deno.lstatSync(planted).isSymlink, true, name);
    }
  });
});

Deno.test("skill_contract hook never counts an unknown shape through a canary planted as a link", async () => {
  await withWorld(async (world) => {
    const outside = join(world.root, "outside.json");
    Deno.writeTextFileSync(outside, '{"count":41}\n');
    plantLink(join(world.stateRoot, "hooks", "skill-contract.canary.json"), outside);
    const r = await stop(world, payload(world, "stop_unknown_shape"));
    assertStateError(r, transcriptPath(world));
    assert.match(r.stderr, /unknown transcript shape .*canary not counted/);
    assert.equal(Deno.readTextFileSync(outside), '{"count":41}\n');
  });
});

Deno.test("skill_contract hook passes a session id that is not a safe file name", async () => {
  await withWorld(async (world) => {
    const r = await stop(world, payload(world, "stop_unmet", { session_id: "../../etc/x" }));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.equal(exists(join(world.stateRoot, "skill-contracts")), false);
  });
});

Deno.test("skill_contract hook does nothing when the switch is off", async () => {
  await withWorld(async (world) => {
    const r = await stop(world, payload(world, "stop_unmet"), {
      SKILLGATE_SKILL_CONTRACTS: "off",
    });
    assert.equal(r.stdout, "");
    assert.equal(exists(recordFile(world)), false);
  });
});

Deno.test("skill_contract hook remembers a search with no load and searches only new bytes next", async () => {
  await withWorld(async (world) => {
    // A long session with no contracted skill loaded: the stop is allowed and the search memoised.
    const path = transcriptPath(world);
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    const { fillerTurn } = await import("../fixtures/transcripts/_build.ts");
    let filler = "";
    for (let i = 0; filler.length < 512 * 1024; i++) filler += fillerTurn(i);
    Deno.writeTextFileSync(path, filler);
    const stop = { ...payload(world, "investigate_unmet"), transcript_path: path };
    Deno.writeTextFileSync(path, filler);
    const first = await runHookProcess("skill-contract", stop, { world });
    assert.equal(first.stdout, "");
    assert.match(
      readLog(world, "skill-contract.log"),
      /outcome=allow reason=no-contract-skill-loaded/,
    );
    const memo = JSON.parse(
      Deno.readTextFileSync(join(world.stateRoot, "skill-contracts", `${SESSION}.scan.json`)),
    );
    assert.equal(memo.size, new TextEncoder().encode(filler).length);
    // The skill is loaded later in the session: the next stop finds it above the memo and blocks.
    const run = Deno.readTextFileSync(join(FIXTURES, "transcripts", "investigate_unmet.jsonl"));
    Deno.writeTextFileSync(path, filler + run);
    const second = await runHookProcess("skill-contract", stop, { world });
    assert.deepEqual(second.json, { decision: "block", reason: SEED_BLOCK });
    // The memo never hides a load: a file that shrank below it is searched whole.
    Deno.writeTextFileSync(path, run);
    await Deno.remove(recordFile(world));
    const third = await runHookProcess("skill-contract", stop, { world });
    assert.deepEqual(third.json, { decision: "block", reason: SEED_BLOCK });
  });
});

Deno.test("skill_contract hook does not parse a settled run again, however the session grows", async () => {
  await withWorld(async (world) => {
    const stop = payload(world, "investigate_met");
    const first = await runHookProcess("skill-contract", stop, { world });
    assert.equal(first.stdout, "");
    assert.deepEqual(outcomes(world), ["met"]);
    // Later records the checker could not even parse (a content that is neither text nor a block
    // list): a parse would fail open with a state error; the settled run is not parsed at all.
    const path = transcriptPath(world);
    Deno.writeTextFileSync(
      path,
      '{"type":"user","uuid":"late-1","message":{"role":"user","content":42}}\n',
      { append: true },
    );
    const later = await runHookProcess("skill-contract", { ...stop, transcript_path: path }, {
      world,
    });
    assert.equal(later.stdout, "");
    assert.equal(later.stderr, "");
    assert.match(readLog(world, "skill-contract.log"), /outcome=allow reason=already-met run=\d+/);
    assert.deepEqual(outcomes(world), ["met"]);
  });
});

Deno.test("skill_contract hook does not block again when the skill is loaded again after its block", async () => {
  await withWorld(async (world) => {
    const stop = payload(world, "investigate_unmet", { stop_hook_active: false });
    const first = await runHookProcess("skill-contract", stop, { world });
    assert.deepEqual(first.json, { decision: "block", reason: SEED_BLOCK });
    // Found in review: the model follows the block by loading /investigate again, still without
    // the report, and Claude Code leaves stop_hook_active false (a reported bug).
    const { jsonl, say, skillLoad, user } = await import("../fixtures/transcripts/_build.ts");
    const path = transcriptPath(world);
    Deno.writeTextFileSync(
      path,
      jsonl([
        user("Stop hook feedback:\n" + SEED_BLOCK, { isMeta: true }),
        ...skillLoad("toolu_again", "investigate"),
        say("Fixed: the null check was missing."),
      ]),
      { append: true },
    );
    const second = await runHookProcess("skill-contract", { ...stop, transcript_path: path }, {
      world,
    });
    assert.equal(second.stdout, "", "one block per skill run, the reload included");
    assert.deepEqual(outcomes(world), ["miss", "miss"]);
  });
});

Deno.test("skill_contract hook reads the contracts view: a contract edited in place or a new contracted skill is seen on the next stop", async () => {
  await withWorld(async (world) => {
    const lastReason = () => readLog(world, "skill-contract.log").trimEnd().split("\n").at(-1)!;
    const active = payload(world, "stop_unmet", { stop_hook_active: true });
    await stop(world, active);
    assert.match(lastReason(), /reason=stop-hook-active skill=investigate/);
    const view = join(world.stateRoot, "catalog", "skills.contracts.json");
    assert.match(Deno.readTextFileSync(view), /"name":"investigate"/);
    // Nothing changed: the view answers, the whole skills index is neither read nor written.
    const index = join(world.stateRoot, "catalog", "skills.json");
    Deno.writeTextFileSync(index, "{damaged");
    await stop(world, active);
    assert.match(lastReason(), /reason=stop-hook-active skill=investigate/);
    assert.equal(Deno.readTextFileSync(index), "{damaged");
    // The contract removed by an in-place edit (its folder unchanged): seen on the next stop.
    const dir = join(world.claudeDir, "skills", "investigate");
    const skill = join(dir, "SKILL.md");
    const text = Deno.readTextFileSync(skill);
    const folder = Deno.statSync(dir).mtime!;
    Deno.writeTextFileSync(skill, text.replace(/^contract:[\s\S]*?(?=^---)/m, ""));
    const later = new Date(Date.now() + 5000);
    Deno.utimeSync(skill, later, later);
    Deno.utimeSync(dir, folder, folder);
    await stop(world, active);
    assert.match(
      lastReason(),
      /reason=no-contract-skill-loaded$/,
      "investigate has no contract now",
    );
    // The contracted skill back in a new folder: seen on the next stop, which blocks.
    Deno.removeSync(dir, { recursive: true });
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(skill, text);
    const r = await stop(world, payload(world, "stop_unmet"));
    assert.deepEqual(r.json, { decision: "block", reason: SEED_BLOCK });
  });
});

// Bounded work on any transcript size (issue 32).

Deno.test("skill_contract hook stops its search for a load at a byte budget on an 8 GiB transcript, within its deadline", async () => {
  await withWorld(async (world) => {
    const path = transcriptPath(world);
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    // 8 GiB of holes (no disk used), then the turn's last record: no skill load anywhere.
    const last = Deno.readTextFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"))
      .trimEnd().split("\n").at(-1)!;
    const file = Deno.openSync(path, { write: true, create: true });
    try {
      file.truncateSync(8 * 1024 ** 3);
      file.seekSync(0, Deno.SeekMode.End);
      file.writeSync(new TextEncoder().encode(`\n${last}\n`));
    } finally {
      file.close();
    }
    const base = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "payloads", "stop_claude.json")));
    const r = await runHookProcess("skill-contract", {
      ...base,
      transcript_path: path,
      cwd: world.projectDir,
    }, { world, killAfterMs: 60_000 });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "", "no deadline failure");
    assert.match(readLog(world, "skill-contract.log"), /outcome=allow reason=search-budget/);
  });
});

// Text from disk is data (issue 32).

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

Deno.test("skill_contract hook strips control characters from a contract's fix, heading and summary before the model or the log sees them", async () => {
  await withWorld(async (world) => {
    const file = join(world.claudeDir, "skills", "investigate", "SKILL.md");
    const hostile = (s: string) => JSON.stringify(s);
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file)
        .replace("heading: DEBUG REPORT", `heading: ${hostile("DEBUG\u001b]0;owned\u0007 REPORT")}`)
        .replace(
          "summary: a test or repro run after the last edit",
          `summary: ${hostile("a test\u001b[2J\u001b[H run")}\n      fix: ${
            hostile("run it\u0007 again\u009b31m now\r")
          }`,
        ),
    );
    const r = await stop(world, payload(world, "stop_unmet"));
    const reason = (r.json as { reason: string }).reason;
    assert.match(reason, /^SKILL_CONTRACT_UNMET investigate/);
    assert.match(reason, /run it again/);
    assert.doesNotMatch(reason, CONTROL);
    assert.doesNotMatch(readLog(world, "skill-contract.log"), CONTROL);
  });
});

// Orphan temp files (issue 32).

Deno.test("skill_contract hook removes a record's orphan temp file (a writer killed before its rename) when it next writes the record", async () => {
  await withWorld(async (world) => {
    const dir = join(world.stateRoot, "skill-contracts");
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const orphan = join(dir, `.${SESSION}.json.tmp`);
    Deno.writeTextFileSync(orphan, '{"half":', { mode: 0o600 });
    const old = new Date(Date.now() - 3600_000);
    Deno.utimeSync(orphan, old, old);
    const r = await stop(world, payload(world, "stop_unmet"));
    assert.equal((r.json as { decision: string }).decision, "block");
    assert.deepEqual(outcomes(world), ["blocked"]);
    assert.equal(exists(orphan), false, "the orphan is gone");
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".tmp")),
      [],
    );
  });
});

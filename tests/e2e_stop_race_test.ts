/**
 * The Stop race, end to end: Claude Code fires Stop before the turn's last records reach the
 * transcript. Each test starts a Stop hook (bundle, production flags) on a transcript missing its
 * last records and appends them 300 ms later, as the host does; the verdict must be the one the
 * whole turn gives. Also: concurrent redirect Stops of one session block exactly once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld, readLog, runHookProcess, type TempWorld } from "./_helpers.ts";

const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const LATE_MS = 300;

async function withWorld(fn: (world: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

function fixtureLines(name: string): string[] {
  return Deno.readTextFileSync(join(FIXTURES, "transcripts", `${name}.jsonl`)).trimEnd()
    .split("\n");
}

/** The last main-chain assistant text block of JSONL lines (what the payload carries). */
function finalText(lines: string[]): string {
  for (const line of [...lines].reverse()) {
    const r = JSON.parse(line);
    if (r.type !== "assistant") continue;
    const texts = (r.message.content as { type: string; text?: string }[]).filter((b) =>
      b.type === "text"
    );
    if (texts.length) return texts.at(-1)!.text!;
  }
  throw new Error("No final text");
}

/**
 * Writes `lines` minus the last `withheld` where the host keeps the session, runs the hook, and
 * appends the withheld lines `LATE_MS` later (never, with `never`).
 */
async function stopWithLateTail(
  world: TempWorld,
  hook: "skill-contract" | "skill-redirect-stop",
  lines: string[],
  withheld: number,
  opts: { never?: boolean; payload?: Record<string, unknown> } = {},
) {
  const dir = join(world.claudeDir, "projects", "-work-project");
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  const cut = lines.length - withheld;
  Deno.writeTextFileSync(path, lines.slice(0, cut).join("\n") + "\n");
  const running = runHookProcess(hook, {
    session_id: SESSION,
    transcript_path: path,
    cwd: world.projectDir,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: finalText(lines),
    ...opts.payload,
  }, { world, env: { CLAUDE_CODE_ENTRYPOINT: "cli" } });
  await new Promise((r) => setTimeout(r, LATE_MS));
  if (!opts.never) {
    Deno.writeTextFileSync(path, lines.slice(cut).join("\n") + "\n", { append: true });
  }
  return await running;
}

function outcomes(world: TempWorld): string[] {
  const file = join(world.stateRoot, "skill-contracts", `${SESSION}.json`);
  try {
    return JSON.parse(Deno.readTextFileSync(file)).runs.map((r: { outcome: string }) => r.outcome);
  } catch {
    return [];
  }
}

/** Gives a record a fresh uuid (the reader drops a uuid it has seen). */
function fresh(line: string): string {
  return JSON.stringify({ ...JSON.parse(line), uuid: crypto.randomUUID() });
}

Deno.test("contract Stop on a lagging transcript: a met run is not blocked once the file catches up", async () => {
  await withWorld(async (world) => {
    // Withheld: the test's result and the DEBUG REPORT. Read stale, the test has no result.
    const r = await stopWithLateTail(world, "skill-contract", fixtureLines("stop_met"), 2);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "", "not blocked");
    assert.equal(r.stderr, "");
    assert.deepEqual(outcomes(world), ["met"]);
    assert.match(readLog(world, "skill-contract.log"), /reason=met .* waited=\d+/);
  });
});

Deno.test("contract Stop on a lagging transcript: an edit after the test, flushed late, blocks naming repro-after-fix", async () => {
  await withWorld(async (world) => {
    const met = fixtureLines("stop_met");
    const report = met.at(-1)!;
    const edit = met.slice(7, 9).map(fresh); // the Edit call and its result, once more
    const lines = [...met.slice(0, -1), ...edit, fresh(report)];
    // Withheld: the second edit and the report. Read stale, the test came after the last edit.
    const r = await stopWithLateTail(world, "skill-contract", lines, 3);
    assert.equal(r.code, 0);
    const answer = r.json as { decision?: string; reason?: string };
    assert.equal(answer?.decision, "block", r.stdout + r.stderr);
    assert.match(
      answer.reason!,
      /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing repro-after-fix\./,
    );
    assert.deepEqual(outcomes(world), ["blocked"]);
  });
});

Deno.test("redirect Stop on a lagging transcript still blocks for a late Unknown skill", async () => {
  await withWorld(async (world) => {
    // Withheld: the Unknown skill result, the final text and the last-prompt record.
    const r = await stopWithLateTail(
      world,
      "skill-redirect-stop",
      fixtureLines("redirect_unknown_skill"),
      3,
    );
    assert.equal(r.code, 0);
    assert.equal((r.json as { decision?: string })?.decision, "block", r.stdout + r.stderr);
    assert.match((r.json as { reason: string }).reason, /prompt-writer/);
  });
});

Deno.test("Stop hooks on a transcript that never catches up end within the deadline with nothing settled", async () => {
  await withWorld(async (world) => {
    const c = await stopWithLateTail(world, "skill-contract", fixtureLines("stop_met"), 2, {
      never: true,
    });
    assert.equal(c.code, 0);
    assert.equal(c.stdout, "");
    assert.equal(c.stderr, "", "no deadline line: it ended in time");
    assert.deepEqual(outcomes(world), [], "nothing recorded");
    assert.match(readLog(world, "skill-contract.log"), /reason=transcript-behind/);

    const r = await stopWithLateTail(
      world,
      "skill-redirect-stop",
      fixtureLines("redirect_unknown_skill"),
      3,
      { never: true },
    );
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.match(readLog(world, "skill-redirect.log"), /reason=transcript-behind/);
    let markers: string[] = [];
    try {
      markers = [...Deno.readDirSync(join(world.stateRoot, "skill-redirect"))].map((e) => e.name);
    } catch {
      // No folder: nothing recorded.
    }
    assert.deepEqual(markers.filter((m) => m.endsWith(".json")), [], "no marker recorded");
  });
});

Deno.test("20 concurrent redirect Stops of one session give exactly one block (3 trials)", async () => {
  await withWorld(async (world) => {
    const dir = join(world.claudeDir, "projects", "-work-project");
    Deno.mkdirSync(dir, { recursive: true });
    const lines = fixtureLines("redirect_unknown_skill");
    for (let trial = 1; trial <= 3; trial++) {
      const session = `race-${trial}`;
      const path = join(dir, `${session}.jsonl`);
      Deno.writeTextFileSync(path, lines.join("\n") + "\n");
      const runs = await Promise.all(
        Array.from({ length: 20 }, () =>
          runHookProcess("skill-redirect-stop", {
            session_id: session,
            transcript_path: path,
            cwd: world.projectDir,
            hook_event_name: "Stop",
            stop_hook_active: false,
            last_assistant_message: finalText(lines),
          }, { world })),
      );
      const blocks = runs.filter((r) => (r.json as { decision?: string })?.decision === "block");
      assert.equal(blocks.length, 1, `trial ${trial}: ${blocks.length} blocks`);
      assert.ok(
        runs.every((r) => r.code === 0 && r.stderr === ""),
        JSON.stringify(runs.map((r) => r.stderr)),
      );
    }
  });
});

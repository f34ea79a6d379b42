/**
 * Every hook, spawned with its production flags, fails open: exit 0, nothing on stdout, exactly
 * one `skillgate:` line on stderr, for a malformed payload, a missing permission and a config
 * file that cannot be read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type HookRow, HOOKS } from "../lib/hook/table.ts";
import { makeTempWorld, runHookProcess } from "./_helpers.ts";

function payloadFor(row: HookRow, world: { projectDir: string }): Record<string, unknown> {
  const base = {
    session_id: "fail-open-1",
    cwd: world.projectDir,
    hook_event_name: row.event,
  };
  switch (row.event) {
    case "UserPromptSubmit":
      return { ...base, prompt: "why is this broken, fix this bug" };
    case "PreToolUse":
      return {
        ...base,
        tool_name: "Skill",
        tool_input: { skill: "prompt-writer" },
        tool_use_id: "toolu_1",
      };
    default:
      return {
        ...base,
        stop_hook_active: false,
        last_assistant_message: "Done.",
        transcript_path: join(world.projectDir, "missing.jsonl"),
      };
  }
}

const ALL_ON = {
  SKILLGATE_SKILL_ROUTING: "on",
  SKILLGATE_SKILL_CONTRACTS: "on",
  SKILLGATE_SKILL_REDIRECT: "on",
};

function assertFailOpen(
  run: { code: number; stdout: string; stderr: string },
  pattern: RegExp,
): void {
  assert.equal(run.code, 0);
  assert.equal(run.stdout, "");
  const lines = run.stderr.split("\n").filter((l) => l.trim() !== "");
  assert.equal(lines.length, 1, `one stderr line, got: ${run.stderr}`);
  assert.match(lines[0], pattern);
}

for (const row of HOOKS) {
  Deno.test(`${row.id}: a malformed payload gets exit 0, no output, one stderr line`, async () => {
    const world = await makeTempWorld();
    try {
      for (const raw of ["", "{not json", "[]", '"text"']) {
        const run = await runHookProcess(row.id, raw, { world, env: ALL_ON });
        assertFailOpen(run, /^skillgate: PAYLOAD /);
      }
    } finally {
      await world.cleanup();
    }
  });

  Deno.test(`${row.id}: a missing write permission is named, and the hook fails open`, async () => {
    const world = await makeTempWorld();
    try {
      const run = await runHookProcess(row.id, payloadFor(row, world), {
        world,
        env: ALL_ON,
        mapArgs: (args) => args.filter((a) => !a.startsWith("--allow-write=")),
      });
      assertFailOpen(run, /^skillgate: PERMISSION missing --allow-write=/);
    } finally {
      await world.cleanup();
    }
  });

  Deno.test(`${row.id}: a missing read permission is named, and the hook fails open`, async () => {
    const world = await makeTempWorld();
    try {
      const run = await runHookProcess(row.id, payloadFor(row, world), {
        world,
        env: ALL_ON,
        mapArgs: (args) => args.filter((a) => !a.startsWith("--allow-read=")),
      });
      assertFailOpen(run, /^skillgate: PERMISSION missing --allow-read=/);
    } finally {
      await world.cleanup();
    }
  });

  Deno.test(`${row.id}: an unreadable config file turns the hook off with one line`, async () => {
    const world = await makeTempWorld();
    try {
      Deno.mkdirSync(world.stateRoot, { recursive: true });
      Deno.writeFileSync(join(world.stateRoot, "config.yaml"), new Uint8Array([0xc3, 0x28, 0, 1]));
      const run = await runHookProcess(row.id, payloadFor(row, world), { world });
      // The contract hook words every failure as its state-error line (seed 004, exit 3).
      assertFailOpen(
        run,
        /^skillgate: (CONFIG_UNREADABLE|SKILL_CONTRACT_STATE_ERROR) .*config\.yaml/,
      );
    } finally {
      await world.cleanup();
    }
  });
}

for (const row of HOOKS) {
  Deno.test(`${row.id}: a log planted as a symbolic link is refused with one line, its target untouched`, async () => {
    const world = await makeTempWorld();
    try {
      const outside = join(world.root, "outside.txt");
      Deno.writeTextFileSync(outside, "session=fail-open-1 outcome=error\n".repeat(3));
      const log = join(world.stateRoot, "hooks", row.logFile);
      Deno.mkdirSync(join(log, ".."), { recursive: true });
      Deno.symlinkSync(outside, log);
      const run = await runHookProcess(row.id, payloadFor(row, world), { world, env: ALL_ON });
      assertFailOpen(
        run,
        /^skillgate: (STATE|SKILL_CONTRACT_STATE_ERROR) .*: Refusing a state file that is a symbolic link/,
      );
      assert.ok(run.stderr.includes(log), run.stderr);
      assert.equal(
        Deno.readTextFileSync(outside),
        "session=fail-open-1 outcome=error\n".repeat(3),
      );
    } finally {
      await world.cleanup();
    }
  });
}

for (const row of [...new Map(HOOKS.map((h) => [h.bundle, h])).values()]) {
  Deno.test(`${row.bundle}: a host that never closes stdin gets the pass-through, and the process ends`, async () => {
    const world = await makeTempWorld();
    try {
      // The read is abandoned at its 3 s deadline but cannot be cancelled: only the entry's exit
      // ends the process. The watchdog is far above that deadline: it catches a hang, not a delay.
      const run = await runHookProcess(row.id, payloadFor(row, world), {
        world,
        env: ALL_ON,
        holdStdin: true,
        killAfterMs: 30_000,
      });
      assertFailOpen(run, /^skillgate: PAYLOAD stdin not closed within 3000 ms/);
    } finally {
      await world.cleanup();
    }
  });
}

for (const row of HOOKS) {
  Deno.test(`${row.id}: rotates its own log past 1 MiB under its production flags`, async () => {
    const world = await makeTempWorld();
    try {
      const dir = join(world.stateRoot, "hooks");
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const log = join(dir, row.logFile);
      const old = "time=2026-01-01T00:00:00.000Z session=old outcome=allow\n".repeat(20000);
      Deno.writeTextFileSync(log, old, { mode: 0o600 });
      const run = await runHookProcess(row.id, payloadFor(row, world), { world, env: ALL_ON });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(Deno.readTextFileSync(`${log}.1`), old, "the full log moved to .1");
      const now = Deno.readTextFileSync(log);
      assert.ok(now.length > 0 && now.length < 4096, `a fresh log: ${now.length} bytes`);
      assert.match(now, /session=fail-open-1 /);
    } finally {
      await world.cleanup();
    }
  });
}

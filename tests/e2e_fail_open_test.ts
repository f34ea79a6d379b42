/**
 * Every hook, spawned with its production flags, fails open: exit 0, nothing on stdout, exactly
 * one `skillgate:` line on stderr, for a malformed payload, a missing permission, a config file
 * that cannot be read and a core file missing from the install; switched off, it says nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { SWITCH_ENV } from "../lib/base/config.ts";
import { type HookRow, HOOKS } from "../lib/hook/table.ts";
import { makeTempWorld, REPO_ROOT, runHookProcess } from "./_helpers.ts";

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

/** The hook's front alone, copied where its core is not, as the production command runs it. */
async function frontOnly(row: HookRow): Promise<{ dir: string; entry: string }> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-front-" });
  const entry = join(dir, row.bundle.split("/").at(-1)!);
  Deno.copyFileSync(join(REPO_ROOT, row.bundle), entry);
  return { dir, entry };
}

for (const row of HOOKS) {
  Deno.test(`${row.id}: switched off, the front answers alone (its core is never loaded), whatever the payload`, async () => {
    const world = await makeTempWorld();
    const front = await frontOnly(row);
    const mapArgs = (args: string[]) => [...args.slice(0, -1), front.entry];
    try {
      const off = { [SWITCH_ENV[row.switchName]]: "off" };
      for (const payload of [payloadFor(row, world), "{not json", ""]) {
        const run = await runHookProcess(row.id, payload, { world, env: off, mapArgs });
        assert.deepEqual([run.code, run.stdout, run.stderr], [0, "", ""]);
      }
      // Off in the config file, the environment silent.
      Deno.mkdirSync(world.stateRoot, { recursive: true });
      Deno.writeTextFileSync(join(world.stateRoot, "config.yaml"), `${row.switchName}: off\n`);
      const run = await runHookProcess(row.id, payloadFor(row, world), { world, mapArgs });
      assert.deepEqual([run.code, run.stdout, run.stderr], [0, "", ""]);
      assert.ok(!existsSync(join(world.stateRoot, "hooks")), "a switched-off hook writes no log");
      if (row.event === "PreToolUse") {
        // Another tool's call, switched on: the front answers it alone too.
        const bash = {
          ...payloadFor(row, world),
          tool_name: "Bash",
          tool_input: { command: "ls" },
        };
        const run = await runHookProcess(row.id, bash, { world, env: ALL_ON, mapArgs });
        assert.deepEqual([run.code, run.stdout, run.stderr], [0, "", ""]);
      }
      if (row.id === "skill-redirect-stop") {
        // A Claude Code Stop whose turn is in the file with no failed Skill call: the front
        // settles it alone; one with a failed call needs the core.
        const dir = join(world.claudeDir, "projects", "-work-project");
        Deno.mkdirSync(dir, { recursive: true });
        const transcript = join(dir, "fail-open-1.jsonl");
        const stop = (fixture: string, final: string) => {
          Deno.copyFileSync(
            join(REPO_ROOT, "fixtures", "transcripts", `${fixture}.jsonl`),
            transcript,
          );
          return {
            ...payloadFor(row, world),
            transcript_path: transcript,
            last_assistant_message: final,
          };
        };
        const clean = await runHookProcess(
          row.id,
          stop("redirect_previous_turn", "There are two open questions."),
          { world, env: ALL_ON, mapArgs },
        );
        assert.deepEqual([clean.code, clean.stdout, clean.stderr], [0, "", ""]);
        const failed = await runHookProcess(
          row.id,
          stop("redirect_unknown_skill", "The requirements are written down above."),
          { world, env: ALL_ON, mapArgs },
        );
        assertFailOpen(failed, /^skillgate: ERROR Cannot load the hook's core /);
      }
      // Switched on, the missing core is one stderr line and no answer.
      const on = await runHookProcess(row.id, payloadFor(row, world), {
        world,
        env: ALL_ON,
        mapArgs,
      });
      assertFailOpen(on, /^skillgate: ERROR Cannot load the hook's core \(reinstall skillgate\): /);
    } finally {
      await Deno.remove(front.dir, { recursive: true });
      await world.cleanup();
    }
  });
}

/**
 * Every hook, spawned with its production flags, fails open: exit 0, nothing on stdout, exactly
 * one `skillgate:` line on stderr, for a malformed payload, a missing permission, a config file
 * that cannot be read and a core file missing from the install; switched off, it says nothing.
 * A transcript reached through a linked folder or file is read as the host reads it; a state
 * folder planted as a link is never written through; a transcript that is a FIFO is refused at
 * once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { SWITCH_ENV } from "../lib/base/config.ts";
import { type HookId, type HookRow, hookRow, HOOKS } from "../lib/hook/table.ts";
import { COPILOT } from "../lib/host/copilot.ts";
import type { HostFolders } from "../lib/host/mod.ts";
import { copyDir, makeTempWorld, REPO_ROOT, runHookProcess, type TempWorld } from "./_helpers.ts";

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

// Homes as users have them (issue 32): a linked config folder, linked state folders, FIFOs.

const CONTRACT_SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const REDIRECT_SESSION = "5f0c2a1e-redirect-fixture";

function fixturePayload(name: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "fixtures", "payloads", `${name}.json`)));
}

/** Moves `path` (a folder or file) into `<world>/dotfiles/` and leaves a symbolic link to it. */
function linkAway(world: TempWorld, path: string, name: string): string {
  const target = join(world.root, "dotfiles", name);
  Deno.mkdirSync(join(target, ".."), { recursive: true });
  Deno.renameSync(path, target);
  Deno.symlinkSync(target, path);
  return target;
}

/** A Claude Code transcript where the host writes it, from a fixture. */
function claudeTranscript(world: TempWorld, fixture: string, session: string): string {
  const path = join(world.claudeDir, "projects", "-work-project", `${session}.jsonl`);
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.copyFileSync(join(REPO_ROOT, "fixtures", "transcripts", `${fixture}.jsonl`), path);
  return path;
}

const LINKED: readonly { what: string; link(world: TempWorld, transcript: string): void }[] = [
  { what: "the config folder", link: (w) => void linkAway(w, w.claudeDir, "claude") },
  {
    what: "its projects folder",
    link: (w) => void linkAway(w, join(w.claudeDir, "projects"), "projects"),
  },
  {
    // A file linked within the folders the host writes (and the hook is granted).
    what: "the transcript file",
    link: (w, t) => {
      const target = join(w.claudeDir, "projects", "elsewhere", "kept.jsonl");
      Deno.mkdirSync(join(target, ".."), { recursive: true });
      Deno.renameSync(t, target);
      Deno.symlinkSync(target, t);
    },
  },
];

const LINKED_STOPS: readonly { id: HookId; fixture: string; payload: string; session: string }[] = [
  {
    id: "skill-contract",
    fixture: "stop_unmet",
    payload: "stop_claude",
    session: CONTRACT_SESSION,
  },
  {
    id: "skill-redirect-stop",
    fixture: "redirect_unknown_skill",
    payload: "redirect_claude_stop",
    session: REDIRECT_SESSION,
  },
];

for (const { what, link } of LINKED) {
  for (const { id, fixture, payload, session } of LINKED_STOPS) {
    Deno.test(`${id}: a Claude Code transcript reached through a linked ${what} is read, and the stop blocks`, async () => {
      const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
      try {
        const transcript = claudeTranscript(world, fixture, session);
        link(world, transcript);
        const run = await runHookProcess(id, {
          ...fixturePayload(payload),
          transcript_path: transcript,
          cwd: world.projectDir,
        }, { world });
        assert.equal(run.code, 0);
        assert.equal(run.stderr, "");
        assert.equal(
          (run.json as { decision?: string } | undefined)?.decision,
          "block",
          run.stdout,
        );
      } finally {
        await world.cleanup();
      }
    });
  }
}

for (const { id, fixture, payload, session } of LINKED_STOPS) {
  Deno.test(`${id}: a config folder linked after setup (its commands grant no link target) is read, and the stop blocks`, async () => {
    const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
    try {
      const transcript = claudeTranscript(world, fixture, session);
      const target = linkAway(world, world.claudeDir, "claude");
      // The commands as setup wrote them before the link: no grant names where it leads.
      const run = await runHookProcess(id, {
        ...fixturePayload(payload),
        transcript_path: transcript,
        cwd: world.projectDir,
      }, {
        world,
        mapArgs: (args) =>
          args.map((a) =>
            a.startsWith("--allow-")
              ? a.replace(
                /^(--allow-\w+=)(.*)$/,
                (_, flag, list: string) =>
                  flag + list.split(",").filter((p) => !p.startsWith(target)).join(","),
              )
              : a
          ),
      });
      assert.ok(!run.args.some((a) => a.includes(target)), "no grant of the link's target");
      assert.equal(run.code, 0);
      assert.equal(run.stderr, "");
      assert.equal((run.json as { decision?: string } | undefined)?.decision, "block", run.stdout);
    } finally {
      await world.cleanup();
    }
  });
}

/** Every file under a folder, with its bytes, to show that nothing there changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else out[p] = Deno.readTextFileSync(p);
    }
  };
  walk(dir);
  return out;
}

const STATE_FOLDERS = ["hooks", "catalog", "skill-contracts", "skill-redirect"] as const;

for (const row of HOOKS) {
  for (const folder of STATE_FOLDERS) {
    Deno.test(`${row.id}: a state folder '${folder}' planted as a symbolic link is never written through`, async () => {
      const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
      try {
        const outside = join(world.root, "outside", folder);
        Deno.mkdirSync(outside, { recursive: true });
        // Files by the names skillgate would write there: the user's own, to be left alone (no
        // log: a log created through the link must be caught too).
        for (
          const name of [
            "skills.json",
            "agents.json",
            "routes.idx",
            `${CONTRACT_SESSION}.json`,
            `${REDIRECT_SESSION}.json`,
          ]
        ) {
          Deno.writeTextFileSync(join(outside, name), `the user's own ${name}\n`);
        }
        const before = snapshot(join(world.root, "outside"));
        Deno.mkdirSync(world.stateRoot, { recursive: true });
        Deno.symlinkSync(outside, join(world.stateRoot, folder));
        const payload = row.event === "Stop"
          ? {
            ...fixturePayload(row.id === "skill-contract" ? "stop_claude" : "redirect_claude_stop"),
            transcript_path: claudeTranscript(
              world,
              row.id === "skill-contract" ? "stop_unmet" : "redirect_unknown_skill",
              row.id === "skill-contract" ? CONTRACT_SESSION : REDIRECT_SESSION,
            ),
            cwd: world.projectDir,
          }
          : row.event === "PreToolUse"
          ? { ...fixturePayload("redirect_claude_skill_agent"), cwd: world.projectDir }
          : payloadFor(row, world);
        const run = await runHookProcess(row.id, payload, { world, env: ALL_ON });
        assert.equal(run.code, 0);
        assert.deepEqual(snapshot(join(world.root, "outside")), before, "nothing outside changed");
        const lines = run.stderr.split("\n").filter((l) => l.trim() !== "");
        assert.ok(lines.length <= 1, run.stderr);
        if (lines.length === 1) {
          assert.match(lines[0], /Refusing a state folder that is a symbolic link/);
          assert.equal(run.stdout, "");
        }
      } finally {
        await world.cleanup();
      }
    });
  }
}

/** Makes a FIFO at `path` (no writer ever opens it). */
async function mkfifo(path: string): Promise<void> {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(made.code, 0, "mkfifo");
}

const FIFO_STOPS: readonly {
  what: string;
  id: HookId;
  setup(world: TempWorld): Promise<{ payload: Record<string, unknown>; host?: HostFolders }>;
}[] = [
  {
    what: "a Claude Code Stop",
    id: "skill-contract",
    setup: async (world) => {
      const path = join(world.claudeDir, "projects", "-work-project", `${CONTRACT_SESSION}.jsonl`);
      await mkfifo(path);
      return {
        payload: { ...fixturePayload("stop_claude"), transcript_path: path, cwd: world.projectDir },
      };
    },
  },
  {
    what: "a Copilot CLI agentStop",
    id: "skill-contract",
    setup: async (world) => {
      copyDir(
        join(REPO_ROOT, "fixtures", "host", "skills", "investigate"),
        join(world.projectDir, ".github", "skills", "investigate"),
      );
      const configDir = join(world.home, ".copilot");
      const events = join(configDir, COPILOT.layout.transcripts!, CONTRACT_SESSION, "events.jsonl");
      await mkfifo(events);
      return {
        payload: {
          sessionId: CONTRACT_SESSION,
          timestamp: Date.now(),
          cwd: world.projectDir,
          transcriptPath: events,
          stopReason: "end_turn",
        },
        host: { configDir, home: world.home, layout: COPILOT.layout },
      };
    },
  },
  {
    what: "the redirect's Claude Code Stop",
    id: "skill-redirect-stop",
    setup: async (world) => {
      const path = join(world.claudeDir, "projects", "-work-project", `${REDIRECT_SESSION}.jsonl`);
      await mkfifo(path);
      return {
        payload: {
          ...fixturePayload("redirect_claude_stop"),
          transcript_path: path,
          cwd: world.projectDir,
        },
      };
    },
  },
];

for (const { what, id, setup } of FIFO_STOPS) {
  Deno.test(`${id}: ${what} whose transcript is a FIFO is refused at once with one line, never waited on`, async () => {
    const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
    try {
      const { payload, host } = await setup(world);
      // The watchdog catches a hang (the process blocked on the FIFO), far above any deadline.
      const run = await runHookProcess(id, payload, {
        world,
        env: { ...ALL_ON, COPILOT_HOME: join(world.home, ".copilot") },
        killAfterMs: 30_000,
        ...(host ? { host } : {}),
      });
      assertFailOpen(run, /^skillgate: .*Not a regular file \(a FIFO\)/);
      assert.doesNotMatch(run.stderr, /DEADLINE|deadline/);
    } finally {
      await world.cleanup();
    }
  });
}

Deno.test("skill-route: temp files that killed writers left in catalog/ are removed by the next routed prompt", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
  try {
    const catalog = join(world.stateRoot, "catalog");
    Deno.mkdirSync(catalog, { recursive: true });
    // The caches a routed prompt writes in a fresh state root (overlays.json: only with overlays).
    const caches = ["skills.json", "skills.names.json", "routes.idx"];
    for (const name of caches) Deno.writeTextFileSync(join(catalog, `.${name}.tmp`), '{"half":');
    const run = await runHookProcess("skill-route", payloadFor(hookRow("skill-route"), world), {
      world,
      env: ALL_ON,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const names = [...Deno.readDirSync(catalog)].map((e) => e.name);
    assert.deepEqual(names.filter((n) => n.endsWith(".tmp")), [], names.join(" "));
    for (const name of caches) assert.ok(names.includes(name), `${name} written`);
  } finally {
    await world.cleanup();
  }
});

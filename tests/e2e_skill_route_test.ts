import assert from "node:assert/strict";
import { join } from "node:path";
import {
  copyDir,
  FIXTURES,
  makeTempWorld,
  readLog,
  runHookProcess,
  type TempWorld,
} from "./_helpers.ts";
import { COPILOT } from "../lib/host/copilot.ts";
import { CODEX } from "../lib/host/codex.ts";
import { hostFolders } from "../lib/host/folders.ts";

const ON = { SKILLGATE_SKILL_ROUTING: "on" };
const SECRET = "sk-live-SECRET-7f3a9c1e";

function payload(world: TempWorld, prompt: string, session = "sess-1") {
  return {
    session_id: session,
    transcript_path: join(world.claudeDir, "projects", "p", `${session}.jsonl`),
    cwd: world.projectDir,
    prompt_id: "p-1",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  };
}

async function withWorld(fn: (w: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["routing/skills"] });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

function context(json: unknown): string {
  return (json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

Deno.test("skill-route hook routes a fitting prompt and logs one line without prompt text", async () => {
  await withWorld(async (world) => {
    const prompt = `this test fails, fix it; the key is ${SECRET}`;
    const r = await runHookProcess("skill-route", payload(world, prompt), { world, env: ON });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    const out = r.json as { hookSpecificOutput: { hookEventName: string } };
    assert.equal(out.hookSpecificOutput.hookEventName, "UserPromptSubmit");
    const text = context(r.json);
    assert.ok(text.includes("this request fits the installed skill /investigate"));
    assert.ok(text.includes("skillgate config set skill_routing off"));
    assert.ok(!text.includes(SECRET));
    const log = readLog(world, "skill-route.log").trim().split("\n");
    assert.equal(log.length, 1);
    assert.match(log[0], / session=sess-1 hook=skill-route event=UserPromptSubmit outcome=routed /);
    assert.match(log[0], / skill=investigate tier=trigger /);
    assert.ok(!readLog(world, "skill-route.log").includes("SECRET"));
    assert.ok(!readLog(world, "skill-route.log").includes("fails"));
  });
});

Deno.test("skill-route hook prints nothing while the switch is off (the default)", async () => {
  await withWorld(async (world) => {
    const r = await runHookProcess("skill-route", payload(world, "this test fails, fix it"), {
      world,
    });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
  });
});

Deno.test("skill-route hook never routes task notifications, slash commands or long prompts", async () => {
  await withWorld(async (world) => {
    const prompts = [
      `<task-notification><task-id>a1</task-id><tool-use-id>toolu_1</tool-use-id><status>completed</status><summary>fix this bug ${SECRET}</summary></task-notification>`,
      `/investigate fix this bug ${SECRET}`,
      `fix this bug ${SECRET} ` + "log line\n".repeat(1000),
    ];
    for (const p of prompts) {
      const r = await runHookProcess("skill-route", payload(world, p), { world, env: ON });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, "");
    }
    const log = readLog(world, "skill-route.log");
    const lines = log.trim().split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0], /outcome=no-route reason=host-prompt/);
    assert.match(lines[1], /outcome=no-route reason=slash-command/);
    assert.match(lines[2], /outcome=no-route reason=too-long/);
    assert.ok(!log.includes(SECRET));
  });
});

Deno.test("skill-route hook logs no-route with its reason for a prompt that fits nothing", async () => {
  await withWorld(async (world) => {
    const r = await runHookProcess("skill-route", payload(world, `rename foo to bar ${SECRET}`), {
      world,
      env: ON,
    });
    assert.equal(r.stdout, "");
    const log = readLog(world, "skill-route.log");
    assert.match(log, /outcome=no-route reason=(no-match|below-threshold)/);
    assert.ok(!log.includes(SECRET));
  });
});

Deno.test("skill-route hook adds the first step with SKILLGATE_SKILL_ROUTE_HINT=step", async () => {
  await withWorld(async (world) => {
    const r = await runHookProcess("skill-route", payload(world, "this test fails, fix it"), {
      world,
      env: { ...ON, SKILLGATE_SKILL_ROUTE_HINT: "step" },
    });
    assert.ok(context(r.json).includes('Its first step: "Reproduce the problem'));
    const c = await runHookProcess("skill-route", payload(world, "this test fails, fix it"), {
      world,
      env: { ...ON, SKILLGATE_SKILL_ROUTE_HINT: "contract" },
    });
    assert.ok(context(c.json).includes("It is done when: a DEBUG REPORT"));
  });
});

Deno.test("skill-route hook sees an in-place edit of a candidate SKILL.md on the next prompt", async () => {
  await withWorld(async (world) => {
    // A candidate: the prompt shares a word ("error") with one of the skill's triggers. (An edit
    // of a skill that shares no word with the prompt is seen within 60 s: route_index_test.ts.)
    const ask = () =>
      runHookProcess("skill-route", payload(world, "the flamegraph spikes, an error"), {
        world,
        env: ON,
      });
    assert.equal((await ask()).stdout, "");
    // Rewritten in place: the folder's mtime stays, only the file's own mtime changes.
    const file = join(world.claudeDir, "skills", "investigate", "SKILL.md");
    const folder = Deno.statSync(join(world.claudeDir, "skills", "investigate")).mtime!;
    const text = Deno.readTextFileSync(file);
    Deno.writeTextFileSync(file, text.replace("  - debug this\n", "  - flamegraph spikes\n"));
    Deno.utimeSync(file, new Date(), new Date(Date.now() + 5000));
    Deno.utimeSync(join(world.claudeDir, "skills", "investigate"), folder, folder);
    assert.ok(context((await ask()).json).includes("/investigate"));
  });
});

Deno.test("skill-route hook finds skills through a symlinked skill folder and a symlinked skills root", async () => {
  await withWorld(async (world) => {
    // `~/.claude/skills/profile -> ~/dotfiles/skills/profile` and the project's
    // `.claude/skills -> ../shared-skills`, both outside every grant the hook has (Claude Code
    // loads skills through both).
    const dot = join(world.root, "dotfiles", "skills", "profile");
    Deno.mkdirSync(dot, { recursive: true });
    Deno.writeTextFileSync(
      join(dot, "SKILL.md"),
      "---\nname: profile\ntriggers:\n  - flamegraph spikes\n---\n1. Record a profile.\n",
    );
    Deno.symlinkSync(dot, join(world.claudeDir, "skills", "profile"));
    const shared = join(world.projectDir, "shared-skills", "translate");
    Deno.mkdirSync(shared, { recursive: true });
    Deno.writeTextFileSync(
      join(shared, "SKILL.md"),
      "---\nname: translate\ntriggers:\n  - translate the strings\n---\n1. Find the strings.\n",
    );
    Deno.mkdirSync(join(world.projectDir, ".claude"));
    Deno.symlinkSync("../shared-skills", join(world.projectDir, ".claude", "skills"));
    Deno.mkdirSync(world.stateRoot, { recursive: true });
    Deno.writeTextFileSync(
      join(world.stateRoot, "config.yaml"),
      "route_skills: profile,translate\n",
    );
    const ask = (prompt: string) =>
      runHookProcess("skill-route", payload(world, prompt), { world, env: ON });
    for (let i = 0; i < 2; i++) {
      // First the hook scans; then it answers from the index it wrote.
      const a = await ask("the flamegraph spikes after the deploy");
      assert.equal(a.stderr, "");
      assert.ok(context(a.json).includes("/profile"), a.stdout);
      const b = await ask("please translate the strings of the settings page");
      assert.equal(b.stderr, "");
      assert.ok(context(b.json).includes("/translate"), b.stdout);
    }
    const total = Deno.readDirSync(join(world.claudeDir, "skills")).toArray().length + 1;
    assert.match(readLog(world, "skill-route.log"), new RegExp(` skills=${total} `));
  });
});

Deno.test("skill-route hook answers Copilot CLI's userPromptSubmitted with a flat context, from Copilot's own skills", async () => {
  await withWorld(async (world) => {
    const configDir = join(world.home, ".copilot");
    const p = {
      sessionId: "cop-1",
      timestamp: 1,
      cwd: world.projectDir,
      prompt: "please check my diff",
    };
    const host = { configDir, home: world.home, layout: COPILOT.layout };
    // Copilot CLI does not read ~/.claude/skills: nothing routes until its own folder has skills.
    const none = await runHookProcess("skill-route", p, { world, env: ON, host });
    assert.equal(none.stdout, "");
    copyDir(join(FIXTURES, "routing", "skills"), join(configDir, "skills"));
    const r = await runHookProcess("skill-route", p, { world, env: ON, host });
    const out = r.json as { additionalContext: string };
    assert.ok(out.additionalContext.includes("/review"));
    assert.match(out.additionalContext, /\(userPromptSubmitted hook;.*the skill tool loads/);
  });
});

Deno.test("skill-route hook reads skill-rules.json and skips an invalid regex with a log line", async () => {
  await withWorld(async (world) => {
    Deno.writeTextFileSync(
      join(world.claudeDir, "skills", "skill-rules.json"),
      JSON.stringify({
        skills: {
          review: { promptTriggers: { keywords: ["vet my branch"], intentPatterns: ["([bad"] } },
        },
      }),
    );
    const r = await runHookProcess("skill-route", payload(world, "can you vet my branch"), {
      world,
      env: ON,
    });
    assert.equal(r.code, 0);
    assert.ok(context(r.json).includes("/review"));
    const log = readLog(world, "skill-route.log");
    assert.match(log, /outcome=warning reason=skill-rules-pattern-skipped skill=review index=0/);
    assert.match(log, /outcome=routed .*skill=review/);
  });
});

Deno.test("skill-route hook answers for the hostile intent pattern of the issue (RE2, not backtracking)", async () => {
  await withWorld(async (world) => {
    // `[^!]{0,99}` five times then `!`: under JavaScript's backtracking RegExp this pattern kept
    // the hook busy past 12 s on a 115-character prompt without `!`, and the hook's deadline
    // cannot fire during a synchronous match. The next pattern routes, so the hook must get past
    // the first one to answer.
    Deno.writeTextFileSync(
      join(world.claudeDir, "skills", "skill-rules.json"),
      JSON.stringify({
        skills: {
          review: {
            promptTriggers: {
              intentPatterns: ["[^!]{0,99}".repeat(5) + "!", "(x+)+y", "vet.*branch"],
            },
          },
        },
      }),
    );
    const prompt = "please vet my branch " + "x".repeat(94);
    assert.equal(prompt.length, 115);
    // The watchdog only ends a hung process so that the test can fail; it asserts no time.
    const r = await runHookProcess("skill-route", payload(world, prompt), {
      world,
      env: ON,
      killAfterMs: 30_000,
    });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    assert.ok(context(r.json).includes("/review"));
    const log = readLog(world, "skill-route.log");
    assert.match(log, /outcome=routed .*skill=review/);
    assert.doesNotMatch(log, /deadline|warning/);
  });
});

Deno.test("skill-route hook logs an intent pattern RE2 cannot run and routes on the others", async () => {
  await withWorld(async (world) => {
    Deno.writeTextFileSync(
      join(world.claudeDir, "skills", "skill-rules.json"),
      JSON.stringify({
        skills: {
          review: {
            promptTriggers: { intentPatterns: ["vet(?= my)", "(vet)\\s+my\\1", "vet my"] },
          },
        },
      }),
    );
    const r = await runHookProcess("skill-route", payload(world, "can you vet my branch"), {
      world,
      env: ON,
    });
    assert.equal(r.code, 0);
    assert.ok(context(r.json).includes("/review"));
    const log = readLog(world, "skill-route.log");
    for (const index of [0, 1]) {
      assert.match(
        log,
        new RegExp(
          `outcome=warning reason=skill-rules-pattern-skipped skill=review index=${index} ` +
            "problem=not_a_valid_RE2_regular_expression_.*lookaround_and_back-references",
        ),
      );
    }
    assert.match(log, /outcome=routed .*skill=review/);
  });
});

Deno.test("skill-route hook fails open and counts failures per session", async () => {
  await withWorld(async (world) => {
    const skills = join(world.claudeDir, "skills");
    const dropSkillsRead = (args: string[]) =>
      args.map((a) =>
        a.startsWith("--allow-read=")
          ? "--allow-read=" + a.slice(13).split(",").filter((p) => p !== skills).join(",")
          : a
      );
    for (const n of [1, 2]) {
      const r = await runHookProcess("skill-route", payload(world, `fix this bug ${SECRET}`), {
        world,
        env: ON,
        mapArgs: dropSkillsRead,
      });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^skillgate: PERMISSION missing --allow-read=/);
      assert.equal(r.stderr.split("\n").length, 1);
      assert.match(readLog(world, "skill-route.log"), new RegExp(`outcome=error .*failures=${n}`));
    }
    assert.ok(!readLog(world, "skill-route.log").includes(SECRET));
  });
});

Deno.test("skill-route hook exits 0 with one stderr line on a malformed payload", async () => {
  await withWorld(async (world) => {
    const r = await runHookProcess("skill-route", `{"prompt": "fix this bug ${SECRET}"`, {
      world,
      env: ON,
    });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^skillgate: PAYLOAD /);
    assert.ok(!r.stderr.includes(SECRET));
  });
});

Deno.test("skill-route hook (the bundle) and the library (the source) share one routing index", async () => {
  await withWorld(async (world) => {
    const r = await runHookProcess("skill-route", payload(world, "this test fails, fix it"), {
      world,
      env: ON,
    });
    assert.equal(r.code, 0);
    const index = join(world.stateRoot, "catalog", "routes.idx");
    const head = Deno.readTextFileSync(index).split("\n")[0];
    const { indexFingerprint } = await import("../lib/routing/index_fingerprint.ts");
    // The bundle wrote the compiler fingerprint the source computes: neither recompiles for the
    // other (a fingerprint of code would differ once the bundle is minified).
    assert.equal(JSON.parse(head).compiler, indexFingerprint());
  });
});

Deno.test("skill-route hook reads the config file as config list does: an inline comment is a comment", async () => {
  await withWorld(async (world) => {
    Deno.mkdirSync(world.stateRoot, { recursive: true });
    Deno.writeTextFileSync(
      join(world.stateRoot, "config.yaml"),
      "skill_routing: on   # for the pilot\nroute_threshold: 7\n",
    );
    const r = await runHookProcess("skill-route", payload(world, "this test fails, fix it"), {
      world,
    });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    // On, and the invalid threshold is the default 0.66, not ignored into "no route".
    assert.ok(context(r.json).includes("/investigate"));
  });
});

Deno.test("skill-route hook under Codex CLI: routes the user's prompt, never a subagent's task or a hook prompt", async () => {
  await withWorld(async (world) => {
    const codex = (prompt: string, extra: Record<string, string> = {}) => ({
      ...payload(world, prompt),
      transcript_path: join(world.root, "codex", "sessions", "rollout-2026-01-01T00-00-00-s.jsonl"),
      turn_id: "turn-1",
      model: "gpt-5.5",
      ...extra,
    });
    // The grants `setup --codex` writes: Codex CLI's own folders, not Claude Code's.
    const host = hostFolders(CODEX, { home: world.home, env: () => undefined });
    // Codex CLI does not read ~/.claude/skills: nothing routes until its own folder has skills.
    const none = await runHookProcess("skill-route", codex("this test fails, fix it"), {
      world,
      env: ON,
      host,
    });
    assert.equal(none.code, 0);
    assert.equal(none.stdout, "");
    copyDir(join(FIXTURES, "routing", "skills"), join(world.home, ".agents", "skills"));
    const routed = await runHookProcess("skill-route", codex("this test fails, fix it"), {
      world,
      env: ON,
      host,
    });
    assert.equal(routed.code, 0);
    assert.ok(context(routed.json).includes("/investigate"), routed.stdout);
    for (
      const p of [
        codex("this test fails, fix it", { agent_id: "a1", agent_type: "test-runner" }),
        codex(
          '<hook_prompt hook_run_id="stop:0:x">SKILL_CONTRACT_UNMET fix this bug</hook_prompt>',
        ),
      ]
    ) {
      const r = await runHookProcess("skill-route", p, { world, env: ON, host });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, "", JSON.stringify(p));
    }
    const log = readLog(world, "skill-route.log");
    assert.match(log, /outcome=no-route reason=subagent/);
    assert.match(log, /outcome=no-route reason=host-prompt/);
  });
});

Deno.test("skill-route hook routes a built-in pack skill without triggers on its description", async () => {
  await withWorld(async (world) => {
    const dir = join(world.claudeDir, "skills", "pdf");
    Deno.mkdirSync(dir, { recursive: true });
    // The opening of anthropics/skills' pdf description: the pack entry applies.
    Deno.writeTextFileSync(
      join(dir, "SKILL.md"),
      "---\nname: pdf\ndescription: Use this skill whenever the user wants to do anything with " +
        "PDF files: merging, splitting, filling forms, extracting tables.\n---\n\nRead it.\n",
    );
    const prompt = "merge the scanned pdf forms and extract the tables";
    const r = await runHookProcess("skill-route", payload(world, prompt), { world, env: ON });
    assert.equal(r.code, 0);
    assert.ok(context(r.json).includes("this request fits the installed skill /pdf"));
    const log = readLog(world, "skill-route.log").trim().split("\n");
    assert.match(log[0], / skill=pdf tier=description /);
  });
});

Deno.test("skill-route hook under its registered flags routes past a FIFO or /dev/zero where a SKILL.md, the plugin list or the routing index is", async () => {
  await withWorld(async (world) => {
    const fifo = (path: string) => {
      Deno.mkdirSync(join(path, ".."), { recursive: true });
      assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success, "mkfifo");
    };
    const skills = join(world.claudeDir, "skills");
    fifo(join(skills, "pipe", "SKILL.md"));
    Deno.mkdirSync(join(skills, "zero"));
    Deno.symlinkSync("/dev/zero", join(skills, "zero", "SKILL.md"));
    fifo(join(world.claudeDir, "plugins", "installed_plugins.json"));
    fifo(join(world.stateRoot, "catalog", "routes.idx"));
    // The watchdog catches a hang (the process blocked on a FIFO), far above any deadline.
    for (const session of ["sess-1", "sess-2"]) {
      const r = await runHookProcess(
        "skill-route",
        payload(world, "this test fails, fix it", session),
        {
          world,
          env: ON,
          killAfterMs: 30_000,
        },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.ok(context(r.json).includes("this request fits the installed skill /investigate"));
    }
    assert.match(readLog(world, "skill-route.log"), / outcome=routed .* skill=investigate /);
  });
});

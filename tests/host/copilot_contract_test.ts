/**
 * Host scenarios on the real GitHub Copilot CLI (1.0.102), installed with `skillgate setup
 * --copilot`, each session played against the scripted stand-in on loopback: skill contracts at
 * `agentStop` (block once, then `met_after_block`; a second unmet stop is a `miss`; a question in
 * an interactive session is not blocked), and the redirect of a Copilot-only agent called through
 * `skill`.
 *
 * With `SKILLGATE_HOST_SAVE_FIXTURES=1` the sessions' `events.jsonl` files are written to
 * `fixtures/transcripts/copilot/` (temp paths replaced, the system prompt cut to its first
 * sentences): the fixtures of the reader's tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertReportRechecks,
  type CopilotSession,
  FIXTURES,
  hostScenario,
  type HostWorld,
  installFixtures,
  loadScript,
  makeHostWorld,
  outcomesIn,
  readLog,
  readRecord,
  removeHostWorld,
  REPO,
  runCopilot,
  runSkillgate,
} from "./harness.ts";
import { lastUserText, requestText, type Rule } from "./stand_in.ts";

const CONTRACT = "hooks/dist/skill_contract.js";
const REDIRECT = "hooks/dist/skill_redirect.js";

/** The verdict scenarios are timing-dependent: each runs this many sessions in a row. */
const VERDICT_RUNS = 3;

/** The block text up to the fixes, exactly as the issue gives it. */
const BLOCK_HEAD =
  "SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. ";

/** Registers a scenario (see `hostScenario`). */
const scenario = hostScenario;

/** A world with skillgate set up for Copilot CLI and the investigate skill in `.github/skills`. */
async function copilotWorld(label: string): Promise<HostWorld> {
  const w = await makeHostWorld(label);
  await installFixtures(join(w.project, ".github"), { skills: ["investigate"] });
  await Deno.writeTextFile(join(w.project, "test.sh"), "echo PASS\n");
  await Deno.writeTextFile(join(w.project, "auth.txt"), "no check\n");
  const setup = await runSkillgate(w, ["setup", "--copilot"], { CLAUDE_CONFIG_DIR: "" });
  assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  return w;
}

/** A script with `{{project}}` replaced by the world's project folder. */
async function script(name: string, w: HostWorld): Promise<Rule[]> {
  const text = JSON.stringify(await loadScript(name));
  return JSON.parse(text.replaceAll("{{project}}", w.project.replaceAll("\\", "/")));
}

async function run(
  w: HostWorld,
  prompt: string,
  rules: Rule[],
  env: Record<string, string> = {},
): Promise<CopilotSession> {
  const s = await runCopilot(w, {
    prompt,
    rules,
    env: { SKILLGATE_STATE_ROOT: w.stateRoot, ...env },
  });
  assert.equal(s.run.timedOut, false, "the client was killed on timeout");
  assert.equal(s.run.code, 0, `the client failed: ${s.run.stderr.slice(0, 500)}`);
  return s;
}

/** The session id of a run's `events.jsonl` (its `session.start`). */
function sessionIdOf(s: CopilotSession): string {
  const start = s.events.find((r) => r.type === "session.start");
  const id = (start?.data as Record<string, unknown> | undefined)?.sessionId;
  assert.equal(typeof id, "string", "the session has a session.start record");
  return id as string;
}

/** The model turns whose last user message carries skillgate's block. */
function blockTurns(s: CopilotSession): string[] {
  return s.turns.map((t) => lastUserText(t.body)).filter((t) => t.includes("SKILL_CONTRACT_UNMET"));
}

/** Saves a session's events as a reader fixture, when asked to (see the module doc). */
async function saveFixture(w: HostWorld, s: CopilotSession, name: string): Promise<void> {
  if (!Deno.env.get("SKILLGATE_HOST_SAVE_FIXTURES")) return;
  const lines = s.events.map((r) => {
    const data = r.data as Record<string, unknown> | undefined;
    if (r.type === "system.message" && data && typeof data.content === "string") {
      const cut = data.content.split(/(?<=\.) /).slice(0, 3).join(" ");
      r = { ...r, data: { ...data, content: `${cut} [cut for the fixture]` } };
    }
    return JSON.stringify(r).replaceAll(w.root, "/tmp/skillgate-host");
  });
  const dir = join(REPO, "fixtures", "transcripts", "copilot");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, `${name}.jsonl`), lines.join("\n") + "\n");
}

scenario(
  `copilot 1: contracts at agentStop (setup --copilot), ${VERDICT_RUNS} runs: blocked once with the exact text, then met_after_block`,
  [CONTRACT],
  async () => {
    const w = await copilotWorld("cp-contract");
    try {
      const sessions: string[] = [];
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        await Deno.writeTextFile(join(w.project, "auth.txt"), "no check\n");
        const s = await run(
          w,
          "the login test fails, look into it",
          await script("copilot_contract_met_after_block", w),
        );
        const blocks = blockTurns(s);
        assert.equal(blocks.length, 1, `run ${i}: blocked exactly once`);
        assert.ok(
          blocks[0].includes(BLOCK_HEAD + "Fix: debug-report: "),
          `run ${i}: the exact block text: ${blocks[0].slice(0, 400)}`,
        );
        assert.match(blocks[0], /This blocks once\.$/);
        assert.match(blocks[0], /contract waive <item> --reason/);
        const sid = sessionIdOf(s);
        sessions.push(sid);
        const rec = await readRecord(w.stateRoot, sid);
        assert.deepEqual(outcomesIn(rec), ["met_after_block"], `run ${i}: ${JSON.stringify(rec)}`);
        assert.ok(
          s.events.some((r) =>
            r.type === "tool.execution_complete" &&
            JSON.stringify(r.data).includes("PASS")
          ),
          `run ${i}: the test ran after the block`,
        );
        if (i === 1) await saveFixture(w, s, "met_after_block");
      }
      const log = await readLog(w.stateRoot, "skill-contract.log");
      assert.equal(
        log.filter((l) => / now=met_after_block/.test(l)).length,
        VERDICT_RUNS,
        log.join("\n"),
      );
      assert.ok(!log.some((l) => /transcript-behind/.test(l)), log.join("\n"));
      assert.ok(log.every((l) => !l.includes("login test")), "the log holds no prompt text");
      // contract report re-checks a Copilot session against its events.jsonl in session-state.
      await assertReportRechecks(
        w.stateRoot,
        sessions,
        () => runSkillgate(w, ["contract", "report", "--json"], { CLAUDE_CONFIG_DIR: "" }),
      );
      console.log(`copilot 1: ${log.length} contract decisions:\n${log.join("\n")}`);
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  `copilot 2: contracts at agentStop, ${VERDICT_RUNS} runs: an unmet run stopped twice is recorded miss`,
  [CONTRACT],
  async () => {
    const w = await copilotWorld("cp-miss");
    try {
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        // Each run creates signup.txt: Copilot CLI refuses a create over an existing file, and a
        // refused create is no edit.
        await Deno.remove(join(w.project, "signup.txt")).catch(() => {});
        const s = await run(
          w,
          "the signup test fails, look into it",
          await script("copilot_contract_miss", w),
        );
        const blocks = blockTurns(s);
        assert.equal(blocks.length, 1, `miss run ${i}: blocked exactly once`);
        assert.ok(blocks[0].includes(BLOCK_HEAD), blocks[0].slice(0, 300));
        assert.match(s.run.stdout, /The fix is in place\./, "the second stop went through");
        const rec = await readRecord(w.stateRoot, sessionIdOf(s));
        assert.deepEqual(outcomesIn(rec), ["miss"], `miss run ${i}: ${JSON.stringify(rec)}`);
        if (i === 1) await saveFixture(w, s, "miss");
      }
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  `copilot 3: a turn ending on a question: not blocked in an interactive session, blocked in a -p run (${VERDICT_RUNS} runs each)`,
  [CONTRACT],
  async () => {
    const w = await copilotWorld("cp-question");
    try {
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        // Copilot CLI's interactive TUI cannot be driven offline here, so the session is marked
        // interactive the documented way; the transcript itself says `-p` (non-interactive).
        await Deno.writeTextFile(join(w.project, "auth.txt"), "no check\n");
        const s = await run(
          w,
          "the login test fails, look into it",
          await script("copilot_contract_question", w),
          { SKILLGATE_HEADLESS: "interactive" },
        );
        assert.equal(blockTurns(s).length, 0, `interactive run ${i}: not blocked`);
        assert.match(s.run.stdout, /Should I also update the signup check\?/);
        if (i === 1) await saveFixture(w, s, "question_interactive");
      }
      let log = await readLog(w.stateRoot, "skill-contract.log");
      assert.equal(
        log.filter((l) => /outcome=allow/.test(l) && /reason=ends-on-question/.test(l)).length,
        VERDICT_RUNS,
        log.join("\n"),
      );
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        await Deno.writeTextFile(join(w.project, "auth.txt"), "no check\n");
        const s = await run(
          w,
          "the login test fails, look into it",
          await script("copilot_contract_question", w),
        );
        assert.equal(blockTurns(s).length, 1, `-p run ${i}: nobody can answer, so it is blocked`);
      }
      log = await readLog(w.stateRoot, "skill-contract.log");
      assert.equal(
        log.filter((l) => /kind=headless/.test(l) && /outcome=block/.test(l)).length,
        VERDICT_RUNS,
        log.join("\n"),
      );
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  `copilot 4: a Copilot-only agent (~/.copilot/agents/*.agent.md) called through skill is denied, pointing at task (${VERDICT_RUNS} runs)`,
  [REDIRECT],
  async () => {
    const w = await copilotWorld("cp-redirect");
    try {
      const agents = join(w.copilotHome, "agents");
      await Deno.mkdir(agents, { recursive: true });
      await Deno.copyFile(
        join(FIXTURES, "agents", "prompt-writer.md"),
        join(agents, "prompt-writer.agent.md"),
      );
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        const s = await run(
          w,
          "please write a prompt for release notes",
          await script("redirect_copilot", w),
        );
        assert.ok(s.turns.length >= 2, "the model got the tool result");
        const tools = (s.turns[0].body?.tools ?? []) as { name: string; input_schema?: unknown }[];
        const task = tools.find((t) => t.name === "task");
        assert.ok(task, "Copilot offers the task tool");
        assert.ok(
          JSON.stringify(task.input_schema).includes("prompt-writer"),
          "Copilot itself lists the agent (it reads ~/.copilot/agents)",
        );
        const denied = lastUserText(s.turns[1].body);
        assert.match(denied, /Denied by preToolUse hook: /);
        assert.match(denied, /"prompt-writer" is an agent, not a skill/);
        assert.match(denied, /task tool, with agent_type "prompt-writer"/);
        assert.ok(
          !requestText(s.turns[1].body).includes("Agent tool"),
          "no Claude Code tool named",
        );
      }
      const log = await readLog(w.stateRoot, "skill-redirect.log");
      assert.equal(log.filter((l) => /outcome=deny/.test(l)).length, VERDICT_RUNS, log.join("\n"));
    } finally {
      await removeHostWorld(w);
    }
  },
);

/**
 * Host scenarios of the kinds `check_passed_after_last_edit`, `test_first` and `file_written`, and
 * of holds, on the real Claude Code (2.1.328), Copilot CLI (1.0.102) and Codex CLI (0.169.0), each
 * session played against a scripted stand-in on loopback. One session is written once as steps
 * (write a file, run a command, say something) and played in each host's own tools: Claude Code's
 * Write and Bash, Copilot CLI's `create` and `bash`, Codex CLI's `apply_patch` and `exec_command`.
 *
 * Run with `deno task test:host`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  hostScenario,
  type HostWorld,
  installFixtures,
  makeHostWorld,
  outcomesIn,
  pluginStateRoot,
  readRecord,
  removeHostWorld,
  runClaude,
  runCopilot,
  runSkillgate,
} from "./harness.ts";
import { lastUserText, type Rule } from "./stand_in.ts";
import {
  codexSkillgate,
  type CodexWorld,
  makeCodexWorld,
  removeCodexWorld,
  runCodex,
} from "./codex_harness.ts";
import { lastInputText, type ResponsesRule } from "./responses_stand_in.ts";

const CONTRACT = "hooks/dist/skill_contract.js";

/** The verdict-critical scenario runs this many sessions in a row per host. */
const VERDICT_RUNS = 3;

/** One step of a scripted session. */
type Step =
  | { write: string; content: string; on?: string }
  | { shell: string; prints: string; on?: string }
  | { say: string; on?: string };

/** A scripted session: the prompt, the skill it loads, then its steps. */
interface Session {
  prompt: string;
  skill: string;
  steps: Step[];
}

/** The test script of every world: passes once `fix.txt` exists. */
const TEST_SH = "if [ -f fix.txt ]; then echo TEST-PASS; else echo TEST-FAIL; exit 1; fi\n";

/** check_passed_after_last_edit: a test fails after the edit (blocked), then the fix passes. */
const FAILED_THEN_PASSED: Session = {
  prompt: "the cart total is wrong, fix it and verify",
  skill: "verify",
  steps: [
    { write: "app.txt", content: "round later" },
    { shell: "bash ./test.sh", prints: "TEST-FAIL" },
    { say: "Done: the total is fixed." },
    { on: "SKILL_CONTRACT_UNMET", write: "fix.txt", content: "round first" },
    { shell: "bash ./test.sh", prints: "TEST-PASS" },
    { say: "Done: the test passes now." },
  ],
};

/** test_first met: the test first, red, the code, green. */
const RED_GREEN: Session = {
  prompt: "add the fix file, test first",
  skill: "tdd",
  steps: [
    {
      write: "tests/fix_test.sh",
      content: "if [ -f fix.txt ]; then echo RED-GREEN-PASS; else echo RED-SEEN; exit 1; fi",
    },
    { shell: "bash tests/fix_test.sh", prints: "RED-SEEN" },
    { write: "fix.txt", content: "fixed" },
    { shell: "bash tests/fix_test.sh", prints: "RED-GREEN-PASS" },
    { say: "Done: red, then green." },
  ],
};

/** test_first unmet: the code first; the test never failed. Blocked once, then a miss. */
const CODE_FIRST: Session = {
  prompt: "add the fix file, test first",
  skill: "tdd",
  steps: [
    { write: "fix.txt", content: "fixed" },
    { write: "tests/fix_test.sh", content: "[ -f fix.txt ] && echo CODE-FIRST-PASS || exit 1" },
    { shell: "bash tests/fix_test.sh", prints: "CODE-FIRST-PASS" },
    { say: "Done: the test passes." },
    { on: "SKILL_CONTRACT_UNMET", say: "It passes; I will keep it as is." },
  ],
};

/** file_written: the plan first written elsewhere (blocked), then by a shell heredoc to the glob. */
const PLAN_ELSEWHERE_THEN_SAVED: Session = {
  prompt: "plan the cart rewrite and save the plan",
  skill: "plans",
  steps: [
    { write: "PLAN.md", content: "# Cart rewrite" },
    { say: "The plan is in PLAN.md." },
    {
      on: "SKILL_CONTRACT_UNMET",
      shell: "mkdir -p docs/plans && cat > docs/plans/cart.md <<'EOF'\n# Cart rewrite\nEOF\n" +
        "echo PLAN-SAVED",
      prints: "PLAN-SAVED",
    },
    { say: "The plan is saved in docs/plans/cart.md." },
  ],
};

/** file_written met at once, by an edit tool. */
const PLAN_AT_GLOB: Session = {
  prompt: "plan the checkout rewrite and save the plan",
  skill: "plans",
  steps: [
    { write: "docs/plans/checkout.md", content: "# Checkout rewrite" },
    { say: "The plan is saved in docs/plans/checkout.md." },
  ],
};

/** A hold of 2: unmet at three stops: blocked twice, then let through as a miss. */
const HELD_TWICE: Session = {
  prompt: "the cart total is wrong, fix it and verify",
  skill: "verify-held",
  steps: [
    { write: "app.txt", content: "round later" },
    { shell: "bash ./test.sh", prints: "TEST-FAIL" },
    { say: "Done: the total is fixed." },
    { on: "block 1 of 2", say: "Done, as I said." },
    { on: "block 2 of 2", say: "Done, truly." },
  ],
};

/** The files a session writes, removed before the next session of the same world. */
const WRITTEN = ["app.txt", "fix.txt", "PLAN.md", "tests", "docs"];

/**
 * Empties what a session wrote, and makes the folders the sessions write into (Copilot CLI's
 * `create` refuses a file whose folder does not exist).
 */
async function resetProject(project: string): Promise<void> {
  for (const f of WRITTEN) await Deno.remove(join(project, f), { recursive: true }).catch(() => {});
  await Deno.writeTextFile(join(project, "test.sh"), TEST_SH);
  for (const d of ["tests", "docs/plans"]) await Deno.mkdir(join(project, d), { recursive: true });
}

/** The trigger of each step: its own `on`, else what the step before it printed or was. */
function triggers(s: Session, loaded: string, marker: (step: Step, i: number) => string): string[] {
  return s.steps.map((step, i) => step.on ?? (i === 0 ? loaded : marker(s.steps[i - 1], i - 1)));
}

/** The session as Claude Code or Copilot CLI rules (the Anthropic Messages stand-in). */
function messagesRules(s: Session, host: "claude" | "copilot", project: string): Rule[] {
  const loadId = "toolu_load";
  const loaded = host === "claude"
    ? `Launching skill: ${s.skill}`
    : `<skill-context name="${s.skill}">`;
  const on = triggers(s, loaded, (_, i) => `toolu_k${i}`);
  const rules: Rule[] = [{
    label: "load the skill",
    when: { last_user_contains: s.prompt },
    blocks: [{
      type: "tool_use",
      id: loadId,
      name: host === "claude" ? "Skill" : "skill",
      input: { skill: s.skill },
    }],
    stop: "tool_use",
  }];
  s.steps.forEach((step, i) => {
    const when = { last_user_contains: on[i] };
    const id = `toolu_k${i}`;
    if ("say" in step) {
      rules.push({ label: `say ${i}`, when, blocks: [{ type: "text", text: step.say }] });
      return;
    }
    const input = "write" in step
      ? host === "claude"
        ? { file_path: join(project, step.write), content: step.content + "\n" }
        : { path: join(project, step.write), file_text: step.content + "\n" }
      : { command: step.shell, description: "Run it" };
    const name = "write" in step
      ? host === "claude" ? "Write" : "create"
      : host === "claude"
      ? "Bash"
      : "bash";
    rules.push({
      label: `step ${i}`,
      when,
      blocks: [{ type: "tool_use", id, name, input }],
      stop: "tool_use",
    });
  });
  return rules;
}

/** The session as Codex CLI rules (the Responses stand-in). */
function codexRules(s: Session): ResponsesRule[] {
  const on = triggers(
    s,
    `SKILL-BODY-${s.skill}`,
    (step) => "write" in step ? step.write : "shell" in step ? step.prints : "",
  );
  const rules: ResponsesRule[] = [{
    label: "load the skill: a shell read of its SKILL.md",
    when: { last_user_contains: s.prompt },
    items: [{
      type: "function_call",
      name: "exec_command",
      arguments: { cmd: `cat .agents/skills/${s.skill}/SKILL.md` },
      call_id: "call_load",
    }],
  }];
  s.steps.forEach((step, i) => {
    const when = { last_user_contains: on[i] };
    if ("say" in step) {
      rules.push({ label: `say ${i}`, when, items: [{ type: "text", text: step.say }] });
    } else if ("write" in step) {
      rules.push({
        label: `step ${i}`,
        when,
        items: [{
          type: "custom_tool_call",
          name: "apply_patch",
          input: `*** Begin Patch\n*** Add File: ${step.write}\n+${step.content}\n*** End Patch\n`,
          call_id: `call_k${i}`,
        }],
      });
    } else {
      rules.push({
        label: `step ${i}`,
        when,
        items: [{
          type: "function_call",
          name: "exec_command",
          arguments: { cmd: step.shell },
          call_id: `call_k${i}`,
        }],
      });
    }
  });
  return rules;
}

/** What a played session left: its blocks (their text) and the run outcomes recorded. */
interface Played {
  blocks: string[];
  outcomes: string[];
  blocksRecorded: number[];
}

function summary(rec: unknown, blocks: string[]): Played {
  const runs = (rec as { runs?: { blocks?: number }[] } | undefined)?.runs ?? [];
  return { blocks, outcomes: outcomesIn(rec), blocksRecorded: runs.map((r) => r.blocks ?? 0) };
}

const SKILLS = ["verify", "verify-held", "tdd", "plans"];

async function claudeWorld(): Promise<HostWorld> {
  const w = await makeHostWorld("kinds-claude");
  await installFixtures(w.claudeDir, { skills: SKILLS });
  return w;
}

async function playClaude(w: HostWorld, s: Session): Promise<Played> {
  await resetProject(w.project);
  const r = await runClaude(w, {
    prompt: s.prompt,
    rules: messagesRules(s, "claude", w.project),
    install: "plugin",
  });
  assert.equal(r.run.timedOut, false, "the client was killed on timeout");
  assert.equal(r.run.code, 0, `the client failed: ${r.run.stderr.slice(0, 500)}`);
  const blocks = r.turns.map((t) => lastUserText(t.body)).filter((t) =>
    t.includes("Stop hook feedback") && t.includes("SKILL_CONTRACT_UNMET")
  );
  return summary(await readRecord(pluginStateRoot(w), r.sessionId), blocks);
}

async function copilotWorld(): Promise<HostWorld> {
  const w = await makeHostWorld("kinds-copilot");
  await installFixtures(join(w.project, ".github"), { skills: SKILLS });
  const setup = await runSkillgate(w, ["setup", "--copilot"], { CLAUDE_CONFIG_DIR: "" });
  assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  return w;
}

async function playCopilot(w: HostWorld, s: Session): Promise<Played> {
  await resetProject(w.project);
  const r = await runCopilot(w, {
    prompt: s.prompt,
    rules: messagesRules(s, "copilot", w.project),
    env: { SKILLGATE_STATE_ROOT: w.stateRoot },
  });
  assert.equal(r.run.timedOut, false, "the client was killed on timeout");
  assert.equal(r.run.code, 0, `the client failed: ${r.run.stderr.slice(0, 500)}`);
  const start = r.events.find((e) => e.type === "session.start");
  const sid = (start?.data as Record<string, unknown> | undefined)?.sessionId;
  assert.equal(typeof sid, "string", "the session has a session.start record");
  const blocks = r.turns.map((t) => lastUserText(t.body)).filter((t) =>
    t.includes("SKILL_CONTRACT_UNMET")
  );
  return summary(await readRecord(w.stateRoot, sid as string), blocks);
}

async function codexWorld(): Promise<CodexWorld> {
  const w = await makeCodexWorld("kinds", { skills: SKILLS });
  const setup = await codexSkillgate(w, ["setup", "--codex"]);
  assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  return w;
}

async function playCodex(w: CodexWorld, s: Session): Promise<Played> {
  await resetProject(w.project);
  const r = await runCodex(w, { prompt: s.prompt, rules: codexRules(s) });
  assert.equal(r.run.timedOut, false, "the client was killed on timeout");
  assert.equal(r.run.code, 0, `the client failed: ${r.run.stderr.slice(0, 800)}`);
  const blocks = r.turns.map((t) => lastInputText(t.body)).filter((t) =>
    t.includes("SKILL_CONTRACT_UNMET")
  );
  return summary(await readRecord(w.stateRoot, r.sessionId), blocks);
}

/** The checks every host must pass, given how a host plays a session. */
async function kindsOn(host: string, play: (s: Session) => Promise<Played>): Promise<void> {
  for (let i = 1; i <= VERDICT_RUNS; i++) {
    const p = await play(FAILED_THEN_PASSED);
    assert.equal(p.blocks.length, 1, `${host} run ${i}: blocked once: ${JSON.stringify(p)}`);
    assert.match(p.blocks[0], /SKILL_CONTRACT_UNMET verify \(contract v1\): missing checks-pass\./);
    assert.deepEqual(p.outcomes, ["met_after_block"], `${host} run ${i}: ${JSON.stringify(p)}`);
  }
  const red = await play(RED_GREEN);
  assert.deepEqual(red.blocks, [], `${host}: red then green is not blocked`);
  assert.deepEqual(red.outcomes, ["met"], `${host}: ${JSON.stringify(red)}`);
  const codeFirst = await play(CODE_FIRST);
  assert.equal(codeFirst.blocks.length, 1, `${host}: code first is blocked once`);
  assert.match(codeFirst.blocks[0], /missing red-green\./);
  assert.deepEqual(codeFirst.outcomes, ["miss"], `${host}: ${JSON.stringify(codeFirst)}`);
  const elsewhere = await play(PLAN_ELSEWHERE_THEN_SAVED);
  assert.equal(elsewhere.blocks.length, 1, `${host}: a plan elsewhere is blocked once`);
  assert.match(
    elsewhere.blocks[0],
    /missing plan-saved\. Fix: plan-saved: write the file to docs\/plans\/\*\.md/,
  );
  assert.deepEqual(
    elsewhere.outcomes,
    ["met_after_block"],
    `${host}: the heredoc to the glob counts`,
  );
  const atGlob = await play(PLAN_AT_GLOB);
  assert.deepEqual(atGlob.blocks, [], `${host}: a plan at the glob is not blocked`);
  assert.deepEqual(atGlob.outcomes, ["met"], `${host}: ${JSON.stringify(atGlob)}`);
}

hostScenario(
  `kinds 1: Claude Code (plugin): check_passed_after_last_edit (${VERDICT_RUNS} runs), test_first, file_written`,
  [CONTRACT],
  async () => {
    const w = await claudeWorld();
    try {
      await kindsOn("claude", (s) => playClaude(w, s));
    } finally {
      await removeHostWorld(w);
    }
  },
);

hostScenario(
  `kinds 2: Copilot CLI (setup --copilot): check_passed_after_last_edit (${VERDICT_RUNS} runs), test_first, file_written`,
  [CONTRACT],
  async () => {
    const w = await copilotWorld();
    try {
      await kindsOn("copilot", (s) => playCopilot(w, s));
    } finally {
      await removeHostWorld(w);
    }
  },
);

hostScenario(
  `kinds 3: Codex CLI (setup --codex): check_passed_after_last_edit (${VERDICT_RUNS} runs), test_first, file_written`,
  [CONTRACT],
  async () => {
    const w = await codexWorld();
    try {
      await kindsOn("codex", (s) => playCodex(w, s));
    } finally {
      await removeCodexWorld(w);
    }
  },
);

hostScenario(
  "kinds 4: Claude Code (plugin): an item with hold: 2 blocks twice, then the stop goes through as a miss",
  [CONTRACT],
  async () => {
    const w = await claudeWorld();
    try {
      const p = await playClaude(w, HELD_TWICE);
      assert.equal(p.blocks.length, 2, JSON.stringify(p));
      assert.match(p.blocks[0], /This blocks up to 2 times \(block 1 of 2\)\./);
      assert.match(p.blocks[1], /\(block 2 of 2\)\./);
      assert.deepEqual(p.outcomes, ["miss"], JSON.stringify(p));
      assert.deepEqual(p.blocksRecorded, [2]);
    } finally {
      await removeHostWorld(w);
    }
  },
);

/** The rules of a Claude Code session whose foreground sub-agent loads `verify` and edits. */
function subagentRules(project: string, fixAfterBlock: boolean): Rule[] {
  const tool = (id: string, name: string, input: Record<string, unknown>) => ({
    type: "tool_use" as const,
    id,
    name,
    input,
  });
  const afterBlock: Rule[] = fixAfterBlock
    ? [
      {
        label: "sub: after the block, fix",
        when: { any_contains: "SubagentStop hook blocking error" },
        blocks: [
          tool("toolu_sw2", "Write", { file_path: join(project, "fix.txt"), content: "x\n" }),
        ],
        stop: "tool_use",
      },
      {
        label: "sub: test again",
        when: { last_user_contains: "toolu_sw2" },
        blocks: [tool("toolu_sb2", "Bash", { command: "bash ./test.sh", description: "Test" })],
        stop: "tool_use",
      },
      {
        label: "sub: done, passing",
        when: { last_user_contains: "toolu_sb2" },
        blocks: [{ type: "text", text: "SUB-DONE-PASSING the tests pass" }],
      },
    ]
    : [{
      label: "sub: after the block, stop again unmet",
      when: { any_contains: "SubagentStop hook blocking error" },
      blocks: [{ type: "text", text: "SUB-DONE-AGAIN it is fine" }],
    }];
  return [
    {
      label: "main: dispatch the sub-agent in the foreground",
      when: { last_user_contains: "verify the cart in a sub-agent" },
      blocks: [tool("toolu_d1", "Agent", {
        description: "verify the cart",
        prompt: "SUBTASK verify the cart total",
        subagent_type: "test-runner",
        run_in_background: false,
      })],
      stop: "tool_use",
    },
    {
      label: "sub: load the skill",
      when: { last_user_contains: "SUBTASK" },
      blocks: [tool("toolu_ss1", "Skill", { skill: "verify" })],
      stop: "tool_use",
    },
    {
      label: "sub: edit",
      when: { last_user_contains: "Launching skill: verify" },
      blocks: [tool("toolu_sw1", "Write", { file_path: join(project, "app.txt"), content: "x\n" })],
      stop: "tool_use",
    },
    {
      label: "sub: test, failing",
      when: { last_user_contains: "toolu_sw1" },
      blocks: [tool("toolu_sb1", "Bash", { command: "bash ./test.sh", description: "Test" })],
      stop: "tool_use",
    },
    {
      label: "sub: stop, unmet",
      when: { last_user_contains: "toolu_sb1" },
      blocks: [{ type: "text", text: "SUB-DONE the cart is verified" }],
    },
    ...afterBlock,
    {
      label: "main: done",
      when: { last_user_contains: "toolu_d1" },
      blocks: [{ type: "text", text: "MAIN-DONE the sub-agent verified the cart" }],
    },
  ];
}

hostScenario(
  "kinds 5: Claude Code (plugin): a skill loaded by a sub-agent is checked at its SubagentStop: blocked once, then met_after_block or miss",
  [CONTRACT],
  async () => {
    const w = await claudeWorld();
    await installFixtures(w.claudeDir, { agents: ["test-runner"] });
    try {
      for (const fix of [true, false]) {
        await resetProject(w.project);
        const r = await runClaude(w, {
          prompt: "verify the cart in a sub-agent",
          rules: subagentRules(w.project, fix),
          install: "plugin",
          args: ["--allowedTools", "Bash,Write,Skill,Agent"],
        });
        assert.equal(r.run.timedOut, false, "the client was killed on timeout");
        assert.equal(r.run.code, 0, `the client failed: ${r.run.stderr.slice(0, 500)}`);
        const blocks = r.turns
          .map((t) => JSON.stringify(t.body?.messages ?? []))
          .filter((t) => t.includes("SubagentStop hook blocking error"));
        assert.ok(blocks.length >= 1, "the sub-agent's stop was blocked");
        assert.match(
          blocks[0],
          /SKILL_CONTRACT_UNMET verify \(contract v1\): missing checks-pass\./,
        );
        const rec = await readRecord(pluginStateRoot(w), r.sessionId) as {
          runs?: { agent?: string; blocks?: number; key?: string }[];
        } | undefined;
        const want = fix ? "met_after_block" : "miss";
        assert.deepEqual(outcomesIn(rec), [want], JSON.stringify(rec));
        const run = rec?.runs?.[0];
        assert.ok(run?.agent, "the run is the sub-agent's");
        assert.equal(run?.blocks, 1, "blocked once");
        assert.match(String(r.result.result), /MAIN-DONE/, "the main session went on and stopped");
      }
    } finally {
      await removeHostWorld(w);
    }
  },
);

/** A sub-agent that loads `verify`, edits, fails its test, is blocked, fixes, passes. */
const SUB_STEPS: Step[] = [
  { write: "app.txt", content: "x" },
  { shell: "bash ./test.sh", prints: "TEST-FAIL" },
  { say: "SUB-DONE the cart is verified" },
  { on: "SKILL_CONTRACT_UNMET", write: "fix.txt", content: "x" },
  { shell: "bash ./test.sh", prints: "TEST-PASS" },
  { say: "SUB-DONE-PASSING the tests pass" },
];

/** The sub-agent's run recorded for the session: one run of the sub-agent, blocked once. */
function assertSubagentRun(rec: unknown, want: string): void {
  const runs = (rec as { runs?: { agent?: string; blocks?: number }[] } | undefined)?.runs ?? [];
  assert.deepEqual(outcomesIn(rec), [want], JSON.stringify(rec));
  assert.ok(runs[0]?.agent, `the run is the sub-agent's: ${JSON.stringify(rec)}`);
  assert.equal(runs[0]?.blocks, 1, "blocked once");
}

hostScenario(
  "kinds 6: Copilot CLI: a skill loaded by a sub-agent (task) is checked at its subagentStop: blocked once, then met_after_block",
  [CONTRACT],
  async () => {
    const w = await copilotWorld();
    await installFixtures(w.copilotHome, { agents: ["test-runner"] });
    try {
      await resetProject(w.project);
      const prompt = "verify the cart in a sub-agent";
      const sub: Session = { prompt: "SUBTASK verify the cart", skill: "verify", steps: SUB_STEPS };
      const rules: Rule[] = [
        {
          label: "main: dispatch the sub-agent",
          when: { last_user_contains: prompt },
          blocks: [{
            type: "tool_use",
            id: "toolu_d1",
            name: "task",
            input: {
              description: "verify the cart",
              prompt: sub.prompt,
              agent_type: "test-runner",
              name: "verifier",
            },
          }],
          stop: "tool_use",
        },
        ...messagesRules(sub, "copilot", w.project),
        {
          label: "main: done",
          when: { last_user_contains: "toolu_d1" },
          blocks: [{ type: "text", text: "MAIN-DONE" }],
        },
      ];
      const r = await runCopilot(w, { prompt, rules, env: { SKILLGATE_STATE_ROOT: w.stateRoot } });
      assert.equal(r.run.code, 0, r.run.stderr.slice(0, 500));
      const blocks = r.turns.map((t) => lastUserText(t.body)).filter((t) =>
        t.includes("SKILL_CONTRACT_UNMET")
      );
      assert.equal(blocks.length, 1, "the sub-agent was blocked once");
      assert.match(blocks[0], /SKILL_CONTRACT_UNMET verify \(contract v1\): missing checks-pass\./);
      const start = r.events.find((e) => e.type === "session.start");
      const sid = (start?.data as Record<string, unknown>).sessionId as string;
      assertSubagentRun(await readRecord(w.stateRoot, sid), "met_after_block");
    } finally {
      await removeHostWorld(w);
    }
  },
);

hostScenario(
  "kinds 7: Codex CLI: a skill loaded by a sub-agent (spawn_agent) is checked at its SubagentStop: blocked once, then met_after_block",
  [CONTRACT],
  async () => {
    const w = await makeCodexWorld("kinds-sub", { skills: SKILLS, agents: ["prompt-writer"] });
    try {
      const setup = await codexSkillgate(w, ["setup", "--codex"]);
      assert.equal(setup.code, 0, setup.stdout + setup.stderr);
      await resetProject(w.project);
      const sub: Session = { prompt: "SUBTASK verify the cart", skill: "verify", steps: SUB_STEPS };
      const rules: ResponsesRule[] = [
        {
          label: "main: spawn the sub-agent",
          when: { last_user_contains: "verify the cart in a sub-agent" },
          items: [{
            type: "function_call",
            namespace: "multi_agent_v1",
            name: "spawn_agent",
            arguments: { agent_type: "prompt-writer", message: sub.prompt },
            call_id: "call_spawn",
          }],
        },
        ...codexRules(sub),
        {
          label: "main: wait for the sub-agent",
          when: { last_user_contains: "agent_id" },
          items: [{
            type: "function_call",
            name: "exec_command",
            arguments: { cmd: "sleep 8; echo WAITED" },
            call_id: "call_wait",
          }],
        },
        {
          label: "main: done",
          when: { last_user_contains: "WAITED" },
          items: [{ type: "text", text: "MAIN-DONE" }],
        },
      ];
      const r = await runCodex(w, { prompt: "verify the cart in a sub-agent", rules });
      assert.equal(r.run.code, 0, r.run.stderr.slice(0, 800));
      const blocks = r.turns.map((t) => lastInputText(t.body)).filter((t) =>
        t.includes("SKILL_CONTRACT_UNMET")
      );
      assert.equal(blocks.length, 1, "the sub-agent was blocked once");
      assert.match(blocks[0], /hook_run_id="subagent-stop:/, "by its SubagentStop");
      assertSubagentRun(await readRecord(w.stateRoot, r.sessionId), "met_after_block");
    } finally {
      await removeCodexWorld(w);
    }
  },
);

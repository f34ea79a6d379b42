/**
 * Host scenarios on the real Gemini CLI (0.61.0, npm `@google/gemini-cli`), each session played
 * against the Gemini API stand-in on loopback (`gemini_stand_in.ts`), skillgate installed with
 * `skillgate setup --gemini` into a `settings.json` that already holds the user's own settings.
 *
 * Run with `deno task test:host`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { assertReportRechecks, hostScenario, outcomesIn, readLog, readRecord } from "./harness.ts";
import {
  geminiSkillgate,
  type GeminiWorld,
  loadGeminiScript,
  makeGeminiWorld,
  removeGeminiWorld,
  runGemini,
  USER_HOOK,
  userSettings,
  userSettingsText,
} from "./gemini_harness.ts";
import { parseJsonc } from "../../lib/host/json_edit.ts";
import { contentsOf, flattenGemini, lastUserContent } from "./gemini_stand_in.ts";

/** How many times each verdict scenario runs per test run (the host is not deterministic). */
const VERDICT_RUNS = 3;

const NEEDS = [
  "hooks/dist/skill_route.js",
  "hooks/dist/skill_contract.js",
  "hooks/dist/skill_redirect.js",
];

function scenario(name: string, fn: () => Promise<void>): void {
  hostScenario(name, NEEDS, fn);
}

function assertCompleted(s: { run: { code: number; timedOut: boolean; stderr: string } }): void {
  assert.equal(s.run.timedOut, false, "the client was killed on timeout");
  assert.equal(s.run.code, 0, `the client failed: ${s.run.stderr.slice(0, 800)}`);
}

async function settings(w: GeminiWorld): Promise<Record<string, unknown>> {
  return parseJsonc(await Deno.readTextFile(join(w.geminiDir, "settings.json"))) as Record<
    string,
    unknown
  >;
}

/** The user's own settings are all still there, their hook included. */
async function assertUserSettingsKept(w: GeminiWorld): Promise<void> {
  const now = await settings(w);
  const mine = userSettings();
  for (const key of ["security", "privacy", "telemetry", "general"]) {
    assert.deepEqual(now[key], mine[key], `the user's ${key} settings are kept`);
  }
  const hooks = now.hooks as Record<string, { hooks: unknown[] }[]>;
  assert.deepEqual(hooks.SessionStart, [{ hooks: [USER_HOOK] }], "the user's own hook is kept");
}

async function setUp(w: GeminiWorld, extra: string[] = []): Promise<void> {
  const setup = await geminiSkillgate(w, ["setup", "--gemini", ...extra]);
  assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  await assertUserSettingsKept(w);
}

const ROUTE_LINE = "skillgate skill routing";

/** How many times a text appears over a request's contents. */
function count(body: Record<string, unknown> | null, needle: string): number {
  return flattenGemini(contentsOf(body)).split(needle).length - 1;
}

/**
 * One investigate run (`contract_met_after_block`): blocked exactly once naming debug-report and
 * repro-after-fix, the routing line once, recorded `met_after_block`.
 */
async function contractRun(w: GeminiWorld, i: number): Promise<string> {
  // Each run edits the file afresh: a replace that finds nothing to replace fails, and a
  // failed edit is no edit (so no check would be due after it).
  await Deno.writeTextFile(join(w.project, "auth.txt"), "old line\n");
  const s = await runGemini(w, {
    prompt: "the login test fails, please fix this bug",
    rules: await loadGeminiScript("contract_met_after_block"),
  });
  assertCompleted(s);
  const blocked = s.turns.filter((t) => lastUserContent(t.body).includes("SKILL_CONTRACT_UNMET"));
  assert.equal(blocked.length, 1, `run ${i}: blocked exactly once`);
  const text = lastUserContent(blocked[0].body);
  assert.match(text, /SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);
  assert.match(text, /debug-report/, `run ${i}: the block names debug-report`);
  assert.match(text, /repro-after-fix/, `run ${i}: the block names repro-after-fix`);
  const last = s.turns.at(-1)!;
  assert.equal(count(last.body, ROUTE_LINE), 1, `run ${i}: one routing line in the session`);
  assert.match(
    flattenGemini(contentsOf(s.turns[0].body)),
    /<hook_context>skillgate skill routing[^<]*\/investigate/,
    `run ${i}: the routing line names the skill`,
  );
  const rec = await readRecord(w.stateRoot, s.sessionId);
  assert.ok(rec, `run ${i}: a record was written`);
  assert.deepEqual(outcomesIn(rec), ["met_after_block"], `run ${i}: ${JSON.stringify(rec)}`);
  if (Deno.env.get("SKILLGATE_GEMINI_FIXTURE_DIR") && i === 1) {
    await Deno.copyFile(
      s.chatPath,
      join(Deno.env.get("SKILLGATE_GEMINI_FIXTURE_DIR")!, "host_met_after_block.jsonl"),
    );
  }
  return s.sessionId;
}

/**
 * One run of `activate_skill` with an agent's name (`redirect`): one block naming invoke_agent and
 * agent_name, not routed, and the model invokes the agent.
 */
async function redirectRun(w: GeminiWorld, i: number): Promise<void> {
  const s = await runGemini(w, {
    prompt: "please write a prompt for release notes",
    rules: await loadGeminiScript("redirect"),
  });
  assertCompleted(s);
  const blocks = s.turns.filter((t) =>
    lastUserContent(t.body).includes("is an agent, not a skill")
  );
  assert.equal(blocks.length, 1, `run ${i}: one block`);
  const text = lastUserContent(blocks[0].body);
  assert.match(text, /"prompt-writer" is an agent, not a skill/);
  assert.match(text, /invoke_agent/, `run ${i}: the block names invoke_agent`);
  assert.match(text, /agent_name "prompt-writer"/, `run ${i}: and agent_name`);
  assert.equal(count(s.turns.at(-1)!.body, ROUTE_LINE), 0, "the block text is not routed");
  const invoked = s.events.some((e) => e.type === "tool_use" && e.tool_name === "invoke_agent");
  assert.ok(invoked, `run ${i}: the model followed the reason and invoked the agent`);
}

scenario(
  `gemini 1: contracts and routing, ${VERDICT_RUNS} runs: an investigate run (activate_skill, a replace edit, no report, no test) is blocked once at AfterAgent naming debug-report and repro-after-fix, then met_after_block; the routing line reaches the model once per prompt`,
  async () => {
    const w = await makeGeminiWorld("contract", { skills: ["investigate"] });
    try {
      await setUp(w, ["--skill-routing"]);
      const hooks = (await settings(w)).hooks as Record<string, { matcher?: string }[]>;
      assert.deepEqual(
        Object.keys(hooks).sort(),
        ["AfterAgent", "BeforeAgent", "BeforeTool", "SessionStart"],
      );
      const doctor = await geminiSkillgate(w, ["doctor"]);
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      const sessions: string[] = [];
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        sessions.push(await contractRun(w, i));
      }
      await assertReportRechecks(
        w.stateRoot,
        sessions,
        () => geminiSkillgate(w, ["contract", "report", "--json"]),
      );
      const log = await readLog(w.stateRoot, "skill-contract.log");
      assert.equal(log.filter((l) => /outcome=block/.test(l)).length, VERDICT_RUNS, log.join("\n"));
      assert.ok(!log.some((l) => /transcript-behind/.test(l)), log.join("\n"));
      const route = await readLog(w.stateRoot, "skill-route.log");
      assert.equal(
        route.filter((l) => /outcome=routed/.test(l)).length,
        VERDICT_RUNS,
        route.join("\n"),
      );
      const waits = log.map((l) => /waited=(\d+)/.exec(l)?.[1]).filter((x) => x !== undefined);
      console.log(
        `gemini 1: ${log.length} contract decisions, ${waits.length} waited for the chat ` +
          `(${waits.join(", ") || "none"} ms)`,
      );
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

scenario(
  `gemini 2: redirect, ${VERDICT_RUNS} runs: activate_skill with an agent's name is blocked once at AfterAgent naming invoke_agent and agent_name; the model invokes the agent and the turn ends`,
  async () => {
    const w = await makeGeminiWorld("redirect", {
      skills: ["investigate"],
      agents: ["prompt-writer"],
    });
    try {
      await setUp(w, ["--skill-routing"]);
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        await redirectRun(w, i);
      }
      const log = await readLog(w.stateRoot, "skill-redirect.log");
      const blocks = log.filter((l) => /outcome=block/.test(l) && /host=gemini/.test(l));
      assert.equal(blocks.length, VERDICT_RUNS, log.join("\n"));
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

scenario(
  "gemini 3: setup --gemini --project writes .gemini/settings.json and doctor reports whether Gemini trusts the folder; --uninstall and skillgate uninstall take back only skillgate's hooks",
  async () => {
    const w = await makeGeminiWorld("install");
    try {
      const proj = await geminiSkillgate(w, ["setup", "--gemini", "--project"]);
      assert.equal(proj.code, 0, proj.stdout + proj.stderr);
      const projectFile = join(w.project, ".gemini", "settings.json");
      const written = JSON.parse(await Deno.readTextFile(projectFile));
      const item = written.hooks.AfterAgent[0].hooks[0];
      assert.equal(item.name, "skillgate-skill-contract");
      assert.ok(item.timeout >= 1000, "the timeout is in milliseconds");
      const doctor = await geminiSkillgate(w, ["doctor"]);
      assert.match(doctor.stdout, /not a trusted folder/, doctor.stdout);
      await Deno.writeTextFile(
        join(w.geminiDir, "trustedFolders.json"),
        JSON.stringify({ [w.project]: "TRUST_FOLDER" }),
      );
      const doctor2 = await geminiSkillgate(w, ["doctor"]);
      assert.match(doctor2.stdout, /warns once/, doctor2.stdout);
      await setUp(w);
      const gone = await geminiSkillgate(w, ["setup", "--gemini", "--uninstall"]);
      assert.equal(gone.code, 0, gone.stdout + gone.stderr);
      // The user's file with its comments, byte for byte.
      const back = await Deno.readTextFile(join(w.geminiDir, "settings.json"));
      assert.equal(back, userSettingsText());
      const all = await geminiSkillgate(w, ["uninstall"]);
      assert.equal(all.code, 0, all.stdout + all.stderr);
      const left = await Deno.readTextFile(projectFile).catch(() => "{}");
      assert.doesNotMatch(left, /skillgate/, left);
      await assertUserSettingsKept(w);
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

scenario(
  `gemini 4: an extension's skill and agent, ${VERDICT_RUNS} runs each: the investigate skill of an installed extension is blocked once then met_after_block; activate_skill with the extension agent's name is blocked once naming invoke_agent`,
  async () => {
    const w = await makeGeminiWorld("extension", {
      skills: ["investigate"],
      agents: ["prompt-writer"],
      place: "extension",
    });
    try {
      await setUp(w, ["--skill-routing"]);
      for (let i = 1; i <= VERDICT_RUNS; i++) await contractRun(w, i);
      for (let i = 1; i <= VERDICT_RUNS; i++) await redirectRun(w, i);
      const redirects = await readLog(w.stateRoot, "skill-redirect.log");
      assert.equal(
        redirects.filter((l) => /outcome=block/.test(l)).length,
        VERDICT_RUNS,
        redirects.join("\n"),
      );
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

scenario(
  `gemini 5: GEMINI_CLI_HOME, ${VERDICT_RUNS} runs: a skill in $GEMINI_CLI_HOME/.agents/skills (not under HOME) is routed, blocked once, then met_after_block`,
  async () => {
    const w = await makeGeminiWorld("cli-home", { skills: ["investigate"], place: "cli-home" });
    try {
      await setUp(w, ["--skill-routing"]);
      for (let i = 1; i <= VERDICT_RUNS; i++) await contractRun(w, i);
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

scenario(
  `gemini 6: a project's agent, ${VERDICT_RUNS} runs acknowledged, 1 not: activate_skill with its name is blocked once naming invoke_agent once Gemini CLI's acknowledgements name it, and passes while they do not`,
  async () => {
    const w = await makeGeminiWorld("project-agents", {
      skills: ["investigate"],
      agents: ["prompt-writer"],
      place: "project-agents",
    });
    try {
      await setUp(w, ["--skill-routing"]);
      // What Gemini CLI records when the user acknowledges the agent: its file's SHA-256.
      const file = join(w.project, ".gemini", "agents", "prompt-writer.md");
      const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(file));
      const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      const record = join(w.geminiDir, "acknowledgments", "agents.json");
      await Deno.mkdir(join(w.geminiDir, "acknowledgments"), { recursive: true });
      await Deno.writeTextFile(
        record,
        JSON.stringify({ [await Deno.realPath(w.project)]: { "prompt-writer": hex } }),
      );
      for (let i = 1; i <= VERDICT_RUNS; i++) await redirectRun(w, i);
      // Not acknowledged: the client has no such agent, and neither has the redirect.
      await Deno.writeTextFile(record, "{}");
      const s = await runGemini(w, {
        prompt: "please write a prompt for release notes",
        rules: await loadGeminiScript("redirect"),
      });
      assertCompleted(s);
      const blocked = s.turns.some((t) =>
        lastUserContent(t.body).includes("is an agent, not a skill")
      );
      assert.equal(blocked, false, "an unacknowledged agent is not redirected to");
      const log = await readLog(w.stateRoot, "skill-redirect.log");
      assert.equal(log.filter((l) => /outcome=block/.test(l)).length, VERDICT_RUNS, log.join("\n"));
    } finally {
      await removeGeminiWorld(w);
    }
  },
);

/**
 * Host scenarios on the real Codex CLI (0.169.0, npm `@openai/codex`), each session played against
 * the Responses API stand-in on loopback, skillgate installed with `skillgate setup --codex` (its
 * hooks trusted through the client's own app-server) and nothing bypassed.
 *
 * Run with `deno task test:host`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { assertReportRechecks, hostScenario, outcomesIn, readLog, readRecord } from "./harness.ts";
import { listCodexHooks, trustCodexHooks } from "../../lib/install/codex_trust.ts";
import {
  codexBin,
  codexSkillgate,
  type CodexWorld,
  loadCodexScript,
  makeCodexWorld,
  removeCodexWorld,
  runCodex,
} from "./codex_harness.ts";
import { inputMessages, lastInputText, responsesText } from "./responses_stand_in.ts";

/** How many times the verdict-critical scenario runs per test run (the host is not deterministic). */
const VERDICT_RUNS = 3;

const NEEDS = [
  "hooks/dist/skill_route.js",
  "hooks/dist/skill_contract.js",
  "hooks/dist/skill_redirect.js",
];

/** Registers a scenario that needs {@link NEEDS} (see `hostScenario`). */
function scenario(name: string, fn: () => Promise<void>): void {
  hostScenario(name, NEEDS, fn);
}

function assertCompleted(s: { run: { code: number; timedOut: boolean; stderr: string } }): void {
  assert.equal(s.run.timedOut, false, "the client was killed on timeout");
  assert.equal(s.run.code, 0, `the client failed: ${s.run.stderr.slice(0, 800)}`);
}

async function setUp(w: CodexWorld, extra: string[] = []): Promise<string> {
  const setup = await codexSkillgate(w, ["setup", "--codex", ...extra]);
  assert.equal(setup.code, 0, setup.stdout + setup.stderr);
  assert.match(
    setup.stdout,
    /hook\(s\) trusted in Codex CLI through codex app-server/,
    setup.stdout,
  );
  return setup.stdout;
}

const ROUTE_LINE = "skillgate skill routing";

scenario(
  "codex 1: setup --codex without the client leaves the hooks untrusted: doctor says so, Codex skips them; trusted, they run and the routed context reaches the model",
  async () => {
    const w = await makeCodexWorld("route", { skills: ["investigate", "release-check"] });
    try {
      const first = await codexSkillgate(w, ["setup", "--codex", "--skill-routing"], {
        codexFindable: false,
      });
      assert.equal(first.code, 0, first.stdout + first.stderr);
      assert.match(first.stderr, /Codex CLI skips hooks until they are trusted/, first.stderr);
      const hooks = JSON.parse(await Deno.readTextFile(join(w.codexHome, "hooks.json")));
      assert.deepEqual(Object.keys(hooks.hooks).sort(), [
        "PreToolUse",
        "Stop",
        "SubagentStop",
        "UserPromptSubmit",
      ]);
      assert.equal(hooks.hooks.PreToolUse[0].matcher, "Bash", "the redirect watches shell reads");

      const doctor = await codexSkillgate(w, ["doctor"]);
      assert.match(
        doctor.stdout,
        /skill-route \(UserPromptSubmit\) in .*hooks\.json: .*; untrusted in Codex CLI, which skips it/,
        doctor.stdout,
      );
      assert.match(doctor.stdout, /skill-contract \(Stop\) .*untrusted/, doctor.stdout);

      const rules = await loadCodexScript("routing");
      const prompt = "the login test is failing, please fix this bug";
      const skipped = await runCodex(w, { prompt, rules });
      assertCompleted(skipped);
      assert.ok(skipped.turns.length >= 1, "no model request");
      assert.ok(
        !responsesText(skipped.turns[0].body).includes(ROUTE_LINE),
        "an untrusted hook does not run",
      );

      await setUp(w, ["--skill-routing"]);
      const doctor2 = await codexSkillgate(w, ["doctor"]);
      assert.match(
        doctor2.stdout,
        /skill-route \(UserPromptSubmit\) in .*: .*; trusted by Codex CLI/,
        doctor2.stdout,
      );
      assert.doesNotMatch(doctor2.stdout, /untrusted/, doctor2.stdout);

      const s = await runCodex(w, { prompt, rules });
      assertCompleted(s);
      const dev = inputMessages(s.turns[0].body, "developer").filter((t) => t.includes(ROUTE_LINE));
      assert.equal(dev.length, 1, "one developer message carries skillgate's line");
      assert.match(dev[0], /\/investigate/, "the line names the skill");
      const log = await readLog(w.stateRoot, "skill-route.log");
      assert.ok(log.some((l) => /outcome=routed/.test(l)), log.join("\n"));

      const gone = await codexSkillgate(w, ["setup", "--codex", "--uninstall"]);
      assert.equal(gone.code, 0, gone.stdout + gone.stderr);
      const left = await Deno.readTextFile(join(w.codexHome, "hooks.json")).catch(() => "{}");
      assert.ok(!left.includes("skillgate") && !left.includes("hooks/dist"), left);
      // Their trust entries went with them, through the client.
      assert.match(gone.stdout, /removed the hook trust entry .*hooks\.json:stop:0:0/, gone.stdout);
      const config = await Deno.readTextFile(join(w.codexHome, "config.toml"));
      assert.doesNotMatch(config, /hooks\.state/, config);
      const doctor3 = await codexSkillgate(w, ["doctor"]);
      assert.match(doctor3.stdout, /no skillgate hooks are registered/, doctor3.stdout);
    } finally {
      await removeCodexWorld(w);
    }
  },
);

scenario(
  `codex 2: contracts, ${VERDICT_RUNS} runs: an investigate run that edits and stops without the report or a test is blocked once with the block text, then met_after_block`,
  async () => {
    const w = await makeCodexWorld("contract", { skills: ["investigate"] });
    try {
      await setUp(w);
      const sessions: string[] = [];
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        const s = await runCodex(w, {
          prompt: "the login test fails, look into it",
          rules: await loadCodexScript("contract_met_after_block"),
        });
        assertCompleted(s);
        sessions.push(s.sessionId);
        const blocked = s.turns.filter((t) =>
          lastInputText(t.body).includes("SKILL_CONTRACT_UNMET")
        );
        assert.equal(blocked.length, 1, `run ${i}: blocked exactly once`);
        const text = lastInputText(blocked[0].body);
        assert.match(
          text,
          /<hook_prompt[^>]*>SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /,
        );
        assert.match(text, /debug-report/, `run ${i}: the block names debug-report`);
        assert.match(text, /repro-after-fix/, `run ${i}: the block names repro-after-fix`);
        const rec = await readRecord(w.stateRoot, s.sessionId);
        assert.ok(rec, `run ${i}: a record was written`);
        assert.deepEqual(outcomesIn(rec), ["met_after_block"], `run ${i}: ${JSON.stringify(rec)}`);
        if (Deno.env.get("SKILLGATE_CODEX_FIXTURE_DIR") && i === 1) {
          await Deno.copyFile(
            s.rolloutPath,
            join(Deno.env.get("SKILLGATE_CODEX_FIXTURE_DIR")!, "contract_met_after_block.jsonl"),
          );
        }
      }
      // contract report reads these sessions, and re-checks one against its real rollout (in
      // $CODEX_HOME/sessions, with Codex's reader and the project's .agents/skills): its record is
      // set back to the first stop's "blocked", as if the second stop had never been recorded.
      await assertReportRechecks(
        w.stateRoot,
        sessions,
        () => codexSkillgate(w, ["contract", "report", "--json"]),
      );
      const log = await readLog(w.stateRoot, "skill-contract.log");
      assert.equal(log.filter((l) => /outcome=block/.test(l)).length, VERDICT_RUNS, log.join("\n"));
      assert.ok(!log.some((l) => /transcript-behind/.test(l)), log.join("\n"));
      const waits = log.map((l) => /waited=(\d+)/.exec(l)?.[1]).filter((x) => x !== undefined);
      console.log(
        `codex 2: ${log.length} contract decisions, ${waits.length} waited for the rollout ` +
          `(${waits.join(", ") || "none"} ms)`,
      );
    } finally {
      await removeCodexWorld(w);
    }
  },
);

scenario(
  "codex 3: redirect: a shell read of <skills root>/<agent>/SKILL.md is denied with guidance to spawn_agent, the model spawns the agent, and routing skips the subagent's task",
  async () => {
    const w = await makeCodexWorld("redirect", {
      skills: ["investigate"],
      agents: ["prompt-writer"],
    });
    try {
      await setUp(w, ["--skill-routing"]);
      const s = await runCodex(w, {
        prompt: "please write a prompt for release notes",
        rules: await loadCodexScript("redirect"),
      });
      assertCompleted(s);
      const after = s.turns.find((t) =>
        lastInputText(t.body).includes("Command blocked by PreToolUse hook")
      );
      assert.ok(after, "the model got the denied call's output");
      const denied = lastInputText(after.body);
      assert.match(denied, /"prompt-writer" is an agent, not a skill/);
      assert.match(denied, /spawn_agent/, "the reason names Codex's spawn_agent");
      assert.match(denied, /agent_type "prompt-writer"/);
      const spawned = s.rollout.some((r) => {
        const p = r.payload as Record<string, unknown> | undefined;
        return r.type === "response_item" && p?.type === "function_call" &&
          p.name === "spawn_agent";
      });
      assert.ok(spawned, "the model followed the reason and spawned the agent");
      const log = await readLog(w.stateRoot, "skill-redirect.log");
      assert.ok(log.some((l) => /outcome=deny/.test(l) && /host=codex/.test(l)), log.join("\n"));
      // Codex sends the subagent's task (which reads like a bug fix) as a UserPromptSubmit with
      // agent_id: routing leaves it alone.
      const sub = s.turns.find((t) => lastInputText(t.body).includes("SUBAGENT-TASK"));
      assert.ok(sub, "the subagent ran");
      assert.ok(!responsesText(sub.body).includes(ROUTE_LINE), "no routing line for the subagent");
      const route = await readLog(w.stateRoot, "skill-route.log");
      assert.equal(route.filter((l) => /reason=subagent/.test(l)).length, 1, route.join("\n"));
      assert.ok(!route.some((l) => /outcome=routed/.test(l)), route.join("\n"));
      if (Deno.env.get("SKILLGATE_CODEX_FIXTURE_DIR")) {
        await Deno.copyFile(
          s.rolloutPath,
          join(Deno.env.get("SKILLGATE_CODEX_FIXTURE_DIR")!, "redirect_spawn.jsonl"),
        );
      }
    } finally {
      await removeCodexWorld(w);
    }
  },
);

scenario(
  "codex 4: skillgate uninstall takes back skillgate's hooks and their trust entries in config.toml, through the client; the user's hook and its trust stay",
  async () => {
    const w = await makeCodexWorld("uninstall");
    try {
      const hooksFile = join(w.codexHome, "hooks.json");
      await Deno.writeTextFile(
        hooksFile,
        JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: "command", command: "echo user-stop" }] }] },
        }),
      );
      await setUp(w);
      const env = { HOME: w.home, PATH: Deno.env.get("PATH") ?? "", CODEX_HOME: w.codexHome };
      const opts = { bin: await codexBin(), env, cwd: w.project };
      // The user trusts their own hook as the client's review would.
      await trustCodexHooks(opts, (h) => h.command === "echo user-stop");
      const before = await Deno.readTextFile(join(w.codexHome, "config.toml"));
      const keys = [...before.matchAll(/^\[hooks\.state\."([^"]+)"\]$/gm)].map((m) => m[1]);
      assert.deepEqual(keys.sort(), [
        `${hooksFile}:pre_tool_use:0:0`,
        `${hooksFile}:stop:0:0`,
        `${hooksFile}:stop:1:0`,
        `${hooksFile}:subagent_stop:0:0`,
      ]);

      const gone = await codexSkillgate(w, ["uninstall"]);
      assert.equal(gone.code, 0, gone.stdout + gone.stderr);
      for (
        const key of [
          `${hooksFile}:pre_tool_use:0:0`,
          `${hooksFile}:stop:1:0`,
          `${hooksFile}:subagent_stop:0:0`,
        ]
      ) {
        assert.ok(
          gone.stdout.includes(`removed: the hook trust entry ${key} from ${w.codexHome}`),
          gone.stdout,
        );
      }
      const after = await Deno.readTextFile(join(w.codexHome, "config.toml"));
      const left = [...after.matchAll(/^\[hooks\.state\."([^"]+)"\]$/gm)].map((m) => m[1]);
      assert.deepEqual(left, [`${hooksFile}:stop:0:0`], after);
      // The rest of the user's config.toml is as it was.
      assert.ok(after.startsWith(before.slice(0, before.indexOf("[hooks.state"))), after);
      const hooks = await listCodexHooks(opts);
      assert.deepEqual(
        hooks.map((h) => [h.command, h.trustStatus]),
        [["echo user-stop", "trusted"]],
      );
    } finally {
      await removeCodexWorld(w);
    }
  },
);

/**
 * Host scenarios: skillgate inside the real Claude Code (2.1.328) and Copilot CLI (1.0.102)
 * clients, each session played against the scripted stand-in on loopback.
 *
 * Run with `deno task test:host`; the plain `deno task test` ignores `tests/host/`, so it never
 * needs the clients. A scenario whose hook module has not landed is registered as ignored (not
 * run), never as passed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  attachments,
  claudeCommand,
  type ClaudeSession,
  clients,
  countTurnsWhoseLastUserHas,
  firstTurnWith,
  hookStderrLines,
  hostScenario,
  type HostWorld,
  installedPluginStateRoot,
  installFixtures,
  installFromMarketplace,
  loadScript,
  makeHostWorld,
  outcomesIn,
  pluginStateRoot,
  readLog,
  readRecord,
  removeHostWorld,
  REPO,
  runClaude,
  runCopilot,
  runSkillgate,
} from "./harness.ts";
import { lastUserText, requestText } from "./stand_in.ts";
import { runClient } from "./clients.ts";

const ROUTE = "hooks/dist/skill_route.js";
const CONTRACT = "hooks/dist/skill_contract.js";
const REDIRECT = "hooks/dist/skill_redirect.js";
const CLI = "cli.ts";

/** Registers a scenario (see `hostScenario`). */
const scenario = hostScenario;

async function world(label: string): Promise<HostWorld> {
  const w = await makeHostWorld(label);
  await installFixtures(w.claudeDir, {
    skills: ["investigate", "release-check"],
    agents: ["prompt-writer", "test-runner"],
  });
  await Deno.writeTextFile(join(w.project, "test.sh"), "echo PASS\n");
  return w;
}

function assertCompleted(s: { run: { code: number; timedOut: boolean; stderr: string } }): void {
  assert.equal(s.run.timedOut, false, "the client was killed on timeout");
  assert.equal(s.run.code, 0, `the client failed: ${s.run.stderr.slice(0, 500)}`);
}

const ROUTE_LINE = "skillgate skill routing";

/** The one Stop hook feedback the model got in a session (there must be exactly one). */
function oneStopFeedback(s: ClaudeSession, what: string): string {
  assert.equal(countTurnsWhoseLastUserHas(s.turns, "Stop hook feedback"), 1, what);
  return lastUserText(
    s.turns.find((t) => lastUserText(t.body).includes("Stop hook feedback"))!.body,
  );
}

// ---------------------------------------------------------------------------------------------

scenario("host 0: claude plugin validate . passes with the real client", [], async () => {
  const { claude } = await clients();
  const tmp = await Deno.makeTempDir({ prefix: "skillgate-host-validate-" });
  try {
    const run = await runClient(claude, ["plugin", "validate", "."], {
      cwd: REPO,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: tmp,
        CLAUDE_CONFIG_DIR: tmp,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      timeoutMs: 60_000,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Validation passed/);
    for (const entry of [ROUTE, CONTRACT, REDIRECT]) {
      assert.ok(run.stdout.includes(`\${CLAUDE_PLUGIN_ROOT}/${entry}`), `validate lists ${entry}`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

scenario(
  "host 1a: routing (plugin): a fitting prompt carries the one line; the task-notification prompt adds none",
  [ROUTE],
  async () => {
    const w = await world("route");
    try {
      const s = await runClaude(w, {
        prompt: "the login test is failing, please fix this bug",
        rules: await loadScript("routing"),
        install: "plugin",
        env: { SKILLGATE_SKILL_ROUTING: "on" },
      });
      assertCompleted(s);
      const first = s.turns[0];
      assert.ok(first, "no model request");
      const text = requestText(first.body);
      assert.ok(
        text.includes(`UserPromptSubmit hook additional context: ${ROUTE_LINE}`),
        "the first model request carries skillgate's line",
      );
      assert.ok(text.includes("/investigate"), "the line names /investigate");
      const ctx = attachments(s.transcript, "hook_additional_context");
      assert.equal(
        ctx.filter((a) => JSON.stringify(a.content).includes(ROUTE_LINE)).length,
        1,
        "exactly one routing line in the transcript (none for the task notification)",
      );
      // The background agent's completion came back as a prompt, and was not routed.
      assert.ok(
        countTurnsWhoseLastUserHas(s.turns, "<task-notification>") >= 1,
        "the task notification reached the model",
      );
      const log = await readLog(pluginStateRoot(w), "skill-route.log");
      assert.ok(log.some((l) => /outcome=routed/.test(l)), log.join("\n"));
      assert.ok(log.some((l) => /reason=host-prompt/.test(l)), log.join("\n"));
      assert.ok(log.every((l) => !l.includes("login test")), "the log holds no prompt text");
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  "host 1b: routing (plugin): a /skill prompt carries nothing",
  [ROUTE],
  async () => {
    const w = await world("route-slash");
    try {
      const s = await runClaude(w, {
        prompt: "/investigate fix this bug",
        rules: await loadScript("routing_slash"),
        install: "plugin",
        env: { SKILLGATE_SKILL_ROUTING: "on" },
      });
      assertCompleted(s);
      assert.ok(s.turns.length >= 1, "no model request");
      for (const t of s.turns) {
        assert.ok(!requestText(t.body).includes(ROUTE_LINE), "a /skill prompt is not routed");
      }
      const log = await readLog(pluginStateRoot(w), "skill-route.log");
      assert.ok(!log.some((l) => /outcome=routed/.test(l)), log.join("\n"));
    } finally {
      await removeHostWorld(w);
    }
  },
);

/** The Stop race is timing-dependent: a verdict scenario runs this many times in a row. */
const VERDICT_RUNS = 6;

/** The waits for a lagging transcript that a hook log shows (`waited=<ms>`). */
function catchUpWaits(log: string[]): number[] {
  return log.flatMap((l) => {
    const m = / waited=(\d+)/.exec(l);
    return m ? [Number(m[1])] : [];
  });
}

scenario(
  `host 2: contracts (plugin), ${VERDICT_RUNS} runs: block naming both unmet items, then met_after_block; a second unmet stop is a miss`,
  [CONTRACT],
  async () => {
    const w = await world("contract");
    try {
      const root = pluginStateRoot(w);
      for (let i = 1; i <= VERDICT_RUNS; i++) {
        const s = await runClaude(w, {
          prompt: "the login test fails, look into it",
          rules: await loadScript("contract_met_after_block"),
          install: "plugin",
        });
        assertCompleted(s);
        const fbText = oneStopFeedback(s, `run ${i}: blocked exactly once`);
        assert.match(fbText, /SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);
        assert.match(fbText, /debug-report/, `run ${i}: the block names debug-report`);
        assert.match(fbText, /repro-after-fix/, `run ${i}: the block names repro-after-fix`);
        assert.ok(
          attachments(s.transcript, "hook_blocking_error").length >= 1,
          "the transcript records the block",
        );
        const rec = await readRecord(root, s.sessionId);
        assert.ok(rec, "a record was written");
        assert.deepEqual(outcomesIn(rec), ["met_after_block"], `run ${i}: ${JSON.stringify(rec)}`);
      }

      // Another session, three times: blocked once, stops again unmet -> allowed, recorded miss.
      for (let i = 1; i <= 3; i++) {
        const s2 = await runClaude(w, {
          prompt: "the signup test fails, look into it",
          rules: await loadScript("contract_miss"),
          install: "plugin",
        });
        assertCompleted(s2);
        assert.equal(countTurnsWhoseLastUserHas(s2.turns, "Stop hook feedback"), 1);
        assert.equal(s2.result.result, "The fix is in place.", "the second stop went through");
        const rec2 = await readRecord(root, s2.sessionId);
        assert.deepEqual(outcomesIn(rec2), ["miss"], `miss run ${i}: ${JSON.stringify(rec2)}`);
      }
      const log = await readLog(root, "skill-contract.log");
      assert.ok(log.some((l) => /met_after_block/.test(l)), log.join("\n"));
      assert.ok(log.some((l) => /miss/.test(l)), log.join("\n"));
      assert.ok(!log.some((l) => /transcript-behind/.test(l)), log.join("\n"));
      const waits = catchUpWaits(log);
      console.log(
        `host 2: ${log.length} contract decisions, ${waits.length} waited for the transcript ` +
          `(ms: ${waits.join(", ") || "none"})`,
      );
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  "host 3: contracts with a background agent (plugin): deferred while it runs, checked after the notification",
  [CONTRACT],
  async () => {
    const w = await world("contract-bg");
    try {
      const s = await runClaude(w, {
        prompt: "please check the release",
        rules: await loadScript("contract_background"),
        install: "plugin",
      });
      assertCompleted(s);
      const root = pluginStateRoot(w);
      const log = await readLog(root, "skill-contract.log");
      const deferredAt = log.findIndex((l) => /deferred/.test(l));
      assert.ok(deferredAt >= 0, `no deferred decision:\n${log.join("\n")}`);
      // After the <task-notification>, the contract was checked: blocked once, then met.
      const notif = s.turns.findIndex((t) => lastUserText(t.body).includes("<task-notification>"));
      const block = s.turns.findIndex((t) => lastUserText(t.body).includes("SKILL_CONTRACT_UNMET"));
      assert.ok(notif >= 0, "the notification reached the model");
      assert.ok(block > notif, "the contract was checked (and blocked) after the notification");
      assert.match(lastUserText(s.turns[block].body), /release-report/);
      const rec = await readRecord(root, s.sessionId);
      assert.ok(outcomesIn(rec).includes("met_after_block"), JSON.stringify(rec));
      assert.ok(log.slice(deferredAt + 1).some((l) => /met_after_block/.test(l)), log.join("\n"));
    } finally {
      await removeHostWorld(w);
    }
  },
);

scenario(
  "host 4: redirect on Claude Code (plugin), 3 runs: Unknown skill -> Stop block naming the Agent tool -> dispatch -> no second block",
  [REDIRECT],
  async () => {
    for (let i = 1; i <= 3; i++) await redirectOnClaude(i);
  },
);

async function redirectOnClaude(i: number): Promise<void> {
  {
    const w = await world("redirect");
    try {
      const s = await runClaude(w, {
        prompt: "please write a prompt for release notes",
        rules: await loadScript("redirect_claude"),
        install: "plugin",
      });
      assertCompleted(s);
      assert.ok(
        firstTurnWith(s.turns, "Unknown skill: prompt-writer") >= 0,
        "the client rejected the Skill call",
      );
      const fb = oneStopFeedback(s, "exactly one block");
      assert.match(fb, /Agent/);
      assert.match(fb, /prompt-writer/);
      assert.match(fb, /subagent_type/);
      const dispatched = s.transcript.some((r) =>
        r.type === "assistant" &&
        JSON.stringify(r.message).includes('"name":"Agent"') &&
        JSON.stringify(r.message).includes('"subagent_type":"prompt-writer"')
      );
      assert.ok(dispatched, "the model dispatched the agent");
      const log = await readLog(pluginStateRoot(w), "skill-redirect.log");
      assert.equal(log.filter((l) => /outcome=block/.test(l)).length, 1, log.join("\n"));
      console.log(
        `host 4 run ${i}: redirect waits for the transcript (ms): ${
          catchUpWaits(log).join(", ") || "none"
        }`,
      );
    } finally {
      await removeHostWorld(w);
    }
  }
}

scenario(
  "host 5: redirect on Copilot CLI (setup --copilot): preToolUse denies skill(<agent>) and the model reads the reason",
  [REDIRECT, CLI],
  async () => {
    const w = await world("copilot");
    try {
      // Copilot CLI reads agents from its own home (`$COPILOT_HOME/agents`, `*.md` or
      // `*.agent.md`), not from ~/.claude/agents; so does skillgate's redirect on Copilot.
      await installFixtures(w.copilotHome, { agents: ["prompt-writer"] });
      const setup = await runSkillgate(w, ["setup", "--copilot"], { CLAUDE_CONFIG_DIR: "" });
      assert.equal(setup.code, 0, setup.stdout + setup.stderr);
      const s = await runCopilot(w, {
        prompt: "please write a prompt for release notes",
        rules: await loadScript("redirect_copilot"),
        env: { SKILLGATE_STATE_ROOT: w.stateRoot },
      });
      assert.equal(s.run.timedOut, false);
      assert.equal(s.run.code, 0, s.run.stderr);
      assert.ok(s.turns.length >= 2, "the model got the tool result");
      const denied = lastUserText(s.turns[1].body);
      assert.match(denied, /Denied by preToolUse hook: /);
      assert.match(denied, /prompt-writer/);
      assert.match(denied, /is an agent, not a skill/, "skillgate's reason reached the model");
      // Copilot's subagent tool is `task` with `agent_type` (seen in the request's tool list).
      const tools = (s.turns[0].body?.tools ?? []) as { name: string }[];
      assert.ok(tools.some((t) => t.name === "task"), "Copilot offers the task tool");
      assert.match(denied, /\btask\b/, "the reason names Copilot's subagent tool, task");
      assert.match(denied, /agent_type/, "the reason names task's agent_type field");
      const log = await readLog(w.stateRoot, "skill-redirect.log");
      assert.ok(log.some((l) => /outcome=deny/.test(l)), log.join("\n"));
    } finally {
      await removeHostWorld(w);
    }
  },
);

for (const install of ["settings", "plugin"] as const) {
  scenario(
    `host 6${install === "settings" ? "a" : "b"}: installed through ${
      install === "settings" ? "skillgate setup (settings.json)" : "--plugin-dir ."
    }: the hooks run under their production flags`,
    install === "settings" ? [ROUTE, REDIRECT, CLI] : [ROUTE, REDIRECT],
    async () => {
      const w = await world(`install-${install}`);
      try {
        let root = pluginStateRoot(w);
        if (install === "settings") {
          root = w.stateRoot;
          const setup = await runSkillgate(w, ["setup", "--skill-routing"]);
          assert.equal(setup.code, 0, setup.stdout + setup.stderr);
          const text = await Deno.readTextFile(join(w.claudeDir, "settings.json"));
          assert.ok(text.includes("--no-prompt --no-config"), text);
          assert.ok(!/--allow-(run|net|ffi|all)|\s-A\s/.test(text), text);
        }
        const s = await runClaude(w, {
          prompt: "please fix this bug and write a prompt for release notes",
          rules: await loadScript("redirect_claude"),
          install,
          env: install === "settings"
            ? { SKILLGATE_STATE_ROOT: w.stateRoot }
            : { SKILLGATE_SKILL_ROUTING: "on" },
        });
        assertCompleted(s);
        assert.ok(
          requestText(s.turns[0].body).includes(ROUTE_LINE),
          `${install}: routing answered under its flags`,
        );
        assert.equal(
          countTurnsWhoseLastUserHas(s.turns, "Stop hook feedback"),
          1,
          `${install}: the redirect read the transcript under its flags and blocked once`,
        );
        assert.deepEqual(
          hookStderrLines(s),
          [],
          `${install}: no hook failed (permission or otherwise)`,
        );
        assert.ok((await readLog(root, "skill-route.log")).length >= 1, `${install}: route log`);
        assert.ok(
          (await readLog(root, "skill-redirect.log")).length >= 1,
          `${install}: redirect log`,
        );
      } finally {
        await removeHostWorld(w);
      }
    },
  );
}

scenario(
  "host 6c: installed with claude plugin marketplace add + plugin install skillgate@skillgate: the hooks run",
  [ROUTE, REDIRECT],
  async () => {
    const w = await world("install-marketplace");
    try {
      for (const r of await installFromMarketplace(w)) {
        assert.equal(r.code, 0, r.stdout + r.stderr);
      }
      const s = await runClaude(w, {
        prompt: "please fix this bug and write a prompt for release notes",
        rules: await loadScript("redirect_claude"),
        install: "none",
        env: { SKILLGATE_SKILL_ROUTING: "on" },
      });
      assertCompleted(s);
      assert.ok(requestText(s.turns[0].body).includes(ROUTE_LINE), "routing answered");
      assert.equal(
        countTurnsWhoseLastUserHas(s.turns, "Stop hook feedback"),
        1,
        "one redirect block",
      );
      assert.deepEqual(hookStderrLines(s), [], "no hook failed");
      assert.ok(
        (await readLog(installedPluginStateRoot(w), "skill-route.log")).length >= 1,
        "the state root is ${CLAUDE_PLUGIN_DATA}",
      );
      // The README's removal of the plugin: afterwards the client lists no skillgate plugin.
      const listed = await claudeCommand(w, ["plugin", "list"]);
      assert.match(listed.stdout, /skillgate@skillgate/, listed.stdout + listed.stderr);
      const removed = await claudeCommand(w, ["plugin", "uninstall", "skillgate@skillgate"]);
      assert.equal(removed.code, 0, removed.stdout + removed.stderr);
      const list = await claudeCommand(w, ["plugin", "list"]);
      assert.equal(list.code, 0, list.stdout + list.stderr);
      assert.doesNotMatch(list.stdout, /skillgate@skillgate/, list.stdout);
    } finally {
      await removeHostWorld(w);
    }
  },
);

for (const kind of ["unwritable-state-root", "corrupt-config"] as const) {
  scenario(
    `host 7${kind === "unwritable-state-root" ? "a" : "b"}: failure: ${
      kind === "unwritable-state-root"
        ? "an unwritable state root (a regular file)"
        : "a corrupt config file (binary)"
    } -> the session completes, skillgate's stderr line, no block`,
    [CONTRACT, CLI],
    async () => {
      const w = await world(`fail-${kind}`);
      try {
        const setup = await runSkillgate(w, ["setup", "--skill-routing"]);
        assert.equal(setup.code, 0, setup.stdout + setup.stderr);
        if (kind === "unwritable-state-root") {
          await Deno.remove(w.stateRoot, { recursive: true });
          await Deno.writeTextFile(w.stateRoot, "not a directory\n");
        } else {
          await Deno.writeTextFile(
            join(w.stateRoot, "config.yaml"),
            "skill_contracts: on\n\u0000\u0001\u0002 garbage\n",
          );
        }
        // Unmet contract: with a working state root this run is blocked once (host 2).
        const s = await runClaude(w, {
          prompt: "the signup test fails, look into it",
          rules: await loadScript("contract_miss"),
          install: "settings",
          env: { SKILLGATE_STATE_ROOT: w.stateRoot },
        });
        assertCompleted(s);
        assert.equal(countTurnsWhoseLastUserHas(s.turns, "Stop hook feedback"), 0, "no block");
        assert.equal(s.result.result, "Fixed the signup check.", "the first stop went through");
        const lines = hookStderrLines(s);
        console.log(`host 7 ${kind}: stderr lines: ${JSON.stringify(lines)}`);
        assert.ok(lines.length >= 1, "skillgate's stderr line reached the client");
      } finally {
        await removeHostWorld(w);
      }
    },
  );
}

scenario(
  "host 8: installed twice on Claude Code (skillgate setup and --plugin-dir ., ~/.claude beside ~/.skillgate), 3 runs each: one routing line, one redirect block, one contract block",
  [ROUTE, CONTRACT, REDIRECT, CLI],
  async () => {
    const w = await makeHostWorld("twice");
    // The default layout: the Claude config folder and the state root side by side in home.
    w.claudeDir = join(w.home, ".claude");
    w.stateRoot = join(w.home, ".skillgate");
    try {
      await installFixtures(w.claudeDir, {
        skills: ["investigate", "release-check"],
        agents: ["prompt-writer", "test-runner"],
      });
      await Deno.writeTextFile(join(w.project, "test.sh"), "echo PASS\n");
      const setup = await runSkillgate(w, ["setup", "--skill-routing"]);
      assert.equal(setup.code, 0, setup.stdout + setup.stderr);
      const pluginData = pluginStateRoot(w);
      // Both registrations ran: the client's debug log has a finished line for the plugin's
      // (tagged `(plugin skillgate@inline)`) and for the settings one.
      const bothRan = (debug: string, event: string, bundle: string) => {
        const ran = debug.split("\n").filter((l) =>
          l.includes(`Hooks: ${event} [`) && l.includes(bundle) && l.includes("finished with")
        );
        return ran.some((l) => l.includes("(plugin skillgate@")) &&
          ran.some((l) => !l.includes("(plugin skillgate@"));
      };
      for (let i = 1; i <= 3; i++) {
        const s = await runClaude(w, {
          prompt: "please fix this bug and write a prompt for release notes",
          rules: await loadScript("redirect_claude"),
          install: "plugin",
        });
        assertCompleted(s);
        const first = requestText(s.turns[0].body);
        assert.equal(first.split(ROUTE_LINE).length - 1, 1, `run ${i}: one routing line`);
        assert.equal(
          attachments(s.transcript, "hook_additional_context")
            .filter((a) => JSON.stringify(a.content).includes(ROUTE_LINE)).length,
          1,
          `run ${i}: one routing attachment`,
        );
        const fb = oneStopFeedback(s, `run ${i}: one redirect block`);
        assert.equal(fb.split("subagent_type").length - 1, 1, `run ${i}: one block text: ${fb}`);
        assert.deepEqual(hookStderrLines(s), [], `run ${i}: no hook failed`);
        assert.ok(bothRan(s.debug, "UserPromptSubmit", "skill_route.js"), `run ${i}: both routed`);
        assert.ok(bothRan(s.debug, "Stop", "skill_redirect.js"), `run ${i}: both redirects ran`);
      }
      const redirectLog = await readLog(w.stateRoot, "skill-redirect.log");
      assert.equal(redirectLog.filter((l) => /outcome=block/.test(l)).length, 3);
      const routeLog = await readLog(w.stateRoot, "skill-route.log");
      assert.equal(routeLog.filter((l) => /outcome=routed/.test(l)).length, 3);

      for (let i = 1; i <= 3; i++) {
        const s = await runClaude(w, {
          prompt: "the login test fails, look into it",
          rules: await loadScript("contract_met_after_block"),
          install: "plugin",
        });
        assertCompleted(s);
        const fb = oneStopFeedback(s, `run ${i}: one contract block`);
        assert.equal(fb.split("SKILL_CONTRACT_UNMET").length - 1, 1, `run ${i}: one block text`);
        assert.deepEqual(hookStderrLines(s), [], `run ${i}: no hook failed`);
        assert.ok(bothRan(s.debug, "Stop", "skill_contract.js"), `run ${i}: both contracts ran`);
        // One record, in the shared state root, as one install would leave it.
        const rec = await readRecord(w.stateRoot, s.sessionId);
        assert.deepEqual(outcomesIn(rec), ["met_after_block"], `run ${i}: ${JSON.stringify(rec)}`);
      }
      // The plugin's data folder holds none of skillgate's state.
      const left: string[] = [];
      try {
        for await (const e of Deno.readDir(pluginData)) left.push(e.name);
      } catch {
        // The client did not make it.
      }
      assert.deepEqual(left, [], "nothing in the plugin's data folder");
    } finally {
      await removeHostWorld(w);
    }
  },
);

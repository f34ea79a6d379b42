/**
 * The Claude Code plugin's hooks, spawned with the exact arguments of the committed
 * `hooks/hooks.json` (the placeholders filled in the way the client fills them) and the variables
 * the client sets for a plugin hook.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FIXTURES,
  makeTempWorld,
  pluginArgs,
  readLog,
  REPO_ROOT,
  runHookProcess,
} from "./_helpers.ts";
import type { HookId } from "../lib/hook/table.ts";

Deno.test("plugin hooks keep their state in the plugin's data dir when SKILLGATE_STATE_ROOT names another", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
  try {
    const data = join(world.claudeDir, "plugins", "data", "skillgate-skillgate");
    Deno.mkdirSync(data, { recursive: true });
    const elsewhere = join(world.root, "exported-state-root");
    const vars = {
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PLUGIN_DATA: data,
      CLAUDE_PROJECT_DIR: world.projectDir,
    };
    const env = { ...vars, SKILLGATE_STATE_ROOT: elsewhere, SKILLGATE_SKILL_ROUTING: "on" };
    const session = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
    const transcript = join(world.claudeDir, "projects", "-work-project", `${session}.jsonl`);
    Deno.mkdirSync(join(transcript, ".."), { recursive: true });
    Deno.copyFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"), transcript);
    const payloadOf = (name: string, extra: Record<string, unknown> = {}) => ({
      ...JSON.parse(Deno.readTextFileSync(join(FIXTURES, "payloads", `${name}.json`))),
      cwd: world.projectDir,
      ...extra,
    });
    const cases: Array<[HookId, string, string, unknown]> = [
      ["skill-route", "UserPromptSubmit", "skill_route.js", {
        session_id: session,
        transcript_path: transcript,
        cwd: world.projectDir,
        hook_event_name: "UserPromptSubmit",
        prompt: "this test fails, fix it",
      }],
      [
        "skill-redirect",
        "PreToolUse",
        "skill_redirect.js",
        payloadOf("redirect_claude_skill_agent"),
      ],
      [
        "skill-contract",
        "Stop",
        "skill_contract.js",
        payloadOf("stop_claude_no_last_message", { transcript_path: transcript }),
      ],
    ];
    for (const [id, event, bundle, payload] of cases) {
      const args = pluginArgs(event, bundle, vars);
      const run = await runHookProcess(id, payload, { world, env, mapArgs: () => args });
      assert.equal(run.code, 0, id);
      assert.equal(run.stderr, "", `${id}: ${run.stderr}`);
      assert.ok(run.stdout !== "", `${id} answered`);
    }
    // The contract hook blocked and recorded the run in the plugin's data dir.
    const record = JSON.parse(
      Deno.readTextFileSync(join(data, "skill-contracts", `${session}.json`)),
    );
    assert.deepEqual(record.runs.map((r: { outcome: string }) => r.outcome), ["blocked"]);
    const logs = { ...world, stateRoot: data };
    assert.match(readLog(logs, "skill-route.log"), /outcome=routed/);
    assert.match(readLog(logs, "skill-redirect.log"), /outcome=deny/);
    assert.match(readLog(logs, "skill-contract.log"), /outcome=block/);
    // Nothing went to the exported state root, nor to the default one.
    assert.throws(() => Deno.lstatSync(elsewhere), Deno.errors.NotFound);
    assert.throws(() => Deno.lstatSync(world.stateRoot), Deno.errors.NotFound);
  } finally {
    await world.cleanup();
  }
});

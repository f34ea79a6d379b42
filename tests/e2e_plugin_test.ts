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

// A `~/.claude` kept in a dotfiles folder (or CLAUDE_CONFIG_DIR naming a link): the plugin's
// commands grant paths through the link by placeholders, never where it leads (issue 32).
const LINKED_CONFIGS = [
  { what: "~/.claude is a link", viaEnv: false },
  { what: "CLAUDE_CONFIG_DIR names a link", viaEnv: true },
] as const;

for (const { what, viaEnv } of LINKED_CONFIGS) {
  Deno.test(`plugin hooks when ${what}: the Stops read the transcript and block, state and logs are kept`, async () => {
    const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
    try {
      const real = join(world.root, "dotfiles", "claude");
      Deno.mkdirSync(join(real, ".."), { recursive: true });
      Deno.renameSync(world.claudeDir, real);
      const config = viaEnv ? join(world.root, "cfg-link") : world.claudeDir;
      Deno.symlinkSync(real, config);
      const data = join(config, "plugins", "data", "skillgate-skillgate");
      Deno.mkdirSync(data, { recursive: true });
      const vars = {
        CLAUDE_PLUGIN_ROOT: REPO_ROOT,
        CLAUDE_PLUGIN_DATA: data,
        CLAUDE_PROJECT_DIR: world.projectDir,
      };
      const env = { ...vars, ...(viaEnv ? { CLAUDE_CONFIG_DIR: config } : {}) };
      const transcriptOf = (session: string, fixture: string) => {
        const path = join(config, "projects", "-work-project", `${session}.jsonl`);
        Deno.mkdirSync(join(path, ".."), { recursive: true });
        Deno.copyFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`), path);
        return path;
      };
      const payloadOf = (name: string, extra: Record<string, unknown>) => ({
        ...JSON.parse(Deno.readTextFileSync(join(FIXTURES, "payloads", `${name}.json`))),
        cwd: world.projectDir,
        ...extra,
      });
      const contractSession = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
      const redirectSession = "5f0c2a1e-redirect-fixture";
      const cases: Array<[HookId, string, unknown]> = [
        ["skill-contract", "skill_contract.js", {
          ...payloadOf("stop_claude", {
            transcript_path: transcriptOf(contractSession, "stop_unmet"),
          }),
        }],
        ["skill-redirect-stop", "skill_redirect.js", {
          ...payloadOf("redirect_claude_stop", {
            transcript_path: transcriptOf(redirectSession, "redirect_unknown_skill"),
          }),
        }],
      ];
      for (const [id, bundle, payload] of cases) {
        const args = pluginArgs("Stop", bundle, vars);
        const run = await runHookProcess(id, payload, { world, env, mapArgs: () => args });
        assert.equal(run.code, 0, id);
        assert.equal(run.stderr, "", `${id}: ${run.stderr}`);
        assert.equal((run.json as { decision?: string } | undefined)?.decision, "block", id);
      }
      // `~/.claude` linked: its plugin data folder is still `~/.claude/plugins/data/…` as the client
      // names it, so `~/.skillgate` lies beside and is shared with setup (issue 31); a config
      // folder elsewhere keeps the plugin's own data folder.
      const root = viaEnv ? data : world.stateRoot;
      const record = JSON.parse(
        Deno.readTextFileSync(join(root, "skill-contracts", `${contractSession}.json`)),
      );
      assert.deepEqual(record.runs.map((r: { outcome: string }) => r.outcome), ["blocked"]);
      const logs = { ...world, stateRoot: root };
      assert.match(readLog(logs, "skill-contract.log"), /outcome=block/);

      // A transcript linked below the granted folder to a file elsewhere is still not read.
      const outside = join(world.root, "outside.jsonl");
      Deno.copyFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"), outside);
      const linked = join(config, "projects", "-work-project", "6c1d3e8f-linked-out.jsonl");
      Deno.symlinkSync(outside, linked);
      const run = await runHookProcess(
        "skill-contract",
        payloadOf("stop_claude", { transcript_path: linked, session_id: "6c1d3e8f-linked-out" }),
        { world, env, mapArgs: () => pluginArgs("Stop", "skill_contract.js", vars) },
      );
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /^skillgate: .*Requires read access to "[^"]*outside\.jsonl"/);
      assert.equal(run.stderr.trim().split("\n").length, 1);
    } finally {
      await world.cleanup();
    }
  });
}

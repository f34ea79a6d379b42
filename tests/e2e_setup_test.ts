/**
 * End to end: `skillgate setup` writes settings.json (and the Copilot hook file); each registered
 * command is then run exactly as the host runs it, `sh -c <command>` with the payload on stdin, in
 * an environment like Claude Code's (HOME set, CLAUDE_CONFIG_DIR unset), and must give the expected
 * answer. A hook whose entry file has not landed fails here with a message that says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  claudeHookEnv,
  copyDir,
  FIXTURES,
  makeTempWorld,
  type TempWorld,
  worldSetupContext,
} from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { COPILOT } from "../lib/host/copilot.ts";
import type { HostKind } from "../lib/host/mod.ts";
import { shellSplit } from "../lib/install/hook_commands.ts";
import { probeHook } from "../lib/install/doctor.ts";
import { HOOKS, hostRegistration } from "../lib/hook/table.ts";
import { redirectMessage } from "../lib/redirect/redirect.ts";
import { SWITCH_ENV } from "../lib/base/config.ts";

for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);
const SESSION = "5f0c2a1e-redirect-fixture";

/**
 * One Deno cache shared by setup and the hooks, as on a user's machine (same HOME), and empty at
 * the start: setup's pre-cache must fetch everything a hook loads, lazy imports included, because
 * a hook cannot fetch under its narrow permissions.
 */
const DENO_CACHE = await Deno.makeTempDir({ prefix: "skillgate-e2e-deno-dir-" });

async function install(world: TempWorld, flags: string[]): Promise<void> {
  const parsed = parseSetupArgs(flags);
  if ("error" in parsed) throw new Error(parsed.error);
  const out: string[] = [];
  const code = await runSetup(parsed, {
    ...worldSetupContext(world, out),
    precache: true,
    runCommand: async (argv) => {
      const r = await new Deno.Command(argv[0], {
        args: argv.slice(1),
        env: { DENO_DIR: DENO_CACHE },
        stdout: "null",
        stderr: "piped",
      }).output();
      return { code: r.code, stderr: new TextDecoder().decode(r.stderr) };
    },
  });
  assert.equal(code, 0, out.join("\n"));
}

function transcript(world: TempWorld, fixture: string): string {
  const dir = join(world.claudeDir, "projects", "-work-project");
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  Deno.copyFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`), path);
  return path;
}

/** Like Claude Code: the hook inherits the environment; CLAUDE_CONFIG_DIR is unset by default. */
function hostEnv(world: TempWorld): Record<string, string> {
  return claudeHookEnv(world, DENO_CACHE);
}

/** The payload and the expected answer of each registration, as the host would send it. */
function scenario(world: TempWorld, hookId: string, host: HostKind) {
  const base = {
    session_id: SESSION,
    transcript_path: join(world.claudeDir, "projects", "-work-project", `${SESSION}.jsonl`),
    cwd: world.projectDir,
    permission_mode: "default",
  };
  switch (`${host}:${hookId}`) {
    case "claude:skill-route":
      return {
        payload: {
          ...base,
          hook_event_name: "UserPromptSubmit",
          prompt: "this test fails, fix it",
        },
        check: (json: unknown) => {
          const out = json as {
            hookSpecificOutput: { hookEventName: string; additionalContext: string };
          };
          assert.equal(out.hookSpecificOutput.hookEventName, "UserPromptSubmit");
          assert.match(out.hookSpecificOutput.additionalContext, /\/investigate/);
        },
      };
    case "claude:skill-redirect":
      return {
        payload: {
          ...base,
          hook_event_name: "PreToolUse",
          tool_name: "Skill",
          tool_input: { skill: "prompt-writer" },
          tool_use_id: "toolu_01RedirectA",
        },
        check: (json: unknown) =>
          assert.deepEqual(json, {
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "deny",
              permissionDecisionReason: redirectMessage("prompt-writer", "claude"),
            },
          }),
      };
    case "claude:skill-redirect-stop":
      return {
        payload: {
          ...base,
          transcript_path: transcript(world, "redirect_unknown_skill"),
          hook_event_name: "Stop",
          stop_hook_active: false,
          last_assistant_message: "The requirements are written down above.",
        },
        check: (json: unknown) =>
          assert.deepEqual(json, {
            decision: "block",
            reason: redirectMessage("prompt-writer", "claude"),
          }),
      };
    case "claude:skill-contract":
      return {
        payload: {
          ...base,
          transcript_path: transcript(world, "investigate_unmet"),
          hook_event_name: "Stop",
          stop_hook_active: false,
          last_assistant_message: "Fixed: the null check was missing.",
        },
        check: (json: unknown) => {
          const out = json as { decision: string; reason: string };
          assert.equal(out.decision, "block");
          assert.match(out.reason, /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);
        },
      };
    case "claude:skill-contract-subagent": {
      // The sub-agent's own file: the unmet investigate run, every record the sub-agent's.
      const dir = join(world.claudeDir, "projects", "-work-project", SESSION, "subagents");
      Deno.mkdirSync(dir, { recursive: true });
      const file = join(dir, "agent-a48fb149daa12a164.jsonl");
      const lines = Deno.readTextFileSync(
        join(FIXTURES, "transcripts", "investigate_unmet.jsonl"),
      ).split("\n").filter((l) => l.trim() !== "");
      Deno.writeTextFileSync(
        file,
        lines.map((l) =>
          JSON.stringify({ ...JSON.parse(l), isSidechain: true, agentId: "a48fb149daa12a164" })
        ).join("\n") + "\n",
      );
      return {
        payload: {
          ...base,
          hook_event_name: "SubagentStop",
          agent_id: "a48fb149daa12a164",
          agent_type: "test-runner",
          agent_transcript_path: file,
          stop_hook_active: false,
          last_assistant_message: "Fixed: the null check was missing.",
        },
        check: (json: unknown) => {
          const out = json as { decision: string; reason: string };
          assert.equal(out.decision, "block");
          assert.match(out.reason, /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);
        },
      };
    }
    case "copilot:skill-route":
      return {
        payload: {
          sessionId: "cop-1",
          timestamp: 1,
          cwd: world.projectDir,
          prompt: "please check my diff",
        },
        check: (json: unknown) =>
          assert.match((json as { additionalContext: string }).additionalContext, /\/review/),
      };
    case "copilot:skill-contract": {
      // A real Copilot CLI session (host tests), as the file was at its first agentStop.
      const lines = Deno.readTextFileSync(
        join(FIXTURES, "transcripts", "copilot", "met_after_block.jsonl"),
      ).split("\n");
      const at = lines.findIndex((l) => l.includes('"hook.start"') && l.includes('"agentStop"'));
      const dir = join(world.home, ".copilot", "session-state", SESSION);
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, "events.jsonl"), lines.slice(0, at + 1).join("\n") + "\n");
      return {
        payload: {
          sessionId: SESSION,
          timestamp: JSON.parse(lines[at]).data.input.timestamp,
          cwd: world.projectDir,
          transcriptPath: join(dir, "events.jsonl"),
          stopReason: "end_turn",
          stop_hook_active: false,
        },
        check: (json: unknown) => {
          const out = json as { decision: string; reason: string };
          assert.equal(out.decision, "block");
          assert.match(out.reason, /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);
        },
      };
    }
    case "copilot:skill-contract-subagent": {
      // A real Copilot CLI session whose sub-agent loaded verify, edited and stopped untested, as
      // the file was at the sub-agent's first subagentStop.
      const lines = Deno.readTextFileSync(
        join(FIXTURES, "transcripts", "copilot", "subagent_block.jsonl"),
      ).split("\n");
      const at = lines.findIndex((l) => l.includes('"hook.start"') && l.includes('"subagentStop"'));
      const input = JSON.parse(lines[at]).data.input;
      const dir = join(world.home, ".copilot", "session-state", SESSION);
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, "events.jsonl"), lines.slice(0, at + 1).join("\n") + "\n");
      return {
        payload: {
          ...input,
          sessionId: SESSION,
          cwd: world.projectDir,
          transcriptPath: join(dir, "events.jsonl"),
        },
        check: (json: unknown) => {
          const out = json as { decision: string; reason: string };
          assert.equal(out.decision, "block");
          assert.match(
            out.reason,
            /^SKILL_CONTRACT_UNMET verify \(contract v1\): missing checks-pass/,
          );
        },
      };
    }
    case "copilot:skill-redirect":
      return {
        payload: {
          sessionId: "cop-1",
          timestamp: 1,
          cwd: world.projectDir,
          toolName: "skill",
          toolArgs: { skill: "prompt-writer" },
        },
        check: (json: unknown) =>
          assert.deepEqual(json, {
            permissionDecision: "deny",
            permissionDecisionReason: redirectMessage("prompt-writer", "copilot"),
          }),
      };
  }
  throw new Error(`No scenario for ${host}:${hookId}`);
}

async function withWorld(fn: (w: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({
    skills: ["routing/skills"],
    agents: ["world/agents"],
  });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

async function runRegistered(
  world: TempWorld,
  host: HostKind,
  hookId: string,
  command: string,
) {
  const module = shellSplit(command)!.at(-1)!;
  try {
    Deno.statSync(module);
  } catch {
    assert.fail(`${hookId}: its entry ${module} has not landed yet; this hook is not runnable`);
  }
  const { payload, check } = scenario(world, hookId, host);
  const r = await probeHook(command, JSON.stringify(payload), {
    cwd: world.projectDir,
    env: hostEnv(world),
    timeoutMs: 30_000,
  });
  const stderr = r.stderr.split("\n").filter((l) => l && !/Download /.test(l)).join("\n");
  assert.equal(r.code, 0, `${hookId}: ${stderr}`);
  assert.equal(stderr, "", `${hookId} wrote to stderr`);
  assert.ok(r.stdout.trim() !== "", `${hookId} printed no answer`);
  check(JSON.parse(r.stdout));
}

for (const row of HOOKS) {
  Deno.test(`e2e: setup registers ${row.id} and the command from settings.json answers under sh -c`, async () => {
    await withWorld(async (world) => {
      await install(world, ["--skill-routing"]);
      const settings = JSON.parse(await Deno.readTextFile(join(world.claudeDir, "settings.json")));
      const mine = listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner).filter((h) =>
        h.hookId === row.id
      );
      assert.equal(mine.length, 1, `${row.id} registered exactly once`);
      assert.equal(mine[0].event, hostRegistration(CLAUDE, row)?.event);
      assert.equal(mine[0].matcher, hostRegistration(CLAUDE, row)?.matcher);
      assert.equal(mine[0].timeout, row.timeoutSec);
      await runRegistered(world, "claude", row.id, mine[0].command);
    });
  });
}

for (const row of HOOKS.filter((h) => hostRegistration(COPILOT, h))) {
  Deno.test(`e2e: setup --copilot registers ${row.id} and its bash command answers under sh -c`, async () => {
    await withWorld(async (world) => {
      // Copilot CLI's own folders (it does not read ~/.claude/skills or ~/.claude/agents).
      const copilotHome = join(world.home, ".copilot");
      copyDir(join(FIXTURES, "routing", "skills"), join(copilotHome, "skills"));
      copyDir(join(FIXTURES, "host", "skills"), join(copilotHome, "skills"));
      copyDir(join(FIXTURES, "world", "agents"), join(copilotHome, "agents"));
      await Deno.remove(world.claudeDir, { recursive: true });
      await install(world, ["--copilot", "--skill-routing"]);
      const path = join(world.home, ".copilot", "hooks", "skillgate.json");
      const doc = JSON.parse(await Deno.readTextFile(path));
      const mine = listOwnedHooks(COPILOT.hookFile.format, doc, skillgateOwner).filter((h) =>
        h.hookId === row.id
      );
      assert.equal(mine.length, 1);
      assert.equal(mine[0].event, hostRegistration(COPILOT, row)?.event);
      await runRegistered(world, "copilot", row.id, mine[0].command);
    });
  });
}

Deno.test("e2e: remove the shared Deno cache", async () => {
  await Deno.remove(DENO_CACHE, { recursive: true });
});

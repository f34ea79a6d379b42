/**
 * skillgate installed twice (user settings and the project's, or setup and the Claude Code
 * plugin), as a host runs it: both registered commands of an event start at once with the same
 * payload, and the model gets one routing line, one deny, one block; doctor says "installed twice".
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FIXTURES,
  makeTempWorld,
  pluginArgs,
  REPO_ROOT,
  type TempWorld,
  worldSetupContext,
} from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { probeHook, runDoctor } from "../lib/install/doctor.ts";

/** Runs doctor in a world, with the environment the hooks see. */
async function doctorLines(world: TempWorld, env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  await runDoctor({
    stateRoot: world.stateRoot,
    claudeConfigDir: world.claudeDir,
    home: world.home,
    hostDirs: worldSetupContext(world, []).hostDirs,
    cwd: world.projectDir,
    env,
    slowMs: 60_000,
    print: (l) => lines.push(l),
  });
  return lines;
}

Deno.test("installed at user and project level: one prompt gets one routing line, one Skill call one deny; doctor says installed twice", async () => {
  const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
  try {
    const out: string[] = [];
    const ctx = worldSetupContext(world, out);
    for (const flags of [["--skill-routing"], ["--project"]]) {
      const parsed = parseSetupArgs(flags);
      if ("error" in parsed) throw new Error(parsed.error);
      assert.equal(await runSetup(parsed, ctx), 0, out.join("\n"));
    }
    assert.ok(out.some((l) => /INSTALLED_TWICE/.test(l)), out.join("\n"));
    const commands = (file: string, event: string, id: string) =>
      listOwnedHooks(
        CLAUDE.hookFile.format,
        JSON.parse(Deno.readTextFileSync(file)),
        skillgateOwner,
      ).filter((h) => h.event === event && h.hookId === id).map((h) => h.command);
    const files = [
      join(world.claudeDir, "settings.json"),
      join(world.projectDir, ".claude", "settings.local.json"),
    ];
    const env = {
      HOME: world.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      CLAUDE_PROJECT_DIR: world.projectDir,
    };
    const both = async (event: string, id: string, payload: Record<string, unknown>) => {
      const cmds = files.flatMap((f) => commands(f, event, id));
      assert.equal(cmds.length, 2, `${id} registered twice`);
      const text = JSON.stringify({
        session_id: "twice-1",
        transcript_path: join(world.claudeDir, "projects", "-p", "twice-1.jsonl"),
        cwd: world.projectDir,
        ...payload,
      });
      // As the host runs them: at once, the same bytes on each one's stdin.
      return await Promise.all(
        cmds.map((c) => probeHook(c, text, { cwd: world.projectDir, env, timeoutMs: 30_000 })),
      );
    };
    for (let i = 0; i < 3; i++) {
      const runs = await both("UserPromptSubmit", "skill-route", {
        hook_event_name: "UserPromptSubmit",
        prompt_id: `prompt-${i}`,
        prompt: "this test fails, fix it",
      });
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      for (const r of runs) assert.equal(r.stderr, "");
      const answers = runs.filter((r) => r.stdout.trim() !== "");
      assert.equal(answers.length, 1, `prompt ${i}: one routing line, got ${answers.length}`);
      assert.match(
        JSON.parse(answers[0].stdout).hookSpecificOutput.additionalContext,
        /fits the installed skill \/investigate/,
      );
    }
    const denies = await both("PreToolUse", "skill-redirect", {
      hook_event_name: "PreToolUse",
      tool_name: "Skill",
      tool_input: { skill: "prompt-writer" },
      tool_use_id: "toolu_01Twice",
    });
    assert.equal(denies.filter((r) => r.stdout.trim() !== "").length, 1);
    // One log line per event, from the one that answered.
    const log = Deno.readTextFileSync(join(world.stateRoot, "hooks", "skill-route.log"));
    assert.equal(log.trim().split("\n").length, 3, log);

    const lines = await doctorLines(world, { ...env, SKILLGATE_STATE_ROOT: world.stateRoot });
    assert.ok(
      lines.some((l) => /^WARN {4}installed twice: skill-route \(UserPromptSubmit\)/.test(l)),
      lines.join("\n"),
    );
  } finally {
    await world.cleanup();
  }
});

Deno.test("installed by setup and as the plugin (~/.claude beside ~/.skillgate): one state root, one routing line, one deny, one block; doctor says installed twice", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
  try {
    const out: string[] = [];
    const ctx = worldSetupContext(world, out);
    const parsed = parseSetupArgs(["--skill-routing"]);
    if ("error" in parsed) throw new Error(parsed.error);
    assert.equal(await runSetup(parsed, ctx), 0, out.join("\n"));
    const owned = listOwnedHooks(
      CLAUDE.hookFile.format,
      JSON.parse(Deno.readTextFileSync(join(world.claudeDir, "settings.json"))),
      skillgateOwner,
    );
    // The plugin, as the client runs it: the committed hooks.json, its variables, no shell.
    const data = join(world.claudeDir, "plugins", "data", "skillgate-skillgate");
    Deno.mkdirSync(data, { recursive: true });
    const vars = {
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PLUGIN_DATA: data,
      CLAUDE_PROJECT_DIR: world.projectDir,
    };
    const env = {
      HOME: world.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      CLAUDE_PROJECT_DIR: world.projectDir,
    };
    const plugin = async (args: string[], text: string) => {
      const child = new Deno.Command(Deno.execPath(), {
        args,
        cwd: world.projectDir,
        clearEnv: true,
        env: { ...env, ...vars },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(text));
      await w.close();
      const o = await child.output();
      const dec = new TextDecoder();
      return { code: o.code, stdout: dec.decode(o.stdout), stderr: dec.decode(o.stderr) };
    };
    const session = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
    const transcript = join(world.claudeDir, "projects", "-p", `${session}.jsonl`);
    Deno.mkdirSync(join(transcript, ".."), { recursive: true });
    Deno.copyFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"), transcript);
    const both = async (id: string, event: string, bundle: string, payload: object) => {
      const command = owned.filter((h) => h.event === event && h.hookId === id)
        .map((h) => h.command);
      assert.equal(command.length, 1, `${id} registered by setup`);
      const text = JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: world.projectDir,
        hook_event_name: event,
        ...payload,
      });
      const runs = await Promise.all([
        probeHook(command[0], text, { cwd: world.projectDir, env, timeoutMs: 30_000 }),
        plugin(pluginArgs(event, bundle, vars), text),
      ]);
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      for (const r of runs) assert.equal(r.stderr, "", `${id}: ${r.stderr}`);
      return runs.filter((r) => r.stdout.trim() !== "");
    };
    for (let i = 0; i < 3; i++) {
      const routed = await both("skill-route", "UserPromptSubmit", "skill_route.js", {
        prompt_id: `prompt-${i}`,
        prompt: "this test fails, fix it",
      });
      assert.equal(routed.length, 1, `prompt ${i}: one routing line, got ${routed.length}`);
    }
    const denied = await both("skill-redirect", "PreToolUse", "skill_redirect.js", {
      tool_name: "Skill",
      tool_input: { skill: "prompt-writer" },
      tool_use_id: "toolu_01Both",
    });
    assert.equal(denied.length, 1, "one deny");
    assert.match(denied[0].stdout, /"permissionDecision":"deny"/);
    const blocked = await both("skill-contract", "Stop", "skill_contract.js", {
      prompt_id: "prompt-stop",
      stop_hook_active: false,
    });
    assert.equal(blocked.length, 1, "one block");
    assert.match(blocked[0].stdout, /"decision":"block"/);
    // One state root: the record, the claims and every log line are in ~/.skillgate.
    const record = JSON.parse(
      Deno.readTextFileSync(join(world.stateRoot, "skill-contracts", `${session}.json`)),
    );
    assert.deepEqual(record.runs.map((r: { outcome: string }) => r.outcome), ["blocked"]);
    const lines = (file: string) =>
      Deno.readTextFileSync(join(world.stateRoot, "hooks", file)).trim().split("\n");
    assert.equal(lines("skill-route.log").length, 3, lines("skill-route.log").join("\n"));
    assert.equal(lines("skill-redirect.log").length, 1);
    assert.equal(lines("skill-contract.log").length, 1);
    assert.deepEqual([...Deno.readDirSync(data)], [], "nothing in the plugin's data dir");

    // Doctor finds the plugin (installed_plugins.json under the plugins folder) and setup's hooks.
    const plugins = join(world.claudeDir, "plugins");
    const install = join(plugins, "cache", "skillgate", "skillgate", "0.1.0");
    Deno.mkdirSync(join(install, ".."), { recursive: true });
    Deno.symlinkSync(REPO_ROOT, install);
    Deno.writeTextFileSync(
      join(plugins, "installed_plugins.json"),
      JSON.stringify({
        version: 2,
        plugins: { "skillgate@skillgate": [{ scope: "user", installPath: install }] },
      }),
    );
    const text = (await doctorLines(world, env)).join("\n");
    assert.match(text, /the skillgate plugin's hooks share this state root/, text);
    assert.match(
      text,
      /^WARN {4}installed twice: skill-route \(UserPromptSubmit\) .*each runs and one answers/m,
      text,
    );
    assert.doesNotMatch(text, /keep their state and config in/, text);
  } finally {
    await world.cleanup();
  }
});

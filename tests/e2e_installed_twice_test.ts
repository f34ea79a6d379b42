/**
 * skillgate installed twice (user settings and the project's), as a host runs it: both registered
 * commands of an event start at once with the same payload, and the model gets one routing line,
 * one deny; doctor says "installed twice".
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempWorld, worldSetupContext } from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { probeHook, runDoctor } from "../lib/install/doctor.ts";

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

    const lines: string[] = [];
    await runDoctor({
      stateRoot: world.stateRoot,
      claudeConfigDir: world.claudeDir,
      home: world.home,
      hostDirs: ctx.hostDirs,
      cwd: world.projectDir,
      env: { ...env, SKILLGATE_STATE_ROOT: world.stateRoot },
      slowMs: 60_000,
      print: (l) => lines.push(l),
    });
    assert.ok(
      lines.some((l) => /^WARN {4}installed twice: skill-route \(UserPromptSubmit\)/.test(l)),
      lines.join("\n"),
    );
  } finally {
    await world.cleanup();
  }
});

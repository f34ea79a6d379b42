/**
 * `setup --project` from the published package writes a `.claude/settings.json` a team commits:
 * no path of this machine in it (not Deno's, not the home's, not the package's on disk), and a
 * teammate's machine (another home, Deno somewhere else on its PATH, an empty Deno cache) runs the
 * committed hooks as they are. JSR is unreachable from tests, so the package is served by a local
 * file server (the `remote` source, as in `e2e_jsr_source_test.ts`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld, REPO_ROOT, serveRepo, worldSetupContext } from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { detectModuleSource } from "../lib/install/hook_commands.ts";
import { probeHook } from "../lib/install/doctor.ts";
import { redirectMessage } from "../lib/redirect/redirect.ts";
import { copyDir } from "./_helpers.ts";

Deno.test("setup --project from the package: a settings.json with no path of this machine, which another machine runs", async () => {
  const server = await serveRepo();
  const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
  try {
    const base = server.base;
    const source = detectModuleSource(`${base}lib/install/hook_commands.ts`);
    // The team's repository holds its own skills and agents.
    copyDir(join(FIXTURES, "routing", "skills"), join(world.projectDir, ".claude", "skills"));
    copyDir(join(FIXTURES, "world", "agents"), join(world.projectDir, ".claude", "agents"));
    const parsed = parseSetupArgs(["--project", "--skill-routing"]);
    if ("error" in parsed) throw new Error(parsed.error);
    const out: string[] = [];
    assert.equal(
      await runSetup(parsed, { ...worldSetupContext(world, out), source, precache: false }),
      0,
      out.join("\n"),
    );
    const file = join(world.projectDir, ".claude", "settings.json");
    const text = await Deno.readTextFile(file);
    assert.ok(out.some((l) => l.includes(`${file} holds no path of this machine`)), out.join("\n"));
    // No path of this machine: not the temp world (home, project, state root), not Deno's, not
    // the checkout's; and no process started per hook.
    for (const local of [world.root, Deno.execPath(), REPO_ROOT, "/root", "/home/"]) {
      assert.ok(!text.includes(local), `${local} in ${text}`);
    }
    assert.ok(!text.includes("$("), text);
    const hooks = listOwnedHooks(CLAUDE.hookFile.format, JSON.parse(text), skillgateOwner);
    assert.equal(hooks.length, 5, text);

    // Another machine: another home, Deno copied elsewhere and found on PATH, an empty cache.
    const other = await Deno.makeTempDir({ prefix: "skillgate-teammate-" });
    try {
      const bin = join(other, "tools", "bin");
      await Deno.mkdir(bin, { recursive: true });
      await Deno.copyFile(Deno.execPath(), join(bin, "deno"));
      await Deno.chmod(join(bin, "deno"), 0o755);
      const home = join(other, "home");
      await Deno.mkdir(join(home, ".claude"), { recursive: true });
      const env = {
        HOME: home,
        PATH: `${bin}:/usr/bin:/bin`,
        DENO_DIR: join(other, "deno-cache"),
        CLAUDE_PROJECT_DIR: world.projectDir,
        SKILLGATE_SKILL_ROUTING: "on",
      };
      const run = (event: string, payload: Record<string, unknown>) => {
        const hook = hooks.find((h) => h.event === event && h.hookId !== "skill-redirect-stop")!;
        return probeHook(
          hook.command,
          JSON.stringify({ session_id: "teammate-1", cwd: world.projectDir, ...payload }),
          { cwd: world.projectDir, env, timeoutMs: 60_000 },
        );
      };
      const routed = await run("UserPromptSubmit", {
        hook_event_name: "UserPromptSubmit",
        prompt: "this test fails, fix it",
        transcript_path: join(home, ".claude", "projects", "-p", "teammate-1.jsonl"),
      });
      assert.equal(routed.code, 0, routed.stderr);
      assert.equal(routed.stderr, "");
      assert.match(
        JSON.parse(routed.stdout).hookSpecificOutput.additionalContext,
        /fits the installed skill \/investigate/,
      );
      const denied = await run("PreToolUse", {
        hook_event_name: "PreToolUse",
        tool_name: "Skill",
        tool_input: { skill: "prompt-writer" },
        tool_use_id: "toolu_01Teammate",
        transcript_path: join(home, ".claude", "projects", "-p", "teammate-1.jsonl"),
      });
      assert.equal(denied.code, 0, denied.stderr);
      assert.equal(
        JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason,
        redirectMessage("prompt-writer", "claude"),
      );
      // Its state went to the teammate's own default state root.
      assert.ok((await Deno.stat(join(home, ".skillgate", "hooks"))).isDirectory);
    } finally {
      await Deno.remove(other, { recursive: true });
    }
  } finally {
    await server.stop();
    await world.cleanup();
  }
});

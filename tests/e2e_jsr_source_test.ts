/**
 * The JSR package ships the hook bundles, and `setup` run from a package URL registers them: the
 * hook command runs the pinned bundle's URL with the production permission flags (no network
 * grant; `setup` caches the module first). JSR is unreachable from tests, so the remote path is
 * walked against a local file server that serves this checkout: setup caches the bundles, the
 * server stops, and the registered commands still answer real payloads from Deno's cache.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import denoConfig from "../deno.json" with { type: "json" };
import {
  makeTempWorld,
  REPO_ROOT,
  serveRepo,
  type TempWorld,
  worldSetupContext,
} from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { detectModuleSource, type ModuleSource, shellSplit } from "../lib/install/hook_commands.ts";
import { probeHook } from "../lib/install/doctor.ts";
import type { CommandRunner } from "../lib/install/compile.ts";
import { HOOKS } from "../lib/hook/table.ts";
import { redirectMessage } from "../lib/redirect/redirect.ts";
import { coreBundle } from "../tools/gen.ts";

Deno.test("jsr: the package ships every hook bundle (deno publish --dry-run lists them)", async () => {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
  assert.equal(r.code, 0, text);
  for (const bundle of new Set(HOOKS.flatMap((h) => [h.bundle, coreBundle(h.bundle)]))) {
    assert.match(text, new RegExp(`/${bundle.replaceAll(".", "\\.")} \\(`), bundle);
  }
});

async function setupFrom(
  world: TempWorld,
  source: ModuleSource,
  runCommand: CommandRunner,
): Promise<string[]> {
  const parsed = parseSetupArgs(["--skill-routing"]);
  if ("error" in parsed) throw new Error(parsed.error);
  const out: string[] = [];
  const code = await runSetup(parsed, {
    ...worldSetupContext(world, out),
    source,
    precache: true,
    runCommand,
  });
  assert.equal(code, 0, out.join("\n"));
  const settings = JSON.parse(await Deno.readTextFile(join(world.claudeDir, "settings.json")));
  return listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner).map((h) => h.command);
}

Deno.test("jsr: setup run from jsr: registers the version's bundles with the production flags", async () => {
  const version = denoConfig.version;
  const source = detectModuleSource(
    `https://jsr.io/@skillgate/skillgate/${version}/lib/install/hook_commands.ts`,
  );
  assert.deepEqual(source, { kind: "jsr", version });
  const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
  try {
    const cached: string[][] = [];
    const commands = await setupFrom(world, source, (argv) => {
      cached.push([...argv]);
      return Promise.resolve({ code: 0, stderr: "" });
    });
    assert.equal(commands.length, HOOKS.length);
    const base = `https://jsr.io/@skillgate/skillgate/${version}/`;
    for (const command of commands) {
      const words = shellSplit(command)!;
      assert.equal(words[0], Deno.execPath());
      assert.deepEqual(words.slice(1, 5), ["run", "--quiet", "--no-prompt", "--no-config"]);
      assert.match(
        words.at(-1)!,
        new RegExp(`^${base.replaceAll(".", "\\.")}hooks/dist/\\w+\\.js$`),
      );
      assert.ok(
        !words.some((w) => /^(-A|--allow-all|--allow-net|--allow-run|--allow-ffi)/.test(w)),
      );
    }
    // Each bundle is cached before any hook runs: a hook never downloads under its grants.
    assert.deepEqual(cached, [[
      Deno.execPath(),
      "cache",
      "--no-config",
      ...new Set(HOOKS.map((h) => `${base}${h.bundle}`)),
    ]]);
  } finally {
    await world.cleanup();
  }
});

Deno.test("jsr: bundles registered from a package URL answer from Deno's cache once the server is gone", async () => {
  const server = await serveRepo();
  const stop = server.stop;
  const denoDir = await Deno.makeTempDir({ prefix: "skillgate-jsr-deno-dir-" });
  const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
  try {
    const base = server.base;
    const source = detectModuleSource(`${base}lib/install/hook_commands.ts`);
    assert.deepEqual(source, { kind: "remote", base });
    const commands = await setupFrom(world, source, async (argv) => {
      const r = await new Deno.Command(argv[0], {
        args: argv.slice(1),
        env: { DENO_DIR: denoDir },
        stdout: "null",
        stderr: "piped",
      }).output();
      return { code: r.code, stderr: new TextDecoder().decode(r.stderr) };
    });
    await stop();
    // The PreToolUse registration of the redirect (the Stop one runs the same bundle).
    const settings = JSON.parse(await Deno.readTextFile(join(world.claudeDir, "settings.json")));
    const pre = listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner)
      .find((h) => h.hookId === "skill-redirect")?.command;
    assert.ok(pre, commands.join("\n"));
    assert.equal(shellSplit(pre)!.at(-1), `${base}hooks/dist/skill_redirect.js`);
    const payload = {
      session_id: "jsr-remote-1",
      transcript_path: join(world.claudeDir, "projects", "-p", "jsr-remote-1.jsonl"),
      cwd: world.projectDir,
      hook_event_name: "PreToolUse",
      tool_name: "Skill",
      tool_input: { skill: "prompt-writer" },
      tool_use_id: "toolu_01Jsr",
    };
    const r = await probeHook(pre, JSON.stringify(payload), {
      cwd: world.projectDir,
      env: { HOME: world.home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: denoDir },
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: redirectMessage("prompt-writer", "claude"),
      },
    });
  } finally {
    await stop();
    await world.cleanup();
    await Deno.remove(denoDir, { recursive: true });
  }
});

/**
 * End to end: a session whose working directory is a subfolder of a git project, whose skills are
 * in the project root's `.claude/skills`. Claude Code loads them (it searches `.claude/skills`
 * from the cwd up to the repository root), so the hooks must see them too, under exactly the
 * flags they are registered with: the commands `skillgate setup` writes into settings.json and the
 * Copilot hook file (run as the host does, `sh -c`), and the plugin's `hooks/hooks.json` (exec
 * form, placeholders filled as Claude Code fills them). No hook may print a permission line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  copyDir,
  FIXTURES,
  makeTempWorld,
  readLog,
  REPO_ROOT,
  type TempWorld,
  worldSetupContext,
} from "./_helpers.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "../lib/install/setup.ts";
import { listOwnedHooks } from "../lib/host/hook_file.ts";
import { CLAUDE } from "../lib/host/claude.ts";
import { COPILOT } from "../lib/host/copilot.ts";
import { probeHook } from "../lib/install/doctor.ts";
import { redirectMessage } from "../lib/redirect/redirect.ts";
import { SWITCH_ENV } from "../lib/base/config.ts";
import type { PluginHooksFile } from "../lib/install/claude_plugin.ts";

for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);

/** The personal skills (the fixture's) plus the two at the project root. */
const ALL_SKILLS = [...Deno.readDirSync(join(FIXTURES, "world", "skills"))].length + 2;

interface Project {
  readonly world: TempWorld;
  /** The session's working directory: `<project>/packages/app`. */
  readonly sub: string;
}

async function withProject(fn: (p: Project) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
  try {
    const git = await new Deno.Command("git", { args: ["init", "-q", world.projectDir] }).output();
    assert.equal(git.code, 0, "git init");
    const skills = join(world.projectDir, ".claude", "skills");
    // A project skill routing should find, and one named like an agent (skills take precedence).
    Deno.mkdirSync(join(skills, "translate"), { recursive: true });
    Deno.writeTextFileSync(
      join(skills, "translate", "SKILL.md"),
      "---\nname: translate\ntriggers:\n  - translate the strings\n---\n1. Find the strings.\n",
    );
    Deno.mkdirSync(join(skills, "architect"));
    Deno.writeTextFileSync(join(skills, "architect", "SKILL.md"), "---\nname: architect\n---\n");
    const sub = join(world.projectDir, "packages", "app");
    Deno.mkdirSync(sub, { recursive: true });
    await fn({ world, sub });
  } finally {
    await world.cleanup();
  }
}

function writeConfig(stateRoot: string): void {
  Deno.mkdirSync(stateRoot, { recursive: true });
  Deno.writeTextFileSync(join(stateRoot, "config.yaml"), "route_skills: translate,investigate\n");
}

async function install(world: TempWorld, flags: string[]): Promise<void> {
  const parsed = parseSetupArgs(flags);
  if ("error" in parsed) throw new Error(parsed.error);
  const out: string[] = [];
  const code = await runSetup(parsed, {
    ...worldSetupContext(world, out),
  });
  assert.equal(code, 0, out.join("\n"));
  writeConfig(world.stateRoot);
}

function env(world: TempWorld, extra: Record<string, string>): Record<string, string> {
  return {
    HOME: world.home,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    SKILLGATE_SKILL_ROUTING: "on",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...extra,
  };
}

function claudePayload(p: Project, event: "UserPromptSubmit" | "PreToolUse"): string {
  const base = {
    session_id: "sess-sub",
    transcript_path: join(p.world.claudeDir, "projects", "p", "sess-sub.jsonl"),
    cwd: p.sub,
    permission_mode: "default",
    hook_event_name: event,
  };
  return JSON.stringify(
    event === "UserPromptSubmit"
      ? { ...base, prompt_id: "p-1", prompt: "please translate the strings of the settings page" }
      : {
        ...base,
        tool_name: "Skill",
        tool_input: { skill: "architect" },
        tool_use_id: "toolu_sub",
      },
  );
}

function copilotPayload(p: Project, event: "userPromptSubmitted" | "preToolUse"): string {
  const base = { sessionId: "cop-sub", timestamp: 1, cwd: p.sub };
  return JSON.stringify(
    event === "userPromptSubmitted"
      ? { ...base, prompt: "please translate the strings of the settings page" }
      : { ...base, toolName: "skill", toolArgs: { skill: "architect" } },
  );
}

/** What a run must show: routed to the project skill, the agent-named skill passed, no stderr. */
function check(
  label: string,
  event: string,
  r: { code: number | null; stdout: string; stderr: string },
): void {
  assert.equal(r.code, 0, `${label}: ${r.stderr}`);
  assert.equal(r.stderr, "", `${label}: no permission line, no stderr at all`);
  if (/prompt/i.test(event)) {
    assert.match(r.stdout, /\/translate/, `${label}: routes to the project root's skill`);
  } else {
    assert.equal(r.stdout, "", `${label}: architect is a project skill, not denied`);
  }
}

function assertSawAll(stateRoot: string, label: string): void {
  const log = readLog({ stateRoot } as TempWorld, "skill-route.log");
  assert.match(log, new RegExp(` skills=${ALL_SKILLS} `), `${label}: every skill seen\n${log}`);
  const redirect = readLog({ stateRoot } as TempWorld, "skill-redirect.log");
  assert.match(redirect, /reason=is-skill .*name=architect/, `${label}\n${redirect}`);
}

Deno.test("e2e: setup's settings.json commands see the project root's skills from a subfolder", async () => {
  await withProject(async (p) => {
    await install(p.world, ["--skill-routing"]);
    const settings = JSON.parse(Deno.readTextFileSync(join(p.world.claudeDir, "settings.json")));
    const hooks = listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner);
    for (const id of ["skill-route", "skill-redirect"]) {
      const hook = hooks.find((h) => h.hookId === id)!;
      const event = id === "skill-route" ? "UserPromptSubmit" : "PreToolUse";
      const r = await probeHook(hook.command, claudePayload(p, event), {
        cwd: p.sub,
        env: env(p.world, { CLAUDE_PROJECT_DIR: p.world.projectDir }),
        timeoutMs: 30_000,
      });
      check(`settings.json ${id}`, event, r);
    }
    assertSawAll(p.world.stateRoot, "settings.json");
  });
});

Deno.test("e2e: setup's Copilot CLI commands find the git root without CLAUDE_PROJECT_DIR", async () => {
  await withProject(async (p) => {
    // Copilot CLI reads personal skills from its own home (not ~/.claude/skills), and a project's
    // .claude/skills as Claude Code does.
    copyDir(join(FIXTURES, "world", "skills"), join(p.world.home, ".copilot", "skills"));
    copyDir(join(FIXTURES, "world", "agents"), join(p.world.home, ".copilot", "agents"));
    await install(p.world, ["--copilot", "--skill-routing"]);
    const path = join(p.world.home, ".copilot", "hooks", "skillgate.json");
    const hooks = listOwnedHooks(
      COPILOT.hookFile.format,
      JSON.parse(Deno.readTextFileSync(path)),
      skillgateOwner,
    );
    for (const id of ["skill-route", "skill-redirect"]) {
      const hook = hooks.find((h) => h.hookId === id)!;
      const event = id === "skill-route" ? "userPromptSubmitted" : "preToolUse";
      const r = await probeHook(hook.command, copilotPayload(p, event), {
        cwd: p.sub,
        env: env(p.world, {}),
        timeoutMs: 30_000,
      });
      check(`copilot ${id}`, event, r);
    }
    assertSawAll(p.world.stateRoot, "copilot");
  });
});

Deno.test("e2e: the plugin's hooks.json commands see the project root's skills from a subfolder", async () => {
  await withProject(async (p) => {
    const data = join(p.world.claudeDir, "plugins", "data", "skillgate-inline");
    // ~/.claude beside ~/.skillgate: the plugin's hooks keep their state in the user's root.
    writeConfig(p.world.stateRoot);
    const vars: Record<string, string> = {
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PLUGIN_DATA: data,
      CLAUDE_PROJECT_DIR: p.world.projectDir,
    };
    const fill = (s: string) => s.replace(/\$\{(CLAUDE_[A-Z_]+)\}/g, (m, k) => vars[k] ?? m);
    const file = JSON.parse(
      Deno.readTextFileSync(join(REPO_ROOT, "hooks", "hooks.json")),
    ) as PluginHooksFile;
    for (const event of ["UserPromptSubmit", "PreToolUse"] as const) {
      const handler = file.hooks[event][0].hooks[0];
      assert.equal(handler.command, "deno");
      // Exec form: the client spawns the command with the filled arguments, no shell.
      const child = new Deno.Command(Deno.execPath(), {
        args: handler.args.map(fill),
        cwd: p.sub,
        clearEnv: true,
        env: env(p.world, vars),
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(claudePayload(p, event)));
      await writer.close();
      const out = await child.output();
      check(`plugin ${event}`, event, {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      });
    }
    assertSawAll(p.world.stateRoot, "plugin");
  });
});

Deno.test("e2e: a redirect of an agent that no project skill shadows still denies from a subfolder", async () => {
  await withProject(async (p) => {
    await install(p.world, []);
    const settings = JSON.parse(Deno.readTextFileSync(join(p.world.claudeDir, "settings.json")));
    const hook = listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner).find((h) =>
      h.hookId === "skill-redirect"
    )!;
    const payload = JSON.parse(claudePayload(p, "PreToolUse"));
    payload.tool_input = { skill: "guide" };
    const r = await probeHook(hook.command, JSON.stringify(payload), {
      cwd: p.sub,
      env: env(p.world, { CLAUDE_PROJECT_DIR: p.world.projectDir }),
      timeoutMs: 30_000,
    });
    assert.equal(r.stderr, "");
    assert.deepEqual(JSON.parse(r.stdout), {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: redirectMessage("guide", "claude"),
      },
    });
  });
});

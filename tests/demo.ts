/**
 * `deno task demo`: runs the real hook scripts, under their production permission flags, on the
 * project's own fixtures, in a temporary home that is removed afterwards:
 *
 * 1. a prompt routed by the UserPromptSubmit hook,
 * 2. a skill contract blocked at Stop, then met after the block,
 * 3. a Skill call that names an agent, redirected (PreToolUse for Copilot CLI and Claude Code, and
 *    the Stop fallback for current Claude Code, which rejects the call before PreToolUse).
 *
 * @module
 */

import { join } from "../lib/base/path.ts";
import { FIXTURES, makeTempWorld, readLog, runHookProcess, type TempWorld } from "./_helpers.ts";
import type { HookId } from "../lib/hook/table.ts";
import type { HostFolders } from "../lib/host/host.ts";
import { COPILOT } from "../lib/host/copilot.ts";

/** Bold only on a terminal (never into a pipe or file) and unless NO_COLOR is set. */
const color = !Deno.noColor && Deno.stdout.isTerminal();
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[0m` : s);

function show(title: string): void {
  console.log(`\n${bold(`== ${title}`)}`);
}

async function hook(
  id: HookId,
  payload: Record<string, unknown>,
  world: TempWorld,
  env = {},
  host?: HostFolders,
) {
  const run = await runHookProcess(id, payload, { world, env, ...(host ? { host } : {}) });
  const flags = run.args.filter((a) => a.startsWith("--")).map((a) => a.replace(/=.*/, "=…"));
  console.log(
    `$ deno run ${flags.join(" ")} ${run.args.at(-1)?.replace(/^.*\/hooks\//, "hooks/")}`,
  );
  console.log(
    `  stdin:  ${JSON.stringify(payload).slice(0, 160)}${
      JSON.stringify(payload).length > 160 ? "…" : ""
    }`,
  );
  console.log(`  exit ${run.code}; stdout: ${run.stdout.trim() || "(nothing: pass through)"}`);
  if (run.stderr) console.log(`  stderr: ${run.stderr}`);
  return run;
}

function placeTranscript(world: TempWorld, fixture: string, sessionId: string): string {
  const dir = join(world.claudeDir, "projects", world.projectDir.replace(/[^A-Za-z0-9]/g, "-"));
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `${sessionId}.jsonl`);
  Deno.copyFileSync(join(FIXTURES, "transcripts", fixture), path);
  return path;
}

const world = await makeTempWorld({ skills: ["world/skills"], agents: ["world/agents"] });
let failures = 0;
const expect = (ok: boolean, what: string) => {
  console.log(ok ? `  ok: ${what}` : `  NOT OK: ${what}`);
  if (!ok) failures++;
};
try {
  show("1. Skill routing (UserPromptSubmit), switch turned on for the demo");
  const routed = await hook(
    "skill-route",
    {
      session_id: "demo-route",
      cwd: world.projectDir,
      hook_event_name: "UserPromptSubmit",
      prompt: "this test fails, fix it",
    },
    world,
    { SKILLGATE_SKILL_ROUTING: "on" },
  );
  expect(
    JSON.stringify(routed.json ?? {}).includes("/investigate"),
    "the prompt is routed to /investigate",
  );
  const slash = await hook(
    "skill-route",
    {
      session_id: "demo-route",
      cwd: world.projectDir,
      hook_event_name: "UserPromptSubmit",
      prompt: "/review the diff",
    },
    world,
    { SKILLGATE_SKILL_ROUTING: "on" },
  );
  expect(slash.stdout === "", "a /command prompt is never routed");
  console.log(`  log: ${readLog(world, "skill-route.log").trim().split("\n").join("\n       ")}`);

  show("2. Skill contract (Stop): /investigate edited a file and stopped without its report");
  const session = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
  const transcript = placeTranscript(world, "investigate_unmet.jsonl", session);
  const stop = {
    session_id: session,
    transcript_path: transcript,
    cwd: world.projectDir,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Fixed: the null check was missing.",
  };
  const blocked = await hook("skill-contract", stop, world);
  expect((blocked.json as { decision?: string })?.decision === "block", "the stop is blocked once");
  placeTranscript(world, "investigate_met.jsonl", session);
  const met = await hook("skill-contract", {
    ...stop,
    stop_hook_active: true,
    last_assistant_message: undefined,
  }, world);
  expect(met.stdout === "", "after the test run and the DEBUG REPORT the stop goes through");
  const record = Deno.readTextFileSync(join(world.stateRoot, "skill-contracts", `${session}.json`));
  expect(record.includes("met_after_block"), "the record says met_after_block");

  show("3. Skill-to-agent redirect");
  for (
    const [label, payload] of [
      ["Claude Code PreToolUse", {
        session_id: "demo-redirect",
        cwd: world.projectDir,
        hook_event_name: "PreToolUse",
        tool_name: "Skill",
        tool_input: { skill: "prompt-writer" },
        tool_use_id: "toolu_demo",
      }],
      ["Copilot CLI preToolUse", {
        sessionId: "demo-redirect",
        timestamp: 1,
        cwd: world.projectDir,
        toolName: "skill",
        toolArgs: { skill: "prompt-writer" },
      }],
    ] as const
  ) {
    console.log(`  (${label})`);
    // Copilot CLI's hooks read Copilot's own folders (as `setup --copilot` grants them): the agent
    // is installed there too.
    const copilot = label.startsWith("Copilot")
      ? { configDir: join(world.home, ".copilot"), home: world.home, layout: COPILOT.layout }
      : undefined;
    if (copilot) {
      const agents = join(copilot.configDir, COPILOT.layout.userAgents!);
      Deno.mkdirSync(agents, { recursive: true });
      Deno.copyFileSync(
        join(FIXTURES, "world", "agents", "specialized", "prompt-writer.md"),
        join(agents, "prompt-writer.agent.md"),
      );
    }
    const denied = await hook(
      "skill-redirect",
      payload as Record<string, unknown>,
      world,
      {},
      copilot,
    );
    expect(denied.stdout.includes('"deny"'), `${label}: Skill(prompt-writer) is denied`);
  }
  const real = await hook("skill-redirect", {
    session_id: "demo-redirect",
    cwd: world.projectDir,
    hook_event_name: "PreToolUse",
    tool_name: "Skill",
    tool_input: { skill: "default-workflow" },
  }, world);
  expect(real.stdout === "", "a real skill passes");
  const fallbackTranscript = placeTranscript(
    world,
    "redirect_unknown_skill.jsonl",
    "5f0c2a1e-redirect-fixture",
  );
  const fallback = await hook("skill-redirect-stop", {
    session_id: "5f0c2a1e-redirect-fixture",
    transcript_path: fallbackTranscript,
    cwd: world.projectDir,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "The requirements are written down above.",
  }, world);
  expect(
    (fallback.json as { decision?: string })?.decision === "block",
    "Stop fallback: the Unknown skill call is redirected once",
  );
} finally {
  await world.cleanup();
}
console.log(
  failures === 0 ? "\ndemo: every step did what it says" : `\ndemo: ${failures} step(s) did not`,
);
Deno.exitCode = failures === 0 ? 0 : 1;

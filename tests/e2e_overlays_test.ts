/**
 * End to end: overlay files (`<state root>/skills.yaml`, `<project>/.skillgate/skills.yaml`) give
 * an installed skill that declares neither triggers nor a contract both, and the hooks honour them
 * under exactly the flags `skillgate setup` registers (its settings.json commands, run as Claude
 * Code runs them, `sh -c`): the routing hook routes on the overlay's trigger (`route: true` beats
 * `route_skills`), and the Stop hook blocks once naming the overlay's contract item. The project's
 * file wins over the user's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempWorld, runRegisteredHook, type TempWorld, worldSetupContext } from "./_helpers.ts";
import { parseSetupArgs, runSetup } from "../lib/install/setup.ts";
import { SWITCH_ENV } from "../lib/base/config.ts";
import { jsonl, say, skillLoad, user } from "../fixtures/transcripts/_build.ts";

for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);

const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";

/** The user's overlay: triggers, `route: true` and a contract for `debugging`. */
const USER_OVERLAY = `# my overlays
debugging:
  triggers: [chase the flaky login]
  route: true
  contract:
    version: 1
    items:
      - id: root-cause
        kind: report_labels
        heading: ROOT CAUSE
        labels: [Cause, Evidence]
        fix: print the ROOT CAUSE with Cause and Evidence
`;

async function withWorld(fn: (world: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    // An installed skill that declares no triggers and no contract (as most public skills do).
    const dir = join(world.claudeDir, "skills", "debugging");
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(
      join(dir, "SKILL.md"),
      "---\nname: debugging\ndescription: Use when a bug needs its cause found.\n---\n" +
        "1. Reproduce the bug.\n",
    );
    const parsed = parseSetupArgs(["--skill-routing"]);
    if ("error" in parsed) throw new Error(parsed.error);
    const out: string[] = [];
    assert.equal(await runSetup(parsed, worldSetupContext(world, out)), 0, out.join("\n"));
    Deno.writeTextFileSync(join(world.stateRoot, "skills.yaml"), USER_OVERLAY);
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

function run(world: TempWorld, id: string, payload: Record<string, unknown>) {
  return runRegisteredHook(world, id, payload);
}

function prompt(world: TempWorld, text: string): Record<string, unknown> {
  return {
    session_id: SESSION,
    transcript_path: join(world.claudeDir, "projects", "p", `${SESSION}.jsonl`),
    cwd: world.projectDir,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt_id: "p-1",
    prompt: text,
  };
}

/** A transcript where `debugging` ran and ended without its report; the Stop payload over it. */
function stopPayload(world: TempWorld, active = false): Record<string, unknown> {
  const path = join(world.claudeDir, "projects", "p", `${SESSION}.jsonl`);
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(
    path,
    jsonl([
      user("the login test is flaky, chase the flaky login"),
      ...skillLoad("toolu_dbg", "debugging", join(world.claudeDir, "skills", "debugging")),
      say("Done: the login test waits for the session now."),
    ]),
  );
  return {
    session_id: SESSION,
    transcript_path: path,
    cwd: world.projectDir,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: active,
    last_assistant_message: "Done: the login test waits for the session now.",
  };
}

Deno.test("e2e: a user overlay's trigger routes a skill that has none, under setup's command", async () => {
  await withWorld(async (world) => {
    const r = await run(world, "skill-route", prompt(world, "please chase the flaky login"));
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(context, /the installed skill \/debugging\b/);
    // Without the overlay the skill has no trigger: it is not routed to.
    Deno.removeSync(join(world.stateRoot, "skills.yaml"));
    const none = await run(world, "skill-route", prompt(world, "please chase the flaky login"));
    assert.doesNotMatch(none.stdout, /\/debugging/);
  });
});

Deno.test("e2e: the Stop hook blocks once naming the user overlay's contract item", async () => {
  await withWorld(async (world) => {
    const first = await run(world, "skill-contract", stopPayload(world));
    const answer = JSON.parse(first.stdout) as { decision: string; reason: string };
    assert.equal(answer.decision, "block");
    assert.match(
      answer.reason,
      /^SKILL_CONTRACT_UNMET debugging \(contract v1\): missing root-cause\./,
    );
    assert.match(answer.reason, /Fix: root-cause: print the ROOT CAUSE with Cause and Evidence/);
    const again = await run(world, "skill-contract", stopPayload(world, true));
    assert.equal(again.stdout, "", "blocks once");
  });
});

Deno.test("e2e: the project's overlay wins over the user's, read under setup's grants", async () => {
  await withWorld(async (world) => {
    const dir = join(world.projectDir, ".skillgate");
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(
      join(dir, "skills.yaml"),
      "debugging:\n  triggers: [untangle the release train]\n  contract:\n    version: 1\n" +
        "    items:\n      - {id: project-check, kind: report_labels, heading: CHECK, labels: [Ran]}\n",
    );
    const routed = await run(world, "skill-route", prompt(world, "untangle the release train"));
    assert.match(routed.stdout, /\/debugging/);
    // The user's trigger is replaced by the project's; the user's `route: true` still applies.
    const old = await run(world, "skill-route", prompt(world, "please chase the flaky login"));
    assert.doesNotMatch(old.stdout, /\/debugging/);
    const blocked = await run(world, "skill-contract", stopPayload(world));
    assert.match(JSON.parse(blocked.stdout).reason, /missing project-check\./);
  });
});

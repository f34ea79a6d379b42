/**
 * End to end: config `contract_packs` gives an installed superpowers skill, which declares no
 * contract, its built-in pack contract (`lib/routing/pack_contracts.ts`), and the Stop hook
 * honours it under exactly the command `skillgate setup` registers (run as Claude Code runs it,
 * `sh -c`): it blocks once naming the pack's item. Without the key, or for a private skill of the
 * same name with its own text, nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempWorld, runRegisteredHook, type TempWorld, worldSetupContext } from "./_helpers.ts";
import { parseSetupArgs, runSetup } from "../lib/install/setup.ts";
import { SWITCH_ENV, writeConfigValue } from "../lib/base/config.ts";
import { jsonl, say, skillLoad, user } from "../fixtures/transcripts/_build.ts";

for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);

const SESSION = "7c1d3e8f-2a4b-4d5c-8f6a-1b2c3d4e5f60";

/** The opening of superpowers' writing-plans description, as its entry matches it. */
const PACK_TEXT =
  "Use when you have a spec or requirements for a multi-step task, before touching code";

async function withWorld(
  description: string,
  fn: (world: TempWorld) => Promise<void>,
): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    const dir = join(world.claudeDir, "skills", "writing-plans");
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(
      join(dir, "SKILL.md"),
      `---\nname: writing-plans\ndescription: ${description}\n---\n1. Write the plan.\n`,
    );
    const parsed = parseSetupArgs([]);
    if ("error" in parsed) throw new Error(parsed.error);
    const out: string[] = [];
    assert.equal(await runSetup(parsed, worldSetupContext(world, out)), 0, out.join("\n"));
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

let stops = 0;

async function stop(world: TempWorld, active = false) {
  // Each stop its own event: the same payload twice is one event answered once (`event_claim.ts`).
  const text = `Here is the plan (${++stops}): 1. add the flag 2. write the exporter.`;
  // A run of writing-plans that ends without saving the plan.
  const path = join(world.claudeDir, "projects", "p", `${SESSION}.jsonl`);
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(
    path,
    jsonl([
      user("plan the export feature"),
      ...skillLoad("toolu_wp", "writing-plans", join(world.claudeDir, "skills", "writing-plans")),
      say(text),
    ]),
  );
  const payload = {
    session_id: SESSION,
    transcript_path: path,
    cwd: world.projectDir,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: active,
    last_assistant_message: text,
  };
  return await runRegisteredHook(world, "skill-contract", payload);
}

Deno.test("e2e: with contract_packs superpowers the Stop hook blocks once naming the pack's item", async () => {
  await withWorld(PACK_TEXT, async (world) => {
    // Without the key the skill has no contract: nothing (the view is written by this stop).
    assert.equal((await stop(world)).stdout, "", "no contract without contract_packs");
    writeConfigValue("contract_packs", "superpowers", world.stateRoot);
    const first = await stop(world);
    const answer = JSON.parse(first.stdout) as { decision: string; reason: string };
    assert.equal(answer.decision, "block");
    assert.match(
      answer.reason,
      /^SKILL_CONTRACT_UNMET writing-plans \(contract v1\): missing plan-saved\./,
    );
    assert.equal((await stop(world, true)).stdout, "", "blocks once");
    // Turned off again: the view written with the pack's contracts keeps them only for the packs
    // the config names.
    writeConfigValue("contract_packs", "none", world.stateRoot);
    assert.equal((await stop(world)).stdout, "");
  });
});

Deno.test("e2e: contract_packs leaves a private skill of the same name with its own text alone", async () => {
  await withWorld("Our team's planning template for quarterly roadmaps", async (world) => {
    writeConfigValue("contract_packs", "superpowers", world.stateRoot);
    assert.equal((await stop(world)).stdout, "");
  });
});

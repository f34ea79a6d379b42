/**
 * Skills served by MCP servers: Claude Code 2.1.332 lists them as `server:skill`, with no SKILL.md
 * on disk, and its PreToolUse for such a Skill call carries `mcp_server`
 * (`reference/clients-2026-12.md`). skillgate knows nothing of such a skill: the redirect lets the
 * call through even when an agent has the bare name, and the contract hook does not hold the run
 * to the contract of a local skill of the bare name. Both say why in their logs.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld, readLog, runHookProcess, type TempWorld } from "./_helpers.ts";

const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";

async function withWorld(fn: (world: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: ["world/skills"], agents: ["host/agents"] });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

Deno.test("redirect: a Skill call for an MCP server's skill passes, even when an agent has its bare name", async () => {
  await withWorld(async (world) => {
    const payload = {
      ...JSON.parse(
        Deno.readTextFileSync(join(FIXTURES, "payloads", "redirect_claude_skill_agent.json")),
      ),
      cwd: world.projectDir,
      tool_input: { skill: "docs:prompt-writer" },
      mcp_server: "docs",
    };
    const r = await runHookProcess("skill-redirect", payload, { world });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
    assert.match(readLog(world, "skill-redirect.log"), /outcome=pass reason=mcp-skill /);
    // The same call without the MCP marker, for the agent's own name, is denied.
    const plain = await runHookProcess("skill-redirect", {
      ...payload,
      tool_input: { skill: "prompt-writer" },
      mcp_server: undefined,
    }, { world });
    assert.match(plain.stdout, /is an agent, not a skill/);
  });
});

Deno.test("contracts: a run of an MCP server's skill is not held to the contract of a local skill of the same bare name", async () => {
  await withWorld(async (world) => {
    const path = join(world.claudeDir, "projects", "-work-project", `${SESSION}.jsonl`);
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    // The unmet investigate run, its Skill call naming `docs:investigate` (an MCP skill: no
    // SKILL.md, so no base directory record).
    const lines = Deno.readTextFileSync(join(FIXTURES, "transcripts", "stop_unmet.jsonl"))
      .split("\n").filter((l) => !l.includes("Base directory for this skill"))
      .map((l) =>
        l.replace('"skill":"investigate"', '"skill":"docs:investigate"')
          .replace("Launching skill: investigate", "Launching skill: docs:investigate")
      );
    Deno.writeTextFileSync(path, lines.join("\n"));
    const payload = {
      ...JSON.parse(Deno.readTextFileSync(join(FIXTURES, "payloads", "stop_claude.json"))),
      transcript_path: path,
      cwd: world.projectDir,
    };
    const r = await runHookProcess("skill-contract", payload, { world });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "", "no block");
    assert.match(readLog(world, "skill-contract.log"), /outcome=allow reason=mcp-skill$/m);
  });
});

/**
 * Every hook bundle is served from V8's code cache from its second run on, the core its front
 * imports included. Deno stores a module's code cache from a task of its event loop: a process that
 * ended before that task ran would never store one, and every call would compile the module again
 * (several ms of a hook; docs/benchmarks.md). Run on an empty `DENO_DIR`, with the
 * production flags and Deno's debug log, which names each cache hit.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type HookId, hookRow } from "../lib/hook/table.ts";
import { finalTextOf } from "../bench/fixtures.ts";
import { coreBundle } from "../tools/gen.ts";
import { makeTempWorld, REPO_ROOT, runHookProcess } from "./_helpers.ts";

const ON = {
  SKILLGATE_SKILL_ROUTING: "on",
  SKILLGATE_SKILL_CONTRACTS: "on",
  SKILLGATE_SKILL_REDIRECT: "on",
};

const CASES: {
  id: HookId;
  payload: (project: string, claudeDir: string) => Record<string, unknown>;
}[] = [
  {
    id: "skill-route",
    payload: (cwd) => ({
      session_id: "cache-1",
      cwd,
      hook_event_name: "UserPromptSubmit",
      prompt: "why is this broken, fix this bug",
    }),
  },
  {
    id: "skill-redirect",
    payload: (cwd) => ({
      session_id: "cache-1",
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Skill",
      tool_input: { skill: "prompt-writer" },
      tool_use_id: "toolu_cache",
    }),
  },
  {
    id: "skill-contract",
    payload: (cwd, claudeDir) => ({
      session_id: "cache-1",
      cwd,
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: finalTextOf("stop_met"),
      transcript_path: transcriptIn(claudeDir),
    }),
  },
];

/** A finished session's transcript in the world's Claude Code projects folder. */
function transcriptIn(claudeDir: string): string {
  const path = join(claudeDir, "projects", "-cache", "cache-1.jsonl");
  Deno.mkdirSync(join(claudeDir, "projects", "-cache"), { recursive: true });
  Deno.copyFileSync(join(REPO_ROOT, "fixtures", "transcripts", "stop_met.jsonl"), path);
  return path;
}

for (const c of CASES) {
  Deno.test(`${c.id}: the second run takes the front and its core from V8's code cache`, async () => {
    const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
    const denoDir = await Deno.makeTempDir({ prefix: "skillgate-code-cache-" });
    try {
      const row = hookRow(c.id);
      const env = { ...ON, DENO_DIR: denoDir, DENO_LOG: "debug" };
      const hits = (stderr: string) =>
        [row.bundle, coreBundle(row.bundle)].filter((b) =>
          stderr.includes(`V8 code cache hit for ES module: file://${join(REPO_ROOT, b)},`)
        );
      const first = await runHookProcess(c.id, c.payload(world.projectDir, world.claudeDir), {
        world,
        env,
      });
      assert.equal(first.code, 0, first.stderr.slice(-2000));
      assert.deepEqual(hits(first.stderr), [], "an empty cache has nothing to hit");
      const second = await runHookProcess(c.id, c.payload(world.projectDir, world.claudeDir), {
        world,
        env,
      });
      assert.equal(second.code, 0);
      assert.deepEqual(hits(second.stderr), [row.bundle, coreBundle(row.bundle)]);
    } finally {
      await Deno.remove(denoDir, { recursive: true });
      await world.cleanup();
    }
  });
}

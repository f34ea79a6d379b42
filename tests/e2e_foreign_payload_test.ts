/**
 * Clients that start skillgate's Claude Code hooks with payloads of their own: Cursor (once its
 * third-party hooks are on, it runs the hooks in `~/.claude/settings.json` with Cursor's payloads:
 * `conversation_id`, `workspace_roots`, its own camelCase event names) and VS Code's agent hooks
 * (`sessionId`, `hookEventName`, snake_case tool fields). The fixtures in
 * `fixtures/payloads/foreign/` are written from those clients' published hook documentation
 * (`cursor.com/docs/hooks`, `cursor.com/docs/reference/third-party-hooks`,
 * `code.visualstudio.com/docs/agents/reference/hooks-reference`), with contents chosen so that a
 * hook that read them as Claude Code's would act: a prompt that routes, a call that names an agent
 * as a skill, a stop whose transcript holds an unmet contract.
 *
 * Every hook, spawned under its production flags, must pass each one through: exit 0, no stdout,
 * exactly one stderr line, no contract record, no route logged.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld, readLog, runHookProcess, type TempWorld } from "./_helpers.ts";
import type { HookId } from "../lib/hook/table.ts";

const FOREIGN = join(FIXTURES, "payloads", "foreign");
const HOOKS: readonly HookId[] = [
  "skill-route",
  "skill-contract",
  "skill-redirect",
  "skill-redirect-stop",
];

/** Every fixture, by file name. */
function fixtures(): string[] {
  return [...Deno.readDirSync(FOREIGN)].filter((e) => e.name.endsWith(".json")).map((e) => e.name)
    .sort();
}

/**
 * A fixture with its paths moved into the world: the project, and a transcript that holds an
 * investigate run whose contract is unmet (as a Claude Code transcript).
 */
function placed(world: TempWorld, name: string, transcript: string): Record<string, unknown> {
  const p = JSON.parse(Deno.readTextFileSync(join(FOREIGN, name))) as Record<string, unknown>;
  if ("cwd" in p) p.cwd = world.projectDir;
  if ("workspace_roots" in p) p.workspace_roots = [world.projectDir];
  if ("transcript_path" in p) p.transcript_path = transcript;
  if (p.tool_input && typeof p.tool_input === "object") {
    const input = p.tool_input as Record<string, unknown>;
    if (typeof input.file_path === "string") {
      input.file_path = join(world.projectDir, ".claude", "skills", "prompt-writer", "SKILL.md");
    }
  }
  return p;
}

function records(world: TempWorld): string[] {
  try {
    return [...Deno.readDirSync(join(world.stateRoot, "skill-contracts"))].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test("the fixtures cover Cursor's and VS Code's prompt, tool and stop events", () => {
  const names = fixtures();
  for (
    const want of [
      "cursor_before_submit_prompt.json",
      "cursor_pre_tool_use_task.json",
      "cursor_stop.json",
      "vscode_user_prompt_submit.json",
      "vscode_pre_tool_use_skill.json",
      "vscode_stop.json",
    ]
  ) assert.ok(names.includes(want), want);
});

for (const name of fixtures()) {
  Deno.test(`every hook passes ${name} through: exit 0, no output, one stderr line, no record, no route`, async () => {
    const world = await makeTempWorld({ skills: ["host/skills"], agents: ["host/agents"] });
    try {
      const transcript = join(world.root, "transcript.jsonl");
      await Deno.copyFile(join(FIXTURES, "transcripts", "investigate_unmet.jsonl"), transcript);
      for (const id of HOOKS) {
        const r = await runHookProcess(id, placed(world, name, transcript), {
          world,
          env: { SKILLGATE_SKILL_ROUTING: "on", SKILLGATE_HEADLESS: "headless" },
        });
        assert.equal(r.code, 0, `${id}: exit code`);
        assert.equal(r.stdout, "", `${id}: stdout`);
        const lines = r.stderr.split("\n").filter((l) => l !== "");
        assert.equal(lines.length, 1, `${id}: stderr ${JSON.stringify(r.stderr)}`);
        const client = name.startsWith("cursor") ? "Cursor" : "VS Code";
        assert.equal(
          lines[0],
          `skillgate: UNKNOWN_HOST Payload is ${client}'s, whose hooks skillgate does not serve`,
          `${id}: stderr line`,
        );
      }
      assert.deepEqual(records(world), [], "no contract record");
      assert.doesNotMatch(readLog(world, "skill-route.log"), /outcome=routed/);
      assert.doesNotMatch(readLog(world, "skill-contract.log"), /outcome=block/);
      assert.doesNotMatch(readLog(world, "skill-redirect.log"), /outcome=den/);
    } finally {
      await world.cleanup();
    }
  });
}

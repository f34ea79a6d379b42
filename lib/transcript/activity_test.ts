import assert from "node:assert/strict";
import { join } from "node:path";
import { activityOfText, readActivity } from "./activity.ts";
import { readerFor } from "./readers.ts";
import { NotRegularFileError } from "../base/fs.ts";
import type { TranscriptFormat } from "../host/host.ts";
import { call, jsonl, result, say, skillLoad, user } from "../../fixtures/transcripts/_build.ts";

/** A format's activity, as its reader names it. */
const of = async (format: TranscriptFormat) => (await readerFor(format)).activity;

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "transcripts");

Deno.test("activity: Claude Code prompts, the model's load, the user's /name, turns and times", async () => {
  const text = jsonl([
    { ...user("first prompt"), timestamp: "2026-11-05T10:00:00.000Z" },
    ...skillLoad("toolu_1", "investigate").map((r) => ({
      ...r,
      timestamp: "2026-11-05T10:00:05.000Z",
    })),
    result("toolu_x", "a tool result is no prompt"),
    user("Stop hook feedback: …", { isMeta: true }),
    user("sidechain prompt", { isSidechain: true }),
    say("done"),
    { ...user("<command-name>/review</command-name>"), timestamp: "2026-11-05T10:01:00.000Z" },
    call("toolu_r", "Read", { file_path: "/home/dev/.claude/skills/qa/SKILL.md" }),
    user("third prompt"),
  ]);
  const a = activityOfText(await of("claude-code-jsonl"), text);
  assert.equal(a.prompts.length, 3);
  assert.equal(a.prompts[0], Date.parse("2026-11-05T10:00:00.000Z"));
  const loads = a.loads.map((l) => [l.name, l.via, l.turn]);
  assert.deepEqual(loads, [
    ["investigate", "skill_tool", 0],
    ["investigate", "base_directory", 0],
    ["review", "command", 1],
    ["qa", "read", 1],
  ]);
  assert.equal(a.loads[0].time, Date.parse("2026-11-05T10:00:05.000Z"));
});

Deno.test("activity: a load before any prompt is in turn -1; text without records gives nothing", async () => {
  const a = activityOfText(await of("claude-code-jsonl"), jsonl(skillLoad("toolu_1", "qa")));
  assert.equal(a.loads[0].turn, -1);
  assert.deepEqual(activityOfText(await of("claude-code-jsonl"), "not json\n\n{}\n"), {
    prompts: [],
    loads: [],
  });
});

Deno.test("activity: Copilot CLI events: the prompt, the model's skill call; a block is no prompt", async () => {
  const a = await readActivity(
    join(FIXTURES, "copilot", "met_after_block.jsonl"),
    await of("copilot-events-jsonl"),
  );
  assert.equal(a.prompts.length, 1, "skillgate's block message starts no turn");
  assert.deepEqual(a.loads.map((l) => [l.name, l.via, l.turn]), [["investigate", "skill_tool", 0]]);
  assert.ok(a.loads[0].time! >= a.prompts[0]!);
});

Deno.test("activity: Codex CLI rollout: the prompt and the model's shell read of SKILL.md", async () => {
  const a = await readActivity(
    join(FIXTURES, "codex", "contract_met_after_block.jsonl"),
    await of("codex-rollout-jsonl"),
  );
  assert.equal(a.prompts.length, 1);
  assert.deepEqual(a.loads.map((l) => [l.name, l.via, l.turn]), [["investigate", "read", 0]]);
});

Deno.test("activity: a Codex $name injection is the user's load, not a prompt", async () => {
  const rec = (role: string, text: string) => ({
    timestamp: "2026-12-01T00:00:00.000Z",
    type: "response_item",
    payload: { type: "message", role, content: [{ type: "input_text", text }] },
  });
  const a = activityOfText(
    await of("codex-rollout-jsonl"),
    [
      rec("user", "use $investigate please"),
      rec("user", "<skill>\n<name>investigate</name>\n<path>/x/SKILL.md</path>\nbody</skill>"),
    ].map((r) => JSON.stringify(r)).join("\n"),
  );
  assert.equal(a.prompts.length, 1);
  assert.deepEqual(a.loads.map((l) => [l.name, l.via]), [["investigate", "command"]]);
});

Deno.test("activity: a missing file throws", async () => {
  const CLAUDE = await of("claude-code-jsonl");
  await assert.rejects(() => readActivity("/nonexistent/x.jsonl", CLAUDE), Deno.errors.NotFound);
});

Deno.test("activity: a FIFO is refused at once, never waited on", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "x.jsonl");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    await assert.rejects(
      async () => readActivity(fifo, await of("claude-code-jsonl")),
      NotRegularFileError,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("activity: Gemini CLI chat: the prompt and the model's activate_skill, once per message id", async () => {
  const a = await readActivity(
    join(FIXTURES, "gemini", "contract_met_after_block.jsonl"),
    await of("gemini-chat-jsonl"),
  );
  assert.ok(a.prompts.length >= 1);
  assert.deepEqual(a.loads.map((l) => [l.name, l.via]), [["investigate", "skill_tool"]]);
});

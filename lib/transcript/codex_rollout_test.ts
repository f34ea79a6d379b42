import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  findCodexLoad,
  parseCodexRolloutText,
  readCodexRun,
  rolloutVerdict,
} from "./codex_rollout.ts";
import { awaitTurnInTranscript } from "./currency.ts";
import { formatOfFile, readerFor } from "./readers.ts";
import type { RunRead, TranscriptRun } from "./model.ts";

// Real rollouts written by Codex CLI 0.169.0 in the host tests (tests/host/codex_scenarios_test.ts),
// with the client's own long instructions elided.
const DIR = join(import.meta.dirname!, "..", "..", "fixtures", "transcripts", "codex");
const CONTRACT = join(DIR, "contract_met_after_block.jsonl");
const REDIRECT = join(DIR, "redirect_spawn.jsonl");

function ok(read: RunRead): TranscriptRun {
  assert.equal(read.kind, "ok", JSON.stringify(read).slice(0, 300));
  return (read as { run: TranscriptRun }).run;
}

const FINAL = "DEBUG REPORT\nSymptom: the login test failed\nRoot cause: a missing null check\n" +
  "Fix: added the null check in auth.txt\nEvidence: bash ./test.sh printed PASS\n\nSTATUS: DONE";

Deno.test("readCodexRun() gives the run model of a real rollout: the load, the edit, the test, the texts", async () => {
  const run = ok(await readCodexRun(CONTRACT, { skill: "investigate" }));
  assert.equal(run.load.name, "investigate");
  assert.equal(run.load.via, "read");
  assert.equal(run.load.toolUseId, "call_load");
  assert.deepEqual(run.toolCalls.map((c) => [c.name, c.id]), [
    ["Bash", "call_load"],
    ["apply_patch", "call_edit"],
    ["Bash", "call_test"],
  ]);
  assert.equal(run.toolCalls[0].input.command, "cat .agents/skills/investigate/SKILL.md");
  assert.match(String(run.toolCalls[1].input.command), /\*\*\* Add File: auth\.txt/);
  assert.equal(run.toolCalls[2].input.command, "bash ./test.sh");
  for (const c of run.toolCalls) assert.equal(c.result?.isError, false, c.name);
  assert.match(run.toolCalls[2].result!.text, /PASS/);
  const assistant = run.messages.filter((m) => m.role === "assistant").map((m) => m.text);
  assert.deepEqual(assistant, ["Fixed: the null check was missing.", FINAL]);
  // The Stop hook's reason came back as a user message the client wrote.
  const hookPrompt = run.messages.find((m) => m.text.includes("<hook_prompt"));
  assert.ok(hookPrompt?.isMeta, "the hook prompt is a meta user message");
  assert.match(hookPrompt.text, /SKILL_CONTRACT_UNMET investigate/);
  // The seq order is the file order.
  const seqs = [...run.messages, ...run.toolCalls].map((x) => x.seq).sort((a, b) => a - b);
  assert.equal(new Set(seqs).size, seqs.length);
  const [load, edit, test] = run.toolCalls;
  assert.ok(load.seq < edit.seq && edit.seq < hookPrompt.seq && hookPrompt.seq < test.seq);
});

Deno.test("findCodexLoad() finds the load readCodexRun() starts at; fromOffset re-reads the same run", async () => {
  const found = await findCodexLoad(CONTRACT, { skill: "investigate" });
  assert.equal(found.kind, "found");
  const load = (found as { load: { offset: number } }).load;
  const run = ok(await readCodexRun(CONTRACT, { skill: "investigate" }));
  assert.equal(run.load.offset, load.offset);
  const again = ok(await readCodexRun(CONTRACT, { skill: "investigate", fromOffset: load.offset }));
  assert.deepEqual(again.toolCalls.map((c) => c.id), run.toolCalls.map((c) => c.id));
  // Searching only above the load finds nothing; another skill was never loaded.
  const floor = await findCodexLoad(CONTRACT, { skill: "investigate", scanFloor: load.offset + 1 });
  assert.equal(floor.kind, "not_loaded");
  assert.equal((await findCodexLoad(CONTRACT, { skill: "review" })).kind, "not_loaded");
  assert.equal((await readCodexRun(CONTRACT, { skill: "review" })).kind, "not_loaded");
});

Deno.test("readCodexRun() reads a denied shell read of an agent's SKILL.md and the spawn that followed", async () => {
  const run = ok(await readCodexRun(REDIRECT, { skill: "prompt-writer" }));
  assert.equal(run.load.via, "read");
  const [read, spawn] = run.toolCalls;
  assert.equal(read.name, "Bash");
  assert.equal(read.result?.isError, true, "a call the PreToolUse hook blocked did not run");
  assert.match(
    read.result!.text,
    /Command blocked by PreToolUse hook: "prompt-writer" is an agent/,
  );
  assert.equal(spawn.name, "spawn_agent");
  assert.equal(spawn.input.agent_type, "prompt-writer");
  assert.equal(spawn.input.subagent_type, "prompt-writer", "the run model's name for the agent");
  assert.match(String(spawn.input.prompt), /SUBAGENT-TASK/);
  assert.equal(spawn.result?.asyncLaunched, false);
  assert.ok(spawn.result?.agentId, "the spawn's result names the agent id");
});

Deno.test("the format map reads a rollout through the Codex reader, and a Claude transcript through Claude's", async () => {
  const codex = await readerFor("codex-rollout-jsonl");
  const claude = await readerFor("claude-code-jsonl");
  assert.equal(ok(await codex.readRun(CONTRACT, { skill: "investigate" })).toolCalls.length, 3);
  // Claude Code's reader finds no load in a rollout (it does not know the records).
  assert.notEqual((await claude.readRun(CONTRACT, { skill: "investigate" })).kind, "ok");
  const c = await codex.awaitTurn(CONTRACT, { finalText: FINAL }, { budgetMs: 0 });
  assert.equal(c.state, "current");
  assert.equal(
    await formatOfFile("/h/.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-x.jsonl"),
    "codex-rollout-jsonl",
  );
  // By its first record, whatever its name.
  assert.equal(await formatOfFile(CONTRACT), "codex-rollout-jsonl");
  assert.equal(await formatOfFile("/h/.claude/projects/-p/5f0c.jsonl"), "claude-code-jsonl");
});

Deno.test("a `$name` injection is a load; records of another format are an unknown shape; a long run is too large", async () => {
  const rec = (payload: unknown, type = "response_item") =>
    JSON.stringify({ timestamp: "t", type, payload });
  const text = [
    rec({ id: "s" }, "session_meta"),
    rec({
      type: "message",
      role: "user",
      content: [{
        type: "input_text",
        text: "<skill>\n<name>investigate</name>\n<path>/p/SKILL.md</path>\nbody</skill>",
      }],
    }),
    rec({ type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] }),
  ].join("\n") + "\n";
  const run = ok(await parseCodexRolloutText(text, { skill: "investigate" }));
  assert.equal(run.load.via, "command");
  assert.equal(run.messages.at(-1)?.text, "done");
  const other = JSON.stringify({
    type: "user",
    message: { content: "cat x/skills/investigate/SKILL.md" },
  });
  assert.equal(
    (await parseCodexRolloutText(other + "\n", { skill: "investigate" })).kind,
    "unknown_shape",
  );
  const big = await parseCodexRolloutText(text, { skill: "investigate", maxParseBytes: 50 });
  assert.equal(big.kind, "too_large");
});

Deno.test("readCodexRun() gives the same run whatever the chunk size, and survives a cut last line (property)", async () => {
  const full = await Deno.readTextFile(CONTRACT);
  const want = ok(await parseCodexRolloutText(full, { skill: "investigate" }));
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 16, max: 8192 }), fc.nat(400), async (chunkSize, cut) => {
      const run = ok(await parseCodexRolloutText(full, { skill: "investigate", chunkSize }));
      assert.deepEqual(run.toolCalls.map((c) => c.id), want.toolCalls.map((c) => c.id));
      assert.equal(run.messages.length, want.messages.length);
      const cutText = full.slice(0, Math.max(0, full.length - cut));
      const read = await parseCodexRolloutText(cutText, { skill: "investigate", chunkSize });
      assert.ok(["ok", "not_loaded"].includes(read.kind), read.kind);
    }),
    { numRuns: 60 },
  );
});

Deno.test("transcript currency on a rollout: for any flushed prefix, current exactly when the final text is in it (property)", async () => {
  const lines = (await Deno.readTextFile(CONTRACT)).split("\n").filter((l) => l);
  const finalAt = lines.findIndex((l) => rolloutVerdict(l) === FINAL);
  assert.ok(finalAt > 0, "the fixture holds the final text");
  const dir = await Deno.makeTempDir();
  try {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: lines.length }), async (n) => {
        const path = join(dir, `p${n}.jsonl`);
        await Deno.writeTextFile(path, lines.slice(0, n).join("\n") + "\n");
        const c = await awaitTurnInTranscript(path, FINAL, {
          budgetMs: 0,
          verdict: rolloutVerdict,
        });
        assert.equal(c.state, n > finalAt ? "current" : "behind", `prefix of ${n} lines`);
      }),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rolloutVerdict(): assistant text decides, calls and user messages move on, the rest does not matter", () => {
  const item = (payload: unknown) => JSON.stringify({ type: "response_item", payload });
  assert.equal(
    rolloutVerdict(
      item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "x" }] }),
    ),
    "x",
  );
  assert.equal(rolloutVerdict(item({ type: "function_call", name: "exec_command" })), null);
  assert.equal(rolloutVerdict(item({ type: "custom_tool_call_output", output: "o" })), null);
  assert.equal(rolloutVerdict(item({ type: "message", role: "user", content: [] })), null);
  assert.equal(
    rolloutVerdict(item({ type: "message", role: "developer", content: [] })),
    undefined,
  );
  assert.equal(
    rolloutVerdict(JSON.stringify({ type: "event_msg", payload: { type: "token_count" } })),
    undefined,
  );
  assert.equal(rolloutVerdict('not json "response_item"'), undefined);
});

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  awaitCopilotStop,
  findLastCopilotLoad,
  holdsStopMarker,
  parseCopilotText,
  readCopilotRun,
} from "./copilot_read.ts";
import { canonicalToolCall } from "./copilot_events.ts";
import { formatOfFile, formatOfText, readerFor, TRANSCRIPT_READERS } from "./readers.ts";
import type { RunRead, TranscriptRun } from "./model.ts";
import { endsOnQuestion, finalAssistantText } from "./turn.ts";

/** The real events.jsonl files the Copilot CLI host tests recorded. */
const DIR = new URL("../../fixtures/transcripts/copilot/", import.meta.url);
const FIXTURES = ["met_after_block", "miss", "question_interactive"] as const;
const text = (name: string) => Deno.readTextFileSync(new URL(`${name}.jsonl`, DIR));
const linesOf = (name: string) => text(name).split("\n").filter((l) => l.trim() !== "");

function ok(read: RunRead): TranscriptRun {
  assert.equal(read.kind, "ok", JSON.stringify(read).slice(0, 300));
  return (read as { run: TranscriptRun }).run;
}

/** The agentStop `hook.start` lines of a fixture: index and the payload's timestamp. */
function stops(lines: string[]): { at: number; timestamp: number }[] {
  const out: { at: number; timestamp: number }[] = [];
  lines.forEach((l, at) => {
    const r = JSON.parse(l);
    if (r.type === "hook.start" && r.data.hookType === "agentStop") {
      out.push({ at, timestamp: r.data.input.timestamp });
    }
  });
  return out;
}

/** The run's shape without positions: what the checks read. */
function shape(run: TranscriptRun) {
  return {
    load: [run.load.name, run.load.via, run.load.toolUseId],
    calls: run.toolCalls.map((c) => [c.name, c.input, c.result?.isError, c.result?.text]),
    messages: run.messages.map((m) => [m.role, m.text, m.isMeta, m.sidechain]),
    nonInteractive: run.nonInteractive,
  };
}

Deno.test("copilot reader: the met_after_block session as the run model", () => {
  const run = ok(parseCopilotText(text("met_after_block"), { skill: "investigate" }));
  assert.equal(run.load.name, "investigate");
  assert.equal(run.load.via, "skill_tool");
  // The run starts at the client's skill.invoked record, after the skill call.
  assert.deepEqual(run.toolCalls.map((c) => c.name), ["Edit", "Bash"]);
  const edit = run.toolCalls[0];
  assert.match(String(edit.input.file_path), /\/auth\.txt$/);
  assert.equal(edit.result?.isError, false);
  const bash = run.toolCalls[1];
  assert.equal(bash.input.command, "bash ./test.sh");
  assert.match(bash.result!.text, /^PASS/);
  // The block reached the model as a user message: the hook's, marked as such.
  const feedback = run.messages.filter((m) => m.isMeta);
  assert.equal(feedback.length, 1);
  assert.match(feedback[0].text, /^SKILL_CONTRACT_UNMET investigate/);
  assert.match(finalAssistantText(run), /^DEBUG REPORT\n/);
  assert.equal(run.nonInteractive, true, "a -p run says it is non-interactive");
  assert.equal(run.stats.unknownTypes, 0);
  assert.equal(run.stats.skippedLines, 0);
});

Deno.test("copilot reader: create is the run model's Write; a turn ending on a question", () => {
  const miss = ok(parseCopilotText(text("miss"), { skill: "investigate" }));
  assert.deepEqual(miss.toolCalls.map((c) => c.name), ["Write"]);
  assert.equal(finalAssistantText(miss), "The fix is in place.");
  const q = ok(parseCopilotText(text("question_interactive"), { skill: "investigate" }));
  assert.equal(endsOnQuestion(q), true);
});

Deno.test("copilot reader: a skill never loaded, and an empty file, are not_loaded", () => {
  assert.equal(parseCopilotText(text("miss"), { skill: "review" }).kind, "not_loaded");
  assert.equal(parseCopilotText("", { skill: "investigate" }).kind, "not_loaded");
  // Only the session's start: no turn yet, no shape problem.
  assert.equal(
    parseCopilotText(linesOf("miss")[0] + "\n", { skill: "investigate" }).kind,
    "not_loaded",
  );
});

Deno.test("copilot reader: lines that are no Copilot event are an unknown shape (the canary)", () => {
  const changed = linesOf("met_after_block").map((l) => {
    const r = JSON.parse(l);
    return JSON.stringify({ kind: r.type, payload: r.data });
  });
  const read = parseCopilotText(changed.join("\n") + "\n", { skill: "investigate" });
  assert.equal(read.kind, "unknown_shape");
  // A Claude Code transcript is no Copilot events file either.
  const claude = Deno.readTextFileSync(
    new URL("../../fixtures/transcripts/stop_unmet.jsonl", import.meta.url),
  );
  assert.equal(parseCopilotText(claude, { skill: "investigate" }).kind, "unknown_shape");
});

Deno.test("copilot reader: a view of a SKILL.md under a skills folder is a load", () => {
  const lines = [
    JSON.stringify({ type: "session.start", data: { sessionId: "s" } }),
    JSON.stringify({ type: "user.message", data: { content: "fix it" } }),
    JSON.stringify({
      type: "assistant.message",
      data: {
        content: "",
        toolRequests: [{
          toolCallId: "v1",
          name: "view",
          arguments: { path: "/p/.github/skills/investigate/SKILL.md" },
        }],
      },
    }),
    JSON.stringify({
      type: "assistant.message",
      data: {
        content: "",
        parentToolCallId: "t9",
        toolRequests: [{
          toolCallId: "v2",
          name: "view",
          arguments: { path: "/p/.github/skills/review/SKILL.md" },
        }],
      },
    }),
  ];
  const run = ok(parseCopilotText(lines.join("\n") + "\n", { skill: "investigate" }));
  assert.equal(run.load.via, "read");
  assert.equal(run.load.toolUseId, "v1");
  // A subagent's view is not a load of the main session.
  assert.equal(parseCopilotText(lines.join("\n") + "\n", { skill: "review" }).kind, "not_loaded");
  assert.equal(run.toolCalls[1].sidechain, true);
});

Deno.test("copilot reader: Copilot's tools get the run model's names and fields", () => {
  assert.deepEqual(
    canonicalToolCall("task", { agent_type: "helper", prompt: "p", mode: "background" }),
    {
      name: "Agent",
      input: { subagent_type: "helper", prompt: "p", mode: "background", run_in_background: true },
    },
  );
  assert.deepEqual(canonicalToolCall("create", { path: "/a", file_text: "big" }), {
    name: "Write",
    input: { file_path: "/a" },
  });
  assert.deepEqual(canonicalToolCall("grep", { pattern: "x" }), { name: "grep", input: {} });
  assert.deepEqual(canonicalToolCall("bash", "not an object"), { name: "Bash", input: {} });
});

Deno.test("copilot reader: the file reader and findLastCopilotLoad agree with the text reader", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of FIXTURES) {
      const path = `${dir}/${name}.jsonl`;
      await Deno.writeTextFile(path, text(name));
      const mem = ok(parseCopilotText(text(name), { skill: "investigate" }));
      const file = ok(await readCopilotRun(path, { skill: "investigate", chunkSize: 97 }));
      assert.deepEqual(shape(file), shape(mem));
      const found = await findLastCopilotLoad(path, { skill: "investigate", chunkSize: 131 });
      assert.equal(found.kind, "found");
      if (found.kind === "found") assert.equal(found.load.offset, mem.load.offset);
      assert.equal(await formatOfFile(path), "copilot-events-jsonl");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copilot reader: the stop's own hook.start marks the file as holding the turn", async () => {
  for (const name of FIXTURES) {
    const lines = linesOf(name);
    for (const s of stops(lines)) {
      assert.ok(holdsStopMarker(lines.slice(0, s.at + 1).join("\n"), s.timestamp));
      assert.ok(!holdsStopMarker(lines.slice(0, s.at).join("\n"), s.timestamp));
    }
  }
  const dir = await Deno.makeTempDir();
  try {
    const lines = linesOf("met_after_block");
    const [first] = stops(lines);
    const path = `${dir}/events.jsonl`;
    await Deno.writeTextFile(path, lines.slice(0, first.at).join("\n") + "\n");
    // Behind: the budget runs out, polling only.
    let slept = 0;
    const behind = await awaitCopilotStop(path, first.timestamp, {
      budgetMs: 50,
      sleep: (ms) => {
        slept += ms;
        return new Promise((r) => setTimeout(r, ms));
      },
    });
    assert.equal(behind.state, "behind");
    assert.ok(slept > 0);
    // The host appends the stop's record while the hook waits: current.
    let appended = false;
    const current = await awaitCopilotStop(path, first.timestamp, {
      budgetMs: 2000,
      sleep: async (ms) => {
        if (!appended) {
          await Deno.writeTextFile(path, lines[first.at] + "\n", { append: true });
          appended = true;
        }
        await new Promise((r) => setTimeout(r, ms));
      },
    });
    assert.equal(current.state, "current");
    assert.equal(await awaitCopilotStop(path, undefined).then((c) => c.state), "unverified");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("transcript readers: one per format, chosen by the file's first record", async () => {
  assert.deepEqual(Object.keys(TRANSCRIPT_READERS).sort(), [
    "claude-code-jsonl",
    "codex-rollout-jsonl",
    "copilot-events-jsonl",
    "gemini-chat-jsonl",
  ]);
  for (const name of FIXTURES) assert.equal(formatOfText(text(name)), "copilot-events-jsonl");
  const claude = Deno.readTextFileSync(
    new URL("../../fixtures/transcripts/stop_met.jsonl", import.meta.url),
  );
  assert.equal(formatOfText(claude), "claude-code-jsonl");
  assert.equal(formatOfText(""), "claude-code-jsonl");
  assert.equal((await readerFor("copilot-events-jsonl")).payloadFinalText, false);
  assert.equal((await readerFor("claude-code-jsonl")).payloadFinalText, true);
});

// Properties over the real sessions.

Deno.test("copilot reader property: any prefix cut at a line reads without error, and once the load is in it, as the same load", () => {
  for (const name of FIXTURES) {
    const lines = linesOf(name);
    const full = ok(parseCopilotText(lines.join("\n") + "\n", { skill: "investigate" }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: lines.length }), fc.boolean(), (n, partial) => {
        // A cut inside the next line (a line still being written) changes nothing.
        const tail = partial && n < lines.length ? lines[n].slice(0, lines[n].length >> 1) : "";
        const read = parseCopilotText(lines.slice(0, n).join("\n") + (n ? "\n" : "") + tail, {
          skill: "investigate",
        });
        assert.ok(read.kind === "ok" || read.kind === "not_loaded", read.kind);
        if (read.kind === "ok") {
          assert.equal(read.run.load.offset, full.load.offset);
          assert.ok(read.run.toolCalls.length <= full.toolCalls.length);
        }
      }),
      { numRuns: 60 },
    );
  }
});

Deno.test("copilot reader property: records of types it does not know change nothing it reads", () => {
  const lines = linesOf("met_after_block");
  const base = shape(ok(parseCopilotText(lines.join("\n") + "\n", { skill: "investigate" })));
  const unknown = fc.record({
    type: fc.constantFrom("future.event", "session.something_new", "x.y"),
    data: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
  });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: lines.length }), unknown), { maxLength: 6 }),
      (inserts) => {
        const out = [...lines];
        for (const [at, rec] of [...inserts].sort((a, b) => b[0] - a[0])) {
          out.splice(at, 0, JSON.stringify(rec));
        }
        const run = ok(parseCopilotText(out.join("\n") + "\n", { skill: "investigate" }));
        assert.deepEqual(shape(run), base);
      },
    ),
    { numRuns: 80 },
  );
});

Deno.test("copilot reader property: the chunk size never changes the run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/events.jsonl`;
    await Deno.writeTextFile(path, text("met_after_block"));
    const base = shape(ok(parseCopilotText(text("met_after_block"), { skill: "investigate" })));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 16, max: 8192 }), async (chunkSize) => {
        assert.deepEqual(
          shape(ok(await readCopilotRun(path, { skill: "investigate", chunkSize }))),
          base,
        );
      }),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copilot reader: a missing file is waited for (the host may not have written it yet)", async () => {
  let slept = 0;
  const c = await awaitCopilotStop("/nonexistent/skillgate/events.jsonl", 1, {
    budgetMs: 100,
    sleep: (ms) => {
      slept += ms;
      return new Promise((r) => setTimeout(r, ms));
    },
  });
  assert.equal(c.state, "behind");
  assert.ok(slept > 0);
});

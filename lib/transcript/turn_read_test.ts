import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { TranscriptReadError } from "./model.ts";
import { currentTurnOfText, readCurrentTurn, startsTurn } from "./turn_read.ts";
import { turnRecords } from "./builder.ts";
import {
  assistant,
  bash,
  call,
  jsonl,
  type Rec,
  result,
  say,
  user,
} from "../../fixtures/transcripts/_build.ts";

const line = (rec: Rec) => JSON.stringify(rec);
const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("startsTurn() is true for a main-chain user record the user wrote, with text", () => {
  const starts: Array<[string, Rec | string, boolean]> = [
    ["a string prompt", user("fix the login bug"), true],
    ["a text-block prompt", user([{ type: "text", text: "fix it" }]), true],
    [
      "a task notification (a host-written prompt that starts a turn)",
      user(
        "<task-notification><task-id>a1</task-id><status>completed</status></task-notification>",
        {
          origin: { kind: "task-notification" },
        },
      ),
      true,
    ],
    [
      "a tool result with a text block beside it",
      user([{ type: "tool_result", tool_use_id: "t1", content: "ok" }, {
        type: "text",
        text: "go",
      }]),
      true,
    ],
    ["a tool result", result("t1", "ok"), false],
    ["an error tool result", result("t1", "Unknown skill: x", { error: true }), false],
    ["stop-hook feedback", user("Stop hook feedback:\nR", { isMeta: true }), false],
    [
      "a skill body",
      user([{ type: "text", text: "Base directory for this skill: /s" }], {
        isMeta: true,
      }),
      false,
    ],
    ["a subagent's prompt", user("do the sub-task", { isSidechain: true }), false],
    ["a blank prompt", user("   "), false],
    ["no content blocks", user([]), false],
    ["content that is neither", user({ odd: true }), false],
    [
      "a subagent's user message inside progress",
      { type: "progress", data: { message: { type: "user", message: { content: "sub" } } } },
      false,
    ],
    ["an assistant text", say("the user asked"), false],
    ["an attachment", { type: "attachment", attachment: { type: "date", content: "user" } }, false],
    ["a cut line", '{"type":"user","message":{"content":"hi"', false],
  ];
  for (const [label, rec, expected] of starts) {
    assert.equal(startsTurn(typeof rec === "string" ? rec : line(rec)), expected, label);
  }
});

const PROMPT_1 = user("first prompt");
const PROMPT_2 = user("second prompt");

function twoTurns(): Rec[] {
  return [
    PROMPT_1,
    ...bash("b1", "ls"),
    say("done one"),
    PROMPT_2,
    say("working"),
    ...bash("b2", "make"),
    user("Stop hook feedback:\nnot yet", { isMeta: true }),
    result("b2", "late result of an earlier call"),
    say("done two"),
  ];
}

Deno.test("currentTurnOfText() reads back to the turn's prompt and no further", () => {
  const recs = twoTurns();
  const text = jsonl(recs);
  for (const chunkSize of [16, 100, 4096, 1 << 20]) {
    const turn = currentTurnOfText(text, { chunkSize });
    assert.equal(turn.start, "prompt", `chunk ${chunkSize}`);
    assert.deepEqual(turn.lines, recs.slice(4).map(line));
    assert.equal(turn.offset, bytes(text.slice(0, text.indexOf(line(PROMPT_2)))));
    // Chunks double from `chunkSize`: the read ends within one chunk of the turn's start.
    const turnBytes = bytes(text) - turn.offset;
    assert.ok(turn.bytesRead < 2 * (turnBytes + chunkSize), `chunk ${chunkSize}`);
  }
});

Deno.test("currentTurnOfText() gives each line's byte offset, across multi-byte text and chunk edges", () => {
  const recs = [
    user("première question"),
    say("réponse: 日本語のテキスト 🎉"),
    user("deuxième: ünïcödé 🎉🎉"),
    say("ok ✓"),
    ...bash("b1", "echo 'ß'", "ß".repeat(50)),
    say("fin 🎉"),
  ];
  const text = jsonl(recs);
  const all = new TextEncoder().encode(text);
  for (const chunkSize of [16, 17, 31, 64, 1000]) {
    const turn = currentTurnOfText(text, { chunkSize });
    assert.equal(turn.start, "prompt");
    assert.deepEqual(turn.lines, text.trimEnd().split("\n").slice(2), `chunk ${chunkSize}`);
    turn.lines.forEach((l, i) => {
      const at = turn.offsets[i];
      assert.equal(new TextDecoder().decode(all.subarray(at, at + bytes(l))), l);
    });
    assert.equal(turn.offset, turn.offsets[0]);
  }
});

Deno.test("currentTurnOfText() with no prompt in the text gives every line from the start", () => {
  const recs = [{ type: "summary", summary: "x" }, say("hello"), ...bash("b1", "ls")];
  const turn = currentTurnOfText(jsonl(recs) + "\n\n", { chunkSize: 32 });
  assert.equal(turn.start, "file-start");
  assert.equal(turn.offset, 0);
  assert.deepEqual(turn.lines, recs.map(line), "blank lines left out");
  assert.deepEqual(currentTurnOfText("").lines, []);
  assert.equal(currentTurnOfText("").start, "file-start");
});

Deno.test("currentTurnOfText() keeps a last line still being written", () => {
  const text = jsonl([user("go"), say("partial next")]) + '{"type":"assistant","mess';
  const turn = currentTurnOfText(text, { chunkSize: 16 });
  assert.equal(turn.start, "prompt");
  assert.equal(turn.lines.at(-1), '{"type":"assistant","mess');
  assert.equal(turnRecords(turn).stats.skippedLines, 1);
});

Deno.test("currentTurnOfText() reads at most maxBytes: a longer turn comes back cut, its last lines", () => {
  const recs = [
    user("a long job"),
    ...Array.from({ length: 40 }, (_, i) => say(`step ${i} ${"x".repeat(200)}`)),
  ];
  const text = jsonl(recs);
  const turn = currentTurnOfText(text, { maxBytes: 2000, chunkSize: 300 });
  assert.equal(turn.start, "cut");
  assert.ok(turn.bytesRead <= 2000, `${turn.bytesRead}`);
  const lines = text.trimEnd().split("\n");
  assert.ok(turn.lines.length >= 2, `${turn.lines.length}`);
  assert.deepEqual(turn.lines, lines.slice(-turn.lines.length));
  // Every whole line within the last 2000 bytes, and none before them.
  assert.ok(bytes(text) - turn.offset <= 2000);
  assert.ok(bytes(text) - turn.offset + bytes(lines.at(-turn.lines.length - 1)!) + 1 > 2000);
  // A line longer than the bound is never assembled.
  const giant = jsonl([user("go"), say("y".repeat(10_000))]);
  const cut = currentTurnOfText(giant, { maxBytes: 4000, chunkSize: 1000 });
  assert.deepEqual([cut.start, cut.lines, cut.bytesRead <= 4000], ["cut", [], true]);
});

Deno.test("currentTurnOfText() reads the same few bytes at the end of a text of any size", () => {
  const last = jsonl([user("the last prompt"), say("short answer")]);
  const read = (filler: number) => {
    const recs: Rec[] = [];
    for (let i = 0; i < filler; i++) recs.push(user(`q${i}`), say("a".repeat(1000)));
    return currentTurnOfText(jsonl(recs) + last);
  };
  const small = read(100); // about 170 KiB
  const large = read(3000); // about 3 MiB
  assert.equal(large.start, "prompt");
  assert.deepEqual(large.lines, small.lines);
  assert.equal(large.bytesRead, small.bytesRead);
  assert.ok(large.bytesRead <= 64 * 1024, `${large.bytesRead}`);
});

Deno.test("turnRecords() gives the turn's messages and tool calls; a result of an earlier call is left out", () => {
  const recs = [
    PROMPT_1,
    call("old", "Bash", { command: "sleep 100" }),
    PROMPT_2,
    call("s1", "Skill", { skill: "prompt-writer" }),
    result("s1", "<tool_use_error>Unknown skill: prompt-writer</tool_use_error>", {
      error: true,
      structured: "Error: Unknown skill: prompt-writer",
    }),
    result("old", "finished"),
    assistant([{ type: "text", text: "done" }]),
  ];
  const records = turnRecords(currentTurnOfText(jsonl(recs), { chunkSize: 64 }));
  assert.deepEqual(records.toolCalls.map((c) => [c.id, c.name, c.result?.isError]), [
    ["s1", "Skill", true],
  ]);
  assert.deepEqual(records.messages.filter((m) => m.text !== "").map((m) => [m.role, m.text]), [
    ["user", "second prompt"],
    ["assistant", "done"],
  ]);
  assert.deepEqual(records.loads.map((l) => [l.qualifiedName, l.via]), [[
    "prompt-writer",
    "skill_tool",
  ]]);
});

Deno.test("currentTurnOfText() never throws and keeps only whole lines, for any text", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 400 }),
      fc.integer({ min: 16, max: 200 }),
      (text, chunkSize) => {
        const turn = currentTurnOfText(text, { chunkSize });
        const all = text.split("\n").filter((l) => l.trim() !== "");
        assert.deepEqual(
          turn.lines,
          turn.start === "cut" ? turn.lines : all.slice(all.length - turn.lines.length),
        );
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("readCurrentTurn() reads a file as currentTurnOfText() reads its text", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.jsonl");
    const text = jsonl(twoTurns());
    Deno.writeTextFileSync(path, text);
    assert.deepEqual(
      await readCurrentTurn(path, { chunkSize: 50 }),
      currentTurnOfText(text, { chunkSize: 50 }),
    );
    await assert.rejects(() => readCurrentTurn(join(dir, "missing.jsonl")), TranscriptReadError);
    await assert.rejects(() => readCurrentTurn(dir), TranscriptReadError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  chatOfLines,
  findGeminiLoad,
  geminiTurnRecords,
  geminiTurnShowsFinalText,
  geminiVerdict,
  geminiVerdictFor,
  parseGeminiChatText,
  readGeminiRecords,
  readGeminiRun,
  readGeminiTurn,
  recordsOfChat,
} from "./gemini_chat.ts";
import { emptyStats } from "./record.ts";
import type { SkillLoad, ToolCall, TranscriptMessage } from "./model.ts";
import fc from "fast-check";

const DIR = join(import.meta.dirname!, "..", "..", "fixtures", "transcripts", "gemini");
const MET = join(DIR, "contract_met_after_block.jsonl");
const REDIRECT = join(DIR, "redirect_invoke_agent.jsonl");

Deno.test("readGeminiRun() reads a real chat into the run model: load, edit, shell with its exit, texts", async () => {
  const read = await readGeminiRun(MET, { skill: "investigate" });
  assert.equal(read.kind, "ok");
  if (read.kind !== "ok") return;
  const { run } = read;
  assert.equal(run.load.name, "investigate");
  assert.equal(run.load.via, "skill_tool");
  assert.deepEqual(run.toolCalls.map((c) => c.name), [
    "activate_skill",
    "replace",
    "run_shell_command",
  ]);
  // Each gemini record with tool calls was written twice: the last one (with results) counts once.
  assert.equal(run.toolCalls.filter((c) => c.name === "replace").length, 1);
  const shell = run.toolCalls[2];
  assert.equal(shell.input.command, "bash ./test.sh");
  assert.equal(shell.result?.isError, false);
  assert.match(shell.result?.text ?? "", /Output: PASS/);
  const texts = run.messages.map((m) => `${m.role}${m.isMeta ? "(meta)" : ""}: ${m.text}`);
  assert.deepEqual(texts.map((t) => t.split("\n")[0]), [
    "assistant: Fixed: the null check was missing.",
    "user: BLOCK-R do the test",
    "assistant: DEBUG REPORT",
  ]);
});

Deno.test("the user's prompt is no meta message and loses its <hook_context> part", async () => {
  const recs = await readGeminiRecords(MET);
  assert.ok(recs);
  const users = recs.messages.filter((m) => m.role === "user");
  // The session context the client writes first (a `$set` of messages) is meta.
  assert.match(users[0].text, /^<session_context>/);
  assert.equal(users[0].isMeta, true);
  assert.equal(users[1].text, "the login test fails, fix it");
  assert.equal(users[1].isMeta, false);
  assert.ok(users.every((u) => !u.text.includes("<hook_context>")));
});

Deno.test("a failed activate_skill is no load, and invoke_agent names its agent as subagent_type", async () => {
  const recs = await readGeminiRecords(REDIRECT);
  assert.ok(recs);
  assert.deepEqual(recs.loads, []);
  const failed = recs.toolCalls.find((c) => c.name === "activate_skill");
  assert.equal(failed?.input.name, "prompt-writer");
  assert.equal(failed?.result?.isError, true);
  assert.match(failed?.result?.text ?? "", /must be equal to one of the allowed values/);
  const blocked = recs.toolCalls.find((c) => c.name === "write_file");
  assert.equal(blocked?.result?.isError, true);
  const invoke = recs.toolCalls.find((c) => c.name === "invoke_agent");
  assert.equal(invoke?.input.subagent_type, "prompt-writer");
  assert.match(invoke?.result?.text ?? "", /Subagent 'prompt-writer' finished/);
  assert.equal(
    await readGeminiRun(REDIRECT, { skill: "investigate" }).then((r) => r.kind),
    "not_loaded",
  );
});

Deno.test("a shell command's non-zero Exit Code makes its result an error", async () => {
  const text = (await Deno.readTextFile(MET)).replace(
    "Output: PASS\\nProcess Group PGID",
    "Output: FAIL\\nExit Code: 3\\nProcess Group PGID",
  );
  assert.ok(text.includes("Exit Code: 3"));
  const read = await parseGeminiChatText(text, { skill: "investigate" });
  assert.equal(read.kind, "ok");
  if (read.kind !== "ok") return;
  assert.equal(
    read.run.toolCalls.find((c) => c.name === "run_shell_command")?.result?.isError,
    true,
  );
});

Deno.test("chatOfLines(): the last record per id wins in its first place; $rewindTo and $set messages", () => {
  const lines = [
    { sessionId: "s", projectHash: "h" },
    { id: "a", type: "user", content: [{ text: "one" }], displayContent: [{ text: "one" }] },
    { id: "b", type: "gemini", content: "" },
    { id: "c", type: "gemini", content: "third" },
    { id: "b", type: "gemini", content: "second" },
    { $rewindTo: "c" },
  ].map((r, i) => ({ line: JSON.stringify(r), offset: i * 100 }));
  const chat = chatOfLines(lines, emptyStats(0));
  assert.deepEqual(chat.messages.map((m) => [m.rec.id, m.rec.content, m.offset]), [
    ["a", [{ text: "one" }], 100],
    ["b", "second", 400],
  ]);
  const reset = chatOfLines(
    [...lines, {
      line: JSON.stringify({ $set: { messages: [{ id: "z", type: "user" }] } }),
      offset: 600,
    }],
    emptyStats(0),
  );
  assert.deepEqual(reset.messages.map((m) => m.rec.id), ["z"]);
});

Deno.test("a file of no Gemini chat is an unknown shape", async () => {
  const read = await parseGeminiChatText('{"type":"session_meta","payload":{}}\n', {
    skill: "investigate",
  });
  assert.equal(read.kind, "unknown_shape");
});

Deno.test("geminiVerdict() and geminiVerdictFor(): the turn ends on a text prompt_response ends with", () => {
  const text = (id: string, content: string) => JSON.stringify({ id, type: "gemini", content });
  assert.equal(geminiVerdict(text("x", "done")), "done");
  assert.equal(geminiVerdict(text("x", "")), undefined);
  assert.equal(
    geminiVerdict(JSON.stringify({ id: "x", type: "gemini", content: "", toolCalls: [{}] })),
    null,
  );
  assert.equal(geminiVerdict(JSON.stringify({ id: "u", type: "user", content: [] })), null);
  assert.equal(geminiVerdict(JSON.stringify({ $set: { lastUpdated: "t" } })), undefined);
  const v = geminiVerdictFor("Fixed it.\nDEBUG REPORT\nSymptom: x");
  assert.equal(v(text("y", "DEBUG REPORT\nSymptom: x")), "Fixed it.\nDEBUG REPORT\nSymptom: x");
  assert.equal(v(text("y", "Fixed it.")), "Fixed it.");
});

Deno.test("a Gemini chat is known by its header, and by its path", async () => {
  const { formatOfFile, formatOfText, readerFor } = await import("./readers.ts");
  assert.equal(formatOfText(await Deno.readTextFile(MET)), "gemini-chat-jsonl");
  assert.equal(await formatOfFile(MET), "gemini-chat-jsonl");
  assert.equal(await formatOfFile("/h/.gemini/tmp/p/chats/session-x.jsonl"), "gemini-chat-jsonl");
  assert.equal((await readerFor("gemini-chat-jsonl")).payloadFinalText, false);
});

Deno.test("the turn reader reads the whole chat; it shows prompt_response once its last text is in", async () => {
  const turn = await readGeminiTurn(REDIRECT);
  assert.equal(turn.start, "file-start");
  const all = (await Deno.readTextFile(REDIRECT)).trimEnd().split("\n");
  assert.equal(turn.lines.length, all.length);
  const records = geminiTurnRecords(turn);
  assert.ok(records.toolCalls.some((c) => c.name === "invoke_agent"));
  const response = "I could not load that skill.\nUnderstood.\nThe agent wrote it.";
  assert.equal(geminiTurnShowsFinalText(turn, response), true);
  // The chat as it stood before the last text was written: behind.
  const before = { ...turn, lines: turn.lines.slice(0, -2) };
  assert.equal(geminiTurnShowsFinalText(before, response), false);
  assert.equal(geminiTurnShowsFinalText(turn, undefined), false);
  const cut = await readGeminiTurn(REDIRECT, { maxBytes: 2000 });
  assert.equal(cut.start, "cut");
  assert.ok(cut.lines.length < all.length && cut.lines.length > 0);
  assert.equal(cut.lines.at(-1), all.at(-1));
});

Deno.test("findGeminiLoad() finds the load the run read starts at, by the latest record", async () => {
  const found = await findGeminiLoad(MET, { skill: "investigate" });
  assert.equal(found.kind, "found");
  const read = await readGeminiRun(MET, { skill: "investigate" });
  if (found.kind !== "found" || read.kind !== "ok") throw new Error("no load");
  assert.equal(found.load.offset, read.run.load.offset);
  assert.equal(found.load.name, "investigate");
  assert.equal((await findGeminiLoad(MET, { skill: "review" })).kind, "not_loaded");
  assert.equal((await findGeminiLoad(REDIRECT, { skill: "prompt-writer" })).kind, "not_loaded");
  const dir = await Deno.makeTempDir();
  try {
    const other = join(dir, "x.jsonl");
    await Deno.writeTextFile(other, '{"type":"session_meta","payload":{}}\n');
    assert.equal((await findGeminiLoad(other, { skill: "investigate" })).kind, "unknown_shape");
    await Deno.writeTextFile(other, "");
    assert.equal((await findGeminiLoad(other, { skill: "investigate" })).kind, "not_loaded");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The run read before the chat was indexed: every line parsed, the last record per id in the
 * place of its first, then the run chosen among all loads. The reader must give the same runs.
 */
function referenceRun(text: string, skill: string, fromOffset?: number) {
  const byId = new Map<string, { rec: Record<string, unknown>; offset: number }>();
  let offset = 0;
  for (const line of text.split("\n")) {
    const at = offset;
    offset += new TextEncoder().encode(line).length + 1;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec === null || typeof rec !== "object" || Array.isArray(rec)) continue;
    const set = rec.$set as Record<string, unknown> | undefined;
    if (set && typeof set === "object") {
      if (!Array.isArray(set.messages)) continue;
      byId.clear();
      for (const m of set.messages) byId.set(m.id, { rec: m, offset: at });
    } else if (typeof rec.$rewindTo === "string") {
      let drop = false;
      for (const id of [...byId.keys()]) {
        if (id === rec.$rewindTo) drop = true;
        if (drop) byId.delete(id);
      }
      if (!drop) byId.clear();
    } else if (typeof rec.id === "string" && (rec.type === "user" || rec.type === "gemini")) {
      byId.set(rec.id, { rec, offset: at });
    }
  }
  const all = recordsOfChat([...byId.values()], emptyStats(0));
  const picked = all.loads.filter((l) => l.name === skill);
  const first = fromOffset === undefined
    ? picked.at(-1)
    : picked.find((l) => l.offset === fromOffset) ?? picked.at(-1);
  if (!first) return undefined;
  const next = fromOffset === undefined
    ? undefined
    : picked.find((l) => l.seq > first.seq && l.offset !== first.offset);
  const keep = (seq: number) => seq >= first.seq && (next === undefined || seq < next.seq);
  return {
    load: first,
    loads: all.loads.filter((l) => keep(l.seq)),
    messages: all.messages.filter((m) => keep(m.seq)),
    toolCalls: all.toolCalls.filter((c) => keep(c.seq)),
    allOffsets: all.loads.map((l) => l.offset),
  };
}

/** A run without its sequence numbers (which count from where the read started). */
function shape(run: {
  load: SkillLoad;
  loads: readonly SkillLoad[];
  messages: readonly TranscriptMessage[];
  toolCalls: readonly ToolCall[];
}) {
  return {
    load: [run.load.name, run.load.offset, run.load.toolUseId],
    loads: run.loads.map((l) => [l.name, l.offset]),
    messages: run.messages.map((m) => [m.role, m.text, m.messageId]),
    toolCalls: run.toolCalls.map((c) => [c.id, c.name, c.result?.isError, c.result?.text]),
  };
}

/** One line of a generated chat. */
type ChatOp =
  | { kind: "user"; id: number; text: string }
  | { kind: "gemini"; id: number; text: string; skill?: string; edit?: boolean; failed?: boolean }
  | { kind: "touch" }
  | { kind: "rewind"; id: number }
  | { kind: "reset"; id: number }
  | { kind: "odd"; id: number };

/** A message id: plain, non-ASCII, or one JSON escapes (read by parsing, not by its start). */
const idOf = (n: number) => n % 5 === 0 ? `q"${n}` : n % 3 === 0 ? `ü${n}` : `m${n}`;

function chatLine(op: ChatOp): string {
  const ts = "2026-12-02T00:00:00.000Z";
  switch (op.kind) {
    case "user":
      return JSON.stringify({
        id: idOf(op.id),
        timestamp: ts,
        type: "user",
        content: [{ text: op.text }],
      });
    case "gemini": {
      const calls = [
        ...(op.skill
          ? [{
            id: `c${op.id}`,
            name: "activate_skill",
            args: { name: op.skill },
            status: op.failed ? "error" : "success",
            result: [{ functionResponse: { response: { output: "ok" } } }],
          }]
          : []),
        ...(op.edit
          ? [{ id: `e${op.id}`, name: "replace", args: { file_path: "a" }, status: "success" }]
          : []),
      ];
      return JSON.stringify({
        id: idOf(op.id),
        timestamp: ts,
        type: "gemini",
        content: op.text,
        ...(calls.length ? { toolCalls: calls } : {}),
      });
    }
    case "touch":
      return JSON.stringify({ $set: { lastUpdated: ts } });
    case "rewind":
      return JSON.stringify({ $rewindTo: idOf(op.id) });
    case "reset":
      return JSON.stringify({
        $set: { messages: [{ id: idOf(op.id), type: "user", content: "r" }] },
      });
    case "odd":
      // A message record in another key order: parsed, not taken by its start.
      return JSON.stringify({ type: "gemini", id: idOf(op.id), content: "odd" });
  }
}

const chatOps: fc.Arbitrary<ChatOp[]> = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("user" as const),
        id: fc.nat(12),
        text: fc.string(),
      }),
    },
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("gemini" as const),
        id: fc.nat(12),
        text: fc.string(),
        skill: fc.option(fc.constantFrom("investigate", "review"), { nil: undefined }),
        edit: fc.boolean(),
        failed: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: "touch" as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("rewind" as const), id: fc.nat(12) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("reset" as const), id: fc.nat(12) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("odd" as const), id: fc.nat(12) }) },
  ),
  { maxLength: 40 },
);

Deno.test("readGeminiRun() gives the run a whole parse gives, on any chat: rewritten ids, rewinds, resets, a cut last line, an earlier run by its offset", async () => {
  const header = JSON.stringify({ sessionId: "s", projectHash: "h", kind: "main" });
  await fc.assert(
    fc.asyncProperty(chatOps, fc.nat(100), fc.boolean(), async (ops, pick, cut) => {
      let text = [header, ...ops.map(chatLine)].join("\n") + "\n";
      // The client may be writing its last line.
      if (cut && text.length > header.length + 10) text = text.slice(0, -7);
      for (const skill of ["investigate", "review"]) {
        const want = referenceRun(text, skill);
        const got = await parseGeminiChatText(text, { skill });
        assert.equal(got.kind, want ? "ok" : "not_loaded");
        if (got.kind === "ok") assert.deepEqual(shape(got.run), shape(want!));
        // An earlier run, by the offset of one of the loads (or of none).
        const offsets = want?.allOffsets ?? [];
        const fromOffset = offsets.length ? offsets[pick % offsets.length] : pick;
        const wantFrom = referenceRun(text, skill, fromOffset);
        const gotFrom = await parseGeminiChatText(text, { skill, fromOffset });
        assert.equal(gotFrom.kind, wantFrom ? "ok" : "not_loaded");
        if (gotFrom.kind === "ok") assert.deepEqual(shape(gotFrom.run), shape(wantFrom!));
      }
    }),
    {
      numRuns: 400,
      // A cut last line that still ends with `}` and starts like a message: taken by its start,
      // it does not parse, and the chat is read again with every line parsed.
      examples: [[
        [
          { kind: "gemini", id: 0, text: "", skill: "investigate", edit: false, failed: false },
          { kind: "user", id: 1, text: "}  " },
        ],
        0,
        true,
      ]],
    },
  );
});

Deno.test("findGeminiLoad() and the run read of a large chat agree, reading it once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = Deno.readTextFileSync(MET).trimEnd().split("\n");
    const filler: string[] = [];
    for (let i = 0; i < 2000; i++) {
      filler.push(chatLine({ kind: "user", id: 1000 + i, text: `turn ${i} ` + "x".repeat(200) }));
      filler.push(chatLine({ kind: "gemini", id: 5000 + i, text: "" }));
      filler.push(chatLine({ kind: "gemini", id: 5000 + i, text: `answer ${i}` }));
    }
    const path = join(dir, "session-big.jsonl");
    await Deno.writeTextFile(path, [lines[0], ...filler, ...lines.slice(1)].join("\n") + "\n");
    const found = await findGeminiLoad(path, { skill: "investigate" });
    const read = await readGeminiRun(path, { skill: "investigate" });
    if (found.kind !== "found" || read.kind !== "ok") throw new Error("no load");
    assert.equal(found.load.offset, read.run.load.offset);
    const want = referenceRun(await Deno.readTextFile(path), "investigate")!;
    assert.deepEqual(shape(read.run), shape(want));
    // Only the run's messages and the load's were parsed, not the 6,000 filler lines.
    assert.ok(read.run.stats.bytesParsed < 64 * 1024, `${read.run.stats.bytesParsed}`);
    assert.ok(read.run.stats.records > 6000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

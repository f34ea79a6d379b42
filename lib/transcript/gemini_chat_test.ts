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
} from "./gemini_chat.ts";
import { emptyStats } from "./record.ts";

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

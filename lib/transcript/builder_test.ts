import assert from "node:assert/strict";
import { ok, parse } from "./_kit_test.ts";
import { parseTranscriptText } from "./read.ts";
import { finalAssistantText, pendingAgentDispatches } from "./turn.ts";
import {
  assistant,
  call,
  jsonl,
  type Rec,
  say,
  skillLoad,
  user,
} from "../../fixtures/transcripts/_build.ts";

Deno.test("parseTranscriptText() reads progress records' nested messages as sidechain", () => {
  const nested = (rec: Rec): Rec => ({
    type: "progress",
    uuid: `p-${Math.random()}`,
    data: { type: "agent_progress", message: rec },
  });
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    nested({
      type: "assistant",
      message: {
        id: "msg_sub",
        role: "assistant",
        content: [{ type: "tool_use", id: "sb1", name: "Bash", input: { command: "npm test" } }],
      },
    }),
    nested({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "sb1", content: "ok" }],
      },
    }),
    nested({
      type: "assistant",
      message: { id: "msg_sub2", role: "assistant", content: [{ type: "text", text: "sub says" }] },
    }),
    say("main says"),
  ]));
  const sub = run.toolCalls.find((c) => c.id === "sb1");
  assert(sub && sub.sidechain && sub.result?.text === "ok");
  assert.deepEqual(finalAssistantText(run), "main says");
  assert(run.messages.some((m) => m.sidechain && m.text === "sub says"));
});

Deno.test("parseTranscriptText() merges one API message spread over several records", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    assistant([{ type: "text", text: "part one" }], "msg_X"),
    assistant([{ type: "tool_use", id: "b1", name: "Bash", input: { command: "ls" } }], "msg_X"),
    assistant([{ type: "text", text: "part two" }], "msg_X"),
  ]));
  const msgs = run.messages.filter((m) => m.messageId === "msg_X");
  assert.deepEqual(msgs.length, 1);
  assert.deepEqual(msgs[0].text, "part one\npart two");
  assert.deepEqual(msgs[0].toolUseIds, ["b1"]);
});

Deno.test("parseTranscriptText() skips and counts truncated and unparseable lines", () => {
  const good = jsonl([...skillLoad("t1", "investigate"), say("fine")]);
  const text = good + "not json\n" + "[1,2]\n" + '{"type":"assistant","message":{"content":[{"ty';
  const run = ok(parseTranscriptText(text, { skill: "investigate" }));
  assert.deepEqual(run.stats.skippedLines, 3);
  assert.deepEqual(finalAssistantText(run), "fine");
});

Deno.test("parseTranscriptText() ignores and counts unknown record types", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    { type: "brand-new-type", uuid: "n1", foo: 1 },
    { type: "api-request-shape", uuid: "n2" },
    say("x"),
  ]));
  assert.deepEqual(run.stats.unknownTypes, 1);
});

Deno.test("parseTranscriptText() gives unknown_shape for content that is neither text nor blocks", () => {
  const bad = user("x");
  (bad.message as Rec).content = { weird: true };
  const read = parse([...skillLoad("t1", "investigate"), bad, say("x")]);
  assert.deepEqual(read.kind, "unknown_shape");
});

Deno.test("parseTranscriptText() recognises both Agent and Task dispatches", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    call("a1", "Agent", { description: "Testing review", prompt: "p" }),
    call("a2", "Task", { description: "Security review", prompt: "p" }),
  ]));
  assert.deepEqual(pendingAgentDispatches(run).map((p) => p.toolUseId), ["a1", "a2"]);
});

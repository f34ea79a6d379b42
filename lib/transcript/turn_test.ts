import assert from "node:assert/strict";
import { ok, parse } from "./_kit_test.ts";
import {
  endsOnQuestion,
  finalAssistantText,
  findStatusLine,
  pendingAgentDispatches,
} from "./turn.ts";
import { call, type Rec, result, say, skillLoad, user } from "../../fixtures/transcripts/_build.ts";

Deno.test("pendingAgentDispatches() waits for a background agent's task notification", () => {
  const launch = (id: string) =>
    result(id, "Async agent launched successfully.", {
      structured: { isAsync: true, status: "async_launched", agentId: `ag-${id}` },
    });
  const base = [
    ...skillLoad("t1", "review"),
    call("a1", "Agent", { description: "Testing", prompt: "p" }),
    launch("a1"),
    call("a2", "Agent", { description: "Security", prompt: "p" }),
    launch("a2"),
    call("a3", "Agent", { description: "Perf", prompt: "p" }),
    result("a3", [{ type: "text", text: "done" }], { structured: { status: "completed" } }),
  ];
  const run1 = ok(parse(base, "review"));
  assert.deepEqual(pendingAgentDispatches(run1).map((p) => [p.toolUseId, p.state]), [
    ["a1", "async_running"],
    ["a2", "async_running"],
  ]);
  const notice = user(
    "<task-notification><task-id>ag-a1</task-id><tool-use-id>a1</tool-use-id><status>completed</status></task-notification>",
    { origin: { kind: "task-notification" } },
  );
  const queued: Rec = {
    type: "queue-operation",
    operation: "enqueue",
    content:
      "<task-notification>\n<task-id>ag-a2</task-id>\n<tool-use-id>a2</tool-use-id>\n<status>completed</status>\n</task-notification>",
  };
  const run2 = ok(parse([...base, notice], "review"));
  assert.deepEqual(pendingAgentDispatches(run2).map((p) => p.toolUseId), ["a2"]);
  const run3 = ok(parse([...base, notice, queued], "review"));
  assert.deepEqual(pendingAgentDispatches(run3), []);
});

Deno.test("findStatusLine() reads the STATUS line forms", () => {
  assert.deepEqual(findStatusLine("x\nSTATUS: DONE")?.value, "DONE");
  assert.deepEqual(findStatusLine("Status: DONE_WITH_CONCERNS")?.value, "DONE_WITH_CONCERNS");
  assert.deepEqual(findStatusLine("**Status:** BLOCKED")?.value, "BLOCKED");
  assert.deepEqual(findStatusLine("- **STATUS**: NEEDS_CONTEXT")?.value, "NEEDS_CONTEXT");
  assert.deepEqual(findStatusLine("STATUS: DONE\nlater\nStatus: BLOCKED")?.value, "BLOCKED");
  assert.deepEqual(findStatusLine("the status: unclear"), undefined);
  assert.deepEqual(findStatusLine("no status here"), undefined);
});

Deno.test("endsOnQuestion() sees a question, NEEDS_CONTEXT or a pending AskUserQuestion", () => {
  const run = ok(parse([...skillLoad("t1", "investigate"), say("Which branch should I use?")]));
  assert(endsOnQuestion(run));
  assert(endsOnQuestion(run, "Should I also update the docs?**"));
  assert(!endsOnQuestion(run, "Is it fixed? Yes.\n\nAll done."));
  assert(endsOnQuestion(run, "I need the log.\nSTATUS: NEEDS_CONTEXT"));
  const ask = ok(parse([
    ...skillLoad("t1", "investigate"),
    say("Let me ask."),
    call("q1", "AskUserQuestion", { questions: [] }),
  ]));
  assert(endsOnQuestion(ask));
  const answered = ok(parse([
    ...skillLoad("t1", "investigate"),
    call("q1", "AskUserQuestion", { questions: [] }),
    result("q1", "User has answered your questions"),
    say("Done."),
  ]));
  assert(!endsOnQuestion(answered));
});

Deno.test("finalAssistantText() prefers the Stop payload's last_assistant_message", () => {
  const run = ok(parse([...skillLoad("t1", "investigate"), say("old")]));
  assert.deepEqual(finalAssistantText(run, "newer"), "newer");
  assert.deepEqual(finalAssistantText(run, "  "), "old");
});

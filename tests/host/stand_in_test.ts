/**
 * Tests of the stand-in itself (no client needed; loopback only). Run by `deno task test:host`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  flatten,
  lastUserText,
  modelTurns,
  ruleMatches,
  sseEvents,
  startStandIn,
} from "./stand_in.ts";

function parseSse(text: string): { event: string; data: Record<string, unknown> }[] {
  return text.split("\n\n").filter((c) => c.trim()).map((chunk) => {
    const lines = chunk.split("\n");
    const event = lines.find((l) => l.startsWith("event: "))!.slice(7);
    const data = JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6));
    return { event, data };
  });
}

const TOOLS = [{ name: "Skill", input_schema: { type: "object" } }];

Deno.test("startStandIn() binds 127.0.0.1 on a free port and streams the first matching rule", async () => {
  const dir = await Deno.makeTempDir();
  const si = await startStandIn({
    rules: [
      { when: { last_user_contains: "never" }, blocks: [{ type: "text", text: "no" }] },
      {
        when: { last_user_contains: "release notes" },
        blocks: [{ type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: "x" } }],
        stop: "tool_use",
      },
    ],
    logPath: join(dir, "req.jsonl"),
  });
  try {
    assert.match(si.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(si.port > 0);
    const res = await fetch(`${si.url}/v1/messages?beta=true`, {
      method: "POST",
      body: JSON.stringify({
        model: "m",
        stream: true,
        tools: TOOLS,
        messages: [{ role: "user", content: [{ type: "text", text: "write release notes" }] }],
      }),
    });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = parseSse(await res.text());
    assert.deepEqual(events.map((e) => e.event), [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    assert.deepEqual(
      (events[1].data.content_block as Record<string, unknown>).name,
      "Skill",
    );
    assert.equal(
      (events[2].data.delta as Record<string, unknown>).partial_json,
      JSON.stringify({ skill: "x" }),
    );
    assert.equal((events[4].data.delta as Record<string, unknown>).stop_reason, "tool_use");
    assert.equal(si.requests.length, 1);
    assert.equal(si.requests[0].played, 1);
    // Played once: the same request now gets the default reply.
    const again = await fetch(`${si.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({
        tools: TOOLS,
        messages: [{ role: "user", content: "write release notes" }],
      }),
    });
    const body = await again.json();
    assert.deepEqual(body.content, [{ type: "text", text: "ok" }]);
    assert.equal(si.requests[1].played, null);
    assert.equal(modelTurns(si.requests).length, 2);
  } finally {
    await si.close();
  }
  const logged = (await Deno.readTextFile(join(dir, "req.jsonl"))).trim().split("\n");
  assert.equal(logged.length, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("startStandIn() gives requests without tools the default reply and counts tokens", async () => {
  const si = await startStandIn({
    rules: [{ blocks: [{ type: "text", text: "scripted" }], repeat: true }],
  });
  try {
    const title = await fetch(`${si.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "title this" }] }),
    });
    assert.deepEqual((await title.json()).content, [{ type: "text", text: "ok" }]);
    const count = await fetch(`${si.url}/v1/messages/count_tokens`, {
      method: "POST",
      body: "{}",
    });
    assert.deepEqual(await count.json(), { input_tokens: 100 });
    const models = await fetch(`${si.url}/v1/models`);
    assert.deepEqual(await models.json(), { data: [], has_more: false });
    assert.equal(modelTurns(si.requests).length, 0);
  } finally {
    await si.close();
  }
});

Deno.test("ruleMatches() checks last user text, anywhere text, absence and system text", () => {
  const body = {
    system: [{ type: "text", text: "You are a subagent" }],
    messages: [
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_9", name: "Bash", input: {} }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "Exit code 0" }],
      },
    ],
  };
  assert.ok(ruleMatches({ last_user_contains: "toolu_9" }, body));
  assert.ok(ruleMatches({ last_user_contains: "Exit code 0" }, body));
  assert.ok(!ruleMatches({ last_user_contains: "first question" }, body));
  assert.ok(ruleMatches({ any_contains: "first question" }, body));
  assert.ok(!ruleMatches({ not_contains: "Exit code" }, body));
  assert.ok(ruleMatches({ system_contains: "subagent" }, body));
  assert.ok(!ruleMatches({ system_contains: "first" }, body));
  assert.ok(ruleMatches(undefined, body));
  assert.equal(lastUserText(body), "toolu_9\nExit code 0");
});

Deno.test("flatten() reads text, content, input, ids and names but not other fields", () => {
  assert.equal(flatten({ text: "a", other: "b" }), "a");
  assert.equal(
    flatten([{ type: "tool_use", id: "t1", name: "Skill", input: { skill: "s" } }]),
    't1\nSkill\n{"skill":"s"}',
  );
  assert.equal(flatten(null), "");
  assert.equal(flatten(3), "3");
});

Deno.test("sseEvents() ends with message_delta carrying the stop reason and message_stop", () => {
  const ev = sseEvents("m", [{ type: "text", text: "hi" }], "end_turn", "msg_1");
  assert.equal(ev[0].type, "message_start");
  assert.equal(ev.at(-2)!.type, "message_delta");
  assert.equal((ev.at(-2)!.delta as Record<string, unknown>).stop_reason, "end_turn");
  assert.equal(ev.at(-1)!.type, "message_stop");
});

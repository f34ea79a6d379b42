import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePayload, PayloadError, UnknownHostPayloadError } from "./payload.ts";
import { HOSTS, recogniseHost } from "./mod.ts";

Deno.test("parsePayload() reads a Claude Code PreToolUse payload as observed", () => {
  const ev = parsePayload(JSON.stringify({
    session_id: "s1",
    transcript_path: "/h/.claude/projects/-p/s1.jsonl",
    cwd: "/p",
    prompt_id: "p1",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    effort: { level: "high" },
    tool_name: "Skill",
    tool_input: { skill: "investigate" },
    tool_use_id: "toolu_1",
  }));
  assert.equal(ev.host, "claude");
  assert.equal(ev.eventName, "PreToolUse");
  assert.equal(ev.sessionId, "s1");
  assert.equal(ev.toolName, "Skill");
  assert.deepEqual(ev.toolInput, { skill: "investigate" });
  assert.equal(ev.toolUseId, "toolu_1");
  assert.equal(ev.promptId, "p1");
  assert.equal(ev.stopHookActive, false);
});

Deno.test("parsePayload() reads a Claude Code Stop payload", () => {
  const ev = parsePayload(JSON.stringify({
    session_id: "s1",
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: "Done.",
    background_tasks: [],
  }));
  assert.equal(ev.eventName, "Stop");
  assert.equal(ev.stopHookActive, true);
  assert.equal(ev.lastAssistantMessage, "Done.");
});

Deno.test("parsePayload() reads Copilot CLI camelCase payloads and infers the event", () => {
  const pre = parsePayload(JSON.stringify({
    sessionId: "c1",
    timestamp: 1,
    cwd: "/p",
    toolName: "skill",
    toolArgs: '{"skill":"prompt-writer"}',
  }));
  assert.equal(pre.host, "copilot");
  assert.equal(pre.eventName, "PreToolUse");
  assert.deepEqual(pre.toolInput, { skill: "prompt-writer" });
  const obj = parsePayload(
    JSON.stringify({ sessionId: "c1", toolName: "skill", toolArgs: { skill: "x" } }),
  );
  assert.deepEqual(obj.toolInput, { skill: "x" });
  const prompt = parsePayload(JSON.stringify({ sessionId: "c1", timestamp: 1, prompt: "hi" }));
  assert.equal(prompt.eventName, "UserPromptSubmit");
  assert.equal(prompt.prompt, "hi");
  const stop = parsePayload(JSON.stringify({
    sessionId: "c1",
    transcriptPath: "/x/events.jsonl",
    stopReason: "end_turn",
    stop_hook_active: false,
  }));
  assert.equal(stop.host, "copilot");
  assert.equal(stop.eventName, "Stop");
  assert.equal(stop.transcriptPath, "/x/events.jsonl");
  const bad = parsePayload(JSON.stringify({ sessionId: "c", toolName: "bash", toolArgs: "{oops" }));
  assert.equal(bad.toolInput, "{oops");
});

Deno.test("parsePayload() maps Copilot PascalCase and camelCase event names", () => {
  assert.equal(
    parsePayload('{"hook_event_name":"PreToolUse","session_id":"x","tool_name":"Bash"}').eventName,
    "PreToolUse",
  );
  assert.equal(parsePayload('{"hookEventName":"agentStop","sessionId":"x"}').eventName, "Stop");
  assert.equal(
    parsePayload('{"hookEventName":"userPromptSubmitted","sessionId":"x"}').eventName,
    "UserPromptSubmit",
  );
});

Deno.test("parsePayload() refuses what is not a JSON object", () => {
  for (const bad of ["", "nul", "[]", "null", "42", '"s"', '{"a":']) {
    assert.throws(() => parsePayload(bad), PayloadError, bad);
  }
});

Deno.test("parsePayload() is total on any JSON object of a known host (property)", () => {
  fc.assert(
    fc.property(fc.object({ maxDepth: 3 }), (obj) => {
      // A payload no host recognises is refused as such, never read as some host's.
      const host = recogniseHost(obj);
      if (!host) {
        assert.throws(() => parsePayload(JSON.stringify(obj)), UnknownHostPayloadError);
        return;
      }
      const ev = parsePayload(JSON.stringify(obj));
      assert.equal(ev.host, host.kind);
      assert.ok(HOSTS.some((h) => h.kind === ev.host));
      assert.equal(typeof ev.stopHookActive, "boolean");
      for (const k of ["sessionId", "prompt", "toolName", "cwd", "transcriptPath"] as const) {
        assert.ok(ev[k] === undefined || typeof ev[k] === "string");
      }
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.string(), (text) => {
      try {
        parsePayload(text);
      } catch (err) {
        assert.ok(err instanceof PayloadError);
      }
    }),
    { numRuns: 300 },
  );
});

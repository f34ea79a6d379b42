import assert from "node:assert/strict";
import { contextAnswer, denyAnswer, stopBlockAnswer } from "./answer.ts";
import { parsePayload } from "./payload.ts";

const claude = parsePayload(
  '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Skill"}',
);
const copilot = parsePayload('{"sessionId":"s","toolName":"skill","toolArgs":{}}');

Deno.test("denyAnswer() nests the decision for Claude Code and flattens it for Copilot", () => {
  assert.deepEqual(denyAnswer(claude, "R"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "R",
    },
  });
  assert.deepEqual(denyAnswer(copilot, "R"), {
    permissionDecision: "deny",
    permissionDecisionReason: "R",
  });
});

Deno.test("contextAnswer() uses hookSpecificOutput for Claude Code", () => {
  assert.deepEqual(contextAnswer(claude, "X"), {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "X" },
  });
  assert.deepEqual(contextAnswer(copilot, "X"), { additionalContext: "X" });
});

Deno.test("stopBlockAnswer() is decision block with a reason on both hosts", () => {
  assert.deepEqual(stopBlockAnswer(claude, "why"), { decision: "block", reason: "why" });
  assert.deepEqual(stopBlockAnswer(copilot, "why"), { decision: "block", reason: "why" });
});

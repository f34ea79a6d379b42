import assert from "node:assert/strict";
import { mayConcern } from "../hooks/skill_redirect.ts";

Deno.test("mayConcern() lets only another tool's well-formed call end before the runner loads", () => {
  // Ends early: a well-formed call of another tool, on either host.
  assert.equal(
    mayConcern('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}'),
    false,
  );
  assert.equal(mayConcern('{"sessionId":"s","toolName":"view","toolArgs":{"path":"x"}}'), false);
  // Goes on: the Skill tool, a stop, and anything malformed (the runner reports it).
  for (
    const raw of [
      '{"hook_event_name":"PreToolUse","tool_name":"Skill","tool_input":{}}',
      '{"sessionId":"s","toolName":"skill","toolArgs":{"skill":"x"}}',
      '{"hook_event_name":"Stop","stop_hook_active":false}',
      '{"sessionId":"s","transcriptPath":"/x","stopReason":"end_turn"}',
      "",
      "{not json",
      "[]",
      "null",
    ]
  ) assert.equal(mayConcern(raw), true, raw);
});

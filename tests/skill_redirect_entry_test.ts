import assert from "node:assert/strict";
import { mayConcern } from "../hooks/skill_redirect.ts";
import { HOSTS } from "../lib/host/mod.ts";
import { hookRow, hostRegistration } from "../lib/hook/table.ts";

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

Deno.test("mayConcern() lets every host's Skill call and stop go on (a new host must pass here)", () => {
  for (const host of HOSTS) {
    for (const id of ["skill-redirect", "skill-redirect-stop"] as const) {
      const reg = hostRegistration(host, hookRow(id));
      if (!reg) continue;
      const raw = host.samplePayload(reg.event, "/p", "/p/t.jsonl");
      assert.equal(mayConcern(raw), true, `${host.kind} ${reg.event}`);
    }
    for (const name of host.tools.skill) {
      const call = JSON.parse(host.samplePayload(host.hookEvents.PreToolUse!, "/p", "/p/t.jsonl"));
      for (const field of host.fields.toolName ?? []) if (field in call) call[field] = name;
      assert.equal(mayConcern(JSON.stringify(call)), true, `${host.kind} ${name}`);
    }
  }
});

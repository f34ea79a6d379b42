import assert from "node:assert/strict";
import { parsePayload } from "./payload.ts";
import { HOOKS, hostRegistration } from "../hook/table.ts";
import { CLAUDE } from "./claude.ts";
import { CODEX } from "./codex.ts";
import { COPILOT } from "./copilot.ts";

const payload = (name: string) =>
  Deno.readTextFileSync(new URL(`../../fixtures/payloads/${name}.json`, import.meta.url));

Deno.test("parsePayload() reads each host's sub-agent stop, as observed on the real clients", () => {
  const claude = parsePayload(payload("claude_subagent_stop"));
  assert.equal(claude.host, "claude");
  assert.equal(claude.eventName, "SubagentStop");
  assert.equal(claude.agentId, "a48fb149daa12a164");
  assert.match(claude.agentTranscriptPath!, /subagents\/agent-a48fb149daa12a164\.jsonl$/);
  assert.equal(claude.lastAssistantMessage, "SUB-DONE the cart is verified");
  const codex = parsePayload(payload("codex_subagent_stop"));
  assert.equal(codex.host, "codex");
  assert.equal(codex.eventName, "SubagentStop");
  assert.equal(codex.agentId, "01a2344b-fd23-7060-b1f9-94fa528830dc");
  assert.match(
    codex.agentTranscriptPath!,
    /rollout-.*-01a2344b-fd23-7060-b1f9-94fa528830dc\.jsonl$/,
  );
  // Copilot CLI names no event: its subagentStop names the sub-agent (agentName).
  const copilot = parsePayload(payload("copilot_subagent_stop"));
  assert.equal(copilot.host, "copilot");
  assert.equal(copilot.eventName, "SubagentStop");
  assert.equal(copilot.agentId, "6b21e7de-491c-41f0-a713-e40a999cddaa");
  assert.equal(copilot.sessionId, "9080ebe0-3fa4-450b-bca1-e1df0d0c8b52", "the parent's session");
  assert.equal(copilot.timestamp, 1796173110531);
  // Its agentStop inside the sub-agent stays a Stop, marked with the sub-agent's id.
  const inside = parsePayload(payload("copilot_agent_stop_in_subagent"));
  assert.equal(inside.eventName, "Stop");
  assert.equal(inside.agentId, "6b21e7de-491c-41f0-a713-e40a999cddaa");
  // The main stop of a session has no agent.
  assert.equal(parsePayload(payload("stop_claude")).agentId, undefined);
});

Deno.test("the sub-agent contract hook is registered as each host names the event", () => {
  const row = HOOKS.find((h) => h.id === "skill-contract-subagent")!;
  assert.equal(row.event, "SubagentStop");
  assert.equal(hostRegistration(CLAUDE, row)?.event, "SubagentStop");
  assert.equal(hostRegistration(CODEX, row)?.event, "SubagentStop");
  assert.equal(hostRegistration(COPILOT, row)?.event, "subagentStop");
  const main = HOOKS.find((h) => h.id === "skill-contract")!;
  assert.deepEqual(row.transcripts, main.transcripts);
  assert.equal(row.bundle, main.bundle, "the same hook, at another event");
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeTempWorld } from "../../tests/_helpers.ts";
import { runContractStop } from "./stop.ts";
import { parseTranscriptText } from "../transcript/read.ts";
import { parseCopilotText } from "../transcript/copilot_read.ts";
import { parsePayload } from "../host/payload.ts";
import { hookRow } from "../hook/table.ts";
import { readConfig } from "../base/config.ts";
import type { HookContext } from "../hook/runner.ts";
import { claudeContext } from "../host/_kit_test.ts";
import { jsonl, type Rec, SESSION } from "../../fixtures/transcripts/_build.ts";
import { bash, edit, say, skillLoad } from "../../fixtures/transcripts/_build.ts";
import { readSessionRecord } from "./records.ts";

const AGENT = "a48fb149daa12a164";

/** A Claude Code sub-agent's own file: every record `isSidechain`, with the agent's id. */
function agentFile(records: Rec[]): string {
  return jsonl(records.map((r) => ({ ...r, isSidechain: true, agentId: AGENT })));
}

const UNMET = [
  ...skillLoad("s1", "investigate"),
  ...edit("e1"),
  say("SUB-DONE the fix is in."),
];

Deno.test("a Claude Code sub-agent's own file is read as its run only when the reader is told whose it is", () => {
  const text = agentFile(UNMET);
  assert.equal(parseTranscriptText(text, { skill: "investigate" }).kind, "not_loaded");
  const read = parseTranscriptText(text, { skill: "investigate", agent: AGENT });
  assert.equal(read.kind, "ok");
  if (read.kind !== "ok") return;
  assert.equal(read.run.toolCalls.filter((c) => !c.sidechain && c.name === "Edit").length, 1);
  assert.ok(read.run.messages.some((m) => !m.sidechain && m.text.includes("SUB-DONE")));
});

Deno.test("Copilot CLI: a sub-agent's skill load is not the session's; with its agentId it is its run (real events.jsonl)", () => {
  const text = Deno.readTextFileSync(
    join(FIXTURES, "transcripts", "copilot", "subagent_block.jsonl"),
  );
  assert.equal(parseCopilotText(text, { skill: "verify" }).kind, "not_loaded");
  const read = parseCopilotText(text, { skill: "verify", agent: agentOf(text) });
  assert.equal(read.kind, "ok");
  if (read.kind !== "ok") return;
  const own = read.run.toolCalls.filter((c) => !c.sidechain).map((c) => c.name);
  assert.deepEqual(own, ["Write"], "the sub-agent's create; not the parent's task call");
  const mine = read.run.messages.filter((m) => !m.sidechain);
  assert.ok(mine.some((m) => m.role === "assistant" && m.text === "SUB-DONE-2 ok"));
  const feedback = mine.find((m) => m.role === "user" && m.origin === "stop-hook");
  assert.ok(feedback?.isMeta, "the subagentStop block's message is the hook's, not the user's");
});

/** The sub-agent's id in the fixture (its `subagent.started` record's `agentId`). */
function agentOf(text: string): string {
  for (const line of text.split("\n")) {
    if (!line.includes('"subagent.started"')) continue;
    return JSON.parse(line).agentId;
  }
  throw new Error("No sub-agent in the fixture");
}

/** A contract hook's context in a test world; its log lines go to `logs`. */
function hookContext(
  world: Awaited<ReturnType<typeof makeTempWorld>>,
  id: "skill-contract" | "skill-contract-subagent",
  logs: string[],
): HookContext {
  return {
    row: hookRow(id),
    stateRoot: world.stateRoot,
    ...claudeContext(world.claudeDir),
    config: readConfig(world.stateRoot),
    signal: new AbortController().signal,
    commit() {},
    log(outcome: string, reason: string) {
      logs.push(`${outcome} ${reason}`);
    },
  };
}

async function subagentStop(
  world: Awaited<ReturnType<typeof makeTempWorld>>,
  agentTranscript: string,
  lastMessage: string,
  stopHookActive: boolean,
) {
  const raw = JSON.parse(
    Deno.readTextFileSync(join(FIXTURES, "payloads", "claude_subagent_stop.json")),
  );
  const ev = parsePayload(JSON.stringify({
    ...raw,
    session_id: SESSION,
    transcript_path: join(world.root, `${SESSION}.jsonl`),
    agent_transcript_path: agentTranscript,
    cwd: world.projectDir,
    last_assistant_message: lastMessage,
    stop_hook_active: stopHookActive,
  }));
  const logs: string[] = [];
  const ctx = hookContext(world, "skill-contract-subagent", logs);
  const answer = await runContractStop(ev, ctx, { kind: () => "headless", catchUpMs: 0 });
  return { answer, logs };
}

Deno.test("runContractStop() at a SubagentStop: blocks the sub-agent once, records its run with the agent, then miss", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    // The session's own transcript loads nothing; the sub-agent's loads investigate.
    Deno.writeTextFileSync(join(world.root, `${SESSION}.jsonl`), jsonl([say("main")]));
    const dir = join(world.root, SESSION, "subagents");
    Deno.mkdirSync(dir, { recursive: true });
    const file = join(dir, `agent-${AGENT}.jsonl`);
    Deno.writeTextFileSync(file, agentFile(UNMET));
    const first = await subagentStop(world, file, "SUB-DONE the fix is in.", false);
    assert.ok(first.answer !== null, `blocked: ${first.logs.join("; ")}`);
    assert.match(JSON.stringify(first.answer), /SKILL_CONTRACT_UNMET investigate/);
    let rec = readSessionRecord(world.stateRoot, SESSION);
    assert.equal(rec?.runs.length, 1);
    assert.equal(rec?.runs[0].agent, AGENT);
    assert.match(rec!.runs[0].key, new RegExp(`^investigate@${AGENT}:\\d+$`));
    assert.equal(rec?.runs[0].transcript, file);
    assert.equal(rec?.transcript, undefined, "the session's transcript is not the sub-agent's");
    Deno.writeTextFileSync(file, agentFile([...UNMET, say("SUB-DONE again.")]));
    const second = await subagentStop(world, file, "SUB-DONE again.", true);
    assert.equal(second.answer, null);
    rec = readSessionRecord(world.stateRoot, SESSION);
    assert.equal(rec?.runs[0].outcome, "miss");
    assert.equal(rec?.runs[0].blocks, 1);
  } finally {
    await world.cleanup();
  }
});

Deno.test("runContractStop() at a SubagentStop: a fixed sub-agent run is met_after_block; one without a load passes", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    const file = join(world.root, `agent-${AGENT}.jsonl`);
    Deno.writeTextFileSync(file, agentFile(UNMET));
    assert.ok((await subagentStop(world, file, "SUB-DONE the fix is in.", false)).answer);
    const report = "DEBUG REPORT\nSymptom: a\nRoot cause: b\nFix: c\nEvidence: d";
    Deno.writeTextFileSync(file, agentFile([...UNMET, ...bash("b1", "npm test"), say(report)]));
    assert.equal((await subagentStop(world, file, report, true)).answer, null);
    assert.equal(readSessionRecord(world.stateRoot, SESSION)?.runs[0].outcome, "met_after_block");
    const none = join(world.root, "agent-other.jsonl");
    Deno.writeTextFileSync(none, agentFile([say("nothing loaded")]));
    const r = await subagentStop(world, none, "nothing loaded", false);
    assert.equal(r.answer, null);
    assert.ok(r.logs.some((l) => /no-contract-skill-loaded/.test(l)), r.logs.join("; "));
  } finally {
    await world.cleanup();
  }
});

Deno.test("runContractStop(): Copilot CLI's agentStop inside a sub-agent passes; its subagentStop checks that run", async () => {
  const world = await makeTempWorld({ skills: ["world/skills"] });
  try {
    const ev = parsePayload(
      Deno.readTextFileSync(join(FIXTURES, "payloads", "copilot_agent_stop_in_subagent.json")),
    );
    const logs: string[] = [];
    const ctx = hookContext(world, "skill-contract", logs);
    assert.equal(await runContractStop(ev, ctx, { catchUpMs: 0 }), null);
    assert.deepEqual(logs, ["allow sub-agent-own-stop"]);
  } finally {
    await world.cleanup();
  }
});

Deno.test("checkTranscript() reads a Claude Code sub-agent's own file (subagents/agent-<id>.jsonl) as its run", async () => {
  const { checkTranscript } = await import("./check_transcript.ts");
  const dir = await Deno.makeTempDir({ prefix: "skillgate-subagent-" });
  try {
    const file = join(dir, "subagents", `agent-${AGENT}.jsonl`);
    Deno.mkdirSync(join(dir, "subagents"));
    Deno.writeTextFileSync(file, agentFile(UNMET));
    const contract = { version: 1, items: [{ id: "pass", kind: "check_passed_after_last_edit" }] };
    const r = await checkTranscript({ transcript: file, skill: "investigate", contract });
    assert.equal(r.exit, 1, r.message);
    assert.match(r.blockLine ?? "", /missing pass\./);
    const elsewhere = join(dir, `agent-${AGENT}.jsonl`);
    Deno.writeTextFileSync(elsewhere, agentFile(UNMET));
    const other = await checkTranscript({ transcript: elsewhere, skill: "investigate", contract });
    assert.equal(other.exit, 6, "a file not named as a sub-agent's is read as a session's");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

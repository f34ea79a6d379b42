import assert from "node:assert/strict";
import { CODEX } from "./codex.ts";
import { CLAUDE } from "./claude.ts";
import { COPILOT } from "./copilot.ts";
import { recogniseHost } from "./mod.ts";
import { type DesiredHook, listOwnedHooks, mergeHooks } from "./hook_file.ts";
import { hookCommand } from "../install/hook_commands.ts";
import { hookRow, HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";
import { parsePayload } from "./payload.ts";
import { contextAnswer, denyAnswer, stopBlockAnswer } from "./answer.ts";
import { hostFolders, readFolders } from "./folders.ts";
import { claudeFolders } from "./_kit_test.ts";

/** Payloads as Codex CLI 0.169.0 sent them (host-test exploration; paths shortened). */
function fixture(name: string): Record<string, unknown> {
  const url = new URL(`../../fixtures/payloads/${name}`, import.meta.url);
  return JSON.parse(Deno.readTextFileSync(url));
}

const REAL = [
  "codex_session_start.json",
  "codex_user_prompt.json",
  "codex_pretooluse_bash.json",
  "codex_pretooluse_apply_patch.json",
  "codex_stop.json",
];

Deno.test("recognise() claims Codex CLI's real payloads, and no Claude Code or Copilot CLI payload", () => {
  for (const name of REAL) assert.equal(recogniseHost(fixture(name)), CODEX, name);
  for (
    const name of [
      "redirect_claude_bash.json",
      "redirect_claude_skill_agent.json",
      "stop_claude.json",
      "stop_claude_no_last_message.json",
      "redirect_copilot_skill_agent.json",
    ]
  ) assert.notEqual(recogniseHost(fixture(name)), CODEX, name);
  assert.equal(recogniseHost(fixture("stop_claude.json")), CLAUDE);
  assert.equal(recogniseHost(fixture("redirect_copilot_skill_agent.json")), COPILOT);
  // A turn id alone is not Codex CLI's payload.
  assert.equal(CODEX.recognise({ turn_id: "t", thread_id: "x" }), false);
});

Deno.test("parsePayload() reads Codex CLI's payloads, a subagent's prompt with its agent_id", () => {
  const pre = parsePayload(JSON.stringify(fixture("codex_pretooluse_bash.json")));
  assert.equal(pre.host, "codex");
  assert.equal(pre.eventName, "PreToolUse");
  assert.equal(pre.toolName, "Bash");
  assert.deepEqual(pre.toolInput, { command: "cat .agents/skills/investigate/SKILL.md" });
  assert.equal(pre.toolUseId, "call_load");
  const stop = parsePayload(JSON.stringify(fixture("codex_stop.json")));
  assert.equal(stop.eventName, "Stop");
  assert.equal(stop.stopHookActive, false);
  assert.match(stop.lastAssistantMessage!, /STATUS: DONE/);
  assert.match(stop.transcriptPath!, /\/sessions\/.*\/rollout-.*\.jsonl$/);
  const prompt = fixture("codex_user_prompt.json");
  assert.equal(parsePayload(JSON.stringify(prompt)).agentId, undefined);
  const sub = parsePayload(
    JSON.stringify({ ...prompt, agent_id: "a1", agent_type: "prompt-writer", prompt: "task" }),
  );
  assert.equal(sub.eventName, "UserPromptSubmit");
  assert.equal(sub.agentId, "a1");
});

Deno.test("Codex CLI answers in Claude Code's shapes", () => {
  const ev = parsePayload(JSON.stringify(fixture("codex_user_prompt.json")));
  assert.deepEqual(contextAnswer(ev, "X"), {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "X" },
  });
  assert.deepEqual(denyAnswer(ev, "R"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "R",
    },
  });
  assert.deepEqual(stopBlockAnswer(ev, "R"), { decision: "block", reason: "R" });
});

Deno.test("hostRegistration(): the redirect watches Codex's shell tool; every hook that reads a transcript has a reader", () => {
  const regs = Object.fromEntries(HOOKS.map((r) => [r.id, hostRegistration(CODEX, r)]));
  assert.deepEqual(regs["skill-route"], { event: "UserPromptSubmit" });
  assert.deepEqual(regs["skill-redirect"], { event: "PreToolUse", matcher: "Bash" });
  assert.deepEqual(regs["skill-contract"], { event: "Stop" });
  // The Stop fallback of the redirect reads Claude Code's transcript only.
  assert.equal(regs["skill-redirect-stop"], undefined);
});

Deno.test("configDir(), hook files, folders: CODEX_HOME else ~/.codex, hooks.json, .agents/skills and .codex/agents", () => {
  const places = (vars: Record<string, string>) => ({ home: "/h", env: (n: string) => vars[n] });
  assert.equal(CODEX.configDir(places({})), "/h/.codex");
  assert.equal(CODEX.configDir(places({ CODEX_HOME: "/c" })), "/c");
  assert.equal(CODEX.hookFile.userPath("/c"), "/c/hooks.json");
  assert.deepEqual(CODEX.hookFile.projectPaths("/p"), ["/p/.codex/hooks.json"]);
  assert.deepEqual(readFolders(hostFolders(CODEX, places({ CODEX_HOME: "/c" }))), {
    skillDirs: ["/c/skills", "/h/.agents/skills"],
    agentDirs: ["/c/agents"],
    projectSkills: [".agents/skills"],
    projectAgents: [".codex/agents"],
    transcripts: "/c/sessions",
  });
  // The hooks written for Codex CLI are granted its folders, and not Claude Code's.
  const p: PermissionPaths = {
    stateRoot: "/h/.skillgate",
    projectDir: "/p",
    hostFolders: hostFolders(CODEX, places({})),
  };
  const read = hookRow("skill-contract").permissions(p).read;
  for (
    const d of [
      "/h/.codex/skills",
      "/h/.agents/skills",
      ".agents/skills",
      "/p/.agents/skills",
      "/h/.codex/sessions",
    ]
  ) assert.ok(read.includes(d), d);
  assert.ok(!read.some((d) => d.includes(".claude")), read.join(" "));
  const redirect = hookRow("skill-redirect").permissions(p).read;
  for (const d of ["/h/.codex/agents", ".codex/agents", "/p/.codex/agents"]) {
    assert.ok(redirect.includes(d), d);
  }
  // Every host declares its own folders: Copilot CLI's are not Codex CLI's.
  assert.deepEqual(readFolders(hostFolders(COPILOT, places({}))).skillDirs, ["/h/.copilot/skills"]);
  assert.deepEqual(readFolders(hostFolders(CLAUDE, places({}))).plugins, "/h/.claude/plugins");
});

Deno.test("mergeHooks() on Codex CLI's hooks.json: matcher groups, a user's own hooks kept, listed back", () => {
  const paths: PermissionPaths = {
    stateRoot: "/h/.skillgate",
    hostFolders: claudeFolders("/h/.claude"),
  };
  const want: DesiredHook[] = HOOKS.filter((r) => hostRegistration(CODEX, r)).map((row) => {
    const reg = hostRegistration(CODEX, row)!;
    return {
      hookId: row.id,
      event: reg.event,
      ...(reg.matcher ? { matcher: reg.matcher } : {}),
      command: hookCommand(row, {
        denoPath: "/usr/bin/deno",
        source: { kind: "local", root: "/opt/sg" },
        paths,
      }),
      timeout: row.timeoutSec,
    };
  });
  const mine = { type: "command", command: "/usr/local/bin/my-hook", timeout: 5 };
  const user = { hooks: { PreToolUse: [{ matcher: "*", hooks: [mine] }] } };
  const out = mergeHooks(CODEX.hookFile.format, user, want, skillgateOwner);
  const doc = out.doc as { hooks: Record<string, { matcher?: string; hooks: unknown[] }[]> };
  assert.deepEqual(Object.keys(doc.hooks).sort(), [
    "PreToolUse",
    "Stop",
    "SubagentStop",
    "UserPromptSubmit",
  ]);
  assert.deepEqual(doc.hooks.PreToolUse[0], { matcher: "*", hooks: [mine] });
  assert.equal(doc.hooks.PreToolUse[1].matcher, "Bash");
  const listed = listOwnedHooks(CODEX.hookFile.format, out.doc, skillgateOwner);
  assert.deepEqual(listed.map((h) => h.hookId).sort(), [
    "skill-contract",
    "skill-contract-subagent",
    "skill-redirect",
    "skill-route",
  ]);
  const removed = mergeHooks(CODEX.hookFile.format, out.doc, [], skillgateOwner);
  assert.deepEqual(removed.doc, user, "uninstall leaves the user's own hooks only");
});

Deno.test("samplePayload(): Codex CLI's own payloads, each read as Codex CLI's", () => {
  for (
    const [event, canonical] of [["UserPromptSubmit", "UserPromptSubmit"], [
      "PreToolUse",
      "PreToolUse",
    ], ["Stop", "Stop"]]
  ) {
    const ev = parsePayload(CODEX.samplePayload(event, "/p", "/t.jsonl"));
    assert.equal(ev.host, "codex");
    assert.equal(ev.eventName, canonical);
  }
  const stop = parsePayload(CODEX.samplePayload("Stop", "/p", "/t.jsonl"));
  assert.equal(stop.stopHookActive, true);
});

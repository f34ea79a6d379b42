import assert from "node:assert/strict";
import { GEMINI } from "./gemini.ts";
import { CLAUDE } from "./claude.ts";
import { CODEX } from "./codex.ts";
import { COPILOT } from "./copilot.ts";
import { recogniseHost } from "./mod.ts";
import { type DesiredHook, listOwnedHooks, mergeHooks } from "./hook_file.ts";
import { hookCommand, PORTABLE, portableConfigDir, shellSplit } from "../install/hook_commands.ts";
import { hookRow, HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";
import { parsePayload } from "./payload.ts";
import { contextAnswer, denyAnswer, stopBlockAnswer } from "./answer.ts";
import { hostFolders, readFolders } from "./folders.ts";

/** Payloads as Gemini CLI 0.61.0 sent them (recorded offline; paths shortened). */
function fixture(name: string): Record<string, unknown> {
  const url = new URL(`../../fixtures/payloads/${name}`, import.meta.url);
  return JSON.parse(Deno.readTextFileSync(url));
}

const REAL = [
  "gemini_session_start.json",
  "gemini_before_agent.json",
  "gemini_before_agent_refired.json",
  "gemini_before_tool_activate_skill.json",
  "gemini_before_tool_replace.json",
  "gemini_before_tool_invoke_agent.json",
  "gemini_after_agent.json",
  "gemini_after_agent_active.json",
];

Deno.test("recognise() claims Gemini CLI's real payloads, and no other host's", () => {
  for (const name of REAL) assert.equal(recogniseHost(fixture(name)), GEMINI, name);
  for (
    const name of [
      "redirect_claude_skill_agent.json",
      "stop_claude.json",
      "codex_stop.json",
      "codex_session_start.json",
      "redirect_copilot_skill_agent.json",
    ]
  ) assert.notEqual(recogniseHost(fixture(name)), GEMINI, name);
  assert.equal(recogniseHost(fixture("stop_claude.json")), CLAUDE);
  assert.equal(recogniseHost(fixture("codex_stop.json")), CODEX);
  assert.equal(recogniseHost(fixture("redirect_copilot_skill_agent.json")), COPILOT);
  // A Claude Code SessionStart is not taken for Gemini CLI's: only a chat path says so.
  assert.equal(
    GEMINI.recognise({ hook_event_name: "SessionStart", transcript_path: "/h/.claude/p/x.jsonl" }),
    false,
  );
});

Deno.test("parsePayload() reads Gemini CLI's payloads into the event model", () => {
  const prompt = parsePayload(JSON.stringify(fixture("gemini_before_agent.json")));
  assert.equal(prompt.host, "gemini");
  assert.equal(prompt.eventName, "UserPromptSubmit");
  assert.equal(prompt.prompt, "the login test fails, fix it");
  const tool = parsePayload(JSON.stringify(fixture("gemini_before_tool_activate_skill.json")));
  assert.equal(tool.eventName, "PreToolUse");
  assert.equal(tool.toolName, "activate_skill");
  assert.deepEqual(tool.toolInput, { name: "investigate" });
  assert.equal(tool.toolUseId, undefined, "BeforeTool has no call id");
  const stop = parsePayload(JSON.stringify(fixture("gemini_after_agent.json")));
  assert.equal(stop.eventName, "Stop");
  assert.equal(stop.stopHookActive, false);
  assert.equal(stop.lastAssistantMessage, "Fixed: the null check was missing.");
  assert.match(stop.transcriptPath!, /\/chats\/session-.*\.jsonl$/);
  const again = parsePayload(JSON.stringify(fixture("gemini_after_agent_active.json")));
  assert.equal(again.stopHookActive, true);
});

Deno.test("Gemini CLI's answers: additionalContext at BeforeAgent, a flat deny, a block", () => {
  const ev = parsePayload(JSON.stringify(fixture("gemini_before_agent.json")));
  assert.deepEqual(contextAnswer(ev, "X"), {
    hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "X" },
  });
  assert.deepEqual(denyAnswer(ev, "R"), { decision: "deny", reason: "R" });
  assert.deepEqual(stopBlockAnswer(ev, "R"), { decision: "block", reason: "R" });
});

Deno.test("unknownSkill: activate_skill's enum error, its name read from the call's input", () => {
  const unknown = GEMINI.unknownSkill!;
  const text = "params/name must be equal to one of the allowed values";
  assert.ok(text.includes(unknown.needle));
  assert.equal(unknown.nameIn(text, { name: "prompt-writer" }), "prompt-writer");
  assert.equal(unknown.nameIn(text), undefined);
  assert.equal(unknown.nameIn("Tool execution blocked: R", { name: "x" }), undefined);
  assert.equal(unknown.nameIn(text, { name: " " }), undefined);
});

Deno.test("hostRegistration(): BeforeAgent, BeforeTool on activate_skill, AfterAgent for both stop hooks", () => {
  const regs = Object.fromEntries(HOOKS.map((r) => [r.id, hostRegistration(GEMINI, r)]));
  assert.deepEqual(regs["skill-route"], { event: "BeforeAgent" });
  assert.deepEqual(regs["skill-redirect"], { event: "BeforeTool", matcher: "activate_skill" });
  assert.deepEqual(regs["skill-contract"], { event: "AfterAgent" });
  assert.deepEqual(regs["skill-redirect-stop"], { event: "AfterAgent" });
});

Deno.test("configDir(), hook files, folders: GEMINI_CLI_HOME/.gemini and GEMINI_CLI_HOME/.agents else ~/…, settings.json", () => {
  const places = (vars: Record<string, string>) => ({ home: "/h", env: (n: string) => vars[n] });
  assert.equal(GEMINI.configDir(places({})), "/h/.gemini");
  assert.equal(GEMINI.configDir(places({ GEMINI_CLI_HOME: "/g" })), "/g/.gemini");
  assert.equal(GEMINI.hookFile.userPath("/g/.gemini"), "/g/.gemini/settings.json");
  assert.deepEqual(GEMINI.hookFile.projectPaths("/p"), ["/p/.gemini/settings.json"]);
  assert.deepEqual(readFolders(hostFolders(GEMINI, places({}))), {
    skillDirs: ["/h/.gemini/skills", "/h/.agents/skills"],
    agentDirs: ["/h/.gemini/agents"],
    projectSkills: [".gemini/skills", ".agents/skills"],
    projectAgents: [],
    acknowledgedAgents: {
      dir: ".gemini/agents",
      record: "/h/.gemini/acknowledgments/agents.json",
    },
    extensions: "/h/.gemini/extensions",
    transcripts: "/h/.gemini/tmp",
  });
  // GEMINI_CLI_HOME is the home the client sees: both `.gemini` and `.agents` are under it.
  const moved = readFolders(hostFolders(GEMINI, places({ GEMINI_CLI_HOME: "/g" })));
  assert.deepEqual(moved.skillDirs, ["/g/.gemini/skills", "/g/.agents/skills"]);
  assert.equal(moved.extensions, "/g/.gemini/extensions");
  const p: PermissionPaths = {
    stateRoot: "/h/.skillgate",
    projectDir: "/p",
    hostFolders: hostFolders(GEMINI, places({})),
  };
  const read = hookRow("skill-contract").permissions(p).read;
  for (
    const d of [
      "/h/.gemini/skills",
      "/h/.agents/skills",
      "/p/.gemini/skills",
      "/h/.gemini/tmp",
      "/h/.gemini/extensions",
    ]
  ) {
    assert.ok(read.includes(d), d);
  }
  assert.ok(!read.some((d) => d.includes(".claude")), read.join(" "));
  // The redirect reads extensions' agents as well as their skills, and a project's acknowledged
  // agents with the acknowledgements (the contract hook reads no agent).
  const redirect = hookRow("skill-redirect").permissions(p).read;
  for (
    const d of [
      "/h/.gemini/extensions",
      ".gemini/agents",
      "/p/.gemini/agents",
      "/h/.gemini/acknowledgments/agents.json",
    ]
  ) {
    assert.ok(redirect.includes(d), d);
  }
  assert.ok(!read.includes("/h/.gemini/acknowledgments/agents.json"));
});

Deno.test("mergeHooks() on Gemini CLI's settings.json: named items, timeouts in ms, the user's settings kept", () => {
  const paths: PermissionPaths = {
    stateRoot: "/h/.skillgate",
    hostFolders: hostFolders(GEMINI, { home: "/h", env: () => undefined }),
  };
  const want: DesiredHook[] = HOOKS.filter((r) => hostRegistration(GEMINI, r)).map((row) => {
    const reg = hostRegistration(GEMINI, row)!;
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
  const mine = { type: "command", name: "mine", command: "/usr/local/bin/my-hook", timeout: 5000 };
  const user = {
    security: { auth: { selectedType: "gemini-api-key" } },
    hooks: { BeforeTool: [{ matcher: ".*", hooks: [mine] }] },
  };
  const out = mergeHooks(GEMINI.hookFile.format, user, want, skillgateOwner);
  const doc = out.doc as {
    security: unknown;
    hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
  };
  assert.deepEqual(doc.security, user.security);
  assert.deepEqual(Object.keys(doc.hooks).sort(), ["AfterAgent", "BeforeAgent", "BeforeTool"]);
  assert.deepEqual(doc.hooks.BeforeTool[0], { matcher: ".*", hooks: [mine] });
  assert.equal(doc.hooks.BeforeTool[1].matcher, "activate_skill");
  const contract = doc.hooks.AfterAgent.map((g) => g.hooks[0]).find((h) =>
    h.name === "skillgate-skill-contract"
  );
  assert.ok(contract, JSON.stringify(doc.hooks.AfterAgent));
  assert.equal(contract.timeout, hookRow("skill-contract").timeoutSec * 1000);
  const listed = listOwnedHooks(GEMINI.hookFile.format, out.doc, skillgateOwner);
  assert.deepEqual(listed.map((h) => h.hookId).sort(), [
    "skill-contract",
    "skill-redirect",
    "skill-redirect-stop",
    "skill-route",
  ]);
  assert.equal(
    listed.find((h) => h.hookId === "skill-contract")?.timeout,
    hookRow("skill-contract").timeoutSec,
  );
  const again = mergeHooks(GEMINI.hookFile.format, out.doc, want, skillgateOwner);
  assert.ok(again.changes.every((c) => c.action === "unchanged"), JSON.stringify(again.changes));
  const removed = mergeHooks(GEMINI.hookFile.format, out.doc, [], skillgateOwner);
  assert.deepEqual(removed.doc, user, "uninstall leaves the user's own settings only");
});

Deno.test("samplePayload(): Gemini CLI's own payloads, each read as Gemini CLI's", () => {
  for (
    const [event, canonical] of [
      ["BeforeAgent", "UserPromptSubmit"],
      ["BeforeTool", "PreToolUse"],
      ["AfterAgent", "Stop"],
    ]
  ) {
    const ev = parsePayload(GEMINI.samplePayload(event, "/p", "/t.jsonl"));
    assert.equal(ev.host, "gemini");
    assert.equal(ev.eventName, canonical);
  }
  assert.equal(
    parsePayload(GEMINI.samplePayload("AfterAgent", "/p", "/t.jsonl")).stopHookActive,
    true,
  );
});

Deno.test("a portable command (setup --gemini --project from the package) names GEMINI_CLI_HOME, else HOME", () => {
  const p: PermissionPaths = {
    stateRoot: PORTABLE.stateRoot,
    hostFolders: {
      configDir: portableConfigDir("gemini"),
      home: PORTABLE.home,
      layout: GEMINI.layout,
    },
  };
  const source = { kind: "jsr", version: "1.0.0" } as const;
  const line = hookCommand(hookRow("skill-contract"), { denoPath: "deno", source, paths: p });
  assert.ok(!line.includes("@@"), line);
  for (const d of [".gemini/skills", ".agents/skills", ".gemini/extensions", ".gemini/tmp"]) {
    assert.ok(line.includes(`--allow-read="\${GEMINI_CLI_HOME:-$HOME}"/${d}`), `${d}: ${line}`);
  }
  // Read back as written (doctor and setup recognise their own commands).
  const words = shellSplit(line);
  assert.ok(words?.includes(`--allow-read=${PORTABLE.home}gemini/.agents/skills`), `${words}`);
});

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  canonicalEventName,
  DEFAULT_HOST,
  fieldNamesOf,
  foreignClientOf,
  hostConfigDirs,
  hostFor,
  type HostKind,
  HOSTS,
  recogniseHost,
  toolNamesOf,
  UnknownHostError,
} from "./mod.ts";
import { CLAUDE } from "./claude.ts";
import { COPILOT } from "./copilot.ts";
import { CODEX } from "./codex.ts";
import { GEMINI } from "./gemini.ts";
import { parsePayload, UnknownHostPayloadError } from "./payload.ts";
import { HOOKS, hostRegistration } from "../hook/table.ts";

Deno.test("HOSTS holds each host once, and hostFor() finds each", () => {
  assert.deepEqual(HOSTS.map((h) => h.kind), ["gemini", "codex", "claude", "copilot"]);
  assert.equal(new Set(HOSTS.map((h) => h.kind)).size, HOSTS.length);
  assert.equal(DEFAULT_HOST, CLAUDE);
  for (const h of HOSTS) assert.equal(hostFor(h.kind), h);
  assert.throws(() => hostFor("cursor" as HostKind), UnknownHostError);
});

Deno.test("recogniseHost() asks every host and takes the first that says yes", () => {
  assert.equal(recogniseHost({ session_id: "s", hook_event_name: "Stop" }), CLAUDE);
  assert.equal(recogniseHost({ sessionId: "s", toolName: "skill" }), COPILOT);
  // Codex CLI's payloads are Claude Code's with a turn: the more specific shape goes first.
  assert.equal(recogniseHost({ session_id: "s", turn_id: "t", hook_event_name: "Stop" }), CODEX);
  // Gemini CLI's payloads are Claude Code's fields with its own event names.
  assert.equal(recogniseHost({ session_id: "s", hook_event_name: "AfterAgent" }), GEMINI);
  // Both hosts' fields: the earlier host in HOSTS wins, as before there was a registry.
  assert.equal(recogniseHost({ session_id: "s", sessionId: "s" }), CLAUDE);
});

Deno.test("a payload of unknown shape is no host's, and never read as Claude Code's", () => {
  for (
    const payload of [
      {},
      { prompt: "fix the bug", cwd: "/p" },
      { stop_hook_active: true, last_assistant_message: "done" },
      { thread_id: "t", turn_id: "u", input: "x" },
    ]
  ) {
    assert.equal(recogniseHost(payload), undefined, JSON.stringify(payload));
    assert.throws(() => parsePayload(JSON.stringify(payload)), UnknownHostPayloadError);
  }
});

Deno.test("a payload of Cursor or VS Code is no host's, though it has Claude Code's fields", () => {
  const dir = new URL("../../fixtures/payloads/foreign/", import.meta.url);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
  assert.ok(names.length >= 6);
  for (const name of names) {
    const payload = JSON.parse(Deno.readTextFileSync(new URL(name, dir)));
    const client = name.startsWith("cursor_") ? "Cursor" : "VS Code";
    assert.equal(foreignClientOf(payload), client, name);
    assert.equal(recogniseHost(payload), undefined, name);
    assert.throws(
      () => parsePayload(JSON.stringify(payload)),
      new RegExp(`Payload is ${client}'s`),
      name,
    );
  }
  // Copilot CLI's own event names are camelCase: its payloads stay its own.
  assert.equal(recogniseHost({ hookEventName: "agentStop", sessionId: "s" }), COPILOT);
});

Deno.test("every payload a host recognises parses as that host's (property)", () => {
  const fieldNames = [...new Set(HOSTS.flatMap((h) => Object.values(h.fields).flat()))];
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom(...fieldNames), fc.oneof(fc.string(), fc.boolean())),
      (obj) => {
        const host = recogniseHost(obj);
        if (!host) {
          assert.throws(() => parsePayload(JSON.stringify(obj)), UnknownHostPayloadError);
        } else assert.equal(parsePayload(JSON.stringify(obj)).host, host.kind);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("toolNamesOf() and fieldNamesOf() take every host's names, in host order", () => {
  assert.deepEqual(toolNamesOf("skill"), ["activate_skill", "Skill", "skill"]);
  assert.deepEqual(toolNamesOf("agent"), ["invoke_agent", "spawn_agent", "Agent", "Task", "task"]);
  assert.deepEqual(toolNamesOf("edit"), [
    "replace",
    "write_file",
    "apply_patch",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "edit",
    "create",
  ]);
  assert.deepEqual(fieldNamesOf("sessionId"), ["session_id", "sessionId"]);
  assert.deepEqual(fieldNamesOf("toolInput"), ["tool_input", "toolInput", "toolArgs"]);
  assert.deepEqual(fieldNamesOf("prompt"), ["prompt", "userPrompt", "user_prompt"]);
  assert.deepEqual(HOSTS.map((h) => h.agentTypeField), [
    "agent_name",
    "agent_type",
    "subagent_type",
    "agent_type",
  ]);
});

Deno.test("canonicalEventName() reads the sender's names first, then any host's", () => {
  assert.equal(canonicalEventName(COPILOT, "agentStop"), "Stop");
  assert.equal(canonicalEventName(COPILOT, "userPromptSubmitted"), "UserPromptSubmit");
  assert.equal(canonicalEventName(CLAUDE, "PreToolUse"), "PreToolUse");
  assert.equal(canonicalEventName(CLAUDE, "agentStop"), "Stop");
  assert.equal(canonicalEventName(CLAUDE, "Notification"), "Notification");
});

Deno.test("every host names each event of the table, or leaves it out; hook-file events are unique", () => {
  for (const host of HOSTS) {
    const events = Object.values(host.hookEvents);
    assert.equal(new Set(events).size, events.length, host.kind);
    for (const [canonical, name] of Object.entries(host.hookEvents)) {
      assert.equal(canonicalEventName(host, name!), canonical, `${host.kind} ${name}`);
    }
    for (const row of HOOKS) {
      const reg = hostRegistration(host, row);
      if (reg?.matcher !== undefined) {
        for (const tool of host.tools.skill) assert.match(tool, new RegExp(`^(?:${reg.matcher})$`));
      }
    }
  }
});

Deno.test("hostConfigDirs() gives each host its own directory from its variable or home", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(hostConfigDirs({ home: "/h", env: env({}) }), {
    gemini: "/h/.gemini",
    codex: "/h/.codex",
    claude: "/h/.claude",
    copilot: "/h/.copilot",
  });
  assert.deepEqual(
    hostConfigDirs({
      home: "/h",
      env: env({
        CLAUDE_CONFIG_DIR: "/c",
        COPILOT_HOME: "/p",
        CODEX_HOME: "/x",
        GEMINI_CLI_HOME: "/g",
      }),
    }),
    { gemini: "/g/.gemini", codex: "/x", claude: "/c", copilot: "/p" },
  );
});

Deno.test("host modules stay light: they import no module that does work or I/O", async () => {
  const names = [
    "mod.ts",
    "claude.ts",
    "copilot.ts",
    "codex.ts",
    "gemini.ts",
    "payload.ts",
    "answer.ts",
  ];
  for (const name of [...names, "json.ts", "plugin.ts", "skill_calls.ts"]) {
    const text = await Deno.readTextFile(new URL(`./${name}`, import.meta.url));
    const imports = [...text.matchAll(/^import(?! type)[^;]*from "([^"]+)";/gm)].map((m) => m[1]);
    for (const spec of imports) {
      assert.ok(
        [
          "./mod.ts",
          "./claude.ts",
          "./copilot.ts",
          "./codex.ts",
          "./gemini.ts",
          "./json.ts",
          "./plugin.ts",
          "./host.ts",
          "../base/path.ts",
        ].includes(spec),
        `${name} imports ${spec}`,
      );
    }
  }
});

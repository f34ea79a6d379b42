import assert from "node:assert/strict";
import { claudeFolders } from "./_kit_test.ts";
import { foreignSettings } from "./_kit_test.ts";
import fc from "fast-check";
import { CLAUDE } from "./claude.ts";
import {
  type CommandOwner,
  type DesiredHook,
  type HookChange,
  listOwnedHooks,
  mergeHooks,
  type OwnedHook,
} from "./hook_file.ts";
import type { JsonObject } from "./json.ts";
import { hookCommand, type ModuleSource } from "../install/hook_commands.ts";
import { HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";
import { parsePayload } from "./payload.ts";
import { contextAnswer, denyAnswer, stopBlockAnswer } from "./answer.ts";

const FORMAT = CLAUDE.hookFile.format;

function fixture(name: string): Record<string, unknown> {
  const url = new URL(`../../fixtures/payloads/${name}`, import.meta.url);
  return JSON.parse(Deno.readTextFileSync(url));
}

/** Claude Code 2.1.328's UserPromptSubmit payload, as observed (`hosts-observed.md`). */
const OBSERVED_PROMPT = {
  session_id: "s1",
  transcript_path: "/h/.claude/projects/-p/s1.jsonl",
  cwd: "/p",
  prompt_id: "p1",
  permission_mode: "default",
  hook_event_name: "UserPromptSubmit",
  prompt: "fix the bug",
};

Deno.test("CLAUDE.recognise() says yes to Claude Code's real payloads", () => {
  for (
    const name of [
      "redirect_claude_bash.json",
      "redirect_claude_skill_agent.json",
      "redirect_claude_skill_real.json",
      "redirect_claude_stop.json",
      "stop_claude.json",
      "stop_claude_active.json",
      "stop_claude_no_last_message.json",
    ]
  ) {
    assert.ok(CLAUDE.recognise(fixture(name)), name);
    assert.equal(parsePayload(JSON.stringify(fixture(name))).host, "claude", name);
  }
  assert.ok(CLAUDE.recognise(OBSERVED_PROMPT));
  const ev = parsePayload(JSON.stringify(OBSERVED_PROMPT));
  assert.equal(ev.eventName, "UserPromptSubmit");
  assert.equal(ev.prompt, "fix the bug");
});

Deno.test("CLAUDE.recognise() says no to Copilot CLI's camelCase payloads and to fields it lacks", () => {
  for (
    const name of ["redirect_copilot_skill_agent.json", "redirect_copilot_skill_string_args.json"]
  ) {
    assert.equal(CLAUDE.recognise(fixture(name)), false, name);
  }
  assert.equal(CLAUDE.recognise({ sessionId: "c", timestamp: 1, cwd: "/p", prompt: "hi" }), false);
  assert.equal(CLAUDE.recognise({ prompt: "hi", cwd: "/p" }), false);
  assert.equal(CLAUDE.recognise({}), false);
});

Deno.test("CLAUDE reads Copilot CLI's PascalCase-mode payload (snake_case fields) as before", () => {
  const pascal = {
    hook_event_name: "PreToolUse",
    session_id: "c1",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/p",
    tool_name: "skill",
    tool_input: '{"skill":"prompt-writer"}',
  };
  assert.ok(CLAUDE.recognise(pascal));
  const ev = parsePayload(JSON.stringify(pascal));
  assert.equal(ev.host, "claude");
  assert.equal(ev.eventName, "PreToolUse");
  assert.deepEqual(ev.toolInput, { skill: "prompt-writer" });
});

Deno.test("CLAUDE answers in hookSpecificOutput, and blocks a stop with decision block", () => {
  const ev = parsePayload(JSON.stringify(fixture("redirect_claude_skill_agent.json")));
  assert.deepEqual(denyAnswer(ev, "R"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "R",
    },
  });
  assert.deepEqual(contextAnswer(ev, "X"), {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "X" },
  });
  assert.deepEqual(stopBlockAnswer(ev, "why"), { decision: "block", reason: "why" });
  assert.deepEqual(CLAUDE.answers.deny("R"), denyAnswer(ev, "R"));
});

Deno.test("CLAUDE names its events, tools and matcher as Claude Code does", () => {
  const byId = (id: string) => hostRegistration(CLAUDE, HOOKS.find((h) => h.id === id)!);
  assert.deepEqual(byId("skill-route"), { event: "UserPromptSubmit" });
  assert.deepEqual(byId("skill-contract"), { event: "Stop" });
  assert.deepEqual(byId("skill-redirect"), { event: "PreToolUse", matcher: "Skill" });
  assert.deepEqual(byId("skill-redirect-stop"), { event: "Stop" });
  assert.deepEqual(CLAUDE.tools.agent, ["Agent", "Task"]);
  assert.deepEqual(CLAUDE.tools.skill, ["Skill"]);
  assert.ok(CLAUDE.texts.skillIsAgent.includes("Agent tool"));
});

Deno.test("CLAUDE's config directory, hook files and transcripts folder", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(CLAUDE.configDir({ home: "/h", env: env({}) }), "/h/.claude");
  assert.equal(CLAUDE.configDir({ home: "/h", env: env({ CLAUDE_CONFIG_DIR: "/c" }) }), "/c");
  assert.equal(CLAUDE.hookFile.userPath("/c"), "/c/settings.json");
  assert.deepEqual(CLAUDE.hookFile.projectPaths("/p"), [
    "/p/.claude/settings.json",
    "/p/.claude/settings.local.json",
  ]);
  assert.equal(CLAUDE.layout.transcripts, "projects");
});

Deno.test("CLAUDE.samplePayload() is its own payload, harmless for every event", () => {
  for (const event of ["UserPromptSubmit", "PreToolUse", "Stop"]) {
    const ev = parsePayload(CLAUDE.samplePayload(event, "/tmp", "/tmp/none.jsonl"));
    assert.equal(ev.host, "claude");
    assert.equal(ev.eventName, event);
  }
});

/** The shared merge on a `settings.json` that stays (something is wanted, or it had keys). */
function mergeSettings(
  doc: unknown,
  want: readonly DesiredHook[],
  owner: CommandOwner,
): { settings: JsonObject; changes: HookChange[] } {
  const { doc: settings, changes } = mergeHooks(FORMAT, doc, want, owner);
  if (!settings) throw new Error("The merge removed settings.json");
  return { settings, changes };
}

function listOwnedSettings(doc: unknown, owner: CommandOwner): OwnedHook[] {
  return listOwnedHooks(FORMAT, doc, owner);
}

const PATHS: PermissionPaths = {
  stateRoot: "/home/u/.skillgate",
  hostFolders: claudeFolders("/home/u/.claude"),
};

function desired(
  source: ModuleSource = { kind: "local", root: "/opt/skillgate" },
  ids: string[] = HOOKS.map((h) => h.id),
  denoPath = "/usr/local/bin/deno",
): DesiredHook[] {
  return HOOKS.filter((h) => ids.includes(h.id)).map((row) => ({
    hookId: row.id,
    event: hostRegistration(CLAUDE, row)!.event,
    ...(hostRegistration(CLAUDE, row)!.matcher
      ? { matcher: hostRegistration(CLAUDE, row)!.matcher }
      : {}),
    command: hookCommand(row, { denoPath, source, paths: PATHS }),
    timeout: row.timeoutSec,
  }));
}

function foreignGroups(settings: JsonObject): unknown[] {
  const out: unknown[] = [];
  const hooks = settings.hooks as Record<string, unknown[]>;
  for (const [event, groups] of Object.entries(hooks)) {
    for (const g of groups) {
      const items = (g as { hooks: { command: string }[] }).hooks.filter((i) =>
        skillgateOwner(i.command, event) === null
      );
      if (items.length) out.push({ event, group: { ...(g as object), hooks: items } });
    }
  }
  return out;
}

Deno.test("mergeHooks() on settings.json: on no file registers every wanted hook with its matcher and timeout", () => {
  const { settings, changes } = mergeSettings(undefined, desired(), skillgateOwner);
  assert.deepEqual(changes.map((c) => c.action), ["added", "added", "added", "added", "added"]);
  const owned = listOwnedSettings(settings, skillgateOwner);
  assert.deepEqual(owned.map((o) => o.hookId).sort(), HOOKS.map((h) => h.id).sort());
  const pre = (settings.hooks as Record<string, { matcher?: string }[]>).PreToolUse;
  assert.equal(pre[0].matcher, "Skill");
  assert.deepEqual(
    (settings.hooks as Record<string, unknown[]>).UserPromptSubmit,
    [{ hooks: [{ type: "command", command: desired()[0].command, timeout: 10 }] }],
  );
});

Deno.test("mergeHooks() on settings.json: keeps foreign entries and every other key untouched", () => {
  const before = foreignSettings();
  const { settings } = mergeSettings(before, desired(), skillgateOwner);
  assert.deepEqual(foreignGroups(settings), foreignGroups(before));
  for (const key of ["model", "permissions", "env", "statusLine"]) {
    assert.deepEqual(settings[key], before[key]);
  }
  // Foreign groups keep their place: ours come after them.
  const stop = (settings.hooks as Record<string, unknown[]>).Stop;
  assert.deepEqual(stop[0], (before.hooks as Record<string, unknown[]>).Stop[0]);
  assert.deepEqual(before, foreignSettings(), "the input is not mutated");
});

Deno.test("mergeHooks() on settings.json: twice is a fixed point", () => {
  const once = mergeSettings(foreignSettings(), desired(), skillgateOwner).settings;
  const twice = mergeSettings(once, desired(), skillgateOwner);
  assert.deepEqual(twice.settings, once);
  assert.ok(twice.changes.every((c) => c.action === "unchanged"));
});

Deno.test("mergeHooks() on settings.json: replaces a stale entry (old path, old version) in place", () => {
  const old = mergeSettings(
    foreignSettings(),
    desired({ kind: "jsr", version: "0.0.9" }, undefined, "/old/deno"),
    skillgateOwner,
  )
    .settings;
  const { settings, changes } = mergeSettings(old, desired(), skillgateOwner);
  assert.ok(changes.every((c) => c.action === "updated"), JSON.stringify(changes));
  const owned = listOwnedSettings(settings, skillgateOwner);
  assert.equal(owned.length, 5);
  for (const d of desired()) {
    assert.equal(owned.filter((o) => o.hookId === d.hookId && o.command === d.command).length, 1);
  }
  assert.deepEqual(foreignGroups(settings), foreignGroups(foreignSettings()));
  // The stale group stayed at its index.
  const oldIdx = (old.hooks as Record<string, unknown[]>).PreToolUse.length - 1;
  const pre = (settings.hooks as Record<string, { hooks: { command: string }[] }[]>).PreToolUse;
  assert.equal(pre[oldIdx].hooks[0].command, desired()[2].command);
});

Deno.test("mergeHooks() on settings.json: collapses duplicates and pulls its item out of a mixed group", () => {
  const d = desired();
  const route = d[0];
  const settings: JsonObject = {
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: route.command, timeout: 10 }] },
        { hooks: [{ type: "command", command: route.command, timeout: 10 }] },
        {
          hooks: [
            { type: "command", command: "echo mine" },
            { type: "command", command: route.command.replace("/opt/", "/older/") },
          ],
        },
      ],
    },
  };
  const merged = mergeSettings(settings, [route], skillgateOwner);
  assert.deepEqual(merged.settings, {
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: route.command, timeout: 10 }] },
        { hooks: [{ type: "command", command: "echo mine" }] },
      ],
    },
  });
  assert.deepEqual(merged.changes, [{
    hookId: "skill-route",
    event: "UserPromptSubmit",
    action: "updated",
  }]);
});

Deno.test("mergeHooks() on settings.json: with a switch off removes only that hook", () => {
  const all = mergeSettings(foreignSettings(), desired(), skillgateOwner).settings;
  const ids = HOOKS.map((h) => h.id).filter((id) => id !== "skill-contract");
  const { settings, changes } = mergeSettings(all, desired(undefined, ids), skillgateOwner);
  assert.deepEqual(
    changes.filter((c) => c.action !== "unchanged"),
    [{ hookId: "skill-contract", event: "Stop", action: "removed" }],
  );
  const owned = listOwnedSettings(settings, skillgateOwner).map((o) => o.hookId).sort();
  assert.deepEqual(owned, ids.sort());
  assert.deepEqual(foreignGroups(settings), foreignGroups(foreignSettings()));
});

Deno.test("mergeHooks() on settings.json: uninstall gives back exactly the file it started from", () => {
  const start = foreignSettings();
  const installed = mergeSettings(start, desired(), skillgateOwner).settings;
  const removed = mergeSettings(installed, [], skillgateOwner);
  assert.deepEqual(removed.settings, start);
  assert.equal(removed.changes.length, 5);
  assert.ok(removed.changes.every((c) => c.action === "removed"));
  const fromEmpty = mergeSettings(
    mergeSettings({ a: 1 }, desired(), skillgateOwner).settings,
    [],
    skillgateOwner,
  );
  assert.deepEqual(fromEmpty.settings, { a: 1 });
});

Deno.test("mergeHooks() on settings.json: property: install, update and uninstall never change a foreign entry", () => {
  const command = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom(
      "deno run /x/hooks/other.ts",
      "bash -c 'deno run /x/hooks/skill_route.ts'",
      "node a.js",
    ),
  );
  const item = fc.record({ type: fc.constant("command"), command }, {
    requiredKeys: ["type", "command"],
  });
  const group = fc.record({
    matcher: fc.option(fc.constantFrom("Skill", "Bash", "*"), { nil: undefined }),
    hooks: fc.array(item, { minLength: 1, maxLength: 3 }),
  }).map((g) => (g.matcher === undefined ? { hooks: g.hooks } : g));
  const events = fc.dictionary(
    fc.constantFrom("UserPromptSubmit", "PreToolUse", "Stop", "PostToolUse"),
    fc.array(group, { minLength: 1, maxLength: 3 }),
    { minKeys: 1 },
  );
  fc.assert(
    fc.property(events, fc.subarray(HOOKS.map((h) => h.id)), (hooks, ids) => {
      const start: JsonObject = { other: true, hooks };
      const installed = mergeSettings(start, desired(undefined, ids), skillgateOwner).settings;
      const updated =
        mergeSettings(installed, desired({ kind: "jsr", version: "9.9.9" }), skillgateOwner)
          .settings;
      const gone = mergeSettings(updated, [], skillgateOwner).settings;
      assert.deepEqual(gone, start);
      assert.deepEqual(foreignGroups(updated), foreignGroups(start));
    }),
    { numRuns: 200 },
  );
});

Deno.test("mergeHooks() on settings.json: refuses a hooks value it cannot merge safely", () => {
  assert.throws(
    () => mergeSettings({ hooks: [] }, desired(), skillgateOwner),
    /not a JSON object/,
  );
  assert.throws(
    () => mergeSettings({ hooks: { Stop: "x" } }, desired(), skillgateOwner),
    /hooks.Stop/,
  );
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { COPILOT } from "./copilot.ts";
import { CLAUDE } from "./claude.ts";
import {
  type CommandOwner,
  type DesiredHook,
  listOwnedHooks,
  mergeHooks,
  type MergeOutcome,
  type OwnedHook,
} from "./hook_file.ts";
import type { JsonObject } from "./json.ts";
import { updateJsonFile } from "./json_file.ts";
import { hookCommand, type ModuleSource } from "../install/hook_commands.ts";
import { HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";
import { parsePayload } from "./payload.ts";
import { contextAnswer, denyAnswer, stopBlockAnswer } from "./answer.ts";
import { claudeFolders } from "./_kit_test.ts";

const PATHS: PermissionPaths = {
  stateRoot: "/h/.skillgate",
  hostFolders: claudeFolders("/h/.claude"),
};

function desired(source: ModuleSource = { kind: "local", root: "/opt/sg" }): DesiredHook[] {
  return HOOKS.filter((h) => hostRegistration(COPILOT, h)).map((row) => {
    const reg = hostRegistration(COPILOT, row)!;
    return {
      hookId: row.id,
      event: reg.event,
      ...(reg.matcher ? { matcher: reg.matcher } : {}),
      command: hookCommand(row, { denoPath: "/usr/bin/deno", source, paths: PATHS }),
      timeout: row.timeoutSec,
    };
  });
}

/** The shared merge on Copilot CLI's hook file. */
function mergeCopilot(
  doc: unknown,
  want: readonly DesiredHook[],
  owner: CommandOwner,
): MergeOutcome {
  return mergeHooks(COPILOT.hookFile.format, doc, want, owner);
}

function listOwnedCopilot(doc: unknown, owner: CommandOwner): OwnedHook[] {
  return listOwnedHooks(COPILOT.hookFile.format, doc, owner);
}

/** The hook file of a user: `$COPILOT_HOME/hooks`, else `~/.copilot/hooks`, or the project's. */
function hooksPath(loc: { home: string; copilotHome?: string; projectDir?: string }): string {
  if (loc.projectDir) return COPILOT.hookFile.projectPaths(loc.projectDir)[0];
  const env = (name: string) => name === "COPILOT_HOME" ? loc.copilotHome : undefined;
  return COPILOT.hookFile.userPath(COPILOT.configDir({ home: loc.home, env }));
}

function fixture(name: string): Record<string, unknown> {
  const url = new URL(`../../fixtures/payloads/${name}`, import.meta.url);
  return JSON.parse(Deno.readTextFileSync(url));
}

Deno.test("COPILOT.recognise() says yes to Copilot CLI's real camelCase payloads", () => {
  const observed = [
    fixture("redirect_copilot_skill_agent.json"),
    fixture("redirect_copilot_skill_string_args.json"),
    // userPromptSubmitted and agentStop as Copilot CLI 1.0.102 sent them (hosts-observed.md).
    { sessionId: "c1", timestamp: 1767225600000, cwd: "/p", prompt: "fix the bug" },
    {
      sessionId: "c1",
      timestamp: 1767225600000,
      cwd: "/p",
      transcriptPath: "/c/session-state/c1/events.jsonl",
      stopReason: "end_turn",
      stop_hook_active: false,
    },
  ];
  for (const payload of observed) {
    assert.ok(COPILOT.recognise(payload), JSON.stringify(payload));
    assert.equal(CLAUDE.recognise(payload), false, JSON.stringify(payload));
    assert.equal(parsePayload(JSON.stringify(payload)).host, "copilot");
  }
  const [agent, stringArgs, prompt, stop] = observed.map((p) => parsePayload(JSON.stringify(p)));
  assert.equal(agent.eventName, "PreToolUse");
  assert.deepEqual(agent.toolInput, { skill: "prompt-writer" });
  assert.deepEqual(stringArgs.toolInput, { skill: "guide" });
  assert.equal(prompt.eventName, "UserPromptSubmit");
  assert.equal(stop.eventName, "Stop");
  assert.equal(stop.transcriptPath, "/c/session-state/c1/events.jsonl");
});

Deno.test("COPILOT.recognise() leaves PascalCase-mode (snake_case) and Claude Code payloads alone", () => {
  assert.equal(
    COPILOT.recognise({
      hook_event_name: "PreToolUse",
      session_id: "c1",
      timestamp: "2026-01-01T00:00:00.000Z",
      tool_name: "skill",
      tool_input: {},
    }),
    false,
  );
  assert.equal(COPILOT.recognise(fixture("stop_claude.json")), false);
  assert.equal(COPILOT.recognise({ prompt: "hi" }), false);
});

Deno.test("COPILOT answers flat, and maps its camelCase event names", () => {
  const ev = parsePayload(JSON.stringify(fixture("redirect_copilot_skill_agent.json")));
  assert.deepEqual(denyAnswer(ev, "R"), {
    permissionDecision: "deny",
    permissionDecisionReason: "R",
  });
  assert.deepEqual(contextAnswer(ev, "X"), { additionalContext: "X" });
  assert.deepEqual(stopBlockAnswer(ev, "why"), { decision: "block", reason: "why" });
  assert.equal(parsePayload('{"hookEventName":"agentStop","sessionId":"x"}').eventName, "Stop");
  assert.equal(
    parsePayload('{"hookEventName":"userPromptSubmitted","sessionId":"x"}').eventName,
    "UserPromptSubmit",
  );
});

Deno.test("COPILOT gets the hooks its transcript allows, with its own event names and matcher", () => {
  const byId = (id: string) => hostRegistration(COPILOT, HOOKS.find((h) => h.id === id)!);
  assert.deepEqual(byId("skill-route"), { event: "userPromptSubmitted" });
  assert.deepEqual(byId("skill-redirect"), { event: "preToolUse", matcher: "skill|Skill" });
  // The contract hook reads Copilot CLI's events.jsonl too; the redirect's Stop fallback reads
  // Claude Code's JSONL only (on Copilot CLI the preToolUse redirect works).
  assert.deepEqual(byId("skill-contract"), { event: "agentStop" });
  assert.equal(byId("skill-redirect-stop"), undefined);
  assert.deepEqual(COPILOT.tools.agent, ["task"]);
  assert.ok(COPILOT.texts.skillIsAgent.includes("agent_type"));
});

Deno.test("COPILOT.samplePayload() is its own payload, harmless for every event", () => {
  for (
    const [event, canonical] of [
      ["userPromptSubmitted", "UserPromptSubmit"],
      ["preToolUse", "PreToolUse"],
      ["agentStop", "Stop"],
    ]
  ) {
    const ev = parsePayload(COPILOT.samplePayload(event, "/tmp", "/tmp/none.jsonl"));
    assert.equal(ev.host, "copilot");
    assert.equal(ev.eventName, canonical);
  }
});

Deno.test("COPILOT hook file paths honour COPILOT_HOME and --project", () => {
  assert.equal(hooksPath({ home: "/h" }), "/h/.copilot/hooks/skillgate.json");
  assert.equal(hooksPath({ home: "/h", copilotHome: "/c" }), "/c/hooks/skillgate.json");
  assert.equal(
    hooksPath({ home: "/h", copilotHome: "/c", projectDir: "/p" }),
    "/p/.github/hooks/skillgate.json",
  );
});

Deno.test("mergeHooks() on the Copilot hook file: writes version 1, camelCase events, bash, timeoutSec and the matcher", () => {
  const { doc, changes } = mergeCopilot(undefined, desired(), skillgateOwner);
  const d = desired();
  assert.deepEqual(doc, {
    version: 1,
    hooks: {
      userPromptSubmitted: [{ type: "command", bash: d[0].command, timeoutSec: 10 }],
      agentStop: [{ type: "command", bash: d[1].command, timeoutSec: 15 }],
      preToolUse: [{
        type: "command",
        bash: d[2].command,
        timeoutSec: 10,
        matcher: "skill|Skill",
      }],
      subagentStop: [{ type: "command", bash: d[3].command, timeoutSec: 15 }],
    },
  });
  assert.deepEqual(changes.map((c) => [c.hookId, c.action]), [
    ["skill-route", "added"],
    ["skill-contract", "added"],
    ["skill-redirect", "added"],
    ["skill-contract-subagent", "added"],
  ]);
});

Deno.test("mergeHooks() on the Copilot hook file: keeps a user's own items and replaces a stale one of ours", () => {
  const mine = { type: "command", bash: "./scripts/audit.sh", timeoutSec: 5 };
  const stale = mergeCopilot(
    undefined,
    desired({ kind: "jsr", version: "0.0.1" }),
    skillgateOwner,
  )
    .doc as JsonObject;
  (stale.hooks as Record<string, unknown[]>).preToolUse.unshift(mine);
  const { doc, changes } = mergeCopilot(stale, desired(), skillgateOwner);
  assert.deepEqual((doc!.hooks as Record<string, unknown[]>).preToolUse[0], mine);
  assert.ok(changes.every((c) => c.action === "updated"));
  assert.deepEqual(
    listOwnedCopilot(doc, skillgateOwner).map((o) => o.command),
    desired().map((d) => d.command),
  );
  const again = mergeCopilot(doc, desired(), skillgateOwner);
  assert.deepEqual(again.doc, doc);
  assert.ok(again.changes.every((c) => c.action === "unchanged"));
  const removed = mergeCopilot(doc, [], skillgateOwner).doc as JsonObject;
  assert.deepEqual(removed, { version: 1, hooks: { preToolUse: [mine] } });
});

Deno.test("mergeHooks() on the Copilot hook file: uninstall of a file holding only ours removes the file", () => {
  const { doc } = mergeCopilot(undefined, desired(), skillgateOwner);
  assert.equal(mergeCopilot(doc, [], skillgateOwner).doc, undefined);
});

Deno.test("mergeHooks() on the Copilot hook file: refuses an unknown file version", () => {
  assert.throws(
    () => mergeCopilot({ version: 2, hooks: {} }, desired(), skillgateOwner),
    /version/,
  );
});

Deno.test("Copilot hook file: install, byte-identical rerun, uninstall deletes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-copilot-" });
  try {
    const path = hooksPath({ home: dir });
    const install = (cur: JsonObject | undefined) =>
      mergeCopilot(cur, desired(), skillgateOwner).doc;
    assert.equal(updateJsonFile(path, install).status, "created");
    const bytes = await Deno.readFile(path);
    assert.equal(updateJsonFile(path, install).status, "unchanged");
    assert.deepEqual(await Deno.readFile(path), bytes);
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    assert.equal(parsed.version, 1);
    const r = updateJsonFile(path, (cur) => mergeCopilot(cur, [], skillgateOwner).doc);
    assert.equal(r.status, "deleted");
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
    assert.ok(r.backupPath && (await Deno.stat(r.backupPath)).isFile);
    assert.equal(join(dir, ".copilot", "hooks", "skillgate.json"), path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

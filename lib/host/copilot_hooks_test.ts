import assert from "node:assert/strict";
import { join } from "node:path";
import { copilotHooksPath, listOwnedCopilotHooks, mergeCopilotHooks } from "./copilot_hooks.ts";
import { type DesiredHook, type JsonObject, updateJsonFile } from "./claude_settings.ts";
import { hookCommand, type ModuleSource } from "../install/hook_commands.ts";
import { HOOKS, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";

const PATHS: PermissionPaths = { stateRoot: "/h/.skillgate", claudeConfigDir: "/h/.claude" };

function desired(source: ModuleSource = { kind: "local", root: "/opt/sg" }): DesiredHook[] {
  return HOOKS.filter((h) => h.copilotEvent).map((row) => ({
    hookId: row.id,
    event: row.copilotEvent!,
    ...(row.copilotMatcher ? { matcher: row.copilotMatcher } : {}),
    command: hookCommand(row, { denoPath: "/usr/bin/deno", source, paths: PATHS }),
    timeout: row.timeoutSec,
  }));
}

Deno.test("copilotHooksPath() honours COPILOT_HOME and --project", () => {
  assert.equal(copilotHooksPath({ home: "/h" }), "/h/.copilot/hooks/skillgate.json");
  assert.equal(copilotHooksPath({ home: "/h", copilotHome: "/c" }), "/c/hooks/skillgate.json");
  assert.equal(
    copilotHooksPath({ home: "/h", copilotHome: "/c", projectDir: "/p" }),
    "/p/.github/hooks/skillgate.json",
  );
});

Deno.test("mergeCopilotHooks() writes version 1, camelCase events, bash, timeoutSec and the matcher", () => {
  const { doc, changes } = mergeCopilotHooks(undefined, desired(), skillgateOwner);
  const d = desired();
  assert.deepEqual(doc, {
    version: 1,
    hooks: {
      userPromptSubmitted: [{ type: "command", bash: d[0].command, timeoutSec: 10 }],
      preToolUse: [{
        type: "command",
        bash: d[1].command,
        timeoutSec: 10,
        matcher: "skill|Skill",
      }],
    },
  });
  assert.deepEqual(changes.map((c) => [c.hookId, c.action]), [
    ["skill-route", "added"],
    ["skill-redirect", "added"],
  ]);
});

Deno.test("mergeCopilotHooks() keeps a user's own items and replaces a stale one of ours", () => {
  const mine = { type: "command", bash: "./scripts/audit.sh", timeoutSec: 5 };
  const stale = mergeCopilotHooks(
    undefined,
    desired({ kind: "jsr", version: "0.0.1" }),
    skillgateOwner,
  )
    .doc as JsonObject;
  (stale.hooks as Record<string, unknown[]>).preToolUse.unshift(mine);
  const { doc, changes } = mergeCopilotHooks(stale, desired(), skillgateOwner);
  assert.deepEqual((doc!.hooks as Record<string, unknown[]>).preToolUse[0], mine);
  assert.ok(changes.every((c) => c.action === "updated"));
  assert.deepEqual(
    listOwnedCopilotHooks(doc, skillgateOwner).map((o) => o.command),
    desired().map((d) => d.command),
  );
  const again = mergeCopilotHooks(doc, desired(), skillgateOwner);
  assert.deepEqual(again.doc, doc);
  assert.ok(again.changes.every((c) => c.action === "unchanged"));
  const removed = mergeCopilotHooks(doc, [], skillgateOwner).doc as JsonObject;
  assert.deepEqual(removed, { version: 1, hooks: { preToolUse: [mine] } });
});

Deno.test("mergeCopilotHooks() uninstall of a file holding only ours removes the file", () => {
  const { doc } = mergeCopilotHooks(undefined, desired(), skillgateOwner);
  assert.equal(mergeCopilotHooks(doc, [], skillgateOwner).doc, undefined);
});

Deno.test("mergeCopilotHooks() refuses an unknown file version", () => {
  assert.throws(
    () => mergeCopilotHooks({ version: 2, hooks: {} }, desired(), skillgateOwner),
    /version/,
  );
});

Deno.test("Copilot hook file: install, byte-identical rerun, uninstall deletes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-copilot-" });
  try {
    const path = copilotHooksPath({ home: dir });
    const install = (cur: JsonObject | undefined) =>
      mergeCopilotHooks(cur, desired(), skillgateOwner).doc;
    assert.equal(updateJsonFile(path, install).status, "created");
    const bytes = await Deno.readFile(path);
    assert.equal(updateJsonFile(path, install).status, "unchanged");
    assert.deepEqual(await Deno.readFile(path), bytes);
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    assert.equal(parsed.version, 1);
    const r = updateJsonFile(path, (cur) => mergeCopilotHooks(cur, [], skillgateOwner).doc);
    assert.equal(r.status, "deleted");
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
    assert.ok(r.backupPath && (await Deno.stat(r.backupPath)).isFile);
    assert.equal(join(dir, ".copilot", "hooks", "skillgate.json"), path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

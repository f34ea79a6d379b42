import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  type DesiredHook,
  jsonEqual,
  type JsonObject,
  listBackups,
  listOwnedClaudeHooks,
  mergeClaudeHooks,
  renderJson,
  SettingsFileError,
  unifiedDiff,
  updateJsonFile,
} from "./claude_settings.ts";
import { hookCommand, type ModuleSource } from "../install/hook_commands.ts";
import { HOOKS, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";

const PATHS: PermissionPaths = {
  stateRoot: "/home/u/.skillgate",
  claudeConfigDir: "/home/u/.claude",
};

function desired(
  source: ModuleSource = { kind: "local", root: "/opt/skillgate" },
  ids: string[] = HOOKS.map((h) => h.id),
  denoPath = "/usr/local/bin/deno",
): DesiredHook[] {
  return HOOKS.filter((h) => ids.includes(h.id)).map((row) => ({
    hookId: row.id,
    event: row.claudeEvent,
    ...(row.matcher ? { matcher: row.matcher } : {}),
    command: hookCommand(row, { denoPath, source, paths: PATHS }),
    timeout: row.timeoutSec,
  }));
}

/** Other tools' entries on the same events, including a mixed group. */
function foreignSettings(): JsonObject {
  return {
    model: "opus",
    permissions: { allow: ["Bash(git *)"], deny: [] },
    env: { FOO: "1" },
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "/usr/bin/other-tool prompt", timeout: 5 }] },
      ],
      PreToolUse: [
        { matcher: "Skill", hooks: [{ type: "command", command: "echo skill-audit" }] },
        { matcher: "Bash", hooks: [{ type: "command", command: "/opt/guard.sh", timeout: 3 }] },
      ],
      Stop: [
        {
          hooks: [
            { type: "command", command: "bash ~/.claude/stop.sh" },
            { type: "command", command: "deno run /opt/other/hooks/notify.ts" },
          ],
        },
      ],
      SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "date" }] }],
    },
    statusLine: { type: "command", command: "echo hi" },
  };
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

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "skillgate-settings-" });
}

Deno.test("mergeClaudeHooks() on no file registers every wanted hook with its matcher and timeout", () => {
  const { settings, changes } = mergeClaudeHooks(undefined, desired(), skillgateOwner);
  assert.deepEqual(changes.map((c) => c.action), ["added", "added", "added", "added"]);
  const owned = listOwnedClaudeHooks(settings, skillgateOwner);
  assert.deepEqual(owned.map((o) => o.hookId).sort(), HOOKS.map((h) => h.id).sort());
  const pre = (settings.hooks as Record<string, { matcher?: string }[]>).PreToolUse;
  assert.equal(pre[0].matcher, "Skill");
  assert.deepEqual(
    (settings.hooks as Record<string, unknown[]>).UserPromptSubmit,
    [{ hooks: [{ type: "command", command: desired()[0].command, timeout: 10 }] }],
  );
});

Deno.test("mergeClaudeHooks() keeps foreign entries and every other key untouched", () => {
  const before = foreignSettings();
  const { settings } = mergeClaudeHooks(before, desired(), skillgateOwner);
  assert.deepEqual(foreignGroups(settings), foreignGroups(before));
  for (const key of ["model", "permissions", "env", "statusLine"]) {
    assert.deepEqual(settings[key], before[key]);
  }
  // Foreign groups keep their place: ours come after them.
  const stop = (settings.hooks as Record<string, unknown[]>).Stop;
  assert.deepEqual(stop[0], (before.hooks as Record<string, unknown[]>).Stop[0]);
  assert.deepEqual(before, foreignSettings(), "the input is not mutated");
});

Deno.test("mergeClaudeHooks() twice is a fixed point", () => {
  const once = mergeClaudeHooks(foreignSettings(), desired(), skillgateOwner).settings;
  const twice = mergeClaudeHooks(once, desired(), skillgateOwner);
  assert.deepEqual(twice.settings, once);
  assert.ok(twice.changes.every((c) => c.action === "unchanged"));
});

Deno.test("mergeClaudeHooks() replaces a stale entry (old path, old version) in place", () => {
  const old = mergeClaudeHooks(
    foreignSettings(),
    desired({ kind: "jsr", version: "0.0.9" }, undefined, "/old/deno"),
    skillgateOwner,
  )
    .settings;
  const { settings, changes } = mergeClaudeHooks(old, desired(), skillgateOwner);
  assert.ok(changes.every((c) => c.action === "updated"), JSON.stringify(changes));
  const owned = listOwnedClaudeHooks(settings, skillgateOwner);
  assert.equal(owned.length, 4);
  for (const d of desired()) {
    assert.equal(owned.filter((o) => o.hookId === d.hookId && o.command === d.command).length, 1);
  }
  assert.deepEqual(foreignGroups(settings), foreignGroups(foreignSettings()));
  // The stale group stayed at its index.
  const oldIdx = (old.hooks as Record<string, unknown[]>).PreToolUse.length - 1;
  const pre = (settings.hooks as Record<string, { hooks: { command: string }[] }[]>).PreToolUse;
  assert.equal(pre[oldIdx].hooks[0].command, desired()[2].command);
});

Deno.test("mergeClaudeHooks() collapses duplicates and pulls its item out of a mixed group", () => {
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
  const merged = mergeClaudeHooks(settings, [route], skillgateOwner);
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

Deno.test("mergeClaudeHooks() with a switch off removes only that hook", () => {
  const all = mergeClaudeHooks(foreignSettings(), desired(), skillgateOwner).settings;
  const ids = HOOKS.map((h) => h.id).filter((id) => id !== "skill-contract");
  const { settings, changes } = mergeClaudeHooks(all, desired(undefined, ids), skillgateOwner);
  assert.deepEqual(
    changes.filter((c) => c.action !== "unchanged"),
    [{ hookId: "skill-contract", event: "Stop", action: "removed" }],
  );
  const owned = listOwnedClaudeHooks(settings, skillgateOwner).map((o) => o.hookId).sort();
  assert.deepEqual(owned, ids.sort());
  assert.deepEqual(foreignGroups(settings), foreignGroups(foreignSettings()));
});

Deno.test("mergeClaudeHooks() uninstall gives back exactly the file it started from", () => {
  const start = foreignSettings();
  const installed = mergeClaudeHooks(start, desired(), skillgateOwner).settings;
  const removed = mergeClaudeHooks(installed, [], skillgateOwner);
  assert.deepEqual(removed.settings, start);
  assert.equal(removed.changes.length, 4);
  assert.ok(removed.changes.every((c) => c.action === "removed"));
  const fromEmpty = mergeClaudeHooks(
    mergeClaudeHooks({ a: 1 }, desired(), skillgateOwner).settings,
    [],
    skillgateOwner,
  );
  assert.deepEqual(fromEmpty.settings, { a: 1 });
});

Deno.test("mergeClaudeHooks() property: install, update and uninstall never change a foreign entry", () => {
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
      const installed = mergeClaudeHooks(start, desired(undefined, ids), skillgateOwner).settings;
      const updated =
        mergeClaudeHooks(installed, desired({ kind: "jsr", version: "9.9.9" }), skillgateOwner)
          .settings;
      const gone = mergeClaudeHooks(updated, [], skillgateOwner).settings;
      assert.deepEqual(gone, start);
      assert.deepEqual(foreignGroups(updated), foreignGroups(start));
    }),
    { numRuns: 200 },
  );
});

Deno.test("mergeClaudeHooks() refuses a hooks value it cannot merge safely", () => {
  assert.throws(
    () => mergeClaudeHooks({ hooks: [] }, desired(), skillgateOwner),
    /not a JSON object/,
  );
  assert.throws(
    () => mergeClaudeHooks({ hooks: { Stop: "x" } }, desired(), skillgateOwner),
    /hooks.Stop/,
  );
});

Deno.test("updateJsonFile() fresh install creates the file 0600 with a final newline", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "claude", "settings.json");
    const r = updateJsonFile(
      path,
      (cur) => mergeClaudeHooks(cur, desired(), skillgateOwner).settings,
    );
    assert.equal(r.status, "created");
    assert.equal(r.backupPath, undefined);
    const text = await Deno.readTextFile(path);
    assert.ok(text.endsWith("}\n"));
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal(listOwnedClaudeHooks(JSON.parse(text), skillgateOwner).length, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() second run leaves the file byte-identical with no backup", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "settings.json");
    await Deno.writeTextFile(path, JSON.stringify(foreignSettings(), null, 2) + "\n");
    const fn = (cur: JsonObject | undefined) =>
      mergeClaudeHooks(cur, desired(), skillgateOwner).settings;
    assert.equal(updateJsonFile(path, fn).status, "written");
    const first = await Deno.readFile(path);
    const mtime = (await Deno.stat(path)).mtime;
    const backups = listBackups(path);
    const second = updateJsonFile(path, fn);
    assert.equal(second.status, "unchanged");
    assert.deepEqual(await Deno.readFile(path), first);
    assert.deepEqual((await Deno.stat(path)).mtime, mtime);
    assert.deepEqual(listBackups(path), backups);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() backs up the old bytes and keeps the file's mode", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "settings.json");
    const original = '{\n\t"model": "opus"\n}\n';
    await Deno.writeTextFile(path, original);
    await Deno.chmod(path, 0o644);
    const r = updateJsonFile(
      path,
      (cur) => mergeClaudeHooks(cur, desired(), skillgateOwner).settings,
    );
    assert.equal(r.status, "written");
    assert.ok(r.backupPath);
    assert.equal(await Deno.readTextFile(r.backupPath), original);
    assert.equal((await Deno.stat(r.backupPath)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o644);
    const text = await Deno.readTextFile(path);
    assert.ok(text.startsWith('{\n\t"model": "opus",\n\t"hooks"'), "keeps the tab indent");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() keeps the last five backups", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "settings.json");
    await Deno.writeTextFile(path, "{}\n");
    for (let i = 0; i < 8; i++) updateJsonFile(path, (cur) => ({ ...cur, n: i }));
    assert.equal(listBackups(path).length, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() refuses a corrupt settings.json and leaves it unchanged", async () => {
  const dir = await tempDir();
  try {
    for (const corrupt of ['{ "hooks": {', "[1, 2]", "", "\u0000\u0001"]) {
      const path = join(dir, "settings.json");
      await Deno.writeTextFile(path, corrupt);
      const before = await Deno.readFile(path);
      for (const dryRun of [false, true]) {
        assert.throws(
          () =>
            updateJsonFile(
              path,
              (cur) => mergeClaudeHooks(cur, desired(), skillgateOwner).settings,
              { dryRun },
            ),
          (err: unknown) => err instanceof SettingsFileError && /unchanged/.test(err.message),
        );
      }
      assert.deepEqual(await Deno.readFile(path), before);
      assert.deepEqual(listBackups(path), []);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() dry run returns a diff and writes nothing", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "settings.json");
    await Deno.writeTextFile(path, '{\n  "model": "opus"\n}\n');
    const r = updateJsonFile(
      path,
      (cur) => mergeClaudeHooks(cur, desired(), skillgateOwner).settings,
      {
        dryRun: true,
      },
    );
    assert.equal(r.status, "dry-run");
    assert.match(r.diff, /^--- .*settings\.json\n\+\+\+ /);
    assert.match(r.diff, /^- {2}"model": "opus"$/m);
    assert.match(r.diff, /^\+ {2}"model": "opus",$/m);
    assert.match(r.diff, /^\+ {12}"command": "\/usr\/local\/bin\/deno run --quiet --no-prompt/m);
    assert.equal(await Deno.readTextFile(path), '{\n  "model": "opus"\n}\n');
    assert.deepEqual(listBackups(path), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() writes through a symlinked settings.json, keeping the link", async () => {
  const dir = await tempDir();
  try {
    const real = join(dir, "dotfiles-settings.json");
    const link = join(dir, "settings.json");
    await Deno.writeTextFile(real, "{}\n");
    await Deno.symlink(real, link);
    updateJsonFile(link, (cur) => mergeClaudeHooks(cur, desired(), skillgateOwner).settings);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal(
      listOwnedClaudeHooks(JSON.parse(await Deno.readTextFile(real)), skillgateOwner).length,
      4,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("renderJson() keeps the indent and line ends of the previous text", () => {
  assert.equal(renderJson({ a: 1 }), '{\n  "a": 1\n}\n');
  assert.equal(renderJson({ a: 1 }, '{\n    "b": 2\n}'), '{\n    "a": 1\n}\n');
  assert.equal(renderJson({ a: 1 }, '{\r\n  "b": 2\r\n}\r\n'), '{\r\n  "a": 1\r\n}\r\n');
});

Deno.test("unifiedDiff() shows changed lines with context and line numbers", () => {
  const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  const after = "a\nb\nc\nd\nE\nf\ng\nh\ni\n";
  assert.equal(
    unifiedDiff(before, after, "f.json"),
    [
      "--- f.json",
      "+++ f.json (after skillgate setup)",
      "@@ -2,7 +2,8 @@",
      " b",
      " c",
      " d",
      "-e",
      "+E",
      " f",
      " g",
      " h",
      "+i",
      "",
    ].join("\n"),
  );
  assert.equal(unifiedDiff("x\n", "x\n", "f"), "");
});

Deno.test("jsonEqual() ignores key order but not values", () => {
  assert.ok(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
  assert.ok(!jsonEqual({ a: 1 }, { a: "1" }));
  assert.ok(!jsonEqual([1, 2], [2, 1]));
});

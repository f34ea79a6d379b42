import assert from "node:assert/strict";
import { claudeFolders } from "./_kit_test.ts";
import { foreignSettings } from "./_kit_test.ts";
import { join } from "node:path";
import {
  listBackups,
  renderJson,
  SettingsFileError,
  unifiedDiff,
  updateJsonFile,
} from "./json_file.ts";
import { CLAUDE } from "./claude.ts";
import { type DesiredHook, listOwnedHooks, mergeHooks } from "./hook_file.ts";
import { jsonEqual, type JsonObject } from "./json.ts";
import { hookCommand } from "../install/hook_commands.ts";
import { HOOKS, hostRegistration, type PermissionPaths } from "../hook/table.ts";
import { skillgateOwner } from "../install/setup.ts";

const PATHS: PermissionPaths = {
  stateRoot: "/home/u/.skillgate",
  hostFolders: claudeFolders("/home/u/.claude"),
};

/** Every hook, as setup registers it in Claude Code's settings.json from a checkout. */
function desired(): DesiredHook[] {
  const source = { kind: "local", root: "/opt/skillgate" } as const;
  return HOOKS.map((row) => {
    const reg = hostRegistration(CLAUDE, row)!;
    return {
      hookId: row.id,
      event: reg.event,
      ...(reg.matcher ? { matcher: reg.matcher } : {}),
      command: hookCommand(row, { denoPath: "/usr/local/bin/deno", source, paths: PATHS }),
      timeout: row.timeoutSec,
    };
  });
}

/** The merge setup runs on settings.json. */
function mergeSettings(cur: JsonObject | undefined): JsonObject | undefined {
  return mergeHooks(CLAUDE.hookFile.format, cur, desired(), skillgateOwner).doc;
}

function ownedCount(doc: unknown): number {
  return listOwnedHooks(CLAUDE.hookFile.format, doc, skillgateOwner).length;
}

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "skillgate-settings-" });
}

Deno.test("updateJsonFile() fresh install creates the file 0600 with a final newline", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "claude", "settings.json");
    const r = updateJsonFile(
      path,
      mergeSettings,
    );
    assert.equal(r.status, "created");
    assert.equal(r.backupPath, undefined);
    const text = await Deno.readTextFile(path);
    assert.ok(text.endsWith("}\n"));
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal(ownedCount(JSON.parse(text)), 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateJsonFile() second run leaves the file byte-identical with no backup", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "settings.json");
    await Deno.writeTextFile(path, JSON.stringify(foreignSettings(), null, 2) + "\n");
    const fn = mergeSettings;
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
      mergeSettings,
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
              mergeSettings,
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
      mergeSettings,
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
    updateJsonFile(link, mergeSettings);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal(
      ownedCount(JSON.parse(await Deno.readTextFile(real))),
      5,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("renderJson() keeps the indent, line ends and final line end of the previous text", () => {
  assert.equal(renderJson({ a: 1 }), '{\n  "a": 1\n}\n');
  assert.equal(renderJson({ a: 1 }, '{\n    "b": 2\n}'), '{\n    "a": 1\n}');
  assert.equal(renderJson({ a: 1 }, '{\n    "b": 2\n}\n'), '{\n    "a": 1\n}\n');
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

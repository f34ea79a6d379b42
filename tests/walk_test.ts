import assert from "node:assert/strict";
import { join } from "node:path";
import { walkFiles } from "../lib/walk.ts";

Deno.test("walkFiles() finds matching files, follows no symlink and skips .git", async () => {
  const root = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    Deno.mkdirSync(join(root, "a", "b"), { recursive: true });
    Deno.mkdirSync(join(root, ".git"));
    Deno.writeTextFileSync(join(root, "a", "SKILL.md"), "");
    Deno.writeTextFileSync(join(root, "a", "b", "SKILL.md"), "");
    Deno.writeTextFileSync(join(root, ".git", "SKILL.md"), "");
    Deno.writeTextFileSync(join(outside, "SKILL.md"), "");
    Deno.symlinkSync(outside, join(root, "linked"));
    Deno.symlinkSync(join(outside, "SKILL.md"), join(root, "a", "b", "link.md"));
    const r = walkFiles(root, (n) => n === "SKILL.md");
    assert.deepEqual(r.files.map((f) => f.path), [
      join(root, "a", "SKILL.md"),
      join(root, "a", "b", "SKILL.md"),
    ]);
    assert.equal(r.skipped, 2);
    assert.equal(r.truncated, false);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walkFiles() stops at the depth and entry bounds", async () => {
  const root = await Deno.makeTempDir();
  try {
    let dir = root;
    for (let i = 0; i < 12; i++) {
      dir = join(dir, `d${i}`);
      Deno.mkdirSync(dir);
      Deno.writeTextFileSync(join(dir, "x.md"), "");
    }
    const deep = walkFiles(root, (n) => n.endsWith(".md"), { maxDepth: 3 });
    assert.equal(deep.files.length, 3);
    assert.equal(deep.truncated, true);
    const few = walkFiles(root, (n) => n.endsWith(".md"), { maxEntries: 5 });
    assert.ok(few.entries <= 5);
    assert.equal(few.truncated, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkFiles() skips over-long names and returns empty for a missing root", () => {
  assert.deepEqual(walkFiles("/nonexistent/skillgate", () => true).files, []);
  const root = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(join(root, "x".repeat(200) + ".md"), "");
    Deno.writeTextFileSync(join(root, "ok.md"), "");
    const r = walkFiles(root, () => true, { maxNameLength: 100 });
    assert.deepEqual(r.files.map((f) => f.name), ["ok.md"]);
    assert.equal(r.skipped, 1);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

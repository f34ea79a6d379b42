import assert from "node:assert/strict";
import { join } from "node:path";
import { walkFiles } from "./walk.ts";

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

Deno.test("walkFiles() with followSymlinks follows linked folders and files, each real folder once", async () => {
  const top = await Deno.makeTempDir();
  try {
    const root = join(top, "root");
    const outside = join(top, "outside");
    Deno.mkdirSync(join(root, "real"), { recursive: true });
    Deno.mkdirSync(join(outside, "deep"), { recursive: true });
    Deno.writeTextFileSync(join(root, "real", "SKILL.md"), "");
    Deno.writeTextFileSync(join(outside, "deep", "SKILL.md"), "");
    Deno.writeTextFileSync(join(outside, "file.md"), "");
    Deno.symlinkSync(outside, join(root, "linked"));
    Deno.symlinkSync(join(outside, "file.md"), join(root, "real", "other.md"));
    // A second link to a folder entered already, a loop back to the root, a dangling link.
    Deno.symlinkSync(join(root, "real"), join(root, "alias"));
    Deno.symlinkSync(root, join(outside, "deep", "loop"));
    Deno.symlinkSync(join(top, "missing"), join(root, "dangling"));
    const r = walkFiles(root, (n) => n.endsWith(".md"), { followSymlinks: true });
    assert.deepEqual(r.files.map((f) => f.path), [
      join(root, "linked", "deep", "SKILL.md"),
      join(root, "linked", "file.md"),
      join(root, "real", "SKILL.md"),
      join(root, "real", "other.md"),
    ]);
    assert.deepEqual(r.links.sort(), [join(root, "linked"), join(root, "real", "other.md")]);
    assert.equal(r.skipped, 3, "alias, loop, dangling");
    // The root itself may be a link.
    const viaLink = join(top, "root-link");
    Deno.symlinkSync(root, viaLink);
    const l = walkFiles(viaLink, (n) => n === "SKILL.md", { followSymlinks: true });
    assert.deepEqual(l.files.map((f) => f.path), [
      join(viaLink, "linked", "deep", "SKILL.md"),
      join(viaLink, "real", "SKILL.md"),
    ]);
    assert.ok(l.links.includes(viaLink));
    // Without the option, nothing changes: no link is followed, a linked root gives nothing.
    assert.deepEqual(walkFiles(viaLink, () => true).files, []);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("walkFiles() following links stays within its depth and entry bounds", async () => {
  const top = await Deno.makeTempDir();
  try {
    // Each folder links to a fresh copy of the chain: without bounds, this never ends.
    let dir = join(top, "root");
    Deno.mkdirSync(dir);
    const root = dir;
    for (let i = 0; i < 12; i++) {
      const next = join(top, `t${i}`);
      Deno.mkdirSync(next);
      Deno.writeTextFileSync(join(next, "x.md"), "");
      Deno.symlinkSync(next, join(dir, "next"));
      dir = next;
    }
    const deep = walkFiles(root, (n) => n.endsWith(".md"), { maxDepth: 3, followSymlinks: true });
    assert.equal(deep.files.length, 3);
    assert.equal(deep.truncated, true);
    const few = walkFiles(root, (n) => n.endsWith(".md"), { maxEntries: 5, followSymlinks: true });
    assert.ok(few.entries <= 5);
    assert.equal(few.truncated, true);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

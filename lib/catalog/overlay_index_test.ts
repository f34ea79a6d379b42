import assert from "node:assert/strict";
import { join } from "node:path";
import {
  applyOverlays,
  loadOverlays,
  mergeOverlays,
  type OverlayFile,
  overlayOf,
  overlayState,
  readOverlayFile,
  unmatchedOverlays,
} from "./overlay_index.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

async function world() {
  const root = await Deno.makeTempDir({ prefix: "skillgate-overlays-" });
  const state = join(root, "state");
  const repo = join(root, "repo");
  const sub = join(repo, "src");
  Deno.mkdirSync(sub, { recursive: true });
  return { root, state, repo, sub };
}

Deno.test("overlayState: the user's file and the nearest project's, stamped", async () => {
  const w = await world();
  assert.deepEqual(overlayState(w.state, [w.sub, w.repo]), { sources: [], stamp: "" });
  write(join(w.state, "skills.yaml"), "a:\n  route: true\n");
  write(join(w.repo, ".skillgate", "skills.yaml"), "a:\n  route: false\n");
  const s = overlayState(w.state, [w.sub, w.repo]);
  assert.deepEqual(s.sources.map((x) => [x.scope, x.path]), [
    ["user", join(w.state, "skills.yaml")],
    ["project", join(w.repo, ".skillgate", "skills.yaml")],
  ]);
  write(join(w.sub, ".skillgate", "skills.yaml"), "b: {}\n");
  const nearer = overlayState(w.state, [w.sub, w.repo]);
  assert.equal(nearer.sources[1].path, join(w.sub, ".skillgate", "skills.yaml"));
  assert.notEqual(nearer.stamp, s.stamp);
  // The user's own file is never also a project's (a session in the folder above the state root).
  const home = overlayState(join(w.root, ".skillgate"), [w.root]);
  assert.deepEqual(home.sources, []);
  write(join(w.root, ".skillgate", "skills.yaml"), "a: {}\n");
  const once = overlayState(join(w.root, ".skillgate"), [w.root]);
  assert.deepEqual(once.sources.map((x) => x.scope), ["user"]);
  // An edit changes the stamp (size here; mtime likewise).
  write(join(w.state, "skills.yaml"), "a:\n  route: false\n");
  assert.notEqual(overlayState(w.state, [w.sub, w.repo]).stamp, nearer.stamp);
});

Deno.test("loadOverlays: parsed once, then from the JSON while mtime and size match", async () => {
  const w = await world();
  const user = join(w.state, "skills.yaml");
  write(user, "a:\n  triggers: [one]\n");
  const first = await loadOverlays(overlayState(w.state, []), w.state);
  assert.deepEqual(overlayOf(first, { name: "a" })?.triggers?.value, ["one"]);
  const cache = join(w.state, "catalog", "overlays.json");
  const json = JSON.parse(Deno.readTextFileSync(cache));
  // The JSON answers: a doctored cached entry (same mtime and size) is what is read.
  json.files[user].entries.a.triggers = ["two"];
  Deno.writeTextFileSync(cache, JSON.stringify(json));
  const cached = await loadOverlays(overlayState(w.state, []), w.state);
  assert.deepEqual(overlayOf(cached, { name: "a" })?.triggers?.value, ["two"]);
  // An edit is parsed again.
  write(user, "a:\n  triggers: [three, four]\n");
  const edited = await loadOverlays(overlayState(w.state, []), w.state);
  assert.deepEqual(overlayOf(edited, { name: "a" })?.triggers?.value, ["three", "four"]);
  assert.equal(edited.files[0].problems, 0);
});

function file(scope: "user" | "project", entries: OverlayFile["entries"]): OverlayFile {
  return { path: `/${scope}.yaml`, scope, mtimeMs: 1, size: 1, entries, problems: 0 };
}

Deno.test("mergeOverlays and applyOverlays: project over user per field, overlay over frontmatter", () => {
  const user = file("user", {
    dbg: { triggers: ["debug this"], route: true, lines: { entry: 1, triggers: 2, route: 3 } },
  });
  const project = file("project", {
    dbg: { contract: { version: 1 }, route: false, lines: { entry: 4, contract: 5, route: 6 } },
  });
  const overlays = { stamp: "x", files: [user, project], bySkill: mergeOverlays([user, project]) };
  const [plain, dbg, plugin] = applyOverlays([
    { name: "other", triggers: ["x"] },
    { name: "dbg", triggers: ["own"], contract: { version: 2 } },
    { name: "pack:dbg", triggers: [] },
  ], overlays);
  assert.deepEqual(plain, { name: "other", triggers: ["x"] });
  assert.deepEqual(dbg, {
    name: "dbg",
    triggers: ["debug this"],
    contract: { version: 1 },
    route: false,
    overlay: {
      triggers: { scope: "user", file: "/user.yaml", line: 2 },
      contract: { scope: "project", file: "/project.yaml", line: 5 },
      route: { scope: "project", file: "/project.yaml", line: 6 },
    },
  });
  // A plugin's skill is named by its name without the plugin too.
  assert.deepEqual(plugin.triggers, ["debug this"]);
  // The exact name wins over the name without the plugin; then the frontmatter name.
  const exact = file("user", {
    "pack:dbg": { route: true, lines: { entry: 1 } },
    alt: { triggers: ["by alt"], lines: { entry: 2 } },
  });
  const o = { stamp: "y", files: [user, exact], bySkill: mergeOverlays([user, exact]) };
  assert.deepEqual(overlayOf(o, { name: "pack:dbg" })?.route?.value, true);
  assert.equal(overlayOf(o, { name: "pack:dbg" })?.triggers, undefined);
  assert.deepEqual(overlayOf(o, { name: "dir", altName: "alt" })?.triggers?.value, ["by alt"]);
  assert.deepEqual(
    unmatchedOverlays([{ name: "pack:dbg" }], o).map((u) => [u.name, u.from.line]),
    [["alt", 2]],
  );
});

Deno.test("readOverlayFile: a FIFO with no writer or a link to /dev/zero is one problem, never read", async () => {
  const w = await world();
  try {
    const fifo = join(w.root, "fifo.yaml");
    assert.ok(new Deno.Command("mkfifo", { args: [fifo] }).outputSync().success, "mkfifo");
    const zero = join(w.root, "zero.yaml");
    Deno.symlinkSync("/dev/zero", zero);
    for (const [path, what] of [[fifo, "a FIFO"], [zero, "a device"]]) {
      const read = await readOverlayFile(path);
      assert.deepEqual(Object.keys(read.entries), []);
      assert.deepEqual(read.problems, [{
        severity: "error",
        message: `Cannot read: Not a regular file (${what})`,
      }]);
    }
    // As the user's overlay file: the skills are loaded without it.
    Deno.mkdirSync(w.state, { recursive: true });
    Deno.renameSync(fifo, join(w.state, "skills.yaml"));
    const loaded = await loadOverlays(overlayState(w.state, []), w.state);
    assert.equal(overlayOf(loaded, { name: "a" }), undefined);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

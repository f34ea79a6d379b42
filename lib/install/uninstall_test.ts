import assert from "node:assert/strict";
import { join } from "node:path";
import { HOSTS } from "../host/mod.ts";
import { hookFilesToVisit, isStateEntry, runUninstall } from "./uninstall.ts";
import { noteHookFile } from "./install_record.ts";

Deno.test("uninstall visits every registry host's user and project hook files, and noted ones", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const hostDirs = Object.fromEntries(HOSTS.map((h) => [h.kind, join(dir, h.kind)])) as Record<
      (typeof HOSTS)[number]["kind"],
      string
    >;
    const elsewhere = join(dir, "other-repo", ".claude", "settings.json");
    noteHookFile(join(dir, "state"), elsewhere, "claude", true, []);
    const visited = hookFilesToVisit({ stateRoot: join(dir, "state"), hostDirs, cwd: dir });
    for (const h of HOSTS) {
      assert.ok(visited.some((v) => v.path === h.hookFile.userPath(hostDirs[h.kind])), h.kind);
      for (const p of h.hookFile.projectPaths(dir)) assert.ok(visited.some((v) => v.path === p));
    }
    assert.ok(visited.some((v) => v.path === elsewhere && v.host === "claude"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("uninstall --purge deletes only skillgate's names in the state root", async () => {
  for (const name of ["config.yaml", "config.yaml.lock", "hooks", "install.json.lock", "backups"]) {
    assert.ok(isStateEntry(name), name);
  }
  for (const name of ["notes.txt", "configuration", ".git", "hooks-mine"]) {
    assert.ok(!isStateEntry(name), name);
  }
  const dir = await Deno.makeTempDir();
  try {
    const state = join(dir, "state");
    await Deno.mkdir(join(state, "hooks"), { recursive: true });
    await Deno.writeTextFile(join(state, "hooks", "skill-route.log"), "x\n");
    const hostDirs = Object.fromEntries(HOSTS.map((h) => [h.kind, join(dir, h.kind)])) as Record<
      (typeof HOSTS)[number]["kind"],
      string
    >;
    const dry = runUninstall({ purge: true, dryRun: true }, {
      stateRoot: state,
      hostDirs,
      cwd: dir,
    });
    assert.deepEqual(dry.deleted, [join(state, "hooks"), state]);
    assert.ok((await Deno.stat(join(state, "hooks", "skill-route.log"))).isFile);
    const real = runUninstall({ purge: true, dryRun: false }, {
      stateRoot: state,
      hostDirs,
      cwd: dir,
    });
    assert.deepEqual(real.deleted, [join(state, "hooks"), state]);
    await assert.rejects(() => Deno.stat(state));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

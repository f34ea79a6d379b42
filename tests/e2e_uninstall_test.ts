/**
 * End to end: `skillgate uninstall` takes back everything `setup` wrote, for every host, run as a
 * user would (the CLI as a process, a temporary HOME). The home directory after
 * `uninstall --purge` is compared with a snapshot taken before the first `setup`: every file and
 * folder, and the user's own settings byte for byte.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

/** Every file and folder under a directory (relative paths), with each file's content. */
async function snapshot(dir: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) {
      out.set(`${rel}/`, "");
      for (const [k, v] of await snapshot(dir, rel)) out.set(k, v);
    } else out.set(rel, await Deno.readTextFile(join(dir, rel)));
  }
  return out;
}

function denoDir(): string {
  return Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

async function skillgate(home: string, cwd: string, args: string[]) {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", join(REPO_ROOT, "cli.ts"), ...args],
    cwd,
    clearEnv: true,
    env: {
      HOME: home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      // Outside HOME (Deno's module cache is not skillgate's), shared to keep the test fast.
      DENO_DIR: denoDir(),
      // CI runs Deno from an npx cache, which setup refuses to register unless it is named.
      SKILLGATE_DENO: Deno.execPath(),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: r.code, out: text(r.stdout), err: text(r.stderr) };
}

const USER_SETTINGS = JSON.stringify(
  {
    model: "opus",
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "/usr/local/bin/my-stop-hook" }] }],
    },
  },
  null,
  2,
) + "\n";

Deno.test("e2e: uninstall --purge leaves the home directory exactly as it was before setup", async () => {
  const home = await Deno.makeTempDir({ prefix: "skillgate-uninstall-" });
  try {
    // A user of Claude Code (its config folder, their own settings and hook), with a project.
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.writeTextFile(join(home, ".claude", "settings.json"), USER_SETTINGS);
    const project = join(home, "work", "app");
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    const before = await snapshot(home);

    for (
      const args of [
        ["setup", "--skill-routing"],
        ["setup", "--copilot"],
        ["setup", "--project"],
        ["config", "set", "route_threshold", "0.7"],
        ["doctor"],
      ]
    ) {
      const r = await skillgate(home, project, args);
      assert.ok(r.code === 0, `${args.join(" ")}: ${r.code}\n${r.out}\n${r.err}`);
    }
    const installed = await snapshot(home);
    for (
      const made of [
        ".skillgate/config.yaml",
        ".skillgate/install.json",
        ".copilot/hooks/skillgate.json",
        "work/app/.claude/settings.local.json",
      ]
    ) assert.ok(installed.has(made), `${made} after setup`);
    assert.match(installed.get(".claude/settings.json")!, /skill_route\.js/);

    // A dry run names what it would remove and changes nothing.
    const dry = await skillgate(home, project, ["uninstall", "--purge", "--dry-run"]);
    assert.equal(dry.code, 0, dry.err);
    assert.match(
      dry.out,
      /^would remove: skill-route \(UserPromptSubmit\) from .*\/\.claude\/settings\.json$/m,
    );
    assert.deepEqual(await snapshot(home), installed);

    const r = await skillgate(home, project, ["uninstall", "--purge"]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.equal(r.err, "");
    assert.match(r.out, /^removed: skill-contract \(Stop\) from .*\/\.claude\/settings\.json$/m);
    assert.match(
      r.out,
      /^removed: skill-redirect \(preToolUse\) from .*\/\.copilot\/hooks\/skillgate\.json$/m,
    );
    assert.match(r.out, /^deleted: .*\/work\/app\/\.claude\/settings\.local\.json$/m);
    assert.match(r.out, /^deleted: .*\/\.skillgate$/m);
    assert.deepEqual(await snapshot(home), before);

    // Nothing left to remove: a second run says so.
    const again = await skillgate(home, project, ["uninstall", "--json"]);
    assert.equal(again.code, 0, again.err);
    const report = JSON.parse(again.out);
    assert.deepEqual(report.removed, []);
    assert.deepEqual(report.failed, []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("e2e: uninstall without --purge keeps the state root and says why; foreign files are kept", async () => {
  const home = await Deno.makeTempDir({ prefix: "skillgate-uninstall-" });
  try {
    await Deno.mkdir(join(home, ".claude"));
    const setup = await skillgate(home, home, ["setup"]);
    assert.equal(setup.code, 0, setup.err);
    const r = await skillgate(home, home, ["uninstall"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^deleted: .*\/\.claude\/settings\.json$/m);
    assert.match(
      r.out,
      /^kept: .*\/\.skillgate: config, records, logs and backups: skillgate uninstall --purge deletes them$/m,
    );
    assert.ok((await snapshot(home)).has(".skillgate/install.json"));

    // --purge deletes only what skillgate makes in the state root, and keeps the rest.
    await Deno.writeTextFile(join(home, ".skillgate", "notes.txt"), "mine\n");
    const purge = await skillgate(home, home, ["uninstall", "--purge"]);
    assert.equal(purge.code, 0, purge.err);
    assert.match(
      purge.out,
      /^kept: .*\/\.skillgate: it also holds files skillgate did not make \(notes\.txt\)$/m,
    );
    assert.deepEqual([...(await snapshot(home)).keys()].sort(), [
      ".claude/",
      ".skillgate/",
      ".skillgate/notes.txt",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

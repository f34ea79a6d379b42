import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../../tests/_helpers.ts";

/** Lists every file and folder under a directory, relative to it. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory) out.push(...await tree(dir, rel));
  }
  return out.sort();
}

/**
 * Places the running Deno at `<dir>/.npm/_npx/<id>/node_modules/deno/deno`, as `npx -y deno@…`
 * does (a hard link when the file system allows, else a copy), so the test sees an npx-cache Deno
 * on any machine.
 */
async function npxDeno(dir: string): Promise<string> {
  const folder = join(dir, ".npm", "_npx", "0123abcd", "node_modules", "deno");
  await Deno.mkdir(folder, { recursive: true });
  const path = join(folder, "deno");
  try {
    await Deno.link(Deno.execPath(), path);
  } catch {
    await Deno.copyFile(Deno.execPath(), path);
    await Deno.chmod(path, 0o755);
  }
  return path;
}

async function setupWith(
  deno: string,
  home: string,
  path: string,
  env: Record<string, string> = {},
) {
  const r = await new Deno.Command(deno, {
    args: [
      "run",
      "-A",
      "--no-prompt",
      join(REPO_ROOT, "cli.ts"),
      "setup",
      ...(env.ARGS ?? "").split(" ").filter((a) => a),
    ],
    cwd: home,
    clearEnv: true,
    env: {
      HOME: home,
      PATH: path,
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      ...Object.fromEntries(Object.entries(env).filter(([k]) => k !== "ARGS")),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: r.code, out: text(r.stdout), err: text(r.stderr) };
}

Deno.test("cli: setup run by an npx-cache Deno with no other deno on PATH refuses, writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const deno = await npxDeno(dir);
    const home = join(dir, "home");
    const empty = join(dir, "empty-bin");
    await Deno.mkdir(home);
    await Deno.mkdir(empty);
    const r = await setupWith(deno, home, empty);
    assert.equal(r.code, 1, r.err);
    assert.equal(r.out, "");
    assert.match(
      r.err,
      /^skillgate setup: EPHEMERAL_DENO Deno runs from an npx cache \(.*_npx.*\) .* install one that stays with: npm install -g deno@\d+\.\d+\.\d+$/,
    );
    assert.equal(r.err.split("\n").length, 1);
    assert.deepEqual(await tree(home), []);

    // A permanent deno on PATH is registered instead of the cache's.
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    await Deno.symlink(deno, join(bin, "deno")).catch(() => {});
    // The symlink leads into the cache: still ephemeral, still refused.
    const linked = await setupWith(deno, home, bin);
    assert.equal(linked.code, 1, linked.err);
    assert.deepEqual(await tree(home), []);
    await Deno.remove(join(bin, "deno"));
    await Deno.copyFile(deno, join(bin, "deno"));
    await Deno.chmod(join(bin, "deno"), 0o755);
    const ok = await setupWith(deno, home, bin, { ARGS: "--dry-run" });
    assert.equal(ok.code, 0, ok.err);
    assert.ok(ok.out.includes(`${join(bin, "deno")} run`), ok.out);
    assert.ok(!ok.out.includes("_npx"), ok.out);

    // The documented override names the Deno to register, even one in a cache (CI does this).
    const forced = await setupWith(deno, home, empty, { ARGS: "--dry-run", SKILLGATE_DENO: deno });
    assert.equal(forced.code, 0, forced.err);
    assert.ok(forced.out.includes(`${deno} run`), forced.out);
    // Uninstalling registers no Deno, so it is never refused.
    const un = await setupWith(deno, home, empty, { ARGS: "--uninstall --dry-run" });
    assert.equal(un.code, 0, un.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

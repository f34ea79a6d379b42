/**
 * A user's first CLI run in a checkout downloads only what the CLI imports: the lockfile also pins
 * the tests' `fast-check`, and Deno installs a lockfile's whole npm snapshot on start-up unless
 * `deno.json` asks for lazy npm caching (`"unstable": ["npm-lazy-caching"]`, see
 * docs/dependencies.md). Run on an empty `DENO_DIR`, so it reaches the npm registry.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { networkEnv, REPO_ROOT } from "./_helpers.ts";

/** Every npm package name cached under a `DENO_DIR`. */
function cachedNpmPackages(denoDir: string): string[] {
  const out: string[] = [];
  let registries: Deno.DirEntry[];
  try {
    registries = [...Deno.readDirSync(join(denoDir, "npm"))];
  } catch {
    return out;
  }
  for (const r of registries) {
    if (!r.isDirectory) continue;
    for (const p of Deno.readDirSync(join(denoDir, "npm", r.name))) {
      if (!p.name.startsWith("@")) {
        out.push(p.name);
        continue;
      }
      for (const s of Deno.readDirSync(join(denoDir, "npm", r.name, p.name))) {
        out.push(`${p.name}/${s.name}`);
      }
    }
  }
  return out.sort();
}

/** Runs this checkout's CLI with only `env`, and gives what it did. */
async function runCli(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", join(REPO_ROOT, "cli.ts"), ...args],
    cwd: REPO_ROOT,
    clearEnv: true,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, out: text(out.stdout), err: text(out.stderr) };
}

Deno.test("e2e: the first CLI run on an empty Deno cache downloads no test-only package", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "skillgate-first-run-" });
  const lock = join(REPO_ROOT, "deno.lock");
  const lockBefore = Deno.readTextFileSync(lock);
  try {
    const env: Record<string, string> = {
      HOME: Deno.env.get("HOME") ?? "/root",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDir,
      NO_COLOR: "1",
      ...networkEnv(),
    };
    const registry = Deno.env.get("NPM_CONFIG_REGISTRY");
    if (registry) env.NPM_CONFIG_REGISTRY = registry;
    const out = await runCli(env, "--help");
    const err = out.err;
    assert.equal(out.code, 0, err);
    assert.match(out.out, /skillgate/);
    const cached = cachedNpmPackages(denoDir);
    // The tests' packages may not come (the CLI's own come bundled, see the next test).
    assert.ok(!cached.includes("fast-check") && !cached.includes("pure-rand"), cached.join(" "));
    assert.doesNotMatch(err, /fast-check/);
    assert.equal(Deno.readTextFileSync(lock), lockBefore, "the run left deno.lock as it was");
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});

Deno.test("e2e: offline, on an empty Deno cache, contract check and contract lint parse a valid contract", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "skillgate-offline-" });
  const skill = join(REPO_ROOT, "fixtures", "world", "skills", "investigate", "SKILL.md");
  const transcript = join(REPO_ROOT, "fixtures", "transcripts", "stop_unmet.jsonl");
  try {
    const env: Record<string, string> = {
      HOME: denoDir,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDir,
      NO_COLOR: "1",
      // No registry answers: nothing can be fetched at first use.
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
    };
    const cli = (...args: string[]) => runCli(env, ...args);
    const lint = await cli("contract", "lint", skill);
    assert.equal(lint.code, 0, lint.out + lint.err);
    const check = await cli(
      "contract",
      "check",
      "--transcript",
      transcript,
      "--skill",
      "investigate",
      "--skill-file",
      skill,
    );
    assert.doesNotMatch(check.out + check.err, /not a mapping|YAML parser unavailable/);
    assert.match(check.out, /debug-report/);
    assert.deepEqual(cachedNpmPackages(denoDir), [], "nothing was fetched");
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});

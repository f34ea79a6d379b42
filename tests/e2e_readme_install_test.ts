/**
 * The README's install, walked as a user with only Node.js and npm would: the commands are read
 * from the README's fenced blocks (so a README change that breaks the install breaks this test)
 * and run, one by one, with `sh -c` in a fresh temporary HOME whose `PATH` holds no Deno:
 *
 * 1. "Quick start": `npm install -g deno@…` (npm's global prefix is set inside the temp HOME, the
 *    one change a user without root makes, as the README says), then the `deno install -g …` line
 *    the README gives for a checkout, run as written in this checkout's root (JSR, which the first
 *    block installs from, is unreachable from tests; that block must name the same command).
 * 2. "Claude Code: `skillgate setup`": setup (no `SKILLGATE_DENO`: it must find the npm-installed
 *    Deno on its own, not the npx one this test may run under) and doctor, whose verdict must be OK.
 * 3. The installed hook commands, read from settings.json, get real payloads as Claude Code sends
 *    them: a prompt is routed to /investigate, and a Stop after an unfinished /investigate run is
 *    blocked with the contract's text.
 * 4. "Uninstall": every command; then the temp HOME must be exactly what it was before skillgate was
 *    installed (after Deno was), file for file, but for the empty `~/.deno/bin` folder that
 *    `deno install -g` makes and `deno uninstall -g` keeps (Deno's, not skillgate's).
 *
 * Deno's module cache and npm's download cache are shared with the test run (outside HOME) to keep
 * it fast; they are Deno's and npm's, not skillgate's.
 */
import assert from "node:assert/strict";
import { delimiter, dirname, join } from "node:path";
import { FIXTURES, makeTempWorld, networkEnv, REPO_ROOT } from "./_helpers.ts";
import { findOnPath, shellSplit } from "../lib/install/hook_commands.ts";
import { probeHook } from "../lib/install/doctor.ts";

const README = await Deno.readTextFile(join(REPO_ROOT, "README.md"));

/**
 * The commands of a ```sh block after a heading: one per line, trailing comments dropped.
 *
 * @param heading The heading line, exactly as written.
 * @param nth Which block after the heading (0: the first).
 */
export function readmeCommands(heading: string, nth = 0): string[] {
  const at = README.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `README heading not found: ${heading}`);
  const block = [...README.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)][nth];
  assert.ok(block, `no sh block ${nth} after ${heading}`);
  return block[1].split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) => l !== "");
}

/** Every path under a directory; small files with their content, large ones by size. */
async function snapshot(dir: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    const path = join(dir, rel);
    if (e.isSymlink) out.set(rel, `-> ${await Deno.readLink(path)}`);
    else if (e.isDirectory) {
      out.set(`${rel}/`, "");
      for (const [k, v] of await snapshot(dir, rel)) out.set(k, v);
    } else {
      const info = await Deno.stat(path);
      out.set(rel, info.size > 1 << 20 ? `${info.size} bytes` : await Deno.readTextFile(path));
    }
  }
  return out;
}

function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const k of after.keys()) if (!before.has(k)) out.push(`+ ${k}`);
  for (const k of before.keys()) if (!after.has(k)) out.push(`- ${k}`);
  for (const [k, v] of before) if (after.has(k) && after.get(k) !== v) out.push(`~ ${k}`);
  return out.sort();
}

function outerDenoDir(): string {
  return Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

Deno.test("e2e: the README's install, check, use and uninstall, from only Node.js and npm", async () => {
  const node = findOnPath("node");
  const npm = findOnPath("npm");
  assert.ok(node && npm, "node and npm on PATH");
  const world = await makeTempWorld({ skills: ["routing/skills"], agents: ["world/agents"] });
  const home = world.home;
  const npmPrefix = join(home, ".npm-global");
  // The machine's TLS and proxy settings pass through (npm needs them to reach its registry).
  const env: Record<string, string> = {
    HOME: home,
    // npm's and node's folder and the system's; no Deno until the README installs one.
    PATH: [join(npmPrefix, "bin"), join(home, ".deno", "bin"), dirname(node), dirname(npm)]
      .concat(["/usr/bin", "/bin"]).join(delimiter),
    npm_config_prefix: npmPrefix,
    npm_config_cache: Deno.env.get("npm_config_cache") ??
      join(Deno.env.get("HOME") ?? "/root", ".npm"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    DENO_DIR: outerDenoDir(),
    NO_COLOR: "1",
    ...networkEnv(),
  };
  const sh = async (line: string, cwd = home) => {
    const r = await new Deno.Command("sh", {
      args: ["-c", line],
      cwd,
      clearEnv: true,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    const out = { code: r.code, out: text(r.stdout), err: text(r.stderr) };
    assert.equal(out.code, 0, `${line}\n${out.out}\n${out.err}`);
    return out;
  };
  try {
    // A Claude Code user: a session transcript where /investigate ran and stopped unfinished.
    const session = "5f0c2a1e-readme-walk";
    const transcriptDir = join(world.claudeDir, "projects", "-work-project");
    await Deno.mkdir(transcriptDir, { recursive: true });
    const transcript = join(transcriptDir, `${session}.jsonl`);
    await Deno.copyFile(join(FIXTURES, "transcripts", "investigate_unmet.jsonl"), transcript);

    // 1. Quick start.
    const [npmLine, ...installLines] = readmeCommands("## Quick start");
    assert.match(npmLine, /^npm install -g deno@\d+\.\d+\.\d+$/);
    await sh(npmLine);
    const deno = findOnPath("deno", env.PATH);
    assert.ok(deno?.startsWith(npmPrefix), `npm's deno is on PATH: ${deno}`);
    const before = await snapshot(home);
    const [checkoutLine, ...more] = readmeCommands("## Quick start", 1);
    assert.deepEqual(more, []);
    assert.deepEqual(
      installLines.map((l) => l.replace("jsr:@skillgate/skillgate/cli", "./cli.ts")),
      [checkoutLine.replace(" -f ", " ")],
      "the checkout's install is the published one with ./cli.ts",
    );
    await sh(checkoutLine, REPO_ROOT);

    // 2. Setup and doctor.
    const [setupLine, doctorLine, ...rest] = readmeCommands(
      "### Claude Code: `skillgate setup` (settings.json)",
    );
    assert.deepEqual(rest, []);
    await sh(setupLine);
    const doctor = await sh(doctorLine);
    assert.match(doctor.out.trimEnd(), /\nresult: OK \(\d+ hooks work\)$/, doctor.out);
    const settings = JSON.parse(await Deno.readTextFile(join(world.claudeDir, "settings.json")));
    const commandOf = (event: string) => {
      const list = settings.hooks[event] as { hooks: { command: string }[] }[];
      const commands = list.flatMap((g) => g.hooks.map((h) => h.command));
      return commands;
    };
    for (const c of [...commandOf("UserPromptSubmit"), ...commandOf("Stop")]) {
      // The registered Deno is npm's, which stays, never an npx cache's.
      assert.ok(shellSplit(c)![0].startsWith(npmPrefix), c);
    }

    // 3. The hooks at work, as Claude Code runs them.
    const hookEnv = {
      HOME: home,
      PATH: env.PATH,
      CLAUDE_PROJECT_DIR: world.projectDir,
      DENO_DIR: env.DENO_DIR,
    };
    const base = {
      session_id: session,
      transcript_path: transcript,
      cwd: world.projectDir,
      permission_mode: "default",
    };
    const [route] = commandOf("UserPromptSubmit");
    const routed = await probeHook(
      route,
      JSON.stringify({
        ...base,
        hook_event_name: "UserPromptSubmit",
        prompt: "this test fails, fix it",
      }),
      { cwd: world.projectDir, env: hookEnv, timeoutMs: 30_000 },
    );
    assert.equal(routed.code, 0, routed.stderr);
    assert.match(
      JSON.parse(routed.stdout).hookSpecificOutput.additionalContext,
      /fits the installed skill \/investigate/,
    );
    const contract = commandOf("Stop").find((c) => /skill_contract/.test(c))!;
    const blocked = await probeHook(
      contract,
      JSON.stringify({
        ...base,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "Fixed: the null check was missing.",
      }),
      { cwd: world.projectDir, env: hookEnv, timeoutMs: 30_000 },
    );
    assert.equal(blocked.code, 0, blocked.stderr);
    const answer = JSON.parse(blocked.stdout);
    assert.equal(answer.decision, "block");
    assert.match(answer.reason, /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing /);

    // 4. Uninstall: nothing of skillgate's is left.
    const uninstall = readmeCommands("## Uninstall");
    assert.ok(uninstall.some((l) => /^skillgate uninstall --purge$/.test(l)), uninstall.join("\n"));
    for (const line of uninstall) await sh(line);
    // `deno install -g` made Deno's install root, ~/.deno/bin; `deno uninstall` leaves it, empty.
    const left = diff(before, await snapshot(home)).filter((d) => !/^\+ \.deno\/(bin\/)?$/.test(d));
    assert.deepEqual(left, []);
  } finally {
    await world.cleanup();
  }
});

Deno.test("README: the plugin commands name the marketplace and plugin the manifests declare", async () => {
  const plugin = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, ".claude-plugin", "plugin.json")),
  );
  const market = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, ".claude-plugin", "marketplace.json")),
  );
  const repo = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(plugin.repository)?.[1];
  assert.ok(repo, plugin.repository);
  assert.deepEqual(readmeCommands("### Claude Code: the plugin (recommended)"), [
    `claude plugin marketplace add ${repo}`,
    `claude plugin install ${plugin.name}@${market.name}`,
  ]);
  assert.ok(
    market.plugins.some((p: { name: string; source: string }) =>
      p.name === plugin.name && p.source === "./"
    ),
  );
});

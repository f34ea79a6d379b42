import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  diagnose,
  type DoctorContext,
  type DoctorLine,
  doctorVerdict,
  probeHook,
  type ProbeResult,
  runDoctor,
  samplePayload,
} from "./doctor.ts";
import { parseSetupArgs, runSetup, type SetupArgs } from "./setup.ts";
import type { OwnedHook } from "../host/hook_file.ts";
import { SWITCH_ENV } from "../base/config.ts";
import { parsePayload } from "../host/payload.ts";
import { hookShellWord, shellSplit } from "./hook_commands.ts";
import { writeFakeCodex } from "./_fake_codex_test.ts";

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);
const DENO = Deno.execPath();

function hook(command: string, event = "Stop"): OwnedHook {
  return { hookId: "skill-contract", event, command, timeout: 15 };
}
function result(partial: Partial<ProbeResult>): ProbeResult {
  return { code: 0, stdout: "", stderr: "", ms: 100, timedOut: false, ...partial };
}
const REAL_MODULE = join(ROOT, "hooks", "dist", "skill_route.js");

Deno.test("diagnose() says OK for a silent exit 0", () => {
  assert.deepEqual(diagnose(hook(`${DENO} run ${REAL_MODULE}`), result({})), {
    status: "ok",
    message: "ran in 100 ms",
  });
});

Deno.test("diagnose() reports a missing Deno executable", () => {
  const d = diagnose(
    hook(`/nowhere/deno run ${REAL_MODULE}`),
    result({ code: 127, stderr: "sh: 1: /nowhere/deno: not found\n" }),
  );
  assert.equal(d.status, "broken");
  assert.match(d.message, /^missing Deno: \/nowhere\/deno does not exist/);
});

Deno.test("diagnose() reports a wrong module path", () => {
  const d = diagnose(
    hook(`${DENO} run --no-prompt /old/checkout/hooks/skill_contract.ts`),
    result({
      code: 1,
      stderr: 'error: Module not found "file:///old/checkout/hooks/skill_contract.ts".\n',
    }),
  );
  assert.equal(d.status, "broken");
  assert.match(
    d.message,
    /^wrong path: the hook module \/old\/checkout\/hooks\/skill_contract\.ts/,
  );
});

Deno.test("diagnose() reports a missing permission from the hook's own line or from Deno", () => {
  const own = diagnose(
    hook(`${DENO} run ${REAL_MODULE}`),
    result({ stderr: "skillgate: PERMISSION missing --allow-read=/h/.claude/skills\n" }),
  );
  assert.deepEqual(own, {
    status: "broken",
    message: "missing permission: PERMISSION missing --allow-read=/h/.claude/skills",
  });
  const deno = diagnose(
    hook(`${DENO} run ${REAL_MODULE}`),
    result({
      code: 1,
      stderr:
        'error: Uncaught NotCapable: Requires read access to "/x", run again with the --allow-read flag\n',
    }),
  );
  assert.equal(deno.status, "broken");
  assert.match(deno.message, /^missing permission: Requires read access to "\/x"/);
});

Deno.test("diagnose() reports a fail-open line, a crash, bad output, a timeout and a slow start", () => {
  const cmd = `${DENO} run ${REAL_MODULE}`;
  assert.match(
    diagnose(hook(cmd), result({ stderr: "skillgate: STATE_ERROR /h/.skillgate not writable\n" }))
      .message,
    /^the hook failed open: STATE_ERROR/,
  );
  assert.match(
    diagnose(hook(cmd), result({ code: 3, stderr: "boom\n" })).message,
    /^exited with 3: boom/,
  );
  assert.equal(diagnose(hook(cmd), result({ stdout: "hello" })).status, "broken");
  assert.equal(
    diagnose(hook(cmd), result({ stdout: '{"decision":"block","reason":"x"}' })).status,
    "warn",
  );
  const t = diagnose(hook(cmd), result({ code: null, timedOut: true, ms: 15000 }));
  assert.deepEqual(t, {
    status: "broken",
    message: "timed out after 15000 ms (the host gives it 15 s)",
  });
  assert.deepEqual(diagnose(hook(cmd), result({ ms: 2400 }), 1500), {
    status: "warn",
    message: "slow start: 2400 ms (over 1500 ms)",
  });
});

Deno.test("samplePayload() is harmless and parses for every host event", () => {
  for (
    const [host, event] of [
      ["claude", "UserPromptSubmit"],
      ["claude", "PreToolUse"],
      ["claude", "Stop"],
      ["copilot", "userPromptSubmitted"],
      ["copilot", "preToolUse"],
      ["copilot", "agentStop"],
    ] as const
  ) {
    const ev = parsePayload(samplePayload(host, event, "/tmp"));
    assert.equal(ev.host, host);
    if (ev.prompt !== undefined) {
      assert.ok(ev.prompt.startsWith("/"), "a slash prompt is never routed");
    }
    if (/stop/i.test(event)) assert.equal(ev.stopHookActive, true);
  }
});

Deno.test("probeHook() runs the command with sh -c, payload on stdin, and kills it at the timeout", async () => {
  const r = await probeHook("cat; echo done >&2", '{"x":1}', { cwd: "/", timeoutMs: 10_000 });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '{"x":1}');
  assert.equal(r.stderr, "done\n");
  const slow = await probeHook("sleep 5", "", { cwd: "/", timeoutMs: 200 });
  assert.equal(slow.timedOut, true);
  assert.equal(slow.code, null);
});

async function world() {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-doctor-" });
  for (const d of ["home", "claude", "state", "project/.git"]) {
    await Deno.mkdir(join(dir, d), { recursive: true });
  }
  const lines: string[] = [];
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: join(dir, "home"),
    CLAUDE_CONFIG_DIR: join(dir, "claude"),
    SKILLGATE_STATE_ROOT: join(dir, "state"),
  };
  const ctx: DoctorContext = {
    stateRoot: env.SKILLGATE_STATE_ROOT,
    claudeConfigDir: env.CLAUDE_CONFIG_DIR,
    home: env.HOME,
    hostDirs: {
      claude: env.CLAUDE_CONFIG_DIR,
      copilot: join(env.HOME, ".copilot"),
      codex: join(env.HOME, ".codex"),
      gemini: join(env.HOME, ".gemini"),
    },
    cwd: join(dir, "project"),
    env,
    slowMs: 60_000,
    print: (l) => lines.push(l),
  };
  return { dir, ctx, lines, settings: join(dir, "claude", "settings.json") };
}

function args(list: string[]): SetupArgs {
  const p = parseSetupArgs(list);
  if ("error" in p) throw new Error(p.error);
  return p;
}

Deno.test("runDoctor() passes a working registration and shows switches with sources", async () => {
  const w = await world();
  try {
    await runSetup(
      args(["--skill-routing", "--no-skill-contracts", "--no-skill-redirect"]),
      setupCtx(w),
    );
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    assert.match(text, /^switch skill_routing: on \(config\)$/m);
    assert.match(text, /^switch skill_contracts: off \(config\)$/m);
    assert.match(
      text,
      /^OK {6}skill-route \(UserPromptSubmit\) in .*settings\.json: ran in \d+ ms$/m,
    );
    assert.equal(code, 0, text);
    // The switch turned off after setup: the registration is still there, and doctor says so.
    await Deno.writeTextFile(join(w.ctx.stateRoot, "config.yaml"), "skill_routing: off\n");
    w.lines.length = 0;
    await runDoctor(w.ctx);
    assert.match(
      w.lines.join("\n"),
      /^OK {6}skill-route .*: ran in \d+ ms; skill_routing is off, so it passes through$/m,
    );
    // Never a step that would remove a working hook.
    assert.doesNotMatch(w.lines.join("\n"), /remove it/);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() finds every default hook working, Stop hooks included, and cleans up", async () => {
  const w = await world();
  try {
    await runSetup(args([]), setupCtx(w));
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    for (
      const id of [
        "skill-contract \\(Stop\\)",
        "skill-redirect-stop \\(Stop\\)",
        "skill-redirect \\(PreToolUse\\)",
      ]
    ) {
      assert.match(text, new RegExp(`^OK {6}${id} in .*: ran in \\d+ ms$`, "m"));
    }
    assert.equal(code, 0, text);
    // The probe transcript is removed, and so is the projects/ folder made for it.
    const projects = join(w.ctx.claudeConfigDir, "projects");
    assert.throws(() => Deno.statSync(projects), Deno.errors.NotFound);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() exits 1 for missing Deno, a wrong path and a missing permission", async () => {
  const w = await world();
  try {
    await runSetup(
      args(["--skill-routing", "--no-skill-contracts", "--no-skill-redirect"]),
      setupCtx(w),
    );
    const doc = JSON.parse(await Deno.readTextFile(w.settings));
    const good: string = doc.hooks.UserPromptSubmit[0].hooks[0].command;
    const variants = {
      noDeno: good.replace(DENO, "/nowhere/bin/deno"),
      wrongPath: good.replace(REAL_MODULE, "/gone/checkout/hooks/skill_route.ts"),
      noRead: shellSplit(good)!.filter((x) => !x.startsWith("--allow-read=")).map(hookShellWord)
        .join(" "),
    };
    doc.hooks.UserPromptSubmit = Object.values(variants).map((command) => ({
      hooks: [{ type: "command", command, timeout: 10 }],
    }));
    await Deno.writeTextFile(w.settings, JSON.stringify(doc));
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    assert.equal(code, 1);
    assert.match(text, /BROKEN .*missing Deno: \/nowhere\/bin\/deno does not exist/);
    assert.match(
      text,
      /BROKEN .*wrong path: the hook module \/gone\/checkout\/hooks\/skill_route\.ts/,
    );
    assert.match(text, /BROKEN .*missing permission: .*--allow-read/);
    assert.match(text, /^result: BROKEN \(3 problems\)$/m);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() reports a corrupt settings file", async () => {
  const w = await world();
  try {
    await Deno.mkdir(join(w.ctx.cwd, ".claude"));
    await Deno.writeTextFile(join(w.ctx.cwd, ".claude", "settings.json"), "{ nope");
    const code = await runDoctor(w.ctx);
    assert.equal(code, 1);
    const text = w.lines.join("\n");
    assert.match(text, /BROKEN .*settings\.json is not valid JSON/);
    // The lines and the verdict agree: no "no hooks registered" beside "a registered hook is broken".
    assert.doesNotMatch(text, /no skillgate hooks are registered/);
    assert.match(text, /^note {4}no skillgate hook found in the files that could be read$/m);
    assert.equal(w.lines.at(-1), "result: BROKEN (1 problem)");
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

/** Installs this checkout as the skillgate plugin in a world's config folder, as Claude Code does. */
async function installPlugin(
  w: Awaited<ReturnType<typeof world>>,
): Promise<{ plugins: string; install: string; env: Record<string, string> }> {
  const plugins = join(w.ctx.claudeConfigDir, "plugins");
  const install = join(plugins, "cache", "skillgate-market", "skillgate", "0.1.0");
  await Deno.mkdir(dirname(install), { recursive: true });
  await Deno.symlink(ROOT, install);
  await Deno.writeTextFile(
    join(plugins, "installed_plugins.json"),
    JSON.stringify({
      version: 2,
      plugins: { "skillgate@skillgate-market": [{ scope: "user", installPath: install }] },
    }),
  );
  // The plugin's hooks keep their state in its data folder, whatever the environment says.
  const env: Record<string, string> = { ...w.ctx.env! };
  delete env.SKILLGATE_STATE_ROOT;
  return { plugins, install, env };
}

Deno.test("runDoctor() probes the hooks of an installed skillgate plugin with the plugin's variables", async () => {
  const w = await world();
  try {
    const { plugins, install, env } = await installPlugin(w);
    const ctx: DoctorContext = { ...w.ctx, env };

    // Before the client has made the plugin's data directory, doctor notes it and runs nothing.
    let code = await runDoctor(ctx);
    assert.match(w.lines.join("\n"), /^note {4}the skillgate plugin in .* has not run yet/m);
    assert.equal(w.lines.at(-1), "result: NOT CHECKED (the skillgate plugin has not run yet)");
    assert.equal(code, 0);

    await Deno.mkdir(join(plugins, "data", "skillgate-skillgate-market"), { recursive: true });
    w.lines.length = 0;
    code = await runDoctor(ctx);
    const text = w.lines.join("\n");
    const file = join(install, "hooks", "hooks.json").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (
      const id of [
        "skill-route \\(UserPromptSubmit\\)",
        "skill-contract \\(Stop\\)",
        "skill-redirect-stop \\(Stop\\)",
        "skill-redirect \\(PreToolUse\\)",
      ]
    ) {
      assert.match(
        text,
        new RegExp(`^OK {6}${id} in ${file}: ran in \\d+ ms(; skill_routing is off.*)?$`, "m"),
        text,
      );
    }
    assert.match(text, /^OK {6}skill-route \(UserPromptSubmit\) in .*; skill_routing is off/m);
    // One verdict per hook: one line each.
    assert.equal(
      text.split("\n").filter((l) => l.includes("skill-route (UserPromptSubmit)")).length,
      1,
    );
    // The plugin keeps its own state root, and doctor says which one `config` acts on.
    assert.match(
      text,
      /^note {4}the skillgate plugin's hooks keep their state and config in .*skillgate-skillgate-market, not in /m,
    );
    assert.doesNotMatch(text, /not registered in Claude Code settings or the plugin/);
    assert.equal(code, 0, text);
    // A user's SKILLGATE_STATE_ROOT outside the plugin's grants is ignored by its hooks: said.
    w.lines.length = 0;
    code = await runDoctor({ ...ctx, env: { ...env, SKILLGATE_STATE_ROOT: ctx.stateRoot } });
    const exported = w.lines.join("\n");
    assert.match(
      exported,
      new RegExp(
        `^note {4}SKILLGATE_STATE_ROOT \\(${
          ctx.stateRoot.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        }\\) is ignored by the skillgate plugin's hooks: they keep their state in .*/plugins/data/skillgate-skillgate-market$`,
        "m",
      ),
    );
    assert.match(exported, /^OK {6}skill-contract \(Stop\) in .*hooks\.json: ran in/m);
    assert.doesNotMatch(exported, /BROKEN/);
    assert.equal(code, 0, exported);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

function setupCtx(w: Awaited<ReturnType<typeof world>>) {
  return {
    stateRoot: w.ctx.stateRoot,
    claudeConfigDir: w.ctx.claudeConfigDir,
    home: w.ctx.home,
    hostDirs: w.ctx.hostDirs,
    cwd: w.ctx.cwd,
    denoPath: DENO,
    source: { kind: "local" as const, root: ROOT },
    print: () => {},
    warn: () => {},
  };
}

Deno.test("runDoctor() after uninstall says NOT INSTALLED and exits 1, never `result: OK`", async () => {
  const w = await world();
  try {
    await runSetup(args([]), setupCtx(w));
    await runSetup(args(["--uninstall"]), setupCtx(w));
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    assert.match(text, /^note {4}no skillgate hooks are registered: run skillgate setup/m);
    assert.doesNotMatch(text, /result: OK/);
    assert.equal(w.lines.at(-1), "result: NOT INSTALLED (no skillgate hook is registered)");
    assert.equal(code, 1);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor(): OK lines do not say OK twice; the verdict counts the hooks", async () => {
  const w = await world();
  try {
    await runSetup(args([]), setupCtx(w));
    const code = await runDoctor(w.ctx);
    assert.equal(code, 0, w.lines.join("\n"));
    for (const line of w.lines) assert.doesNotMatch(line, /^OK .*: OK/);
    assert.equal(w.lines.at(-1), "result: OK (4 hooks work)");
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() shows each config problem as a WARN line, and the verdict is WARN", async () => {
  const w = await world();
  try {
    await runSetup(args([]), setupCtx(w));
    await Deno.writeTextFile(
      join(w.ctx.stateRoot, "config.yaml"),
      "route_threshold: 7\nskill_contracts: on # kept on\n",
    );
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    assert.match(
      text,
      /^WARN {4}config .*config\.yaml line 1: route_threshold takes a number greater than 0 and at most 1 \(not 7\); the default 0\.66 is used$/m,
    );
    assert.match(text, /^switch skill_contracts: on \(config\)$/m);
    assert.equal(w.lines.at(-1), "result: WARN (1 warning; no hook is broken)");
    assert.equal(code, 0);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() with json prints one object whose result follows from its lines", async () => {
  const w = await world();
  try {
    await runSetup(args([]), setupCtx(w));
    const code = await runDoctor({ ...w.ctx, json: true });
    assert.equal(w.lines.length, 1);
    const report = JSON.parse(w.lines[0]);
    assert.equal(report.result, "ok");
    assert.equal(report.exit, code);
    assert.equal(report.hooks.length, 4);
    assert.ok(report.hooks.every((h: { status: string }) => h.status === "ok"));
    assert.ok(
      report.lines.some((l: { text: string }) => l.text.startsWith("switch skill_routing")),
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("doctorVerdict() follows from the lines", () => {
  const line = (status: DoctorLine["status"]) => ({ status, text: "x" });
  assert.equal(doctorVerdict([line("ok"), line("broken")], 1).result, "broken");
  assert.equal(doctorVerdict([line("broken")], 0).exit, 1);
  assert.equal(doctorVerdict([line("note")], 0).result, "not-installed");
  assert.equal(doctorVerdict([line("note")], 0, true).result, "not-checked");
  assert.equal(doctorVerdict([line("ok"), line("warn")], 1).result, "warn");
  assert.deepEqual(doctorVerdict([line("ok")], 1), {
    result: "ok",
    exit: 0,
    summary: "result: OK (1 hook works)",
  });
});

Deno.test("runDoctor() says a hook installed at user and project level is installed twice, and how to keep one", async () => {
  const w = await world();
  try {
    await runSetup(
      args(["--skill-routing", "--no-skill-contracts", "--no-skill-redirect"]),
      setupCtx(w),
    );
    await runSetup(args(["--project"]), setupCtx(w));
    const code = await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    const twice = text.split("\n").filter((l) => l.includes("installed twice"));
    assert.equal(twice.length, 1, text);
    assert.match(
      twice[0],
      /^WARN {4}installed twice: skill-route \(UserPromptSubmit\) is registered 2 times \(.*claude\/settings\.json, .*project\/\.claude\/settings(\.local)?\.json\).*Keep one: `skillgate setup --uninstall` or `skillgate setup --project --uninstall`$/,
    );
    // Both registrations are still probed, one verdict each.
    assert.equal(text.split("\n").filter((l) => /^OK {6}skill-route /.test(l)).length, 2, text);
    assert.equal(code, 0, text);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor(): Codex CLI's trust of a hook is on that hook's one line", async () => {
  const w = await world();
  try {
    const bin = writeFakeCodex(w.dir);
    await runSetup(args(["--codex", "--skill-routing"]), { ...setupCtx(w) });
    const env = { ...w.ctx.env!, SKILLGATE_CODEX_BIN: bin };
    await runDoctor({ ...w.ctx, env });
    const text = w.lines.join("\n");
    const route = w.lines.filter((l) =>
      /^(OK|WARN|BROKEN) /.test(l) && l.includes("skill-route (UserPromptSubmit)")
    );
    assert.equal(route.length, 1, text);
    assert.match(
      route[0],
      /^WARN {4}skill-route .*: ran in \d+ ms; untrusted in Codex CLI, which skips it/,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() names overlay files, their problems, entries of no installed skill, and reach", async () => {
  const w = await world();
  try {
    const skill = join(w.ctx.claudeConfigDir, "skills", "debugging", "SKILL.md");
    await Deno.mkdir(join(skill, ".."), { recursive: true });
    await Deno.writeTextFile(skill, "---\nname: debugging\n---\nbody\n");
    await Deno.mkdir(join(w.ctx.claudeConfigDir, "skills", "plain"), { recursive: true });
    await Deno.writeTextFile(
      join(w.ctx.claudeConfigDir, "skills", "plain", "SKILL.md"),
      "---\nname: plain\n---\n",
    );
    const user = join(w.ctx.stateRoot, "skills.yaml");
    await Deno.writeTextFile(
      user,
      "debugging:\n  triggers: [find the root cause]\n  route: true\n  colour: red\n" +
        "debuging:\n  route: true\n",
    );
    await runDoctor(w.ctx);
    const text = w.lines.join("\n");
    assert.match(text, new RegExp(`^overlay user ${user}: 2 skills$`, "m"));
    assert.match(
      text,
      /^WARN {4}overlay user .*skills\.yaml: 1 problem: skillgate contract lint /m,
    );
    assert.match(
      text,
      /^note {4}overlay user .*skills\.yaml:5: "debuging" names no installed skill$/m,
    );
    assert.match(
      text,
      /^reach: 2 skills, 1 with triggers \(1 from skills\.yaml\), 1 can route, 0 with a contract$/m,
    );
    assert.match(
      text,
      /^why: no skill has a contract, so no stop is checked: give one in skills\.yaml$/m,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor(): the plugin's hooks work in a linked config folder, and doctor says they read through the link", async () => {
  const w = await world();
  try {
    const real = join(w.dir, "dotfiles-claude");
    Deno.renameSync(w.ctx.claudeConfigDir, real);
    Deno.symlinkSync(real, w.ctx.claudeConfigDir);
    const { plugins, env } = await installPlugin(w);
    await Deno.mkdir(join(plugins, "data", "skillgate-skillgate-market"), { recursive: true });
    const code = await runDoctor({ ...w.ctx, env });
    const text = w.lines.join("\n");
    assert.match(
      text,
      new RegExp(
        `^note {4}.*claude is a link to ${real}: the plugin's hooks read it through the link`,
        "m",
      ),
    );
    for (const id of ["skill-contract \\(Stop\\)", "skill-redirect-stop \\(Stop\\)"]) {
      assert.match(text, new RegExp(`^OK {6}${id} in .*: ran in \\d+ ms`, "m"), text);
    }
    assert.doesNotMatch(text, /BROKEN/);
    assert.equal(code, 0, text);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("runDoctor() says when the config folder is a link, and whether the hooks are granted where it leads", async () => {
  const w = await world();
  try {
    // The config folder kept elsewhere (a dotfiles folder), linked where the host looks.
    const real = join(w.dir, "dotfiles-claude");
    Deno.renameSync(w.ctx.claudeConfigDir, real);
    Deno.symlinkSync(real, w.ctx.claudeConfigDir);
    await runSetup(args(["--skill-routing"]), setupCtx(w));
    await runDoctor(w.ctx);
    assert.match(
      w.lines.join("\n"),
      new RegExp(`claude is a link to ${real}: the hooks are granted that folder too`),
    );
    // Hooks registered before the folder was linked elsewhere: not granted there, they read
    // through the link (tests/e2e_fail_open_test.ts "linked after setup").
    const moved = join(w.dir, "moved-claude");
    Deno.removeSync(w.ctx.claudeConfigDir);
    Deno.renameSync(real, moved);
    Deno.symlinkSync(moved, w.ctx.claudeConfigDir);
    w.lines.length = 0;
    await runDoctor(w.ctx);
    assert.match(
      w.lines.join("\n"),
      /note.*claude is a link to .*moved-claude: setup's hooks are not granted that folder and read it through the link \(skillgate setup again grants it\)/,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

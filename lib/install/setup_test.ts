import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  parseSetupArgs,
  runSetup,
  SETUP_USAGE,
  type SetupArgs,
  type SetupContext,
} from "./setup.ts";
import { listOwnedHooks } from "../host/hook_file.ts";
import { CLAUDE } from "../host/claude.ts";
import { COPILOT } from "../host/copilot.ts";
import { CODEX } from "../host/codex.ts";
import { binDirOf } from "./compile.ts";
import { skillgateOwner } from "./setup.ts";
import { readConfig, SWITCH_ENV } from "../base/config.ts";
import { SHELL_PROJECT_DIR, shellSplit } from "./hook_commands.ts";

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
for (const name of Object.values(SWITCH_ENV)) Deno.env.delete(name);

interface World {
  dir: string;
  ctx: SetupContext;
  out: string[];
  err: string[];
  settings: string;
}

async function world(): Promise<World> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-setup-" });
  const out: string[] = [];
  const err: string[] = [];
  for (const d of ["home", "claude", "state", "project/.git", "project/sub"]) {
    await Deno.mkdir(join(dir, d), { recursive: true });
  }
  const ctx: SetupContext = {
    stateRoot: join(dir, "state"),
    claudeConfigDir: join(dir, "claude"),
    home: join(dir, "home"),
    hostDirs: {
      claude: join(dir, "claude"),
      copilot: join(dir, "copilot"),
      codex: join(dir, "codex"),
      gemini: join(dir, "gemini"),
    },
    cwd: join(dir, "project", "sub"),
    denoPath: "/usr/local/bin/deno",
    source: { kind: "local", root: ROOT },
    print: (l) => out.push(l),
    warn: (l) => err.push(l),
  };
  return { dir, ctx, out, err, settings: join(dir, "claude", "settings.json") };
}

function args(list: string[]): SetupArgs {
  const parsed = parseSetupArgs(list);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

async function owned(path: string): Promise<string[]> {
  const doc = JSON.parse(await Deno.readTextFile(path));
  return listOwnedHooks(CLAUDE.hookFile.format, doc, skillgateOwner).map((o) =>
    `${o.hookId}@${o.event}`
  ).sort();
}

const FOREIGN = {
  theme: "dark",
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "/opt/other/prompt-hook" }] }],
    Stop: [{ hooks: [{ type: "command", command: "afplay /System/Sounds/Glass.aiff" }] }],
    PreToolUse: [{ matcher: "Skill", hooks: [{ type: "command", command: "echo audit" }] }],
  },
};

function foreignOf(doc: { hooks: Record<string, { hooks: { command: string }[] }[]> }) {
  const out: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries(doc.hooks ?? {})) {
    const kept = groups.filter((g) =>
      g.hooks.every((i) => skillgateOwner(i.command, event) === null)
    );
    if (kept.length) out[event] = kept;
  }
  return out;
}

Deno.test("parseSetupArgs() reads switch flags, =on|off values and the mode flags", () => {
  const a = args(["--skill-routing", "--no-skill-contracts", "--skill-redirect=off", "--project"]);
  assert.deepEqual(a.switches, {
    skill_routing: true,
    skill_contracts: false,
    skill_redirect: false,
  });
  assert.equal(a.project, true);
  assert.deepEqual(args(["--skill-routing=yes"]).switches, { skill_routing: true });
  assert.deepEqual(args(["--skill-routing=0"]).switches, { skill_routing: false });
  assert.deepEqual(parseSetupArgs(["--skill-routing=maybe"]), {
    error: "--skill-routing=maybe: expected on or off (also yes/no, true/false, 1/0)",
  });
  assert.deepEqual(parseSetupArgs(["--frobnicate"]), { error: "Unknown option '--frobnicate'" });
  assert.ok("error" in parseSetupArgs(["--uninstall", "--compile"]));
});

Deno.test("parseSetupArgs() picks the host: the default, or --<kind> for every other host", () => {
  assert.equal(args([]).host, "claude");
  assert.equal(args(["--copilot"]).host, "copilot");
  assert.equal(args(["--copilot", "--copilot", "--project"]).host, "copilot");
  // The default host has no flag of its own, as before the registry.
  assert.deepEqual(parseSetupArgs(["--claude"]), { error: "Unknown option '--claude'" });
  assert.match(SETUP_USAGE, /^ {2}--copilot {5}Write the Copilot CLI hook file \(~\/\.copilot/m);
});

Deno.test("setup: fresh install registers the hooks whose switch is on, one line each", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args([]), w.ctx), 0);
    assert.deepEqual(await owned(w.settings), [
      "skill-contract-subagent@SubagentStop",
      "skill-contract@Stop",
      "skill-redirect-stop@Stop",
      "skill-redirect@PreToolUse",
    ]);
    const registered = w.out.filter((l) => l.includes(" registered in "));
    assert.equal(registered.length, 4);
    assert.ok(w.out[0].startsWith("skillgate: switches: skill_routing off (default)"));
    // The catalog index is warm for both kinds (the redirect hook may not write it itself).
    for (const kind of ["skills", "agents"]) {
      Deno.mkdirSync(join(w.ctx.claudeConfigDir, kind, "x"), { recursive: true });
    }
    Deno.writeTextFileSync(join(w.ctx.claudeConfigDir, "agents", "x.md"), "---\nname: x\n---\n");
    assert.equal(await runSetup(args([]), w.ctx), 0);
    for (const kind of ["skills", "agents"]) {
      assert.ok(Deno.statSync(join(w.ctx.stateRoot, "catalog", `${kind}.json`)).isFile, kind);
    }
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup: a second run is byte-identical and prints no registration", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.settings, JSON.stringify(FOREIGN, null, 2) + "\n");
    assert.equal(await runSetup(args(["--skill-routing"]), w.ctx), 0);
    const first = await Deno.readFile(w.settings);
    const entries = [...Deno.readDirSync(join(w.dir, "claude"))].map((e) => e.name).sort();
    w.out.length = 0;
    assert.equal(await runSetup(args([]), w.ctx), 0);
    assert.deepEqual(await Deno.readFile(w.settings), first);
    assert.deepEqual(
      [...Deno.readDirSync(join(w.dir, "claude"))].map((e) => e.name).sort(),
      entries,
    );
    assert.ok(!w.out.some((l) => / registered in | updated in /.test(l)));
    assert.ok(w.out.some((l) => l.endsWith("is up to date")));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup: a switch flag is saved to config; off removes only that hook", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.settings, JSON.stringify(FOREIGN, null, 2));
    await runSetup(args(["--skill-routing"]), w.ctx);
    assert.equal(readConfig(w.ctx.stateRoot).values.skill_routing, "on");
    assert.ok((await owned(w.settings)).includes("skill-route@UserPromptSubmit"));
    w.out.length = 0;
    await runSetup(args(["--no-skill-routing"]), w.ctx);
    assert.equal(readConfig(w.ctx.stateRoot).values.skill_routing, "off");
    assert.deepEqual(await owned(w.settings), [
      "skill-contract-subagent@SubagentStop",
      "skill-contract@Stop",
      "skill-redirect-stop@Stop",
      "skill-redirect@PreToolUse",
    ]);
    assert.ok(
      w.out.some((l) =>
        /skill-route \(UserPromptSubmit\) removed .*\(skill_routing is off\)/.test(l)
      ),
    );
    const doc = JSON.parse(await Deno.readTextFile(w.settings));
    assert.deepEqual(foreignOf(doc), FOREIGN.hooks);
    assert.equal(doc.theme, "dark");
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup: a flag wins over a config value for this run", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(join(w.ctx.stateRoot, "config.yaml"), "skill_redirect: on\n");
    await runSetup(args(["--no-skill-redirect"]), w.ctx);
    assert.deepEqual(await owned(w.settings), [
      "skill-contract-subagent@SubagentStop",
      "skill-contract@Stop",
    ]);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --dry-run prints a diff and writes nothing, not even config", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.settings, JSON.stringify(FOREIGN, null, 2) + "\n");
    const before = await Deno.readFile(w.settings);
    assert.equal(await runSetup(args(["--dry-run", "--skill-routing"]), w.ctx), 0);
    assert.deepEqual(await Deno.readFile(w.settings), before);
    assert.equal(readConfig(w.ctx.stateRoot).exists, false);
    const text = w.out.join("\n");
    assert.match(text, /^--- .*settings\.json$/m);
    assert.match(text, /^\+.*hooks\/dist\/skill_route\.js/m);
    assert.match(text, /skill-route \(UserPromptSubmit\) would be registered/);
    assert.deepEqual([...Deno.readDirSync(join(w.dir, "claude"))].map((e) => e.name), [
      "settings.json",
    ]);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --uninstall removes every skillgate entry and nothing else", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.settings, JSON.stringify(FOREIGN, null, 2) + "\n");
    await runSetup(args(["--skill-routing"]), w.ctx);
    const config = await Deno.readTextFile(join(w.ctx.stateRoot, "config.yaml"));
    w.out.length = 0;
    assert.equal(await runSetup(args(["--uninstall"]), w.ctx), 0);
    const doc = JSON.parse(await Deno.readTextFile(w.settings));
    assert.deepEqual(doc, FOREIGN);
    // Found in review: the reason given is the uninstall, not a switch that is still on.
    const removed = w.out.filter((l) => l.includes(" removed from "));
    assert.equal(removed.length, 5);
    assert.ok(removed.every((l) => l.endsWith(" (uninstall)")), removed.join("\n"));
    assert.equal(await Deno.readTextFile(join(w.ctx.stateRoot, "config.yaml")), config);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup refuses a corrupt settings.json and leaves it unchanged", async () => {
  const w = await world();
  try {
    const corrupt = '{\n  "hooks": { "Stop": [ }\n';
    await Deno.writeTextFile(w.settings, corrupt);
    assert.equal(await runSetup(args(["--skill-routing"]), w.ctx), 1);
    assert.equal(await Deno.readTextFile(w.settings), corrupt);
    assert.ok(
      w.err.some((l) =>
        /^skillgate setup: SETTINGS_INVALID .* is not valid JSON .*leaves it unchanged/.test(l)
      ),
      w.err.join("\n"),
    );
    assert.deepEqual([...Deno.readDirSync(join(w.dir, "claude"))].map((e) => e.name), [
      "settings.json",
    ]);
    // Nothing else changed either: the switch flag was not saved to config.
    await assert.rejects(
      () => Deno.stat(join(w.dir, "state", "config.yaml")),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --project from a checkout writes .claude/settings.local.json with its absolute grants, and says so", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args(["--project"]), w.ctx), 0);
    const path = join(w.dir, "project", ".claude", "settings.local.json");
    assert.ok(
      w.out.some((l) =>
        l.includes(`${path} names this machine's paths`) && /do not commit it/.test(l)
      ),
      w.out.join("\n"),
    );
    assert.equal((await owned(path)).length, 4);
    const doc = JSON.parse(await Deno.readTextFile(path));
    const cmd = doc.hooks.Stop[0].hooks[0].command as string;
    const read = shellSplit(cmd)!.find((w) => w.startsWith("--allow-read="))!;
    assert.ok(read.split(",").includes(`${join(w.dir, "project")}/.claude/skills`), read);
    assert.ok(read.split(",").includes(".claude/skills"), "relative grant kept");
    assert.ok(
      shellSplit(cmd)!.includes("--allow-read=${CLAUDE_PROJECT_DIR}/.claude/skills"),
      cmd,
    );
    await assert.rejects(() => Deno.stat(w.settings), Deno.errors.NotFound);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup grants every hook the project root the host names at run time, not only the cwd's .claude", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args(["--skill-routing"]), w.ctx), 0);
    const doc = JSON.parse(await Deno.readTextFile(w.settings));
    const hooks = listOwnedHooks(CLAUDE.hookFile.format, doc, skillgateOwner);
    assert.equal(hooks.length, 5);
    for (const hook of hooks) {
      assert.ok(hook.command.includes(`${SHELL_PROJECT_DIR}/.claude/skills`), hook.command);
      assert.ok(!hook.command.includes("$("), hook.command);
      const reads = shellSplit(hook.command)!.filter((x) => x.startsWith("--allow-read="));
      const dirs = reads.flatMap((r) => r.slice("--allow-read=".length).split(","));
      assert.ok(dirs.includes("${CLAUDE_PROJECT_DIR}/.claude/skills"), `${hook.hookId}: ${reads}`);
      if (hook.hookId?.startsWith("skill-redirect")) {
        assert.ok(dirs.includes("${CLAUDE_PROJECT_DIR}/.claude/agents"), reads.join(" "));
      }
    }
    // Compiled binaries have their flags fixed at build time: no run-time expansion in them.
    assert.equal(await runSetup(args(["--compile", "--dry-run"]), w.ctx), 0);
    const plans = w.out.filter((l) => l.startsWith("would run:"));
    assert.ok(plans.length > 0);
    for (const plan of plans) assert.ok(!plan.includes("${CLAUDE_PROJECT_DIR"), plan);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --project leaves only its settings file in the project: lock and backups go to the state root", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args(["--project"]), w.ctx), 0);
    assert.equal(await runSetup(args(["--project", "--skill-routing"]), w.ctx), 0);
    assert.equal(await runSetup(args(["--project", "--uninstall"]), w.ctx), 0);
    const names = [...Deno.readDirSync(join(w.dir, "project", ".claude"))].map((e) => e.name);
    assert.deepEqual(names, ["settings.local.json"]);
    const backups = [...Deno.readDirSync(join(w.dir, "state", "backups"))].map((e) => e.name);
    assert.equal(backups.length, 2, backups.join(" "));
    assert.ok(
      backups.every((n) => /^settings\.local\.json\.[0-9a-f]{8}\.skillgate-backup\./.test(n)),
    );
    assert.ok(w.out.some((l) => l.includes(join(w.dir, "state", "backups"))), w.out.join("\n"));
    const locks = [...Deno.readDirSync(join(w.dir, "state", "locks"))].map((e) => e.name);
    assert.ok(locks.length >= 1 && locks.every((n) => n.endsWith(".lock")), locks.join(" "));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --copilot writes $COPILOT_HOME/hooks/skillgate.json; --uninstall removes it", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args(["--copilot", "--skill-routing"]), w.ctx), 0);
    const path = join(w.dir, "copilot", "hooks", "skillgate.json");
    const doc = JSON.parse(await Deno.readTextFile(path));
    assert.equal(doc.version, 1);
    assert.deepEqual(Object.keys(doc.hooks), [
      "userPromptSubmitted",
      "agentStop",
      "preToolUse",
      "subagentStop",
    ]);
    assert.deepEqual(
      listOwnedHooks(COPILOT.hookFile.format, doc, skillgateOwner).map((o) => o.hookId),
      ["skill-route", "skill-contract", "skill-redirect", "skill-contract-subagent"],
    );
    // The contract hook reads Copilot's own session-state and skill folders, not Claude Code's.
    const contract = doc.hooks.agentStop[0].bash as string;
    assert.ok(contract.includes(`${join(w.dir, "copilot", "session-state")},`), contract);
    assert.ok(contract.includes(`${join(w.dir, "copilot", "skills")},`), contract);
    assert.ok(contract.includes(",.github/skills,"), contract);
    assert.ok(!contract.includes(w.ctx.claudeConfigDir), contract);
    await assert.rejects(() => Deno.stat(w.settings), Deno.errors.NotFound);
    // Uninstall removes the agentStop entry with the others; a user's own agentStop item stays.
    const mine = { type: "command", bash: "./scripts/audit.sh", timeoutSec: 5 };
    doc.hooks.agentStop.push(mine);
    await Deno.writeTextFile(path, JSON.stringify(doc));
    assert.equal(await runSetup(args(["--copilot", "--uninstall"]), w.ctx), 0);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)).hooks, { agentStop: [mine] });
    doc.hooks.agentStop.pop();
    await Deno.writeTextFile(path, JSON.stringify(doc));
    assert.equal(await runSetup(args(["--copilot", "--uninstall"]), w.ctx), 0);
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --compile registers nothing when deno compile cannot get its runtime", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.settings, JSON.stringify(FOREIGN));
    const ran: string[][] = [];
    const ctx: SetupContext = {
      ...w.ctx,
      runCommand: (argv) => {
        ran.push([...argv]);
        return Promise.resolve({
          code: 1,
          stderr: "error: Writing deno compile executable to temporary file\n" +
            "    0: Setting up base binary.\n    1: error sending request for url " +
            "(https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip)\n",
        });
      },
    };
    assert.equal(await runSetup(args(["--compile"]), ctx), 1);
    assert.equal(ran.length, 1, "stops at the first failure");
    assert.ok(
      w.err.some((l) =>
        /could not download its runtime \(denort\).*Nothing was registered/.test(l)
      ),
    );
    assert.equal(await Deno.readTextFile(w.settings), JSON.stringify(FOREIGN));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --compile registers the binaries once every one is built", async () => {
  const w = await world();
  try {
    const ctx: SetupContext = {
      ...w.ctx,
      runCommand: () => Promise.resolve({ code: 0, stderr: "" }),
    };
    assert.equal(await runSetup(args(["--compile", "--skill-routing"]), ctx), 0);
    const doc = JSON.parse(await Deno.readTextFile(w.settings));
    const commands = listOwnedHooks(CLAUDE.hookFile.format, doc, skillgateOwner).map((o) =>
      `${o.hookId} ${o.command}`
    );
    const bin = binDirOf(w.ctx.stateRoot, "claude", w.settings);
    assert.match(bin, /\/state\/bin\/claude-[0-9a-f]{8}$/);
    assert.deepEqual(commands.sort(), [
      `skill-contract ${bin}/skillgate-skill-contract`,
      `skill-contract-subagent ${bin}/skillgate-skill-contract`,
      `skill-redirect ${bin}/skillgate-skill-redirect`,
      `skill-redirect-stop ${bin}/skillgate-skill-redirect`,
      `skill-route ${bin}/skillgate-skill-route`,
    ]);
    // Going back to deno run replaces the compiled entries, no duplicates.
    await runSetup(args([]), w.ctx);
    assert.equal((await owned(w.settings)).length, 5);
    assert.ok(!(await Deno.readTextFile(w.settings)).includes("/bin/skillgate-"));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --compile for two hosts and a project builds three sets of binaries, each registered where its grants belong", async () => {
  const w = await world();
  try {
    const built = new Map<string, string[]>();
    const ctx: SetupContext = {
      ...w.ctx,
      runCommand: (argv) => {
        const out = argv[argv.indexOf("--output") + 1];
        assert.ok(!built.has(out), `${out} built twice`);
        built.set(out, [...argv]);
        return Promise.resolve({ code: 0, stderr: "" });
      },
    };
    // Without the Codex client on PATH, setup --codex only warns that the hooks are untrusted.
    const env = { SKILLGATE_CODEX_BIN: join(w.dir, "no-codex") };
    const saved = Deno.env.get("SKILLGATE_CODEX_BIN");
    Deno.env.set("SKILLGATE_CODEX_BIN", env.SKILLGATE_CODEX_BIN);
    try {
      assert.equal(await runSetup(args(["--compile"]), ctx), 0);
      assert.equal(await runSetup(args(["--compile", "--codex"]), ctx), 0);
      assert.equal(await runSetup(args(["--compile", "--project"]), ctx), 0);
    } finally {
      if (saved === undefined) Deno.env.delete("SKILLGATE_CODEX_BIN");
      else Deno.env.set("SKILLGATE_CODEX_BIN", saved);
    }
    const files = {
      claude: { path: w.settings, format: CLAUDE.hookFile.format },
      codex: { path: join(w.dir, "codex", "hooks.json"), format: CODEX.hookFile.format },
      project: {
        path: join(w.dir, "project", ".claude", "settings.local.json"),
        format: CLAUDE.hookFile.format,
      },
    };
    const dirs = new Set<string>();
    for (const [name, f] of Object.entries(files)) {
      const doc = JSON.parse(await Deno.readTextFile(f.path));
      const hooks = listOwnedHooks(f.format, doc, skillgateOwner);
      assert.ok(hooks.length >= 2, `${name}: ${hooks.length} hooks`);
      for (const hook of hooks) {
        // Each registered binary was built for this file, with this file's grants.
        const argv = built.get(hook.command);
        assert.ok(argv, `${name}: ${hook.command} was not built`);
        dirs.add(dirname(hook.command));
        const reads = argv.find((a) => a.startsWith("--allow-read="))!;
        if (name === "codex") {
          assert.ok(reads.includes(join(w.dir, "codex", "sessions")), reads);
          assert.ok(!reads.includes(join(w.dir, "claude", "projects")), reads);
        } else {
          assert.ok(reads.includes(join(w.dir, "claude", "projects")), reads);
          assert.ok(!reads.includes(join(w.dir, "codex")), reads);
        }
        assert.equal(
          reads.includes(join(w.dir, "project", ".claude", "skills")),
          name === "project",
          `${name}: ${reads}`,
        );
      }
    }
    assert.equal(dirs.size, 3, [...dirs].join(" "));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup pre-caches every registered hook module with deno cache --no-config", async () => {
  const w = await world();
  try {
    const ran: string[][] = [];
    const ctx: SetupContext = {
      ...w.ctx,
      precache: true,
      runCommand: (argv) => {
        ran.push([...argv]);
        return Promise.resolve({ code: 1, stderr: "error: npm registry unreachable\n" });
      },
    };
    assert.equal(await runSetup(args([]), ctx), 0, "a failed pre-cache is a warning");
    assert.deepEqual(ran, [[
      "/usr/local/bin/deno",
      "cache",
      "--no-config",
      join(ROOT, "hooks", "dist", "skill_contract.js"),
      join(ROOT, "hooks", "dist", "skill_redirect.js"),
    ]]);
    assert.ok(
      w.err.some((l) =>
        /Could not pre-cache the hook modules \(error: npm registry unreachable\)/.test(l)
      ),
    );
    ran.length = 0;
    await runSetup(args(["--dry-run"]), ctx);
    await runSetup(args(["--uninstall"]), ctx);
    assert.deepEqual(ran, [], "no pre-cache for a dry run or an uninstall");
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup: two concurrent setup processes leave one valid file without duplicates", async () => {
  const w = await world();
  try {
    const stale = structuredClone(FOREIGN) as typeof FOREIGN & { hooks: Record<string, unknown[]> };
    stale.hooks.Stop.push({
      hooks: [{
        type: "command",
        command:
          "/old/deno run --no-prompt --allow-read=/x jsr:@skillgate/skillgate@0.0.1/hooks/skill-contract",
      }],
    });
    const env = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: w.ctx.home,
      CLAUDE_CONFIG_DIR: w.ctx.claudeConfigDir,
      SKILLGATE_STATE_ROOT: w.ctx.stateRoot,
      // CI runs Deno from an npx cache, which setup refuses to register unless it is named.
      SKILLGATE_DENO: Deno.execPath(),
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(
          Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"),
          "deno",
        ),
    };
    for (let round = 0; round < 3; round++) {
      await Deno.writeTextFile(w.settings, JSON.stringify(stale, null, 2));
      const run = () =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--no-config",
            join(ROOT, "lib", "cli", "setup_command.ts"),
            "--skill-routing",
          ],
          env,
          clearEnv: true,
          cwd: w.dir,
          stdout: "piped",
          stderr: "piped",
        }).output();
      const results = await Promise.all([run(), run()]);
      for (const r of results) assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
      const doc = JSON.parse(await Deno.readTextFile(w.settings));
      assert.deepEqual(
        listOwnedHooks(CLAUDE.hookFile.format, doc, skillgateOwner).map((o) =>
          `${o.hookId}@${o.event}`
        ).sort(),
        [
          "skill-contract-subagent@SubagentStop",
          "skill-contract@Stop",
          "skill-redirect-stop@Stop",
          "skill-redirect@PreToolUse",
          "skill-route@UserPromptSubmit",
        ],
      );
      assert.deepEqual(foreignOf(doc), FOREIGN.hooks);
      const registered = results.map((r) => new TextDecoder().decode(r.stdout))
        .join("").split("\n").filter((l) => / (registered|updated) in /.test(l));
      assert.equal(registered.length, 5, "exactly one of the two made each change");
    }
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup warns when another install already registers skillgate, and says how to keep one", async () => {
  const w = await world();
  try {
    assert.equal(await runSetup(args([]), w.ctx), 0);
    assert.ok(!w.err.some((l) => /INSTALLED_TWICE/.test(l)), w.err.join("\n"));
    assert.equal(await runSetup(args(["--project"]), w.ctx), 0);
    const twice = w.err.filter((l) => /INSTALLED_TWICE/.test(l));
    assert.equal(twice.length, 1, w.err.join("\n"));
    assert.match(
      twice[0],
      /^skillgate setup: INSTALLED_TWICE skillgate's hooks are also registered in .*settings\.json: .*keep one/,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup warns when the plugin is installed too, and says whether the two answer once", async () => {
  const w = await world();
  try {
    const plugins = join(w.ctx.claudeConfigDir, "plugins");
    const install = join(plugins, "cache", "skillgate", "skillgate", "0.1.0");
    await Deno.mkdir(join(install, ".."), { recursive: true });
    await Deno.symlink(ROOT, install);
    await Deno.writeTextFile(
      join(plugins, "installed_plugins.json"),
      JSON.stringify({ plugins: { "skillgate@skillgate": [{ installPath: install }] } }),
    );
    // A state root not beside the Claude config folder: the plugin keeps its own, both answer.
    assert.equal(await runSetup(args([]), w.ctx), 0);
    const apart = w.err.filter((l) => /INSTALLED_TWICE the skillgate plugin/.test(l));
    assert.equal(apart.length, 1, w.err.join("\n"));
    assert.match(
      apart[0],
      /both, and both answer \(the plugin keeps its own state root\); keep one/,
    );
    // Beside it (~/.skillgate beside ~/.claude): one state root, one answer.
    w.err.length = 0;
    const beside = { ...w.ctx, stateRoot: join(w.dir, ".skillgate") };
    assert.equal(await runSetup(args([]), beside), 0);
    const shared = w.err.filter((l) => /INSTALLED_TWICE the skillgate plugin/.test(l));
    assert.match(shared[0] ?? "", /each event runs both \(one answers\); keep one/);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup keeps a hand-formatted settings.json's formatting: only its own lines change, and --uninstall gives back the very bytes", async () => {
  const w = await world();
  try {
    const hand = Deno.readTextFileSync(
      new URL("../../fixtures/settings/hand_formatted.json", import.meta.url),
    );
    await Deno.writeTextFile(w.settings, hand);
    assert.equal(await runSetup(args(["--skill-routing"]), w.ctx), 0);
    const after = await Deno.readTextFile(w.settings);
    const lines = after.split("\n");
    let j = 0;
    for (const line of hand.split("\n")) {
      while (j < lines.length && lines[j] !== line && lines[j] !== `${line},`) j++;
      assert.ok(j < lines.length, `kept: ${JSON.stringify(line)}\n${after}`);
      j++;
    }
    assert.ok(!/\n {2}"/.test(after), "the file's tabs, not two spaces");
    assert.equal((await owned(w.settings)).length, 5);
    assert.equal(await runSetup(args(["--uninstall"]), w.ctx), 0);
    assert.equal(await Deno.readTextFile(w.settings), hand);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("setup --copilot and --codex write commands that start no other process: no $(…), the project's folders in the working directory's parents", async () => {
  const w = await world();
  try {
    const files = [
      {
        flag: "--copilot",
        path: join(w.dir, "copilot", "hooks", "skillgate.json"),
        host: COPILOT,
        folder: ".github/skills",
      },
      {
        flag: "--codex",
        path: join(w.dir, "codex", "hooks.json"),
        host: CODEX,
        folder: ".agents/skills",
      },
    ];
    for (const f of files) {
      assert.equal(await runSetup(args([f.flag, "--skill-routing"]), w.ctx), 0, w.err.join("\n"));
      const doc = JSON.parse(await Deno.readTextFile(f.path));
      const hooks = listOwnedHooks(f.host.hookFile.format, doc, skillgateOwner);
      assert.ok(hooks.length >= 3, f.flag);
      for (const h of hooks) {
        assert.ok(!h.command.includes("$(") && !h.command.includes("`"), h.command);
        assert.ok(!h.command.includes("$"), `${f.flag}: no expansion at all: ${h.command}`);
        const grants = shellSplit(h.command)!.filter((x) => x.startsWith("--allow-read="))
          .flatMap((x) => x.slice("--allow-read=".length).split(","));
        for (const g of [f.folder, `../${f.folder}`, `../../../${f.folder}`]) {
          assert.ok(grants.includes(g), `${f.flag} ${h.hookId}: ${g}`);
        }
      }
    }
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

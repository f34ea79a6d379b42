import assert from "node:assert/strict";
import { join } from "node:path";
import { type UninstallContext, uninstallWithTrust } from "./uninstall.ts";
import { parseSetupArgs, runSetup, skillgateOwner } from "./setup.ts";
import { writeFakeCodex } from "./_fake_codex_test.ts";

const CONTRACT = "/usr/bin/deno run --quiet --no-prompt --no-config --allow-read=/x " +
  "/opt/skillgate/hooks/dist/skill_contract.js";
const REDIRECT = "/usr/bin/deno run --quiet --no-prompt --no-config --allow-read=/x " +
  "/opt/skillgate/hooks/dist/skill_redirect.js";

async function sha(command: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(command));
  return "sha256:" + [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A Codex home whose hooks.json holds skillgate's Stop hook before the user's (both trusted) and
 * skillgate's PreToolUse hook (trusted), plus a trust entry of another file.
 */
async function world(
  fn: (w: { dir: string; codex: string; ctx: UninstallContext }) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-untrust-" });
  try {
    const codex = join(dir, "codex-home");
    const project = join(dir, "project");
    Deno.mkdirSync(codex);
    Deno.mkdirSync(project);
    const file = join(codex, "hooks.json");
    Deno.writeTextFileSync(
      file,
      JSON.stringify({
        hooks: {
          Stop: [
            { hooks: [{ type: "command", command: CONTRACT }] },
            { hooks: [{ type: "command", command: "echo user" }] },
          ],
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: REDIRECT }] }],
        },
      }),
    );
    Deno.writeTextFileSync(
      join(codex, "trust.json"),
      JSON.stringify({
        [`${file}:stop:0:0`]: await sha(CONTRACT),
        [`${file}:stop:1:0`]: await sha("echo user"),
        [`${file}:pre_tool_use:0:0`]: await sha(REDIRECT),
        "/elsewhere/hooks.json:stop:0:0": "sha256:abc",
      }),
    );
    const ctx: UninstallContext = {
      stateRoot: join(dir, "state"),
      hostDirs: {
        claude: join(dir, "claude"),
        copilot: join(dir, "copilot"),
        codex,
        gemini: join(dir, "gemini"),
      },
      cwd: project,
    };
    await fn({ dir, codex, ctx });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function requests(codex: string): { method?: string; params?: { edits?: unknown[] } }[] {
  try {
    return Deno.readTextFileSync(join(codex, "requests.jsonl")).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
  } catch {
    return [];
  }
}

Deno.test("the fixture's commands are skillgate's and the user's is not", () => {
  assert.notEqual(skillgateOwner(CONTRACT, ""), null);
  assert.notEqual(skillgateOwner(REDIRECT, ""), null);
  assert.equal(skillgateOwner("echo user", ""), null);
});

Deno.test("uninstall removes skillgate's Codex trust entries through the app-server, and only those", async () => {
  await world(async ({ dir, codex, ctx }) => {
    const bin = writeFakeCodex(dir);
    const report = await uninstallWithTrust({ purge: false, dryRun: false }, ctx, {
      bin,
      env: { HOME: dir, PATH: "/usr/bin:/bin" },
    });
    const file = join(codex, "hooks.json");
    assert.deepEqual(report.removed.map((r) => r.hookId).sort(), [
      "skill-contract",
      "skill-redirect",
    ]);
    assert.deepEqual(report.untrusted.map((u) => u.key).sort(), [
      `${file}:pre_tool_use:0:0`,
      `${file}:stop:0:0`,
    ]);
    assert.ok(report.untrusted.every((u) => u.path === join(codex, "config.toml")));
    // One write, deleting the two tables; nothing else asked of the client.
    const writes = requests(codex).filter((r) => r.method === "config/batchWrite");
    assert.equal(writes.length, 1);
    assert.deepEqual(writes[0].params?.edits, [
      {
        keyPath: `hooks.state.${JSON.stringify(`${file}:stop:0:0`)}`,
        value: null,
        mergeStrategy: "replace",
      },
      {
        keyPath: `hooks.state.${JSON.stringify(`${file}:pre_tool_use:0:0`)}`,
        value: null,
        mergeStrategy: "replace",
      },
    ]);
    // The user's entry and the other file's are kept.
    assert.deepEqual(JSON.parse(Deno.readTextFileSync(join(codex, "trust.json"))), {
      [`${file}:stop:1:0`]: await sha("echo user"),
      "/elsewhere/hooks.json:stop:0:0": "sha256:abc",
    });
    // The user's Stop hook moved from group 1 to 0, so the client no longer trusts it: said.
    const moved = report.kept.find((k) => k.path === file);
    assert.ok(moved, JSON.stringify(report.kept));
    assert.match(moved.why, /no longer trusts your stop hook 'echo user'.*\/hooks/);
  });
});

Deno.test("uninstall --dry-run names the trust entries and writes nothing", async () => {
  await world(async ({ dir, codex, ctx }) => {
    const bin = writeFakeCodex(dir);
    const hooksBefore = Deno.readTextFileSync(join(codex, "hooks.json"));
    const trustBefore = Deno.readTextFileSync(join(codex, "trust.json"));
    const report = await uninstallWithTrust({ purge: false, dryRun: true }, ctx, {
      bin,
      env: { HOME: dir, PATH: "/usr/bin:/bin" },
    });
    assert.equal(report.untrusted.length, 2);
    assert.equal(requests(codex).filter((r) => r.method === "config/batchWrite").length, 0);
    assert.equal(Deno.readTextFileSync(join(codex, "hooks.json")), hooksBefore);
    assert.equal(Deno.readTextFileSync(join(codex, "trust.json")), trustBefore);
  });
});

Deno.test("uninstall without the Codex client removes the hooks and says config.toml keeps their trust", async () => {
  await world(async ({ codex, ctx }) => {
    const file = join(codex, "hooks.json");
    const toml = `# mine\n[hooks.state.${
      JSON.stringify(`${file}:stop:0:0`)
    }]\ntrusted_hash = "x"\n`;
    Deno.writeTextFileSync(join(codex, "config.toml"), toml);
    const report = await uninstallWithTrust({ purge: false, dryRun: false }, ctx, {
      bin: undefined,
      env: {},
    });
    assert.equal(report.removed.length, 2);
    assert.equal(report.untrusted.length, 0);
    const kept = report.kept.find((k) => k.path === join(codex, "config.toml"));
    assert.ok(kept, JSON.stringify(report.kept));
    assert.match(kept.why, /codex is not on PATH/);
    assert.equal(Deno.readTextFileSync(join(codex, "config.toml")), toml);
  });
});

Deno.test("uninstall with a client that does not answer still removes the hooks, and says why the trust stays", async () => {
  await world(async ({ dir, codex, ctx }) => {
    const file = join(codex, "hooks.json");
    Deno.writeTextFileSync(
      join(codex, "config.toml"),
      `[hooks.state.${JSON.stringify(`${file}:stop:0:0`)}]\ntrusted_hash = "x"\n`,
    );
    const bin = join(dir, "broken-codex");
    Deno.writeTextFileSync(bin, "#!/bin/sh\nexit 1\n");
    Deno.chmodSync(bin, 0o755);
    const report = await uninstallWithTrust({ purge: false, dryRun: false }, ctx, {
      bin,
      env: { HOME: dir, PATH: "/usr/bin:/bin" },
      timeoutMs: 5_000,
    });
    assert.equal(report.removed.length, 2);
    assert.equal(report.untrusted.length, 0);
    const kept = report.kept.find((k) => k.path === join(codex, "config.toml"));
    assert.ok(kept, JSON.stringify(report.kept));
    assert.match(kept.why, /could not list the hooks/);
  });
});

Deno.test("setup --codex --uninstall takes back the trust entries of the hooks it removes", async () => {
  await world(async ({ dir, codex, ctx }) => {
    const bin = writeFakeCodex(dir);
    const out: string[] = [];
    const err: string[] = [];
    const parsed = parseSetupArgs(["--codex", "--uninstall"]);
    if ("error" in parsed) throw new Error(parsed.error);
    const saved = Deno.env.get("SKILLGATE_CODEX_BIN");
    Deno.env.set("SKILLGATE_CODEX_BIN", bin);
    try {
      const code = await runSetup(parsed, {
        stateRoot: ctx.stateRoot,
        claudeConfigDir: ctx.hostDirs.claude,
        home: dir,
        hostDirs: ctx.hostDirs,
        cwd: ctx.cwd,
        denoPath: "/usr/bin/deno",
        source: { kind: "local", root: "/opt/skillgate" },
        print: (l) => out.push(l),
        warn: (l) => err.push(l),
      });
      assert.equal(code, 0, err.join("\n"));
    } finally {
      if (saved === undefined) Deno.env.delete("SKILLGATE_CODEX_BIN");
      else Deno.env.set("SKILLGATE_CODEX_BIN", saved);
    }
    const file = join(codex, "hooks.json");
    for (const key of [`${file}:stop:0:0`, `${file}:pre_tool_use:0:0`]) {
      assert.ok(
        out.includes(`skillgate: removed the hook trust entry ${key} from ${codex}/config.toml`),
        out.join("\n"),
      );
    }
    assert.deepEqual(Object.keys(JSON.parse(Deno.readTextFileSync(join(codex, "trust.json")))), [
      `${file}:stop:1:0`,
      "/elsewhere/hooks.json:stop:0:0",
    ]);
    assert.ok(
      err.some((l) => /no longer trusts your stop hook 'echo user'/.test(l)),
      err.join("\n"),
    );
  });
});

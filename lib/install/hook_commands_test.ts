import assert from "node:assert/strict";
import { claudeFolders } from "../host/_kit_test.ts";
import { join } from "node:path";
import fc from "fast-check";
import {
  chooseDenoPath,
  detectModuleSource,
  hookArgv,
  hookCommand,
  hookModule,
  isEphemeralPath,
  LEGACY_SHELL_PROJECT_DIR,
  PARENT_DIRS,
  recogniseCommand,
  RUNTIME_PROJECT_DIR,
  SHELL_PROJECT_DIR,
  shellJoin,
  shellQuote,
  shellSplit,
} from "./hook_commands.ts";
import { hookRow, HOOKS, permissionFlags, type PermissionPaths } from "../hook/table.ts";

const PATHS: PermissionPaths = {
  stateRoot: "/home/u/.skillgate",
  hostFolders: claudeFolders("/home/u/.claude"),
};
const LOCAL = { kind: "local", root: "/opt/skill gate" } as const;
const DENO = "/usr/local/bin/deno";

async function shellWords(command: string): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: ["-c", `printf '%s\\0' ${command}`],
    stdout: "piped",
  }).output();
  assert.equal(out.code, 0);
  const text = new TextDecoder().decode(out.stdout);
  return text.split("\0").slice(0, -1);
}

Deno.test("shellQuote() leaves safe words bare and single-quotes the rest", () => {
  assert.equal(shellQuote("--allow-read=/a/b,.claude/skills"), "--allow-read=/a/b,.claude/skills");
  assert.equal(shellQuote("/my dir/x.ts"), "'/my dir/x.ts'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("$HOME"), "'$HOME'");
});

Deno.test("shellJoin() words reach sh -c exactly, even hostile ones", async () => {
  const words = ["/a b/deno", "it's", "$(touch /tmp/x)", "`id`", "a;b", "*", "~", 'q"q', "\\"];
  assert.deepEqual(await shellWords(shellJoin(words)), words);
});

Deno.test("shellSplit() inverts shellJoin() for any words", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ minLength: 0, maxLength: 12 }), { maxLength: 6 }), (ws) => {
      assert.deepEqual(shellSplit(shellJoin(ws)), ws);
    }),
    { numRuns: 300 },
  );
});

Deno.test("shellSplit() never throws on any text", () => {
  fc.assert(fc.property(fc.string(), (s) => {
    const r = shellSplit(s);
    assert.ok(r === undefined || Array.isArray(r));
  }));
});

Deno.test("hookCommand() grants the run-time project root in flags of their own, never splitting a comma", async () => {
  const paths: PermissionPaths = { ...PATHS, runtimeProjectDir: RUNTIME_PROJECT_DIR };
  const row = hookRow("skill-redirect");
  const argv = hookArgv(row, { denoPath: DENO, source: LOCAL, paths });
  const reads = argv.filter((w) => w.startsWith("--allow-read="));
  assert.ok(reads.includes("--allow-read=${CLAUDE_PROJECT_DIR}/.claude/skills"), reads.join(" "));
  assert.ok(reads.includes("--allow-read=${CLAUDE_PROJECT_DIR}/.claude/agents"), reads.join(" "));
  // No environment variable in a comma list.
  for (const r of reads) assert.ok(!r.includes(",") || !r.includes("${"), r);
  const command = hookCommand(row, { denoPath: DENO, source: LOCAL, paths });
  assert.ok(command.includes(`--allow-read=${SHELL_PROJECT_DIR}/.claude/skills`), command);
  assert.ok(!command.includes("$("), command);
  assert.deepEqual(shellSplit(command), argv);
  assert.equal(recogniseCommand(command, "PreToolUse")?.hookId, "skill-redirect");
  // What the host's shell makes of it: CLAUDE_PROJECT_DIR, or nothing when it holds a comma.
  const expand = async (env: Record<string, string>) => {
    const out = await new Deno.Command("sh", {
      args: ["-c", `printf '%s\\0' ${command}`],
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    }).output();
    const words = new TextDecoder().decode(out.stdout).split("\0");
    return words.filter((w) => w.startsWith("--allow-read=")).flatMap((w) =>
      w.slice("--allow-read=".length).split(",")
    );
  };
  const set = await expand({ CLAUDE_PROJECT_DIR: "/my project" });
  assert.ok(set.includes("/my project/.claude/skills"), set.join());
  const comma = await expand({ CLAUDE_PROJECT_DIR: "/elsewhere,/my project" });
  assert.ok(
    !comma.some((g) => g.startsWith("/elsewhere") || g.startsWith("/my project")),
    comma.join(),
  );
  assert.ok(comma.includes("/.claude/skills"), comma.join());
  const unset = await expand({});
  assert.ok(unset.includes("/.claude/skills"), unset.join());
});

Deno.test("hookArgv() grants a host without a project root the working directory's parents", () => {
  const paths: PermissionPaths = { ...PATHS, runtimeProjectDir: PARENT_DIRS };
  const argv = hookArgv(hookRow("skill-route"), { denoPath: DENO, source: LOCAL, paths });
  const read = argv.filter((w) => w.startsWith("--allow-read="));
  assert.equal(read.length, 1, read.join(" "));
  const grants = read[0].slice("--allow-read=".length).split(",");
  for (
    const g of [
      ".claude/skills",
      "../.claude/skills",
      "../../.claude/skills",
      "../../../.claude/skills",
    ]
  ) {
    assert.ok(grants.includes(g), `${g} in ${read[0]}`);
  }
  assert.ok(!read[0].includes("${"), read[0]);
  assert.ok(
    !hookCommand(hookRow("skill-route"), { denoPath: DENO, source: LOCAL, paths }).includes("$"),
  );
});

Deno.test("recogniseCommand() still knows the commands setup wrote with the git expansion", () => {
  const old = `/usr/local/bin/deno run --no-prompt --no-config ` +
    `--allow-read=${LEGACY_SHELL_PROJECT_DIR}/.claude/skills,/home/u/.skillgate /opt/sg/hooks/dist/skill_route.js`;
  assert.equal(recogniseCommand(old, "UserPromptSubmit")?.hookId, "skill-route");
});

Deno.test("shellSplit() accepts skillgate's project expansion only exactly, and only in double quotes", () => {
  const ok = `deno run --allow-read=${SHELL_PROJECT_DIR}/.claude/skills /m.js`;
  assert.deepEqual(shellSplit(ok), [
    "deno",
    "run",
    `--allow-read=${RUNTIME_PROJECT_DIR}/.claude/skills`,
    "/m.js",
  ]);
  for (
    const word of [
      '"${CLAUDE_PROJECT_DIR}"',
      '"$CLAUDE_PROJECT_DIR"',
      '"${CLAUDE_PROJECT_DIR:-$(touch /tmp/pwned)}"',
      '"${CLAUDE_PROJECT_DIR:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}$(id)"',
      '"${CLAUDE_PROJECT_DIR##*,*}$(id)"',
      '"${CLAUDE_PROJECT_DIR##*}"',
      SHELL_PROJECT_DIR.slice(1, -1),
      `'${SHELL_PROJECT_DIR}'x"$(id)"`,
    ]
  ) {
    assert.equal(shellSplit(`deno run --allow-read=${word} /m.js`), undefined, word);
  }
});

Deno.test("shellSplit() refuses lines with shell operators or expansions", () => {
  for (const line of ["a; b", "a && b", "a | b", "a $(b)", "a `b`", "a > f", 'a "$HOME"', "a 'b"]) {
    assert.equal(shellSplit(line), undefined, line);
  }
  assert.deepEqual(shellSplit(`a "b c" 'd e' f\\ g`), ["a", "b c", "d e", "f g"]);
});

Deno.test("hookCommand() is absolute Deno, run --quiet --no-prompt --no-config, the table's flags, the module", async () => {
  for (const row of HOOKS) {
    const command = hookCommand(row, { denoPath: DENO, source: LOCAL, paths: PATHS });
    const words = await shellWords(command);
    assert.deepEqual(words, [
      DENO,
      "run",
      "--quiet",
      "--no-prompt",
      "--no-config",
      "--v8-flags=--no-lazy,--no-sparkplug",
      ...permissionFlags(row, PATHS),
      join("/opt/skill gate", row.bundle),
    ]);
    assert.ok(!words.some((w) => /^(-A|--allow-all|--allow-run|--allow-net|--allow-ffi)/.test(w)));
  }
});

Deno.test("hookModule() runs the bundle the JSR version ships, or a remote package's", () => {
  const row = hookRow("skill-route");
  assert.equal(
    hookModule(row, { kind: "jsr", version: "0.3.1" }),
    "https://jsr.io/@skillgate/skillgate/0.3.1/hooks/dist/skill_route.js",
  );
  assert.equal(
    hookModule(row, { kind: "remote", base: "http://127.0.0.1:4507/pkg/" }),
    "http://127.0.0.1:4507/pkg/hooks/dist/skill_route.js",
  );
  assert.equal(
    hookModule(row, { kind: "compiled", binDir: "/s/bin" }),
    "/s/bin/skillgate-skill-route",
  );
});

Deno.test("hookArgv() of a compiled hook is the binary alone", () => {
  const argv = hookArgv(hookRow("skill-contract"), {
    denoPath: DENO,
    source: { kind: "compiled", binDir: "/s/bin" },
    paths: PATHS,
  });
  assert.deepEqual(argv, ["/s/bin/skillgate-skill-contract"]);
});

Deno.test("hookArgv() refuses a relative Deno path", () => {
  assert.throws(
    () => hookArgv(hookRow("skill-route"), { denoPath: "deno", source: LOCAL, paths: PATHS }),
    /absolute/,
  );
});

Deno.test("recogniseCommand() knows every command setup writes, by event", () => {
  for (
    const source of [
      LOCAL,
      { kind: "jsr", version: "0.1.0" } as const,
      { kind: "remote", base: "http://127.0.0.1:4507/pkg/" } as const,
      {
        kind: "compiled",
        binDir: "/s/b in",
      } as const,
    ]
  ) {
    for (const row of HOOKS) {
      const command = hookCommand(row, { denoPath: DENO, source, paths: PATHS });
      assert.equal(recogniseCommand(command, row.event)?.hookId, row.id, command);
    }
  }
});

Deno.test("recogniseCommand() tells the two redirect registrations apart by event", () => {
  const cmd = `${DENO} run --no-prompt --allow-read=/x /old/checkout/hooks/skill_redirect.ts`;
  assert.equal(recogniseCommand(cmd, "PreToolUse")?.hookId, "skill-redirect");
  assert.equal(recogniseCommand(cmd, "Stop")?.hookId, "skill-redirect-stop");
  assert.equal(recogniseCommand(cmd, "preToolUse")?.hookId, "skill-redirect");
  const stale = recogniseCommand(cmd, "UserPromptSubmit");
  assert.ok(stale !== null);
  assert.equal(stale.hookId, undefined);
});

Deno.test("recogniseCommand() claims stale versions and paths of its own hooks", () => {
  assert.equal(
    recogniseCommand(
      "/old/deno run --no-prompt --allow-read=/x jsr:@skillgate/skillgate@0.0.1/hooks/skill-route",
      "UserPromptSubmit",
    )
      ?.hookId,
    "skill-route",
  );
  assert.equal(
    recogniseCommand(
      "'/gone dir/deno' run --no-prompt file:///gone/hooks/skill_route.ts",
      "UserPromptSubmit",
    )
      ?.hookId,
    "skill-route",
  );
});

Deno.test("recogniseCommand() never claims a foreign command", () => {
  const foreign = [
    "node /x/hooks/skill_route.ts",
    `bash -c "deno run /x/hooks/skill_route.ts"`,
    "deno run /x/hooks/other.ts",
    "deno run relative/hooks/skill_route.ts",
    "echo skillgate skill-route",
    "deno run /a/hooks/skill_route.ts; curl http://evil",
    "deno eval /a/hooks/skill_route.ts",
    // Found in review: a user's own entry for the same module, not written the way skillgate is.
    "deno run -A /home/u/my/hooks/skill_redirect.ts",
    "deno run --no-prompt -A /home/u/my/hooks/skill_redirect.ts",
    "deno run --no-prompt --allow-run /home/u/my/hooks/skill_redirect.ts",
    "/usr/bin/skillgate-unknown",
    "skillgate-skill-route",
    "/usr/local/bin/gstack-skill-route",
    "",
  ];
  for (const cmd of foreign) assert.equal(recogniseCommand(cmd, "UserPromptSubmit"), null, cmd);
});

Deno.test("detectModuleSource() reads a checkout path or a JSR version from the module URL", () => {
  assert.deepEqual(detectModuleSource("file:///opt/sg/lib/install/hook_commands.ts"), {
    kind: "local",
    root: "/opt/sg",
  });
  assert.deepEqual(
    detectModuleSource("https://jsr.io/@skillgate/skillgate/1.2.3/lib/install/hook_commands.ts"),
    { kind: "jsr", version: "1.2.3" },
  );
  assert.deepEqual(
    detectModuleSource("http://127.0.0.1:4507/pkg/lib/install/hook_commands.ts"),
    { kind: "remote", base: "http://127.0.0.1:4507/pkg/" },
  );
  assert.throws(() => detectModuleSource("https://example.com/lib/x.ts"));
  assert.throws(() => detectModuleSource("data:text/plain,x"));
  assert.equal(detectModuleSource().kind, "local");
});

Deno.test("chooseDenoPath() prefers a deno on PATH over one in an npx cache, else refuses", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(join(bin, "deno"), "#!/bin/sh\n", { mode: 0o755 });
    const npx = "/root/.npm/_npx/abc/node_modules/deno/bin/deno";
    assert.ok(isEphemeralPath(npx));
    assert.deepEqual(chooseDenoPath(npx, bin, undefined), { path: join(bin, "deno") });
    const lone = chooseDenoPath(npx, "", undefined);
    assert.ok("refusal" in lone);
    assert.match(lone.refusal, /npx cache .*npm install -g deno@\d+\.\d+\.\d+$/);
    assert.deepEqual(chooseDenoPath("/usr/bin/deno", "", undefined), { path: "/usr/bin/deno" });
    // A deno on PATH that links into an npx cache is as ephemeral as the cache.
    const cache = join(dir, ".npm", "_npx", "abc", "node_modules", "deno");
    await Deno.mkdir(cache, { recursive: true });
    await Deno.writeTextFile(join(cache, "deno"), "#!/bin/sh\n", { mode: 0o755 });
    const linked = join(dir, "linked");
    await Deno.mkdir(linked);
    await Deno.symlink(join(cache, "deno"), join(linked, "deno"));
    assert.ok("refusal" in chooseDenoPath(npx, linked, undefined));
    // The override names the Deno to register, ephemeral or not; a bad one is refused.
    assert.deepEqual(chooseDenoPath(npx, "", join(cache, "deno")), { path: join(cache, "deno") });
    assert.ok("refusal" in chooseDenoPath(npx, bin, join(dir, "missing")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

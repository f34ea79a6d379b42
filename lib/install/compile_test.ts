import assert from "node:assert/strict";
import { claudeFolders } from "../host/_kit_test.ts";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type CompilePlan, compilePlans, explainCompileFailure, runCompile } from "./compile.ts";
import { hookRow, HOOKS, permissionFlags, type PermissionPaths } from "../hook/table.ts";

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const PATHS: PermissionPaths = {
  stateRoot: "/home/u/.skillgate",
  hostFolders: claudeFolders("/home/u/.claude"),
};
const DENO = "/usr/local/bin/deno";

Deno.test("compilePlans() gives one exact deno compile line per hook module", () => {
  const plans = compilePlans(HOOKS, {
    denoPath: DENO,
    source: { kind: "local", root: "/opt/sg" },
    paths: PATHS,
    binDir: "/home/u/.skillgate/bin",
  });
  const line = (id: Parameters<typeof hookRow>[0], name: string) => [
    DENO,
    "compile",
    "--no-config",
    "--no-prompt",
    ...permissionFlags(hookRow(id), PATHS),
    "--output",
    `/home/u/.skillgate/bin/skillgate-${name}`,
    `/opt/sg/hooks/dist/${name.replaceAll("-", "_")}.js`,
  ];
  assert.deepEqual(plans, [
    {
      name: "skill-route",
      hookIds: ["skill-route"],
      output: "/home/u/.skillgate/bin/skillgate-skill-route",
      argv: line("skill-route", "skill-route"),
    },
    {
      name: "skill-contract",
      hookIds: ["skill-contract", "skill-contract-subagent"],
      output: "/home/u/.skillgate/bin/skillgate-skill-contract",
      argv: line("skill-contract", "skill-contract"),
    },
    {
      name: "skill-redirect",
      hookIds: ["skill-redirect", "skill-redirect-stop"],
      output: "/home/u/.skillgate/bin/skillgate-skill-redirect",
      argv: line("skill-redirect", "skill-redirect"),
    },
  ]);
  for (const plan of plans) {
    assert.ok(
      !plan.argv.some((a) => /^(-A|--allow-all|--allow-run|--allow-net|--allow-ffi)/.test(a)),
    );
    assert.ok(plan.argv.filter((a) => a.startsWith("--allow-")).every((a) => !a.includes("$")));
  }
});

Deno.test("compilePlans() from JSR compiles the pinned version's bundle", () => {
  const [plan] = compilePlans([hookRow("skill-route")], {
    denoPath: DENO,
    source: { kind: "jsr", version: "0.4.0" },
    paths: PATHS,
    binDir: "/b",
  });
  assert.equal(
    plan.argv.at(-1),
    "https://jsr.io/@skillgate/skillgate/0.4.0/hooks/dist/skill_route.js",
  );
});

Deno.test("explainCompileFailure() names the runtime download and the ways out", () => {
  const plan = { name: "skill-route", hookIds: ["skill-route"], output: "/b/x", argv: [] };
  const msg = explainCompileFailure(
    plan,
    "\u001b[31merror\u001b[0m: Writing deno compile executable\n    0: Setting up base binary.\n" +
      "    4: failed to lookup address information: Name or service not known\n",
  );
  assert.match(msg, /^deno compile could not download its runtime \(denort\) for skill-route/);
  assert.match(msg, /Nothing was registered/);
  assert.match(msg, /DENORT_BIN/);
  assert.match(
    explainCompileFailure(plan, "error: Module not found\n"),
    /failed for skill-route: error: Module not found/,
  );
});

Deno.test("runCompile() with the real deno compile: builds, or fails with the clear runtime message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-compile-" });
  try {
    const module = join(dir, "probe.ts");
    await Deno.writeTextFile(module, "console.log('built');\n");
    const output = join(dir, "bin", "skillgate-probe");
    const plan: CompilePlan = {
      name: "probe",
      hookIds: [],
      output,
      argv: [
        Deno.execPath(),
        "compile",
        "--no-config",
        "--no-prompt",
        `--allow-read=${dir}`,
        "--output",
        output,
        module,
      ],
    };
    const outcome = await runCompile([plan]);
    if (outcome.ok) {
      const out = await new Deno.Command(output, { stdout: "piped" }).output();
      assert.equal(new TextDecoder().decode(out.stdout), "built\n");
    } else {
      // These build machines cannot reach dl.deno.land: the message must say so plainly.
      assert.match(
        outcome.message,
        /could not download its runtime \(denort\).*Nothing was registered/,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Sources that would make a compiled hook read a file next to its own module at run time. */
const RUNTIME_FILE_READ = /import\.meta\.(url|dirname|filename|resolve)\b|\bimport\(\s*[^"'`\s)]/;

for (const entry of [...new Set(HOOKS.map((h) => h.entry))]) {
  Deno.test(`module graph of ${entry} is complete: local modules and npm/node only`, async () => {
    const path = join(ROOT, entry);
    try {
      await Deno.stat(path);
    } catch {
      assert.fail(`${entry} has not landed yet: its module graph cannot be checked (not runnable)`);
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--no-config", path],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout));
    const rootUrl = pathToFileURL(ROOT).href + "/";
    const locals: string[] = [];
    for (const m of info.modules as { specifier: string; error?: string; kind?: string }[]) {
      assert.equal(m.error, undefined, `${m.specifier}: ${m.error}`);
      if (m.specifier.startsWith("file://")) {
        assert.ok(m.specifier.startsWith(rootUrl), `outside the package: ${m.specifier}`);
        locals.push(m.specifier);
      } else {
        assert.match(m.specifier, /^(npm:|node:)/, `not local, npm or node: ${m.specifier}`);
      }
    }
    assert.ok(locals.length > 0);
    for (const url of locals) {
      const text = await Deno.readTextFile(fileURLToPath(url));
      const code = text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
      assert.doesNotMatch(
        code,
        RUNTIME_FILE_READ,
        `${url} reads a file relative to itself or imports a computed path`,
      );
    }
  });
}

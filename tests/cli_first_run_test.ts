/**
 * A first run on an empty Deno cache downloads only what skillgate runs on: `deno task` installs
 * every npm package of the config's import map, so a test-only package (fast-check) is imported
 * by its full `npm:` specifier in the tests and is not in the map.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { networkEnv, REPO_ROOT } from "./_helpers.ts";

const RUNS: readonly (readonly string[])[] = [
  ["task", "demo"],
  [
    "run",
    "-A",
    "--no-prompt",
    join(REPO_ROOT, "cli.ts"),
    "contract",
    "lint",
    join(REPO_ROOT, "fixtures", "world", "skills", "investigate", "SKILL.md"),
  ],
];

for (const args of RUNS) {
  Deno.test(`first run: deno ${args.slice(0, 2).join(" ")} on an empty cache downloads no test-only package`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "skillgate-first-run-" });
    try {
      const r = await new Deno.Command(Deno.execPath(), {
        args: [...args],
        cwd: REPO_ROOT,
        clearEnv: true,
        env: {
          HOME: dir,
          PATH: Deno.env.get("PATH") ?? "",
          DENO_DIR: join(dir, "deno"),
          NO_COLOR: "1",
          ...networkEnv(),
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      // deno-lint-ignore no-control-regex
      const err = new TextDecoder().decode(r.stderr).replace(/\x1b\[[0-9;]*m/g, "");
      assert.equal(r.code, 0, err);
      // The run does fetch npm packages (so the check below is not vacuous)...
      assert.match(err, /Download .*js-yaml/);
      // ...but none that only the tests use.
      assert.doesNotMatch(err, /fast-check|pure-rand/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

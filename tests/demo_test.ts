import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

Deno.test("demo: writes no ANSI escape into a pipe, even with NO_COLOR unset", async () => {
  const env = Deno.env.toObject();
  delete env.NO_COLOR;
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--no-prompt",
      join(REPO_ROOT, "tests", "demo.ts"),
    ],
    cwd: REPO_ROOT,
    clearEnv: true,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(r.stdout);
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
  assert.match(out, /== 1\. Skill routing/);
  assert.ok(!out.includes("\x1b"), "an escape sequence reached the pipe");
});

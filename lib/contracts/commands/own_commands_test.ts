import assert from "node:assert/strict";
import { counts, match, never } from "./_kit_test.ts";
import { classifyCommand, isCheckCommand } from "./classify.ts";
import { isSkillgateExecutable } from "./own_commands.ts";

Deno.test("classifyCommand() never counts skillgate's own commands, in every form it prints", async () => {
  const waive = `contract waive debug-report --reason "no report for a docs change"`;
  for (
    const c of [
      // The `skillgate` executable (setup's default, `deno install`), by name or path.
      `skillgate ${waive}`,
      `'skillgate' ${waive}`,
      `/home/u/.deno/bin/skillgate ${waive}`,
      // setup from a checkout (cliCommandFor: the Deno path, flags, <checkout>/cli.ts).
      `'/usr/local/bin/deno' run --allow-read --allow-write --allow-env --allow-run '/home/u/src/skillgate/cli.ts' ${waive}`,
      `deno run -A /home/u/src/skillgate/cli.ts ${waive}`,
      `deno run -A cli.ts ${waive}`,
      `deno run -A cli.ts contract check --transcript t.jsonl --skill investigate`,
      `cd /home/u/src/skillgate && deno run -A cli.ts ${waive}`,
      // setup from JSR, and the README's JSR form.
      `/usr/bin/deno run --allow-read --allow-write --allow-env --allow-run jsr:@skillgate/skillgate@0.1.0/cli ${waive}`,
      `deno run -A jsr:@skillgate/skillgate/cli ${waive}`,
      `deno run -A 'jsr:@skillgate/skillgate/cli' ${waive}`,
      // The plugin's own CLI (paths.ts skillgateCommand), also under a folder with a blank.
      `deno run -A '/home/u/.claude/plugins/cache/m/skillgate/0.1.0/cli.ts' ${waive}`,
      `deno run -A '/home/u/my plugins/skillgate/cli.ts' ${waive}`,
      `deno run -A /home/u/my\\ plugins/skillgate/cli.ts ${waive}`,
    ]
  ) {
    never(c);
    assert.equal(isCheckCommand(c), false, c);
    assert.equal(isCheckCommand(c, await match("docs")), false, c);
  }
  // The rest of a command still counts.
  counts(`skillgate ${waive} && npm test`);
  // A project's own cli.ts, and a `deno run` of anything else, is still code run.
  counts("deno run -A cli.ts");
  counts("deno run -A cli.ts serve --port 8000");
  counts("deno run -A repro.ts");
});

Deno.test("classifyCommand() never counts the configured skillgate_command or SKILLGATE_COMMAND", async () => {
  const waive = `contract waive debug-report --reason "n/a"`;
  for (
    const installed of [
      "/opt/tools/skillgate-check",
      "'/opt/my tools/skillgate-check'",
      "env SG=1 /opt/tools/skillgate-check",
      "'/usr/local/bin/deno' run --allow-read --allow-write --allow-env --allow-run '/srv/sg/main.ts'",
    ]
  ) {
    const cmd = `${installed} ${waive}`;
    assert.equal(classifyCommand(cmd, installed).counts, false, cmd);
    assert.equal(isCheckCommand(cmd, undefined, installed), false, cmd);
    assert.equal(isCheckCommand(cmd, await match("n/a"), installed), false, cmd);
  }
  // Without the installed command these read as a check script and as code run through Deno.
  counts(`/opt/tools/skillgate-check ${waive}`);
  counts(`/usr/local/bin/deno run -A /srv/sg/main.ts ${waive}`);
  // The installed command only with one of skillgate's commands after it.
  assert.equal(
    classifyCommand("/opt/tools/skillgate-check --all", "/opt/tools/skillgate-check").counts,
    true,
  );
});

Deno.test("isSkillgateExecutable() reads the word before a waive's contract waive", () => {
  for (const w of ["skillgate", "/opt/bin/skillgate", "skillgate.exe", "C:\\sg\\skillgate.cmd"]) {
    assert.ok(isSkillgateExecutable(w), w);
  }
  assert.ok(isSkillgateExecutable("/home/u/skillgate/cli.ts"));
  assert.ok(!isSkillgateExecutable("sg"));
  assert.ok(isSkillgateExecutable("sg", "/usr/bin/sg"));
  assert.ok(isSkillgateExecutable("/other/sg", "deno run -A /usr/bin/sg"));
  assert.ok(!isSkillgateExecutable("echo"));
});

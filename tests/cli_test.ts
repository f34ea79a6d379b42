/**
 * The CLI as a user runs it (`deno run -A cli.ts …` as a process): one style for every command and
 * subcommand. `--help` exits 0 and describes every flag; a bad flag or argument is exit 2 with one
 * line `skillgate <command>: <WORD> <message>`; a missing input file or directory is exit 3.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES } from "./_helpers.ts";
import { runCli } from "../lib/cli/_kit_test.ts";

/** Every command and subcommand: its words, the word of its usage errors, and its flags. */
const COMMANDS: readonly { name: string; word: string; flags: string[] }[] = [
  {
    name: "route",
    word: "SKILL_ROUTE_USAGE",
    flags: ["explain", "default", "json", "threshold", "skills-dir", "route-skills"],
  },
  {
    name: "route eval",
    word: "SKILL_ROUTE_USAGE",
    flags: ["json", "threshold", "skills-dir", "route-skills"],
  },
  { name: "contract", word: "SKILL_CONTRACT_USAGE", flags: [] },
  {
    name: "contract check",
    word: "SKILL_CONTRACT_USAGE",
    flags: ["transcript", "skill", "skill-file", "json", "session", "final-text"],
  },
  { name: "contract lint", word: "SKILL_CONTRACT_USAGE", flags: ["json"] },
  { name: "contract report", word: "SKILL_CONTRACT_USAGE", flags: ["json", "session"] },
  { name: "contract waive", word: "SKILL_CONTRACT_USAGE", flags: ["reason", "skill", "json"] },
  { name: "config", word: "USAGE", flags: [] },
  { name: "config get", word: "USAGE", flags: ["json"] },
  { name: "config set", word: "USAGE", flags: ["json"] },
  { name: "config list", word: "USAGE", flags: ["json"] },
  { name: "config defaults", word: "USAGE", flags: ["json"] },
  { name: "doctor", word: "USAGE", flags: ["json"] },
  { name: "session-kind", word: "USAGE", flags: ["json"] },
  { name: "hook", word: "USAGE", flags: [] },
  { name: "uninstall", word: "USAGE", flags: ["purge", "dry-run", "json"] },
  {
    name: "setup",
    word: "USAGE",
    flags: ["skill-routing", "no-skill-routing", "project", "dry-run", "uninstall", "compile"],
  },
];

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "skillgate-cli-" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Runs each of `items` through `fn`, two at a time (the machines have two cores). */
async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  };
  await Promise.all([worker(), worker()]);
}

Deno.test("cli: every command and subcommand answers --help with exit 0, describing each flag", async () => {
  await withHome(async (home) => {
    await eachLimited(COMMANDS, async (c) => {
      const r = await runCli([...c.name.split(" "), "--help"], { home });
      assert.equal(r.code, 0, `${c.name} --help: ${r.err}`);
      assert.equal(r.err, "", c.name);
      assert.ok(r.out.startsWith(`Usage: skillgate ${c.name}`), `${c.name}: ${r.out}`);
      assert.match(r.out.split("\n")[0], new RegExp(`^Usage: skillgate ${c.name}( |$)`));
      // Each flag is on a line of its own with a description after it.
      for (const flag of [...c.flags, "help"]) {
        assert.match(
          r.out,
          new RegExp(`^ +(\\S+, )*--${flag}\\b[^\\n]*\\s{2}\\S`, "m"),
          `${c.name} --${flag}`,
        );
      }
    });
  });
});

Deno.test("cli: the top-level help names every command and subcommand", async () => {
  await withHome(async (home) => {
    const r = await runCli(["--help"], { home });
    assert.equal(r.code, 0);
    const named = [
      "route --explain",
      "route eval",
      "route --default",
      "contract check",
      "contract lint",
      "contract report",
      "contract waive",
      "config get",
      "config set",
      "config list",
      "config defaults",
      "setup",
      "uninstall",
      "doctor",
      "session-kind",
      "hook <name>",
    ];
    for (const n of named) assert.match(r.out, new RegExp(`^ {2}${n}`, "m"), n);
    for (const c of COMMANDS) assert.ok(r.out.includes(`  ${c.name}`), c.name);
    // `skillgate` alone prints the help and exits 0.
    const bare = await runCli([], { home });
    assert.equal(bare.code, 0);
    assert.equal(bare.out, r.out);
    assert.equal(bare.err, "");
  });
});

Deno.test("cli: a bad flag is exit 2 with one line `skillgate <command>: <WORD> <message>`", async () => {
  await withHome(async (home) => {
    await eachLimited(COMMANDS, async (c) => {
      const r = await runCli([...c.name.split(" "), "--bogus"], { home });
      assert.equal(r.code, 2, `${c.name} --bogus: ${r.err}`);
      assert.equal(r.out, "", c.name);
      assert.match(
        r.err,
        new RegExp(`^skillgate ${c.name}: ${c.word} Unknown option '--bogus'( \\(one of .*\\))?$`),
        c.name,
      );
    });
    const top = await runCli(["--bogus"], { home });
    assert.equal(top.code, 2);
    assert.match(top.err, /^skillgate: USAGE Unknown option '--bogus'/);
    assert.equal(top.err.split("\n").length, 1);
  });
});

Deno.test("cli: bad arguments are one usage line too, with the seed's words where it has them", async () => {
  await withHome(async (home) => {
    const cases: [string[], string][] = [
      [
        ["contract", "check", "--skill", "x"],
        "skillgate contract check: SKILL_CONTRACT_USAGE Missing --transcript and --skill",
      ],
      [["contract", "lint"], "skillgate contract lint: SKILL_CONTRACT_USAGE Missing <SKILL.md>"],
      [
        ["contract", "waive", "--reason", "x"],
        "skillgate contract waive: SKILL_CONTRACT_USAGE Missing <item>",
      ],
      [["contract", "nope"], "skillgate contract: SKILL_CONTRACT_USAGE Unknown subcommand 'nope'"],
      [
        ["route", "--explain", "x", "--threshold", "2"],
        "skillgate route: SKILL_ROUTE_USAGE --threshold takes",
      ],
      [["route", "eval"], "skillgate route eval: SKILL_ROUTE_USAGE Missing <file.tsv>"],
      [["config", "get", "nope"], "skillgate config get: USAGE Unknown config key nope"],
      [
        ["config", "set", "route_threshold", "7"],
        "skillgate config set: USAGE route_threshold takes",
      ],
      [["config", "list", "extra"], "skillgate config list: USAGE Unexpected argument 'extra'"],
      [["config"], "skillgate config: USAGE Missing subcommand"],
      [["hook", "nope"], "skillgate hook: USAGE Unknown hook 'nope'"],
      [["hook"], "skillgate hook: USAGE Missing <name>"],
      [["setup", "extra"], "skillgate setup: USAGE Unexpected argument 'extra'"],
      [["doctor", "extra"], "skillgate doctor: USAGE Unexpected argument 'extra'"],
      [["session-kind", "extra"], "skillgate session-kind: USAGE Unexpected argument 'extra'"],
      [["nope"], "skillgate: USAGE Unknown command 'nope'"],
      // "Did you mean" for commands, subcommands, hooks and flags.
      [["doctr"], "skillgate: USAGE Unknown command 'doctr'; did you mean 'doctor'?"],
      [["--verison"], "skillgate: USAGE Unknown option '--verison'; did you mean '--version'?"],
      [["config", "lst"], "skillgate config: USAGE Unknown subcommand 'lst'; did you mean 'list'?"],
      [
        ["contract", "chek"],
        "skillgate contract: SKILL_CONTRACT_USAGE Unknown subcommand 'chek'; did you mean 'check'?",
      ],
      [
        ["doctor", "--jsn"],
        "skillgate doctor: USAGE Unknown option '--jsn'; did you mean '--json'?",
      ],
      [
        ["route", "--explian", "x"],
        "skillgate route: SKILL_ROUTE_USAGE Unknown option '--explian'; did you mean '--explain'?",
      ],
      [
        ["hook", "skill-rout"],
        "skillgate hook: USAGE Unknown hook 'skill-rout'; did you mean 'skill-route'?",
      ],
      [
        ["setup", "--skill-routng"],
        "skillgate setup: USAGE Unknown option '--skill-routng'; did you mean '--skill-routing'?",
      ],
      [
        ["setup", "--copilot", "--codex"],
        "skillgate setup: USAGE --copilot and --codex do not mix",
      ],
      // A switch value that is neither on nor off removes nothing: it is a usage error.
      [
        ["setup", "--skill-routing=maybe"],
        "skillgate setup: USAGE --skill-routing=maybe: expected on or off",
      ],
      [["uninstall", "extra"], "skillgate uninstall: USAGE Unexpected argument 'extra'"],
    ];
    await eachLimited(cases, async ([args, start]) => {
      const r = await runCli(args, { home });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.ok(r.err.startsWith(start), `${args.join(" ")}: ${r.err}`);
      assert.equal(r.err.split("\n").length, 1, r.err);
    });
  });
});

Deno.test("cli: a missing input file or directory is exit 3 everywhere", async () => {
  await withHome(async (home) => {
    const tsv = join(FIXTURES, "routing", "labeled.tsv");
    const skill = join(FIXTURES, "world", "skills", "investigate", "SKILL.md");
    const cases: [string[], RegExp][] = [
      [
        ["route", "eval", "/nonexistent/set.tsv"],
        /^skillgate route eval: STATE_ERROR \/nonexistent\/set\.tsv: No such file or directory$/,
      ],
      [
        ["route", "--explain", "fix this bug", "--skills-dir", "/nonexistent"],
        /^skillgate route: STATE_ERROR \/nonexistent: No such file or directory$/,
      ],
      [
        ["route", "eval", tsv, "--skills-dir", "/nonexistent"],
        /^skillgate route eval: STATE_ERROR \/nonexistent: No such file or directory$/,
      ],
      [
        ["route", "--explain", "x", "--skills-dir", skill],
        /^skillgate route: STATE_ERROR .*: Not a directory$/,
      ],
      [
        [
          "contract",
          "check",
          "--transcript",
          "/nonexistent/t.jsonl",
          "--skill",
          "investigate",
          "--skill-file",
          skill,
        ],
        /^skillgate contract check: SKILL_CONTRACT_STATE_ERROR \/nonexistent\/t\.jsonl: No such file/,
      ],
      [
        [
          "contract",
          "check",
          "--transcript",
          "/nonexistent/t.jsonl",
          "--skill",
          "investigate",
          "--skill-file",
          "/nonexistent/SKILL.md",
        ],
        /^skillgate contract check: SKILL_CONTRACT_STATE_ERROR \/nonexistent\/SKILL\.md: No such file/,
      ],
      [
        ["contract", "lint", "/nonexistent/SKILL.md"],
        /^skillgate contract lint: SKILL_CONTRACT_STATE_ERROR \/nonexistent\/SKILL\.md: No such file or directory$/,
      ],
    ];
    await eachLimited(cases, async ([args, line]) => {
      const r = await runCli(args, { home });
      assert.equal(r.code, 3, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, line);
    });
  });
});

Deno.test("cli: --json where a command prints results (doctor, config list, contract lint)", async () => {
  await withHome(async (home) => {
    const doctor = await runCli(["doctor", "--json"], { home });
    const d = JSON.parse(doctor.out);
    assert.equal(d.result, "not-installed");
    assert.equal(doctor.code, 1);
    assert.equal(d.exit, 1);
    const list = await runCli(["config", "list", "--json"], { home });
    assert.equal(list.code, 0);
    const l = JSON.parse(list.out);
    assert.deepEqual(l.values.find((v: { key: string }) => v.key === "skill_routing"), {
      key: "skill_routing",
      value: "off",
      source: "default",
    });
    const get = await runCli(["config", "get", "route_threshold", "--json"], { home });
    assert.deepEqual(JSON.parse(get.out), {
      key: "route_threshold",
      value: "0.66",
      source: "default",
    });
    const lint = await runCli(
      ["contract", "lint", "--json", join(FIXTURES, "world", "skills", "investigate", "SKILL.md")],
      { home },
    );
    assert.equal(lint.code, 0);
    assert.equal(JSON.parse(lint.out).files[0].status, "ok");
  });
});

Deno.test("cli: setup's refusals and warnings are one line each, `skillgate setup: WORD message`", async () => {
  await withHome(async (home) => {
    const claude = join(home, ".claude");
    await Deno.mkdir(claude, { recursive: true });
    const corrupt = '{\n  "hooks": { "Stop": [ }\n';
    await Deno.writeTextFile(join(claude, "settings.json"), corrupt);
    const r = await runCli(["setup"], { home, env: { SKILLGATE_DENO: Deno.execPath() } });
    assert.equal(r.code, 1, r.err);
    assert.equal(await Deno.readTextFile(join(claude, "settings.json")), corrupt);
    const lines = r.err.split("\n");
    assert.ok(lines.length >= 1, r.err);
    for (const line of lines) {
      assert.match(line, /^skillgate setup: [A-Z][A-Z_]+ \S/, r.err);
    }
    assert.ok(
      lines.some((l) =>
        /^skillgate setup: SETTINGS_INVALID .*settings\.json is not valid JSON/.test(l)
      ),
    );
  });
});

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

Deno.test("cli: contract check and contract lint print a contract's texts without control characters", async () => {
  await withHome(async (home) => {
    const dir = join(home, "skills", "investigate");
    Deno.mkdirSync(dir, { recursive: true });
    const file = join(dir, "SKILL.md");
    const q = (s: string) => JSON.stringify(s);
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(join(FIXTURES, "world", "skills", "investigate", "SKILL.md"))
        .replace("heading: DEBUG REPORT", `heading: ${q("DEBUG\u001b]0;owned\u0007 REPORT")}`)
        .replace(
          "summary: a test or repro run after the last edit",
          `summary: ${q("a test\u001b[2J\u001b[H run")}\n      fix: ${q("run it\u0007 again")}`,
        ),
    );
    const transcript = join(FIXTURES, "transcripts", "stop_unmet.jsonl");
    for (
      const args of [
        ["contract", "check", "--transcript", transcript, "--skill", "investigate"],
        ["contract", "check", "--transcript", transcript, "--skill", "investigate", "--json"],
        ["contract", "lint", file],
      ]
    ) {
      const r = await runCli(
        args[1] === "check" ? [...args, "--skill-file", file] : args,
        { home },
      );
      assert.doesNotMatch(r.out + r.err, CONTROL, args.join(" "));
    }
  });
});

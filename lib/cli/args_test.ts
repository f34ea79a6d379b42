import assert from "node:assert/strict";
import {
  type CommandSpec,
  directoryProblem,
  formatHelp,
  parseCommand,
  parserMessage,
  runGroup,
  shownArg,
  USAGE_EXIT,
  usageError,
} from "./args.ts";
import { capture } from "./_kit_test.ts";

const SPEC: CommandSpec = {
  name: "demo run",
  usageWord: "DEMO_USAGE",
  usage: ["<file> [--json] [--skill <name>]"],
  description: "Runs the demo",
  arguments: [{ name: "<file>", description: "The file" }],
  options: {
    json: { type: "boolean", description: "Print JSON" },
    skill: { type: "string", value: "<name>", description: "The skill" },
    dir: { type: "string", value: "<dir>", multiple: true, description: "A directory" },
  },
};

Deno.test("parseCommand() gives the values and positionals", () => {
  const r = parseCommand(SPEC, ["f.md", "--json", "--skill", "x", "--dir", "a", "--dir", "b"]);
  assert.ok(r.ok);
  assert.equal(r.args.json, true);
  assert.equal(r.args.string("skill"), "x");
  assert.deepEqual(r.args.strings("dir"), ["a", "b"]);
  assert.deepEqual(r.args.positionals, ["f.md"]);
});

Deno.test("parseCommand() answers --help with a help text that describes every flag (exit 0)", async () => {
  for (const flag of ["--help", "-h"]) {
    const r = await capture(() => {
      const p = parseCommand(SPEC, ["x", flag]);
      return Promise.resolve(p.ok ? -1 : p.exit);
    });
    assert.equal(r.code, 0);
    assert.equal(r.err, "");
    assert.match(r.out, /^Usage: skillgate demo run <file> \[--json\] \[--skill <name>\]$/m);
    assert.match(r.out, /^ {2}--skill <name> +The skill$/m);
    assert.match(r.out, /^ {2}--dir <dir> +A directory \(repeatable\)$/m);
    assert.match(r.out, /^ {2}-h, --help +Show this text$/m);
    assert.match(r.out, /^ {2}<file> +The file$/m);
  }
});

Deno.test("a bad flag or argument is one line `skillgate <command>: <WORD> <message>`, exit 2", async () => {
  const cases: [string[], string][] = [
    [["--bogus"], "skillgate demo run: DEMO_USAGE Unknown option '--bogus'"],
    [["--skill"], "skillgate demo run: DEMO_USAGE Option '--skill <value>' argument missing"],
  ];
  for (const [args, line] of cases) {
    const r = await capture(() => {
      const p = parseCommand(SPEC, args);
      return Promise.resolve(p.ok ? -1 : p.exit);
    });
    assert.equal(r.code, USAGE_EXIT, args.join(" "));
    assert.equal(r.err, line);
    assert.equal(r.out, "");
  }
  // Without a usage word of its own, the word is USAGE; a command that takes no positional
  // argument refuses one.
  const plain: CommandSpec = { name: "plain", usage: [""], description: "Plain" };
  const r = await capture(() => {
    const p = parseCommand(plain, ["extra"]);
    return Promise.resolve(p.ok ? -1 : p.exit);
  });
  assert.equal(r.err, "skillgate plain: USAGE Unexpected argument 'extra'");
});

Deno.test("usageError() with --json also prints the failure as one JSON object on stdout", async () => {
  const r = await capture(() => Promise.resolve(usageError(SPEC, "Missing <file>", true)));
  assert.equal(r.code, 2);
  assert.equal(r.err, "skillgate demo run: DEMO_USAGE Missing <file>");
  assert.deepEqual(JSON.parse(r.out), { word: "DEMO_USAGE", exit: 2, error: "Missing <file>" });
  const bad = await capture(() => {
    const p = parseCommand(SPEC, ["--json", "--bogus"]);
    return Promise.resolve(p.ok ? -1 : p.exit);
  });
  assert.equal(JSON.parse(bad.out).error, "Unknown option '--bogus'");
});

Deno.test("runGroup() gives help for --help, -h and help, and a usage error otherwise", async () => {
  const group: CommandSpec = {
    name: "grp",
    usage: ["<a|b>"],
    description: "A group",
    subcommands: [{ name: "a", description: "The a" }],
  };
  const subs = { a: () => Promise.resolve(7) };
  for (const h of ["--help", "-h", "help"]) {
    const r = await capture(() => runGroup(group, subs, [h]));
    assert.equal(r.code, 0);
    assert.match(r.out, /^ {2}a +The a$/m);
  }
  assert.equal((await capture(() => runGroup(group, subs, ["a", "x"]))).code, 7);
  const none = await capture(() => runGroup(group, subs, []));
  assert.equal(none.err, "skillgate grp: USAGE Missing subcommand: one of a");
  const unknown = await capture(() => runGroup(group, subs, ["zz"]));
  assert.equal(unknown.err, "skillgate grp: USAGE Unknown subcommand 'zz' (one of a)");
  const flag = await capture(() => runGroup(group, subs, ["--bogus"]));
  assert.equal(flag.err, "skillgate grp: USAGE Unknown option '--bogus' (one of a)");
});

Deno.test("parserMessage() keeps the parser's first sentence", () => {
  assert.equal(
    parserMessage(
      "Unknown option '--bogus'. To specify a positional argument starting with a '-', place it " +
        "at the end of the command after '--', as in '-- \"--bogus\"",
    ),
    "Unknown option '--bogus'",
  );
  assert.equal(parserMessage("Option '-x' argument missing"), "Option '-x' argument missing");
});

Deno.test("formatHelp() wraps long descriptions", () => {
  const help = formatHelp({ ...SPEC, description: "word ".repeat(60).trim() });
  for (const line of help.split("\n")) assert.ok(line.length <= 100, line);
});

Deno.test("shownArg() keeps [A-Za-z0-9:_.-] and at most 40 characters; directoryProblem() names why", () => {
  assert.equal(shownArg("--bad$arg\n"), "--badarg");
  assert.equal(shownArg("a".repeat(50)).length, 40);
  assert.equal(directoryProblem("/nonexistent-skillgate"), "No such file or directory");
  assert.equal(directoryProblem(new URL(import.meta.url).pathname), "Not a directory");
  assert.equal(directoryProblem("/"), undefined);
});

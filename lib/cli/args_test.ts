import assert from "node:assert/strict";
import { parseCommandArgs, printHelp, printUsageError, shownArg, USAGE_EXIT } from "./args.ts";

Deno.test("parseCommandArgs() gives the values, or the parser's message instead of a throw", () => {
  const options = { json: { type: "boolean", default: false }, skill: { type: "string" } } as const;
  const ok = parseCommandArgs({ args: ["--json", "--skill", "x"], options, strict: true });
  assert.ok(ok.ok);
  assert.equal(ok.parsed.values.json, true);
  assert.equal(ok.parsed.values.skill, "x");
  const bad = parseCommandArgs({ args: ["--nope"], options, strict: true });
  assert.ok(!bad.ok);
  assert.match(bad.message, /Unknown option '--nope'/);
});

Deno.test("printHelp() and printUsageError() print the usage and give 0 and 2", () => {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (s: string) => out.push(s);
  console.error = (s: string) => err.push(s);
  try {
    assert.equal(printHelp("Usage: x"), 0);
    assert.equal(printUsageError("skillgate: bad", "Usage: x"), USAGE_EXIT);
  } finally {
    console.log = log;
    console.error = error;
  }
  assert.deepEqual(out, ["Usage: x"]);
  assert.deepEqual(err, ["skillgate: bad\nUsage: x"]);
  assert.equal(USAGE_EXIT, 2);
});

Deno.test("shownArg() keeps [A-Za-z0-9:_-] and at most 40 characters", () => {
  assert.equal(shownArg("--bad$arg\n"), "--badarg");
  assert.equal(shownArg("a".repeat(50)).length, 40);
});

import assert from "node:assert/strict";
import { bash, call, edit, result, say, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, validationError } from "../_kit_test.ts";
import { checkContract } from "../check.ts";
import { DEFAULT_TEST_PATHS, isTestPath } from "./test_first.ts";
import { codexRun, copilotRun } from "./_hosts_kit_test.ts";

const C = await contract({ version: 1, items: [{ id: "tdd", kind: "test_first" }] });
const load = () => skillLoad("s", "investigate");
const write = (id: string, file: string) => edit(id, `/home/dev/app/${file}`, "Write");
const red = (id: string, cmd = "npm test") => bash(id, cmd, "Exit code 1\n1 failing", true);
const green = (id: string, cmd = "npm test") => [
  call(id, "Bash", { command: cmd }),
  result(id, "ok", { structured: { stdout: "ok", stderr: "", interrupted: false } }),
];
const verdict = (recs: ReturnType<typeof load>, c = C) => check(recs, c).items[0];

Deno.test("isTestPath(): the default rule (folders and names), documented in DEFAULT_TEST_PATHS", () => {
  const dir = "/home/dev/app";
  for (
    const p of [
      "test/cart.js",
      "tests/test_slug.py",
      "src/__tests__/cart.js",
      "spec/models/user_spec.rb",
      "src/cart.test.ts",
      "src/cart.spec.js",
      "pkg/cart_test.go",
      "test_slug.py",
      "src/test/java/CartTest.java",
      "Cart.Tests/CartTests.cs",
      "conftest.py",
      "/home/dev/app/tests/x.py",
    ]
  ) assert.ok(isTestPath(p, DEFAULT_TEST_PATHS, dir), p);
  for (
    const p of ["src/cart.js", "testing.md", "src/contest.py", "src/latest.ts", "attest/a.js"]
  ) assert.ok(!isTestPath(p, DEFAULT_TEST_PATHS, dir), p);
});

Deno.test("test_first: met for red then green, and for a run with no edit", () => {
  assert.equal(verdict([...load(), say("x")]).status, "met");
  const r = verdict([
    ...load(),
    ...write("w1", "test/cart.test.js"),
    ...red("b1"),
    ...write("w2", "src/cart.js"),
    ...green("b2"),
  ]);
  assert.equal(r.status, "met", r.detail);
});

Deno.test("test_first: missing for code first, a test that never failed, a failure before the test, or no pass at the end", () => {
  const codeFirst = verdict([
    ...load(),
    ...write("w1", "src/cart.js"),
    ...write("w2", "test/cart.test.js"),
    ...red("b1"),
    ...edit("e1", "/home/dev/app/src/cart.js"),
    ...green("b2"),
  ]);
  assert.equal(codeFirst.status, "missing");
  assert.match(codeFirst.detail, /before any test file/);
  const neverRed = verdict([
    ...load(),
    ...write("w1", "test/cart.test.js"),
    ...green("b1"),
    ...write("w2", "src/cart.js"),
    ...green("b2"),
  ]);
  assert.equal(neverRed.status, "missing");
  assert.match(neverRed.detail, /no check failed/);
  const redBeforeTest = verdict([
    ...load(),
    ...red("b1"),
    ...write("w1", "test/cart.test.js"),
    ...write("w2", "src/cart.js"),
    ...green("b2"),
  ]);
  assert.equal(redBeforeTest.status, "missing", "the failure must follow the test's write");
  const noGreen = verdict([
    ...load(),
    ...write("w1", "test/cart.test.js"),
    ...red("b1"),
    ...write("w2", "src/cart.js"),
    ...red("b2"),
  ]);
  assert.equal(noGreen.status, "missing");
  assert.match(noGreen.detail, /failed/);
  const redByInstall = verdict([
    ...load(),
    ...write("w1", "test/cart.test.js"),
    ...bash("b1", "npm install", "Exit code 1\nE404", true),
    ...write("w2", "src/cart.js"),
    ...green("b2"),
  ]);
  assert.equal(redByInstall.status, "missing", "a failed install is no red test");
});

Deno.test("test_first: test_paths replaces the rule; match replaces the classifier", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "tdd", kind: "test_first", test_paths: ["checks/**"], match: "run-checks" }],
  });
  const recs = [
    ...load(),
    ...write("w1", "checks/cart.js"),
    ...bash("b1", "./run-checks", "Exit code 1\n", true),
    ...write("w2", "src/cart.js"),
    ...green("b2", "./run-checks"),
  ];
  assert.equal(verdict(recs, c).status, "met");
  assert.equal(verdict(recs).status, "missing", "the default rule: checks/ is no test folder");
  assert.match(
    await validationError({ version: 1, items: [{ id: "t", kind: "test_first", test_paths: [] }] }),
    /test_paths must be a list/,
  );
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "t", kind: "test_first", test_paths: ["{a,{b}}"] }],
    }),
    /test_paths glob .* braces/,
  );
});

Deno.test("test_first on Copilot CLI (create, edit) and Codex CLI (apply_patch)", async () => {
  const cp = copilotRun([
    ["create", { path: "/tmp/skillgate-host/project/test/a.test.js", file_text: "t" }],
    ["bash", { command: "npm test" }, 1],
    ["create", { path: "/tmp/skillgate-host/project/src/a.js", file_text: "c" }],
    ["bash", { command: "npm test" }, 0],
  ]);
  assert.equal(checkContract(cp, C, { skill: "investigate" }).outcome, "met");
  const cx = await codexRun([
    ["apply_patch", "*** Add File: tests/test_a.py\n+def test_a(): assert a()"],
    ["python -m pytest -q", 1],
    ["apply_patch", "*** Add File: a.py\n+def a(): return True"],
    ["python -m pytest -q", 0],
  ]);
  assert.equal(checkContract(cx, C, { skill: "investigate" }).outcome, "met");
  const both = await codexRun([
    ["apply_patch", "*** Add File: tests/test_a.py\n+x\n*** Add File: a.py\n+y"],
    ["python -m pytest -q", 1],
    ["python -m pytest -q", 0],
  ]);
  assert.equal(
    checkContract(both, C, { skill: "investigate" }).outcome,
    "unmet",
    "one patch writing the test and the code is no test first",
  );
});

import assert from "node:assert/strict";
import { bash, call, edit, result, say, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, validationError } from "../_kit_test.ts";
import { checkContract } from "../check.ts";
import { codexRun, copilotRun } from "./_hosts_kit_test.ts";

const C = await contract({
  version: 1,
  items: [{ id: "pass", kind: "check_passed_after_last_edit" }],
});
const load = () => skillLoad("s", "investigate");
const passed = (id: string, cmd: string) => [
  call(id, "Bash", { command: cmd }),
  result(id, "ok", {
    structured: { stdout: "ok", stderr: "", interrupted: false, isImage: false },
  }),
];
const verdict = (recs: ReturnType<typeof load>) => check(recs, C).items[0];

Deno.test("check_passed_after_last_edit: met with no edit, or when the last check after it passed", () => {
  assert.equal(verdict([...load(), say("x")]).status, "met");
  assert.equal(verdict([...load(), ...edit("e1"), ...passed("b1", "npm test")]).status, "met");
  const failedThenPassed = verdict([
    ...load(),
    ...edit("e1"),
    ...bash("b1", "npm test", "Exit code 1\n1 failing", true),
    ...passed("b2", "npm test"),
  ]);
  assert.equal(failedThenPassed.status, "met");
});

Deno.test("check_passed_after_last_edit: missing when the last check failed, came before the edit, or is no check", () => {
  const failed = verdict([
    ...load(),
    ...edit("e1"),
    ...bash("b1", "pytest", "Exit code 2\nE", true),
  ]);
  assert.equal(failed.status, "missing");
  assert.match(failed.detail, /failed \(exit 2\)/);
  const passedThenFailed = verdict([
    ...load(),
    ...edit("e1"),
    ...passed("b1", "npm test"),
    ...bash("b2", "npm test", "Exit code 1\n", true),
  ]);
  assert.equal(passedThenFailed.status, "missing");
  const beforeEdit = verdict([...load(), ...passed("b1", "npm test"), ...edit("e1")]);
  assert.equal(beforeEdit.status, "missing");
  assert.match(beforeEdit.detail, /no test or check ran after the last Edit/);
  for (const cmd of ["npm install", "npm run build", "cat test/a.test.js", "git status"]) {
    assert.equal(verdict([...load(), ...edit("e1"), ...passed("b1", cmd)]).status, "missing", cmd);
  }
});

Deno.test("check_passed_after_last_edit: a failing command that is no check does not matter", () => {
  const r = verdict([
    ...load(),
    ...edit("e1"),
    ...passed("b1", "npm test"),
    ...bash("b2", "git push", "Exit code 128\nfatal: no upstream", true),
    ...bash("b3", "npm install left-pad", "Exit code 1\nE404", true),
  ]);
  assert.equal(r.status, "met");
});

Deno.test("check_passed_after_last_edit: a pass whose exit status is another command's is no pass", () => {
  for (const cmd of ["npm test | tail -5", "pytest || true", "npm test; echo done", "npm test &"]) {
    const r = verdict([...load(), ...edit("e1"), ...passed("b1", cmd)]);
    assert.equal(r.status, "missing", cmd);
    assert.match(r.detail, /no pass or fail of its own/, cmd);
  }
  for (const cmd of ["cd app && npm test", "npm test && echo ok", "npm run lint; npm test"]) {
    assert.equal(verdict([...load(), ...edit("e1"), ...passed("b1", cmd)]).status, "met", cmd);
  }
});

Deno.test("check_passed_after_last_edit: a refused, background or interrupted check is no pass", () => {
  const refused = verdict([
    ...load(),
    ...edit("e1"),
    call("b1", "Bash", { command: "npm test" }),
    result("b1", "<tool_use_error>Permission denied</tool_use_error>", { error: true }),
  ]);
  assert.equal(refused.status, "missing");
  assert.match(refused.detail, /no test or check ran/);
  const background = verdict([
    ...load(),
    ...edit("e1"),
    call("b1", "Bash", { command: "npm test", run_in_background: true }),
    result("b1", "Command running in background with ID: bg1", {
      structured: { stdout: "", stderr: "", interrupted: false, backgroundTaskId: "bg1" },
    }),
  ]);
  assert.equal(background.status, "missing");
});

Deno.test("check_passed_after_last_edit uses the item's match instead of the classifier", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "e2e", kind: "check_passed_after_last_edit", match: "run-e2e" }],
  });
  const recs = [...load(), ...edit("e1"), ...passed("b1", "npm test")];
  assert.equal(check(recs, c).outcome, "unmet");
  assert.equal(check([...recs, ...passed("b2", "./bin/run-e2e --all")], c).outcome, "met");
  assert.equal(
    check([...recs, ...bash("b2", "./bin/run-e2e", "Exit code 1\n", true)], c).outcome,
    "unmet",
  );
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "c", kind: "check_passed_after_last_edit", match: "(?=x)" }],
    }),
    /not a valid RE2 regular expression/,
  );
});

Deno.test("check_passed_after_last_edit reads Copilot CLI's and Codex CLI's exit status", async () => {
  const cp = (code: number) =>
    checkContract(
      copilotRun([["edit", { path: "/p/a.js" }], ["bash", { command: "npm test" }, code]]),
      C,
      {
        skill: "investigate",
      },
    ).outcome;
  assert.equal(cp(0), "met");
  assert.equal(cp(1), "unmet", "Copilot writes success: true for a failing command");
  const cx = async (code: number) =>
    checkContract(
      await codexRun([["apply_patch", "*** Add File: a.js\n+x"], ["npm test", code]]),
      C,
      {
        skill: "investigate",
      },
    ).outcome;
  assert.equal(await cx(0), "met");
  assert.equal(await cx(1), "unmet");
});

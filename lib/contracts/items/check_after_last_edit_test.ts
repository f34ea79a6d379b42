import assert from "node:assert/strict";
import { bash, call, edit, result, say, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, INVESTIGATE, statuses, validationError } from "../_kit_test.ts";

Deno.test("check_after_last_edit is met with no edit, missing with a test only before the edit", () => {
  assert.equal(
    statuses(check([...skillLoad("s", "investigate"), say("x")]))["repro-after-fix"],
    "met",
  );
  const before = check([
    ...skillLoad("s", "investigate"),
    ...bash("b1", "npm test"),
    ...edit("e1"),
    say("x"),
  ]);
  assert.equal(statuses(before)["repro-after-fix"], "missing");
  const after = check([
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    ...bash("b1", "npm test", "Exit code 1\n1 failing", true),
    say("x"),
  ]);
  assert.equal(statuses(after)["repro-after-fix"], "met", "a failing test run still ran");
});

Deno.test("check_after_last_edit counts Write, MultiEdit and NotebookEdit as edits", () => {
  for (const name of ["Write", "MultiEdit", "NotebookEdit"]) {
    const r = check([
      ...skillLoad("s", "investigate"),
      ...bash("b1", "pytest"),
      ...edit("e1", "/a/b.py", name),
      say("x"),
    ]);
    assert.equal(statuses(r)["repro-after-fix"], "missing", name);
  }
});

Deno.test("check_after_last_edit ignores a command that did not run and non-test commands", () => {
  const denied = check([
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    call("b1", "Bash", { command: "npm test" }),
    result("b1", "<tool_use_error>Permission denied</tool_use_error>", { error: true }),
    ...bash("b2", "cat test/a.test.ts"),
    ...bash("b3", "npm install"),
    say("x"),
  ]);
  assert.equal(statuses(denied)["repro-after-fix"], "missing");
});

Deno.test("check_after_last_edit uses the item's match instead of the classifier", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "e2e", kind: "check_after_last_edit", match: "run-e2e" }],
  });
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...bash("b1", "npm test")];
  assert.equal(check(recs, c).outcome, "unmet");
  assert.equal(check([...recs, ...bash("b2", "./bin/run-e2e")], c).outcome, "met");
});

Deno.test("waiving debug-report is no test run: repro-after-fix stays missing, in every command form", () => {
  const ack = "Waived debug-report for investigate: docs change. This waiver counts for this " +
    "session's current run only.";
  const waive = `contract waive debug-report --reason "docs change"`;
  const forms: Array<[string, string | undefined]> = [
    ["skillgate", undefined],
    [
      "'/usr/local/bin/deno' run --allow-read --allow-write --allow-env --allow-run '/home/u/skillgate/cli.ts'",
      undefined,
    ],
    [
      "/usr/bin/deno run --allow-read --allow-write --allow-env --allow-run jsr:@skillgate/skillgate@0.1.0/cli",
      undefined,
    ],
    ["deno run -A '/home/u/.claude/plugins/cache/m/skillgate/0.1.0/cli.ts'", undefined],
    ["/opt/tools/skillgate-check", "/opt/tools/skillgate-check"],
  ];
  for (const [prefix, command] of forms) {
    const recs = [
      ...skillLoad("s", "investigate"),
      ...edit("e1"),
      ...bash("w1", `${prefix} ${waive}`, ack),
      say("Done: the docs are updated."),
    ];
    const r = check(recs, INVESTIGATE, command === undefined ? {} : { command });
    assert.equal(statuses(r)["repro-after-fix"], "missing", prefix);
    assert.equal(r.outcome, "unmet", prefix);
  }
});

Deno.test("validateContract() checks check_after_last_edit's match", async () => {
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "c", kind: "check_after_last_edit", match: "[" }],
    }),
    /not a valid RE2 regular expression/,
  );
});

Deno.test("check_after_last_edit: an edit the host refused (File has not been read yet) is no edit", () => {
  const r = check([
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    ...bash("b1", "npm test"),
    call("e2", "Write", { file_path: "/home/dev/app/src/auth.ts" }),
    result("e2", "<tool_use_error>File has not been read yet. Read it first.</tool_use_error>", {
      error: true,
    }),
    say("x"),
  ]);
  assert.equal(statuses(r)["repro-after-fix"], "met");
});

import assert from "node:assert/strict";
import { bash, call, edit, result, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, validationError } from "../_kit_test.ts";
import { checkContract } from "../check.ts";
import { itemFix } from "./mod.ts";
import { codexRun, copilotRun } from "./_hosts_kit_test.ts";

const C = await contract({
  version: 1,
  items: [{ id: "plan", kind: "file_written", path: "docs/plans/*.md" }],
});
const load = () => skillLoad("s", "investigate");
const verdict = (recs: ReturnType<typeof load>, c = C) => check(recs, c).items[0];

Deno.test("file_written: met by Write, Edit, MultiEdit or NotebookEdit of a matching file (cwd /home/dev/app)", () => {
  for (const tool of ["Write", "Edit", "MultiEdit"]) {
    const r = verdict([...load(), ...edit("w1", "/home/dev/app/docs/plans/a.md", tool)]);
    assert.equal(r.status, "met", tool);
  }
  const nb = verdict([
    ...load(),
    call("n1", "NotebookEdit", { notebook_path: "/home/dev/app/docs/plans/a.md" }),
    result("n1", "Updated"),
  ]);
  assert.equal(nb.status, "met");
});

Deno.test("file_written: missing for another folder, another project, a read, or a refused write", () => {
  assert.equal(
    verdict([...load(), ...edit("w1", "/home/dev/app/PLAN.md", "Write")]).status,
    "missing",
  );
  assert.equal(
    verdict([...load(), ...edit("w1", "/home/dev/other/docs/plans/a.md", "Write")]).status,
    "missing",
  );
  const read = verdict([
    ...load(),
    call("r1", "Read", { file_path: "/home/dev/app/docs/plans/a.md" }),
    result("r1", "# plan"),
    ...bash("b1", "cat docs/plans/a.md", "# plan"),
  ]);
  assert.equal(read.status, "missing");
  assert.match(read.detail, /no file matching docs\/plans\/\*\.md was written/);
  const refused = verdict([
    ...load(),
    call("w1", "Write", { file_path: "/home/dev/app/docs/plans/a.md" }),
    result("w1", "<tool_use_error>File has not been read yet</tool_use_error>", { error: true }),
  ]);
  assert.equal(refused.status, "missing");
});

Deno.test("file_written: a plain shell redirect counts; one after cd or to a variable does not", () => {
  assert.equal(
    verdict([
      ...load(),
      ...bash("b1", "mkdir -p docs/plans && cat > docs/plans/a.md <<'EOF'\n# plan\nEOF"),
    ])
      .status,
    "met",
  );
  assert.equal(
    verdict([...load(), ...bash("b1", "cd docs/plans && cat > a.md <<'EOF'\nx\nEOF")]).status,
    "missing",
  );
  assert.equal(verdict([...load(), ...bash("b1", 'echo x > "$PLAN"')]).status, "missing");
});

Deno.test("file_written: an absolute glob; path is required and checked; the fix names it", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "notes", kind: "file_written", path: "/home/dev/notes/**/*.md" }],
  });
  assert.equal(
    verdict([...load(), ...edit("w1", "/home/dev/notes/x/y.md", "Write")], c).status,
    "met",
  );
  assert.equal(itemFix(c.items[0]), "write the file to /home/dev/notes/**/*.md");
  assert.match(
    await validationError({ version: 1, items: [{ id: "f", kind: "file_written" }] }),
    /needs path/,
  );
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "f", kind: "file_written", path: "~/x.md" }],
    }),
    /path starts with ~/,
  );
});

Deno.test("file_written on Copilot CLI (create) and Codex CLI (apply_patch, relative to the session's cwd)", async () => {
  const cp = copilotRun([["create", {
    path: "/tmp/skillgate-host/project/docs/plans/p.md",
    file_text: "x",
  }]]);
  assert.equal(checkContract(cp, C, { skill: "investigate" }).outcome, "met");
  const elsewhere = copilotRun([["create", {
    path: "/tmp/skillgate-host/project/p.md",
    file_text: "x",
  }]]);
  assert.equal(checkContract(elsewhere, C, { skill: "investigate" }).outcome, "unmet");
  const cx = await codexRun([["apply_patch", "*** Add File: docs/plans/p.md\n+# plan"]]);
  assert.equal(checkContract(cx, C, { skill: "investigate" }).outcome, "met");
  const moved = await codexRun([[
    "apply_patch",
    "*** Update File: p.md\n*** Move to: docs/plans/p.md\n@@\n-a\n+b",
  ]]);
  assert.equal(checkContract(moved, C, { skill: "investigate" }).outcome, "met");
});

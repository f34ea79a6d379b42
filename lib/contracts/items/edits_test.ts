import assert from "node:assert/strict";
import fc from "fast-check";
import { editedPaths, writtenPaths } from "./edits.ts";
import type { ToolCall } from "../../transcript/model.ts";

const seg = fc.stringMatching(/^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,11}$/).filter((s) =>
  s !== "." && s !== ".."
);
const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));

const call = (name: string, input: Record<string, unknown>, error = false): ToolCall => ({
  seq: 1,
  id: "t",
  name,
  input,
  sidechain: false,
  result: { seq: 2, isError: error, text: "", asyncLaunched: false },
});

Deno.test("editedPaths(): an apply_patch writes each file it adds, updates or moves to, never one it deletes (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom("Add File", "Update File", "Delete File"), path), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.string({ maxLength: 60 }).filter((s) => !s.includes("*** ")),
      (ops, body) => {
        const patch = "*** Begin Patch\n" +
          ops.map(([op, p]) => `*** ${op}: ${p}\n+${body.replaceAll("\n", "\n+")}\n`).join("") +
          "*** End Patch\n";
        const want = ops.filter(([op]) => op !== "Delete File").map(([, p]) => p);
        assert.deepEqual(editedPaths(call("apply_patch", { command: patch })), want);
      },
    ),
  );
  const moved = "*** Begin Patch\n*** Update File: a.md\n*** Move to: docs/a.md\n@@\n-x\n+y\n";
  assert.deepEqual(editedPaths(call("apply_patch", { command: moved })), ["a.md", "docs/a.md"]);
});

Deno.test("writtenPaths(): an edit tool's file, a shell redirect's, nothing for a failed or other call (property)", () => {
  fc.assert(
    fc.property(path, (p) => {
      for (const name of ["Write", "Edit", "MultiEdit"]) {
        assert.deepEqual(writtenPaths(call(name, { file_path: p })), [p]);
        assert.deepEqual(writtenPaths(call(name, { file_path: p }, true)), [], "failed");
      }
      assert.deepEqual(writtenPaths(call("NotebookEdit", { notebook_path: p })), [p]);
      assert.deepEqual(writtenPaths(call("Bash", { command: `echo x > ${p}` })), [p]);
      assert.deepEqual(writtenPaths(call("Read", { file_path: p })), []);
      assert.deepEqual(writtenPaths(call("Bash", { command: `cat ${p}` })), []);
    }),
  );
});

/**
 * Opt-in contracts for built-in pack skills that state a checkable output (`packs.ts`): what each
 * skill's own text says a run of it ends with. They use the item kinds of issue 29
 * (`check_passed_after_last_edit`, `test_first`, `file_written`), and apply only once those kinds
 * are in the contract registry and the user opts in (`contract_packs`); until then nothing reads
 * them but their test, which validates them against the schema when the kinds exist.
 *
 * @module
 */

/** A pack skill's contract, keyed `pack/skill` (the skill as in `packs.ts`). */
export const PACK_CONTRACTS: Readonly<Record<string, unknown>> = Object.freeze({
  // "Write the test first. Watch it fail. Write minimal code to pass."
  "superpowers/test-driven-development": {
    version: 1,
    items: [{
      id: "test-first",
      kind: "test_first",
      summary: "a failing test before the code, and the tests passing at the end",
    }],
  },
  // "NO COMPLETION CLAIMS WITHOUT FRESH VERIFICATION EVIDENCE"
  "superpowers/verification-before-completion": {
    version: 1,
    items: [{
      id: "checks-passed",
      kind: "check_passed_after_last_edit",
      summary: "a check ran after the last edit and passed",
    }],
  },
  // "Save plans to: docs/superpowers/plans/YYYY-MM-DD-<feature-name>.md"
  "superpowers/writing-plans": {
    version: 1,
    items: [{
      id: "plan-saved",
      kind: "file_written",
      path: "docs/superpowers/plans/*.md",
      summary: "the plan saved under docs/superpowers/plans/",
    }],
  },
  // "Write the validated design (spec) to docs/superpowers/specs/YYYY-MM-DD-<topic>-design.md"
  "superpowers/brainstorming": {
    version: 1,
    items: [{
      id: "design-saved",
      kind: "file_written",
      path: "docs/superpowers/specs/*-design.md",
      summary: "the design saved under docs/superpowers/specs/",
    }],
  },
  // Phase 4: "Verify fix: test passes now".
  "superpowers/systematic-debugging": {
    version: 1,
    items: [{
      id: "fix-verified",
      kind: "check_passed_after_last_edit",
      summary: "after the fix, a test or repro ran and passed",
    }],
  },
  // Step 1: "Verify Tests: Run the project's full test suite".
  "superpowers/finishing-a-development-branch": {
    version: 1,
    items: [{
      id: "tests-pass",
      kind: "check_passed_after_last_edit",
      summary: "the test suite passed after the last edit",
    }],
  },
});

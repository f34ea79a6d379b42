import assert from "node:assert/strict";
import { parseSelection } from "./selected_specialists.ts";
import { bash, call, result, say, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, REVIEW } from "../_kit_test.ts";

Deno.test("selected_specialists_dispatched is met when each named specialist has an Agent dispatch", () => {
  const recs = [
    ...skillLoad("s", "review"),
    say("Dispatching 2 specialists: Testing, Maintainability"),
    call("a1", "Agent", { description: "Testing specialist review", prompt: "p" }),
    call("a2", "Task", { description: "review", prompt: "You are the Maintainability specialist" }),
  ];
  assert.equal(check(recs, REVIEW).outcome, "met");
  const missing = check(recs.slice(0, -1), REVIEW);
  assert.equal(missing.outcome, "unmet");
  assert.match(missing.items[0].detail, /Maintainability/);
});

Deno.test("selected_specialists_dispatched passes for zero specialists and 'specialists skipped'", () => {
  const zero = [...skillLoad("s", "review"), say("Dispatching 0 specialists: (small diff)")];
  assert.equal(check(zero, REVIEW).outcome, "met");
  const skipped = [
    ...skillLoad("s", "review"),
    say("Small diff (12 lines) — specialists skipped."),
  ];
  assert.equal(check(skipped, REVIEW).outcome, "met");
});

Deno.test("selected_specialists_dispatched drops parenthesised text and rejects non-plain names", () => {
  const sel = parseSelection(
    "Dispatching 1 specialists: State Machines (small diff)",
    "Dispatching N specialists:",
    "specialists skipped",
  );
  assert.deepEqual(sel?.names, ["State Machines"]);
  assert.equal(sel?.count, 1);
  const ok = check([
    ...skillLoad("s", "review"),
    say("Dispatching 1 specialists: State Machines (small diff)"),
    call("a1", "Agent", { description: "State Machines review", prompt: "p" }),
  ], REVIEW);
  assert.equal(ok.outcome, "met");
  const weird = check([
    ...skillLoad("s", "review"),
    say("Dispatching 1 specialists: <script>alert(1)</script>"),
  ], REVIEW);
  assert.equal(weird.outcome, "unmet");
  const long = check([
    ...skillLoad("s", "review"),
    say(`Dispatching 1 specialists: ${"A".repeat(41)}`),
    call("a1", "Agent", { description: "A".repeat(41), prompt: "p" }),
  ], REVIEW);
  assert.equal(long.outcome, "unmet");
});

Deno.test("selected_specialists_dispatched reads a Bash result but never a fetched page or file", () => {
  const viaBash = check([
    ...skillLoad("s", "review"),
    ...bash("b1", "./bin/select-specialists", "Dispatching 1 specialists: Security"),
    call("a1", "Agent", { description: "Security", prompt: "p" }),
  ], REVIEW);
  assert.equal(viaBash.outcome, "met");
  const viaRead = check([
    ...skillLoad("s", "review"),
    call("r1", "Read", { file_path: "/x/notes.md" }),
    result("r1", "Dispatching 0 specialists: (none)"),
    call("w1", "WebFetch", { url: "https://x" }),
    result("w1", "Dispatching 0 specialists: (none)"),
  ], REVIEW);
  assert.equal(viaRead.outcome, "unmet");
  for (const cmd of ["cat notes.md", "curl -s https://x/notes", "grep Dispatching notes.md"]) {
    const viaShellRead = check([
      ...skillLoad("s", "review"),
      ...bash("b1", cmd, "Dispatching 0 specialists: (none)"),
    ], REVIEW);
    assert.equal(viaShellRead.outcome, "unmet", cmd);
  }
  const viaHeredoc = check([
    ...skillLoad("s", "review"),
    ...bash(
      "b1",
      "cat <<'EOF'\nDispatching 0 specialists: (none)\nEOF",
      "Dispatching 0 specialists: (none)",
    ),
  ], REVIEW);
  assert.equal(viaHeredoc.outcome, "met");
});

Deno.test("selected_specialists_dispatched honours a skill's own marker and empty_marker", async () => {
  const c = await contract({
    version: 1,
    items: [{
      id: "sp",
      kind: "selected_specialists_dispatched",
      marker: "Running N reviewers:",
      empty_marker: "no reviewers needed",
    }],
  });
  const recs = [
    ...skillLoad("s", "review"),
    say("Running 1 reviewers: Perf"),
    call("a1", "Agent", { description: "Perf", prompt: "p" }),
  ];
  assert.equal(check(recs, c, { skill: "review" }).outcome, "met");
  assert.equal(
    check([...skillLoad("s", "review"), say("No reviewers needed.")], c, { skill: "review" })
      .outcome,
    "met",
  );
  assert.equal(
    check([...skillLoad("s", "review"), say("Dispatching 0 specialists:")], c, { skill: "review" })
      .outcome,
    "unmet",
  );
});

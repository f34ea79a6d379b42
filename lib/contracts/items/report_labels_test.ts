import assert from "node:assert/strict";
import { isPlaceholderValue } from "./report_labels.ts";
import { say, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, REPORT, statuses, validationError } from "../_kit_test.ts";

Deno.test("report_labels rejects empty values and placeholders", () => {
  for (
    const value of [
      "",
      "[what failed]",
      "<symptom>",
      "TBD",
      "TODO: fill in",
      "...",
      "…",
      "DONE | BLOCKED",
    ]
  ) {
    assert.ok(isPlaceholderValue(value), `placeholder ${JSON.stringify(value)}`);
  }
  for (const value of ["null user id", "session.user was null (see auth.ts:2)", "a | b c"]) {
    assert.ok(!isPlaceholderValue(value), `real ${JSON.stringify(value)}`);
  }
  const withPlaceholder = REPORT.replace("Root cause: session.user was null", "Root cause: <why>");
  const r = check([...skillLoad("s", "investigate"), say(withPlaceholder)]);
  assert.equal(statuses(r)["debug-report"], "missing");
  assert.match(r.items[0].detail, /Root cause/);
});

Deno.test("report_labels uses the last message with the heading and accepts markdown labels", () => {
  const md = "## DEBUG REPORT\n- **Symptom:** crash\n- **Root cause**: null user\n" +
    "- Fix: guard\n- Evidence: `bun test` passes";
  assert.equal(statuses(check([...skillLoad("s", "investigate"), say(md)]))["debug-report"], "met");
  const later = check([
    ...skillLoad("s", "investigate"),
    say(REPORT),
    say("DEBUG REPORT\nSymptom: [...]\nRoot cause: [...]\nFix: [...]\nEvidence: [...]"),
  ]);
  assert.equal(statuses(later)["debug-report"], "missing");
  const missingLabel = check([
    ...skillLoad("s", "investigate"),
    say(REPORT.replace(/Evidence.*\n/, "")),
  ]);
  assert.equal(statuses(missingLabel)["debug-report"], "missing");
});

Deno.test("report_labels accepts a report whose heading is mentioned again after it", () => {
  const mentioned = check([
    ...skillLoad("s", "investigate"),
    say(`${REPORT}\n\nI kept the debug report short; the full log is in /tmp/log.txt.`),
  ]);
  assert.equal(statuses(mentioned)["debug-report"], "met");
  // A mention without any report around it is still missing.
  const onlyMention = check([
    ...skillLoad("s", "investigate"),
    say("The debug report follows later."),
  ]);
  assert.equal(statuses(onlyMention)["debug-report"], "missing");
});

Deno.test("validateContract() checks report_labels' heading and labels", async () => {
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "r", kind: "report_labels", labels: ["A"] }],
    }),
    /needs a heading/,
  );
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "r", kind: "report_labels", heading: "H", labels: [] }],
    }),
    /labels/,
  );
});

import assert from "node:assert/strict";
import { CONTRACT_KINDS, isContractKind, ITEM_KINDS, itemFix } from "./mod.ts";
import { BASE_KEYS } from "./kind.ts";
import { contract, validationError } from "../_kit_test.ts";

Deno.test("CONTRACT_KINDS lists the registry's kinds, the seven of schema v1", () => {
  assert.deepEqual(CONTRACT_KINDS, [
    "report_labels",
    "check_after_last_edit",
    "selected_specialists_dispatched",
    "agent_dispatch",
    "check_passed_after_last_edit",
    "test_first",
    "file_written",
  ]);
  for (const [name, kind] of Object.entries(ITEM_KINDS)) {
    assert.equal(kind.kind, name, "each module is registered under its own name");
    for (const key of kind.keys) assert.ok(!BASE_KEYS.includes(key), `${name}: ${key}`);
  }
  assert.ok(isContractKind("agent_dispatch"));
  assert.ok(!isContractKind("toString"), "no inherited name is a kind");
  assert.ok(!isContractKind(1));
});

Deno.test("validateContract() names the registry's kinds for an unknown kind", async () => {
  assert.match(
    await validationError({ version: 1, items: [{ id: "x", kind: "toString" }] }),
    new RegExp(`unknown kind "toString" \\(known: ${CONTRACT_KINDS.join(", ")}\\)`),
  );
});

Deno.test("itemFix() gives the item's own fix, else its kind's default", async () => {
  const c = await contract({
    version: 1,
    items: [
      { id: "r", kind: "report_labels", heading: "DEBUG REPORT", labels: ["Symptom", "Fix"] },
      { id: "c", kind: "check_after_last_edit" },
      { id: "s", kind: "selected_specialists_dispatched" },
      { id: "s2", kind: "selected_specialists_dispatched", marker: "Running N reviewers:" },
      { id: "a", kind: "agent_dispatch", match: "security" },
      { id: "own", kind: "agent_dispatch", match: "x", fix: "dispatch the security reviewer" },
    ],
  });
  assert.deepEqual(c.items.map(itemFix), [
    "print the DEBUG REPORT with real values for Symptom, Fix",
    "run the test or repro again after your last edit and show its result",
    "print the selection line (Dispatching N specialists: followed by the names) and dispatch an agent for each specialist it names",
    "print the selection line (Running N reviewers: followed by the names) and dispatch an agent for each specialist it names",
    "dispatch the agent this skill requires",
    "dispatch the security reviewer",
  ]);
});

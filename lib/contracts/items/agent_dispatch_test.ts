import assert from "node:assert/strict";
import { call, skillLoad } from "../../../fixtures/transcripts/_build.ts";
import { check, contract, validationError } from "../_kit_test.ts";

Deno.test("agent_dispatch matches an Agent's description or prompt case-insensitively", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "sec", kind: "agent_dispatch", match: "security\\s+review" }],
  });
  const base = [...skillLoad("s", "investigate")];
  assert.equal(check(base, c).outcome, "unmet");
  assert.equal(
    check([...base, call("a", "Agent", { description: "x", prompt: "Do a SECURITY  review" })], c)
      .outcome,
    "met",
  );
  assert.equal(
    check([...base, call("a", "Task", { description: "Security review", prompt: "p" })], c).outcome,
    "met",
  );
});

Deno.test("validateContract() checks agent_dispatch's match", async () => {
  assert.match(
    await validationError({ version: 1, items: [{ id: "a", kind: "agent_dispatch" }] }),
    /needs match/,
  );
  assert.match(
    await validationError({ version: 1, items: [{ id: "a", kind: "agent_dispatch", match: "(" }] }),
    /not a valid RE2 regular expression/,
  );
});

Deno.test("validateContract() rejects a marker on agent_dispatch (GST-1242)", async () => {
  assert.match(
    await validationError({
      version: 1,
      items: [{ id: "a", kind: "agent_dispatch", match: "x", marker: "M" }],
    }),
    /does not accept a marker/,
  );
});

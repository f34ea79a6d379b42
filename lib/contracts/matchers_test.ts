import assert from "node:assert/strict";
import { compileMarker, DEFAULT_MATCHERS } from "./matchers.ts";

Deno.test("DEFAULT_MATCHERS holds the seed's default markers", () => {
  assert.equal(DEFAULT_MATCHERS.specialistsMarker, "Dispatching N specialists:");
  assert.equal(DEFAULT_MATCHERS.specialistsEmptyMarker, "specialists skipped");
  assert.equal(DEFAULT_MATCHERS.nothingToReview, "Nothing to review");
  assert.equal(DEFAULT_MATCHERS.blockedStatus, "BLOCKED");
});

Deno.test("compileMarker() turns a whole-word N into a number and keeps the rest literal", () => {
  const re = compileMarker("Dispatching N specialists:");
  assert.equal(re.exec("Dispatching 3 specialists: A, B, C")?.[1], "3");
  assert.equal(re.exec("Dispatching N specialists: A"), null);
  const lit = compileMarker("Run (N) checks.*");
  assert.equal(lit.exec("Run (2) checks.*")?.[1], "2");
  assert.equal(lit.exec("Run 2 checksXX"), null);
  assert.equal(compileMarker("NOTE: N items").exec("NOTE: 4 items")?.[1], "4");
});

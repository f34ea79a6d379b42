import assert from "node:assert/strict";
import { closestName, didYouMean, distance } from "./did_you_mean.ts";

const COMMANDS = [
  "route",
  "contract",
  "config",
  "setup",
  "uninstall",
  "doctor",
  "session-kind",
  "hook",
];

Deno.test("closestName(): a typo finds its command or flag; a far name finds none", () => {
  assert.equal(closestName("doctr", COMMANDS), "doctor");
  assert.equal(closestName("stup", COMMANDS), "setup");
  assert.equal(closestName("confg", COMMANDS), "config");
  assert.equal(closestName("contrct", COMMANDS), "contract");
  assert.equal(closestName("--jsn", ["--json", "--help"]), "--json");
  assert.equal(
    closestName("--skill-routng", ["--skill-routing", "--skill-redirect"]),
    "--skill-routing",
  );
  assert.equal(closestName("sess", COMMANDS), "session-kind");
  assert.equal(closestName("frobnicate", COMMANDS), undefined);
  assert.equal(closestName("x", COMMANDS), undefined);
  assert.equal(closestName("x", []), undefined);
});

Deno.test("didYouMean(): the message part", () => {
  assert.equal(didYouMean("doctr", COMMANDS), "; did you mean 'doctor'?");
  assert.equal(didYouMean("zzzzzz", COMMANDS), "");
});

Deno.test("distance(): edits between two strings", () => {
  assert.equal(distance("", ""), 0);
  assert.equal(distance("abc", ""), 3);
  assert.equal(distance("kitten", "sitting"), 3);
  assert.equal(distance("doctr", "doctor"), 1);
  assert.equal(distance("flaw", "lawn"), 2);
});

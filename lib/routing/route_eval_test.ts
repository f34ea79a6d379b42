import assert from "node:assert/strict";
import { evalRoutes, missReason, parseLabeled } from "./route_eval.ts";
import { routePrompt } from "./route.ts";
import type { RouteSkill } from "./route_skill.ts";

const SKILLS: RouteSkill[] = [
  { name: "investigate", triggers: ["fix this bug", "debug this"] },
  { name: "review", triggers: ["review this pr", "code review"] },
];

Deno.test("parseLabeled: escapes give line breaks, tabs and backslashes; # and blank lines skipped", () => {
  const items = parseLabeled("# note\n\ninvestigate\tone\\ntwo\\tthree\\\\n\n/review\treview it\n");
  assert.deepEqual(items.map((i) => [i.line, i.expected, i.prompt]), [
    [3, "investigate", "one\ntwo\tthree\\n"],
    [4, "review", "review it"],
  ]);
  assert.throws(() => parseLabeled("investigate no tab"), /Line 1 is not expected<TAB>prompt/);
});

Deno.test("evalRoutes: per-skill precision and recall, the confusion and a reason per miss", () => {
  const items = parseLabeled(
    [
      "investigate\tfix this bug please",
      "investigate\tsomething unrelated",
      "review\tcode review of my branch",
      "-\tdebug this for me",
      "-\twrite a poem",
    ].join("\n"),
  );
  const r = evalRoutes(items, SKILLS, { routable: ["investigate", "review"] });
  assert.equal(r.fit, 3);
  assert.equal(r.nonFit, 2);
  assert.equal(r.right, 2);
  assert.equal(r.nonFitRouted, 1);
  assert.deepEqual(
    r.perSkill.map((f) => [f.skill, f.expected, f.routed, f.right]),
    [["investigate", 2, 2, 1], ["review", 1, 1, 1]],
  );
  assert.deepEqual(r.confusion, [
    { expected: "-", got: "investigate", count: 1 },
    { expected: "investigate", got: "-", count: 1 },
  ]);
  assert.match(r.wrong[0].why, /expected skill matched no trigger/);
  assert.match(r.wrong[1].why, /^routed on "debug this" \(1\.00, 1 word\)$/);
});

Deno.test("missReason: a skill config does not let route says so", () => {
  const d = routePrompt("fix this bug", SKILLS, { routable: ["review"] });
  assert.match(missReason("investigate", d), /not in route_skills/);
});

Deno.test("evalRoutes: a label a|b is right on either skill, and counts for the one it routed to", () => {
  const items = parseLabeled(
    "review|investigate\tfix this bug please\n/investigate|/review\tsomething unrelated\n",
  );
  assert.equal(items[1].expected, "investigate|review");
  const r = evalRoutes(items, SKILLS, { routable: ["investigate", "review"] });
  assert.equal(r.right, 1);
  assert.deepEqual(
    r.perSkill.map((f) => [f.skill, f.expected, f.routed, f.right]),
    [["investigate", 2, 1, 1]],
  );
  assert.match(r.wrong[0].why, /expected skill matched no trigger/);
  assert.throws(() => parseLabeled("review|\tx"), /Line 1 is not expected<TAB>prompt/);
});

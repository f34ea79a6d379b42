import assert from "node:assert/strict";
import { reachLines, reachOf, triggerOrigin, withPacks } from "./reach.ts";
import { PACK_ENTRIES } from "./packs.ts";

const list = ["investigate", "review"];
const mayRoute = (s: { name: string }) => list.includes(s.name);

Deno.test("reachOf: skills without triggers, the issue's case", () => {
  const skills = Array.from({ length: 292 }, (_, i) => ({ name: `s${i}`, triggers: [] }));
  const r = reachOf(skills, mayRoute);
  assert.deepEqual(reachLines(r), [
    "reach: 292 skills, 0 with triggers, 0 can route, 0 with a contract",
    "why: none of the 292 skills has triggers, so none can route: give triggers in skills.yaml " +
    "(docs/overlays.md)",
    "why: no skill has a contract, so no stop is checked: give one in skills.yaml",
  ]);
});

Deno.test("reachOf: route_skills, an overlay's route and origins", () => {
  const user = { scope: "user" };
  const r = reachOf([
    { name: "investigate", triggers: ["debug this"], contract: { version: 1 } },
    { name: "review", triggers: [] },
    { name: "other", triggers: ["tidy up"] },
    {
      name: "mine",
      triggers: ["mine"],
      route: true,
      overlay: { triggers: user, contract: user },
      contract: {},
    },
    { name: "investigate-2", triggers: ["x"], route: false },
  ], mayRoute);
  assert.deepEqual(r, {
    skills: 5,
    withTriggers: 4,
    canRoute: 2,
    notAllowed: 2,
    allowedWithoutTriggers: 1,
    withContract: 2,
    triggersFromOverlay: 1,
    triggersFromPack: 0,
    contractsFromOverlay: 1,
    contractsFromPack: 0,
  });
  assert.deepEqual(reachLines(r), [
    "reach: 5 skills, 4 with triggers (1 from skills.yaml), 2 can route, 2 with a contract " +
    "(1 from skills.yaml)",
    "why: 2 skills with triggers may not route: not in route_skills (add them to route_skills, or " +
    "set route: true in skills.yaml)",
    "why: 1 skill in route_skills has no triggers: give them in skills.yaml",
  ]);
});

Deno.test("reach counts a built-in pack's contract (config contract_packs) and says so", () => {
  const r = reachOf([
    {
      name: "writing-plans",
      triggers: ["write a plan"],
      contract: {},
      contractPack: "superpowers",
    },
    { name: "mine", triggers: [], contract: {}, overlay: { contract: {} } },
  ], () => true);
  assert.equal(r.contractsFromPack, 1);
  assert.equal(
    reachLines(r)[0],
    "reach: 2 skills, 1 with triggers, 1 can route, 2 with a contract (1 from skills.yaml, " +
      "1 from contract_packs)",
  );
});

Deno.test("withPacks: a pack skill's entry triggers when it has none, its pack always", () => {
  const description = "Use when you have a spec or requirements for a multi-step task, before code";
  const [plain, own, other] = withPacks([
    { name: "writing-plans", triggers: [], description },
    { name: "writing-plans", triggers: ["mine"], description },
    { name: "writing-plans", triggers: [], description: "Our own plan template" },
  ]);
  assert.equal(plain.pack, "superpowers");
  assert.ok(plain.triggers.includes("write an implementation plan"));
  assert.deepEqual([own.pack, own.triggers], ["superpowers", ["mine"]]);
  assert.deepEqual([other.pack, other.triggers], [undefined, []]);
  const r = reachOf([plain, own, other], () => false);
  assert.deepEqual([r.withTriggers, r.triggersFromPack, r.canRoute, r.notAllowed], [2, 1, 0, 2]);
  // Allowed (`+packs`): a pack skill routes, with triggers or on its description.
  const allowed = reachOf(
    [plain, { ...plain, triggers: [] }, other],
    (s) => s.pack !== undefined,
  );
  assert.deepEqual([allowed.canRoute, allowed.allowedWithoutTriggers], [2, 0]);
});

Deno.test("triggerOrigin: frontmatter, overlay, skill-rules.json", () => {
  const from = { scope: "project", file: "/r/.skillgate/skills.yaml", line: 3 };
  assert.equal(triggerOrigin({ name: "x", triggers: ["a b"] }, "a b"), "frontmatter");
  assert.equal(
    triggerOrigin({ name: "x", triggers: ["a b"], overlay: { triggers: from } }, "a b"),
    "overlay project /r/.skillgate/skills.yaml:3",
  );
  const k = { name: "x", triggers: [], keywords: ["k w"] };
  assert.equal(triggerOrigin(k, "k w"), "skill-rules.json");
  assert.equal(triggerOrigin({ name: "x", triggers: [] }, "/x+/", true), "skill-rules.json");
  // A pack entry's trigger (a skill without its own), named by the pack; the skill's own are not.
  const [pack, name, , triggers] = PACK_ENTRIES.find((e) => e[3].length > 0)!;
  const packed = { name: `plug:${name}`, triggers, pack };
  assert.equal(triggerOrigin(packed, triggers[0]), `pack ${pack}`);
  assert.equal(triggerOrigin({ ...packed, triggers: ["mine"] }, "mine"), "frontmatter");
  // Matched by its frontmatter name (a renamed folder), still the pack's.
  assert.equal(
    triggerOrigin({ ...packed, name: "renamed", altName: name }, triggers[0]),
    `pack ${pack}`,
  );
});

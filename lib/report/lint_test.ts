import assert from "node:assert/strict";
import { type LintSkill, lintSkills, listingBudget } from "./lint.ts";

const skill = (name: string, description: string, extra: Partial<LintSkill> = {}): LintSkill => ({
  name,
  description,
  triggers: [],
  ...extra,
});

Deno.test("listingBudget: Claude Code's 1% of 200k tokens is 8000 characters, and says so", () => {
  const b = listingBudget("claude");
  assert.equal(b.budgetChars, 8000);
  assert.equal(b.entryMaxChars, 1536);
  assert.match(b.assumption, /skillListingBudgetFraction 0\.01 of a 200000-token context window/);
  assert.equal(listingBudget("claude", { contextTokens: 1_000_000 }).budgetChars, 40_000);
  assert.equal(listingBudget("codex").budgetChars, undefined);
  assert.equal(listingBudget("codex").entryMaxChars, 1024);
  assert.match(listingBudget("copilot").assumption, /not estimated/);
});

Deno.test("lint: past the budget the least used lose their descriptions, names first counted", () => {
  const skills = [
    skill("a", "Use when a. " + "x".repeat(300), { uses: 1 }),
    skill("b", "Use when b. " + "x".repeat(300), { uses: 5 }),
    skill("c", "Use when c. " + "x".repeat(300)),
  ];
  // Names: 3 lines of 4 characters; each description 312 + 2 (": "): two fit in 12 + 628.
  const budget = { host: "claude", budgetChars: 650, entryMaxChars: 1536, assumption: "test" };
  const r = lintSkills("claude", skills, budget);
  const dropped = r.findings.filter((f) => f.kind === "listing_dropped").map((f) => f.skills[0]);
  assert.deepEqual(dropped, ["c"], "b (5 uses) and a (1) kept, c (unknown use) dropped");
  assert.equal(r.listingChars, 12 + 3 * 314);
});

Deno.test("lint: once one description does not fit, every less used one is dropped", () => {
  const skills = [
    skill("a", "Use when a. " + "x".repeat(500), { uses: 3 }),
    skill("b", "Use when b.", { uses: 2 }),
  ];
  const budget = { host: "claude", budgetChars: 100, entryMaxChars: 1536, assumption: "test" };
  const dropped = lintSkills("claude", skills, budget).findings
    .filter((f) => f.kind === "listing_dropped").map((f) => f.skills[0]);
  assert.deepEqual(dropped, ["a", "b"]);
});

Deno.test("lint: Codex CLI cuts a description over 1024 characters", () => {
  const r = lintSkills(
    "codex",
    [skill("long", "Use when x. " + "y".repeat(1100))],
    listingBudget("codex"),
  );
  assert.deepEqual(r.findings.map((f) => [f.kind, f.skills[0]]), [["listing_cut", "long"]]);
});

Deno.test("lint: a description that never says when to use it; triggers or when_to_use say it", () => {
  const r = lintSkills("copilot", [
    skill("pdf", "PDF manipulation toolkit."),
    skill("pdf2", "PDF toolkit.", { whenToUse: "Filling forms" }),
    skill("pdf3", "PDF toolkit.", { triggers: ["fill a pdf"] }),
    skill("pdf4", "Use this for PDF forms."),
    { name: "bare", triggers: [] },
  ], listingBudget("copilot"));
  assert.deepEqual(
    r.findings.map((f) => [f.kind, f.skills[0], f.detail]),
    [
      ["no_when_to_use", "pdf", "its description never says when to use it"],
      ["no_when_to_use", "bare", "no description"],
    ],
  );
});

Deno.test("lint: a trigger two skills share, and a name two skills share", () => {
  const r = lintSkills("claude", [
    skill("investigate", "Use when debugging.", { triggers: ["Fix this  bug", "why is"] }),
    skill("debug", "Use when debugging.", { triggers: ["fix this bug"] }),
    skill("debug", "Use when debugging."),
  ], { host: "claude", assumption: "none" });
  assert.deepEqual(r.findings.map((f) => [f.kind, f.skills, f.detail]), [
    ["trigger_collision", ["debug", "investigate"], 'trigger "fix this bug"'],
    ["name_collision", ["debug"], "2 skills have this name; the host loads one"],
  ]);
});

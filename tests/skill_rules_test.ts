import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  applySkillRules,
  compileIntentPattern,
  formatSkillRulesWarning,
  parseSkillRules,
  readSkillRules,
} from "../lib/skill_rules.ts";
import { routePrompt, type RouteSkill } from "../lib/routing.ts";

const RULES = JSON.stringify({
  version: "1.0",
  skills: {
    "review": {
      type: "domain",
      enforcement: "suggest",
      promptTriggers: {
        keywords: ["look over my branch", "code review"],
        intentPatterns: ["(?i)(audit|vet).*?(branch|changes)", "([a-z]+", "(a+)+$"],
      },
      fileTriggers: { pathPatterns: ["src/**/*.ts"] },
    },
    "not-installed": { promptTriggers: { keywords: ["anything at all"] } },
    "no-prompt-triggers": { fileTriggers: { pathPatterns: ["x"] } },
  },
});

Deno.test("parseSkillRules() reads keywords and intent patterns, dropping a leading (?i)", () => {
  const { rules, warnings } = parseSkillRules(RULES);
  const review = rules.find((r) => r.name === "review");
  assert.deepEqual(review?.keywords, ["look over my branch", "code review"]);
  assert.equal(review?.intentPatterns.length, 1);
  assert.equal(review?.intentPatterns[0].flags, "i");
  assert.ok(review?.intentPatterns[0].test("Please VET the changes on main"));
  assert.equal(rules.some((r) => r.name === "no-prompt-triggers"), false);
  assert.equal(warnings.length, 2);
});

Deno.test("parseSkillRules() skips an invalid regex with a warning, never a crash", () => {
  const { warnings } = parseSkillRules(RULES);
  assert.deepEqual(warnings[0], {
    skill: "review",
    index: 1,
    problem: "invalid regular expression",
  });
  assert.deepEqual(warnings[1], {
    skill: "review",
    index: 2,
    problem: "repeated group or back-reference",
  });
  assert.equal(
    formatSkillRulesWarning({ ...warnings[0], file: "/p/skill-rules.json" }),
    "/p/skill-rules.json: skill review intentPatterns[1] skipped: invalid regular expression",
  );
});

Deno.test("compileIntentPattern() refuses long and backtracking-prone patterns", () => {
  assert.ok(compileIntentPattern("fix.*bug") instanceof RegExp);
  assert.deepEqual(compileIntentPattern("(\\w+\\s?)*$"), {
    error: "repeated group or back-reference",
  });
  assert.deepEqual(compileIntentPattern("(a)\\1"), {
    error: "repeated group or back-reference",
  });
  assert.deepEqual(compileIntentPattern("a".repeat(301)), {
    error: "longer than 300 characters",
  });
  assert.deepEqual(compileIntentPattern(42), { error: "not a string" });
  // Overlapping alternation under a repetition backtracks without bound (found in review).
  assert.deepEqual(compileIntentPattern("(a|a)*b"), { error: "repeated group or back-reference" });
  assert.deepEqual(compileIntentPattern("(?:ab){2,}c"), {
    error: "repeated group or back-reference",
  });
  assert.deepEqual(compileIntentPattern(".*a.*b.*c"), {
    error: "more than 2 open-ended quantifiers",
  });
  assert.ok(compileIntentPattern("(create|add).*?(feature|route)") instanceof RegExp);
  assert.ok(compileIntentPattern("(how does|explain)\\s+\\w+") instanceof RegExp);
});

Deno.test("parseSkillRules() reports a file that is not JSON or has no skills", () => {
  assert.deepEqual(parseSkillRules("{nope").warnings, [{ problem: "not valid JSON" }]);
  assert.deepEqual(parseSkillRules("[]").warnings, [{ problem: "no skills object" }]);
  assert.deepEqual(parseSkillRules('{"skills": 3}').rules, []);
});

Deno.test("parseSkillRules() never throws, whatever the text (property)", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      const r = parseSkillRules(text);
      assert.ok(Array.isArray(r.rules) && Array.isArray(r.warnings));
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.anything(), (value) => {
      let text: string;
      try {
        text = JSON.stringify({ skills: { s: { promptTriggers: value } } }) ?? "";
      } catch {
        return;
      }
      parseSkillRules(text);
    }),
    { numRuns: 300 },
  );
});

Deno.test("applySkillRules() adds keywords as triggers and skips skills not installed", () => {
  const skills: RouteSkill[] = [{ name: "review", triggers: ["review this pr"] }];
  const { skills: merged, unmatched } = applySkillRules(skills, parseSkillRules(RULES).rules);
  assert.deepEqual(merged[0].triggers, ["review this pr", "look over my branch", "code review"]);
  assert.equal(merged[0].intentPatterns?.length, 1);
  assert.equal(unmatched, 1);
  assert.deepEqual(skills[0].triggers, ["review this pr"], "input unchanged");
  // Keywords route through the same scorer: the whole phrase, or a share of content words.
  assert.equal(
    routePrompt("look over my branch before I merge", merged).route?.skill.name,
    "review",
  );
  assert.equal(routePrompt("please vet these changes", merged).route?.skill.name, "review");
  assert.equal(routePrompt("anything at all", merged).route, undefined);
});

Deno.test("readSkillRules() reads skill-rules.json from each directory, skipping missing ones", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(join(dir, "skill-rules.json"), RULES);
    const r = readSkillRules([dir, join(dir, "missing")]);
    assert.equal(r.rules.length, 2);
    assert.equal(r.warnings.length, 2);
    assert.equal(r.warnings[0].file, join(dir, "skill-rules.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

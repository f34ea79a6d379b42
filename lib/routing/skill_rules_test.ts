import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  applySkillRules,
  compileIntentPattern,
  formatSkillRulesWarning,
  parseSkillRules,
  readSkillRules,
} from "./skill_rules.ts";
import { routePrompt } from "./route.ts";
import type { RouteSkill } from "./route_skill.ts";
import { isRegexError, loadUserRegexEngine, type UserRegex } from "../base/user_regex.ts";

const RULES = JSON.stringify({
  version: "1.0",
  skills: {
    "review": {
      type: "domain",
      enforcement: "suggest",
      promptTriggers: {
        keywords: ["look over my branch", "code review"],
        intentPatterns: ["(?i)(audit|vet).*?(branch|changes)", "([a-z]+", "(?=vet)v"],
      },
      fileTriggers: { pathPatterns: ["src/**/*.ts"] },
    },
    "not-installed": { promptTriggers: { keywords: ["anything at all"] } },
    "no-prompt-triggers": { fileTriggers: { pathPatterns: ["x"] } },
  },
});

Deno.test("parseSkillRules() reads keywords and intent patterns, dropping a leading (?i)", async () => {
  const { rules, warnings } = await parseSkillRules(RULES);
  const review = rules.find((r) => r.name === "review");
  assert.deepEqual(review?.keywords, ["look over my branch", "code review"]);
  assert.equal(review?.intentPatterns.length, 1);
  assert.equal(review?.intentPatterns[0].ignoreCase, true);
  assert.equal(review?.intentPatterns[0].source, "(audit|vet).*?(branch|changes)");
  assert.ok(review?.intentPatterns[0].test("Please VET the changes on main"));
  assert.equal(rules.some((r) => r.name === "no-prompt-triggers"), false);
  assert.equal(warnings.length, 2);
});

Deno.test("parseSkillRules() skips a pattern RE2 refuses with a warning, never a crash", async () => {
  const { warnings } = await parseSkillRules(RULES);
  assert.deepEqual(warnings[0], {
    skill: "review",
    index: 1,
    problem: "not a valid RE2 regular expression (missing closing ))",
  });
  assert.deepEqual(warnings[1], {
    skill: "review",
    index: 2,
    problem: "not a valid RE2 regular expression (invalid or unsupported Perl syntax; " +
      "lookaround and back-references are not supported, they cannot run in linear time)",
  });
  assert.equal(
    formatSkillRulesWarning({ ...warnings[0], file: "/p/skill-rules.json" }),
    "/p/skill-rules.json: skill review intentPatterns[1] skipped: not a valid RE2 regular " +
      "expression (missing closing ))",
  );
});

/** Compiles an intent pattern that must compile. */
async function intent(pattern: string): Promise<UserRegex> {
  const re = compileIntentPattern(pattern, await loadUserRegexEngine());
  if (isRegexError(re)) throw new Error(re.error);
  return re;
}

Deno.test("compileIntentPattern() compiles with RE2 and refuses what RE2 cannot run in linear time", async () => {
  const engine = await loadUserRegexEngine();
  assert.equal((await intent("fix.*bug")).engine, "re2js");
  assert.ok((await intent("Fix.*BUG")).test("please fix this bug"), "case-insensitive");
  for (const p of ["(a)\\1", "(?<n>a)\\k<n>", "(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b"]) {
    const re = compileIntentPattern(p, engine);
    assert.ok(isRegexError(re), p);
    assert.match(re.error, /^not a valid RE2 regular expression \(/, p);
  }
  assert.deepEqual(compileIntentPattern("a".repeat(301), engine), {
    error: "longer than 300 characters",
  });
  assert.deepEqual(compileIntentPattern(42, engine), { error: "not a string" });
  assert.deepEqual(compileIntentPattern("x{0,1000}".repeat(2), engine), {
    error: "too complex (4002 RE2 instructions, at most 2000)",
  });
  // What the old syntax filter refused is safe under RE2, and real rules files use it.
  for (const p of ["(a|a)*b", "(?:ab){2,}c", ".*a.*b.*c", "(create|add).*?(feature|route)"]) {
    assert.equal((await intent(p)).engine, "re2js", p);
  }
});

Deno.test("intent patterns answer for classic ReDoS shapes on long prompts (linear-time RE2)", async () => {
  // The pattern from the issue: five bounded repeats then `!` ran the routing hook past 12 s on a
  // 115-character prompt under JavaScript's backtracking RegExp.
  const hostile = await intent("[^!]{0,99}".repeat(5) + "!");
  assert.equal(hostile.engine, "re2js");
  assert.equal(hostile.test("a".repeat(115)), false);
  assert.equal(hostile.test("a".repeat(2000)), false);
  assert.equal(hostile.test("a".repeat(115) + "!"), true);
  assert.equal((await intent("(a+)+$")).test("a".repeat(2000) + "!"), false);
  assert.equal((await intent("^(\\w+\\s?)*$")).test("fix the bug ".repeat(160) + "!"), false);
  assert.equal((await intent("(a|a)*b")).test("a".repeat(2000)), false);
  // Routing tries them on the prompt and answers.
  const skill: RouteSkill = {
    name: "review",
    triggers: [],
    intentPatterns: [hostile, await intent("(a+)+$"), await intent("vet.*branch")],
  };
  const prompt = "please vet my branch " + "x".repeat(94);
  assert.equal(prompt.length, 115);
  assert.equal(routePrompt(prompt, [skill]).route?.skill.name, "review");
  assert.equal(routePrompt("x".repeat(115), [skill]).reason, "no-match");
});

Deno.test("routePrompt() stops trying intent patterns once past the deadline", async () => {
  const skill: RouteSkill = { name: "review", triggers: [], intentPatterns: [await intent("vet")] };
  assert.equal(routePrompt("vet my branch", [skill]).route?.skill.name, "review");
  let asked = 0;
  const late = routePrompt("vet my branch", [skill], { pastDeadline: () => ++asked > 0 });
  assert.equal(late.reason, "no-match");
  assert.equal(asked, 1);
});

Deno.test("readSkillRules() bounds the instructions of all patterns, then skips the rest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Each pattern compiles to about 1,900 instructions (below the one-pattern limit of 2,000).
    const big = "[a-z]{0,950}x";
    Deno.writeTextFileSync(
      join(dir, "skill-rules.json"),
      JSON.stringify({
        skills: { api: { promptTriggers: { intentPatterns: Array(30).fill(big) } } },
      }),
    );
    const r = await readSkillRules([dir]);
    const kept = r.rules[0].intentPatterns;
    assert.ok(kept.length >= 9 && kept.length <= 11, `kept ${kept.length}`);
    assert.equal(kept.length + r.warnings.length, 30);
    assert.match(r.warnings.at(-1)!.problem, /over the instruction budget/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseSkillRules() reports a file that is not JSON or has no skills", async () => {
  assert.deepEqual((await parseSkillRules("{nope")).warnings, [{ problem: "not valid JSON" }]);
  assert.deepEqual((await parseSkillRules("[]")).warnings, [{ problem: "no skills object" }]);
  assert.deepEqual((await parseSkillRules('{"skills": 3}')).rules, []);
});

Deno.test("parseSkillRules() never rejects, whatever the text (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string(), fc.json()), async (text) => {
      const r = await parseSkillRules(text);
      assert.ok(Array.isArray(r.rules) && Array.isArray(r.warnings));
    }),
    { numRuns: 300 },
  );
  await fc.assert(
    fc.asyncProperty(fc.anything(), async (value) => {
      let text: string;
      try {
        text = JSON.stringify({ skills: { s: { promptTriggers: value } } }) ?? "";
      } catch {
        return;
      }
      await parseSkillRules(text);
    }),
    { numRuns: 300 },
  );
});

Deno.test("parseSkillRules() compiles only the patterns of installed skills", async () => {
  const text = JSON.stringify({
    skills: {
      api: { promptTriggers: { intentPatterns: ["add.*endpoint", "(?=bad)"] } },
      gone: { promptTriggers: { keywords: ["x y"], intentPatterns: ["(?=bad)"] } },
    },
  });
  const r = await parseSkillRules(text, { installed: () => new Set(["api"]) });
  assert.deepEqual(r.warnings.map((w) => `${w.skill} ${w.index}`), ["api 1"]);
  assert.deepEqual(r.rules.map((x) => [x.name, x.intentPatterns.length]), [["api", 1], [
    "gone",
    0,
  ]]);
});

Deno.test("applySkillRules() adds keywords as triggers and skips skills not installed", async () => {
  const skills: RouteSkill[] = [{ name: "review", triggers: ["review this pr"] }];
  const { skills: merged, unmatched } = applySkillRules(
    skills,
    (await parseSkillRules(RULES)).rules,
  );
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
    const r = await readSkillRules([dir, join(dir, "missing")]);
    assert.equal(r.rules.length, 2);
    assert.equal(r.warnings.length, 2);
    assert.equal(r.warnings[0].file, join(dir, "skill-rules.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  isRegexError,
  loadUserRegexEngine,
  MAX_REGEX_PROGRAM,
  type RegexBudget,
} from "./user_regex.ts";
import { FIXTURES, REPO_ROOT } from "../../tests/_helpers.ts";
import { claudeFolders } from "../host/_kit_test.ts";

Deno.test("the user regex engine is RE2 (re2js): linear time, case folding, refusals", async () => {
  const engine = await loadUserRegexEngine();
  assert.equal(engine, await loadUserRegexEngine(), "loaded once");
  const re = engine.compile("Fix.*BUG", { ignoreCase: true });
  assert.ok(!isRegexError(re));
  assert.equal(re.engine, "re2js");
  assert.equal(re.source, "Fix.*BUG");
  assert.ok(re.test("please fix this bug"));
  const exact = engine.compile("Fix");
  assert.ok(!isRegexError(exact) && !exact.test("fix") && exact.test("Fix"));
  // A match can never backtrack: the classic shapes answer on long inputs.
  for (
    const [pattern, text] of [
      ["(a+)+$", "a".repeat(50000) + "!"],
      ["(a|aa)*c", "a".repeat(50000)],
      ["[^!]{0,99}".repeat(5) + "!", "a".repeat(50000)],
    ]
  ) {
    const r = engine.compile(pattern);
    assert.ok(!isRegexError(r), pattern);
    assert.equal(r.test(text), false, pattern);
  }
  assert.deepEqual(engine.compile("(x"), {
    error: "not a valid RE2 regular expression (missing closing ))",
  });
  assert.deepEqual(engine.compile("a{1001}"), {
    error: "not a valid RE2 regular expression (invalid repeat count)",
  });
});

Deno.test("the user regex engine bounds one pattern's program and many patterns' budget", async () => {
  const engine = await loadUserRegexEngine();
  const big = engine.compile(".{0,999}.{0,999}");
  assert.ok(isRegexError(big));
  assert.match(
    big.error,
    new RegExp(`^too complex \\(\\d+ RE2 instructions, at most ${MAX_REGEX_PROGRAM}\\)$`),
  );
  const probe = engine.compile("[a-z]{0,60}x");
  assert.ok(!isRegexError(probe));
  const budget: RegexBudget = { left: probe.size + 1 };
  const a = engine.compile("[a-z]{0,60}x", { budget });
  assert.ok(!isRegexError(a));
  assert.equal(budget.left, 1);
  assert.ok(!isRegexError(engine.compile("[a-z]{0,60}y", { budget })), "the last one may overrun");
  assert.ok(budget.left <= 0);
  assert.deepEqual(engine.compile("z", { budget }), {
    error: "over the instruction budget of all patterns (too many patterns)",
  });
});

/** Loads route skills in a fresh process and says whether the regex engine was loaded. */
async function engineLoaded(rules: unknown | undefined): Promise<boolean> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-regex-" });
  try {
    const skills = join(root, "claude", "skills");
    Deno.mkdirSync(join(skills, "review"), { recursive: true });
    Deno.copyFileSync(
      join(FIXTURES, "routing", "skills", "review", "SKILL.md"),
      join(skills, "review", "SKILL.md"),
    );
    if (rules !== undefined) {
      Deno.writeTextFileSync(join(skills, "skill-rules.json"), JSON.stringify(rules));
    }
    const lib = (f: string) => JSON.stringify(new URL(`../${f}`, import.meta.url).href);
    const code = `
      const { loadRouteSkills, routePrompt } = await import(${lib("routing/route.ts")});
      const { isUserRegexEngineLoaded } = await import(${lib("base/user_regex.ts")});
      const world = await loadRouteSkills({
        hostFolders: { ...${JSON.stringify(claudeFolders(""))}, configDir: Deno.args[0] },
        stateRoot: Deno.args[1],
      });
      routePrompt("please vet my branch", world);
      console.log(JSON.stringify(isUserRegexEngineLoaded()));
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", code, join(root, "claude"), join(root, "state")],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("routing loads the regex engine only for intent patterns of an installed skill", async () => {
  assert.equal(await engineLoaded(undefined), false, "no rules file");
  assert.equal(
    await engineLoaded({ skills: { review: { promptTriggers: { keywords: ["vet my branch"] } } } }),
    false,
    "keywords only",
  );
  assert.equal(
    await engineLoaded({ skills: { gone: { promptTriggers: { intentPatterns: ["vet"] } } } }),
    false,
    "patterns of a skill that is not installed",
  );
  assert.equal(
    await engineLoaded({ skills: { review: { promptTriggers: { intentPatterns: ["vet"] } } } }),
    true,
    "patterns of an installed skill",
  );
});

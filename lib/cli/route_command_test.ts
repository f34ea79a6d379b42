import assert from "node:assert/strict";
import { join } from "node:path";
import { main, parseLabeled } from "./route_command.ts";
import { capture } from "./_kit_test.ts";
import { FIXTURES } from "../../tests/_helpers.ts";

const SKILLS = join(FIXTURES, "routing", "skills");

interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in a temp world (state root, Claude config dir), capturing its output. */
async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const world = await Deno.makeTempDir({ prefix: "skillgate-cli-route-" });
  const vars: Record<string, string> = {
    SKILLGATE_STATE_ROOT: join(world, "state"),
    CLAUDE_CONFIG_DIR: join(world, "claude"),
    ...env,
  };
  const saved = new Map<string, string | undefined>();
  for (const k of [...Object.keys(vars), "SKILLGATE_SKILL_ROUTING", "SKILLGATE_SKILL_ROUTE_HINT"]) {
    saved.set(k, Deno.env.get(k));
    Deno.env.delete(k);
  }
  for (const [k, v] of Object.entries(vars)) Deno.env.set(k, v);
  try {
    return await capture(() => main(args));
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await Deno.remove(world, { recursive: true });
  }
}

/** A skills directory holding only investigate and ios-fix, as in the seed's example. */
async function seedSkills(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-seed-skills-" });
  for (const name of ["investigate", "ios-fix"]) {
    Deno.mkdirSync(join(dir, name));
    Deno.copyFileSync(join(SKILLS, name, "SKILL.md"), join(dir, name, "SKILL.md"));
  }
  return dir;
}

Deno.test("route --explain prints the seed's dry run, saying that routing is off", async () => {
  const dir = await seedSkills();
  try {
    const r = await run(["--explain", "this test fails, fix it", "--skills-dir", dir]);
    assert.equal(r.code, 0);
    const lines = r.out.split("\n");
    assert.deepEqual(lines.slice(0, 7), [
      "switch: skill_routing off (default)",
      "threshold: 0.66",
      `skills: 2 scanned in ${dir}`,
      "candidates:",
      '  1.00  /investigate  "fix this bug" (2 words)',
      '  0.67  /ios-fix  "fix this ios bug" (2 words)',
      // The seed's example prints `route: /investigate` with the switch off; skillgate says that
      // nothing is routed while the switch is off.
      "route: /investigate would route (routing is off)",
    ]);
    assert.match(lines[7], /^hint: skillgate skill routing \(UserPromptSubmit hook; /);
    // After the seed's lines: what routing and contracts reach, and why not further.
    assert.deepEqual(lines.slice(8), [
      "reach: 2 skills, 2 with triggers, 1 can route, 1 with a contract",
      "why: 1 skill with triggers may not route: not in route_skills (add them to route_skills, " +
      "or set route: true in skills.yaml)",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("route --explain reads the installed skills under CLAUDE_CONFIG_DIR", async () => {
  const world = await Deno.makeTempDir();
  try {
    const skills = join(world, "claude", "skills");
    Deno.mkdirSync(join(skills, "review"), { recursive: true });
    Deno.copyFileSync(join(SKILLS, "review", "SKILL.md"), join(skills, "review", "SKILL.md"));
    const r = await run(["--explain", "please check my diff"], {
      CLAUDE_CONFIG_DIR: join(world, "claude"),
    });
    assert.ok(r.out.includes(`skills: 1 scanned in ${skills}`), r.out);
    assert.ok(r.out.includes("route: /review"));
  } finally {
    await Deno.remove(world, { recursive: true });
  }
});

Deno.test("route --explain shows the switch source and never injects or logs", async () => {
  const state = await Deno.makeTempDir();
  try {
    const r = await run(["--explain", "this test fails, fix it", "--skills-dir", SKILLS], {
      SKILLGATE_SKILL_ROUTING: "on",
      SKILLGATE_STATE_ROOT: state,
    });
    assert.ok(r.out.startsWith("switch: skill_routing on (env)\n"));
    assert.ok(r.out.split("\n").includes("route: /investigate"), r.out);
    assert.ok(!r.out.includes("hookSpecificOutput"));
    assert.throws(() => Deno.statSync(join(state, "hooks", "skill-route.log")));
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("route --explain says why nothing routed", async () => {
  const low = await run(["--explain", "fix the typo", "--skills-dir", SKILLS]);
  assert.ok(low.out.includes("route: none (best score 0.50 is below 0.66)"), low.out);
  assert.ok(low.out.includes("hint: none"));
  const slash = await run(["--explain", "/investigate it", "--skills-dir", SKILLS]);
  assert.ok(slash.out.includes("candidates:\n  (none)\nroute: none (the prompt starts with /)"));
  const notRoutable = await run(["--explain", "patch the iphone app", "--skills-dir", SKILLS]);
  assert.ok(
    notRoutable.out.includes(
      "route: none (no skill in route_skills reaches 0.66; /ios-fix does, but is not in " +
        "route_skills)",
    ),
    notRoutable.out,
  );
});

Deno.test("route --explain --threshold changes the cutoff", async () => {
  const r = await run([
    "--explain",
    "fix the ios thing",
    "--threshold",
    "0.9",
    "--skills-dir",
    SKILLS,
  ]);
  assert.ok(r.out.includes("threshold: 0.9"));
  assert.ok(r.out.includes("route: none"));
});

Deno.test("route --explain --json gives the same decision as data", async () => {
  const dir = await seedSkills();
  try {
    const r = await run(["--explain", "this test fails, fix it", "--json", "--skills-dir", dir], {
      SKILLGATE_SKILL_ROUTE_HINT: "step",
    });
    const data = JSON.parse(r.out);
    assert.deepEqual(data.switch, { name: "skill_routing", on: false, source: "default" });
    assert.equal(data.threshold, 0.66);
    assert.deepEqual(data.skills, { count: 2, dirs: [dir] });
    assert.deepEqual(data.candidates[0], {
      skill: "investigate",
      score: 1,
      trigger: "fix this bug",
      from: "frontmatter",
      matched: 2,
      intent: false,
      routable: true,
    });
    assert.equal(data.reach.canRoute, 1);
    assert.equal(data.candidates[1].score, 0.67);
    assert.equal(data.candidates[1].routable, false);
    assert.equal(data.route, "investigate");
    assert.ok(data.hint.includes('Its first step: "Reproduce the problem'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("route exits 2 with one SKILL_ROUTE_USAGE line on bad arguments", async () => {
  const bad = [
    [],
    ["--explain"],
    ["--explain", ""],
    ["--explain", "x", "--threshold", "abc"],
    ["--explain", "x", "--threshold", "1.5"],
    ["--explain", "x", "--threshold", "0"],
    ["--explain", "x", "extra"],
    ["--bogus"],
    ["eval"],
    ["eval", "a.tsv", "b.tsv"],
    ["frobnicate"],
    ["--default", "nope"],
    ["--default", "skill_routing", "--explain", "x"],
  ];
  for (const args of bad) {
    const r = await run(args);
    assert.equal(r.code, 2, JSON.stringify(args));
    assert.match(r.err, /^skillgate route( eval)?: SKILL_ROUTE_USAGE [A-Z-]/, JSON.stringify(args));
    assert.equal(r.err.split("\n").length, 1, r.err);
  }
});

Deno.test("route --default prints a switch's built-in default", async () => {
  assert.equal((await run(["--default", "skill_routing"])).out, "skill_routing: off");
  assert.equal((await run(["--default", "skill_contracts"])).out, "skill_contracts: on");
  const json = await run(["--default", "skill_redirect", "--json"]);
  assert.deepEqual(JSON.parse(json.out), { switch: "skill_redirect", default: "on" });
});

Deno.test("route eval prints precision, recall and every wrong decision", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "set.tsv");
    Deno.writeTextFileSync(
      file,
      [
        "# a comment",
        "investigate\tthis test fails, fix it",
        "/review\tplease check my diff",
        "qa\tadd a flag to the cli",
        "-\trename a variable",
        "-\treview this pr",
        "",
      ].join("\n"),
    );
    const r = await run(["eval", file, "--skills-dir", SKILLS]);
    assert.equal(r.code, 0);
    const lines = r.out.split("\n");
    assert.ok(lines.includes("prompts: 5 (3 fit, 2 no-fit)"), r.out);
    assert.ok(lines.includes("precision: 0.667 (2 of 3 routes right)"), r.out);
    assert.ok(lines.includes("recall: 0.667 (2 of 3 fit prompts routed right)"), r.out);
    assert.ok(lines.includes("no-fit routed: 1 of 2"), r.out);
    assert.ok(lines.includes("wrong decisions: 2"), r.out);
    assert.ok(
      lines.includes(
        "  line 4: expected /qa, got none: expected skill matched no trigger: add a flag to the cli",
      ),
      r.out,
    );
    assert.ok(
      lines.includes(
        '  line 6: expected none, got /review: routed on "review this pr" (1.00, 2 words): ' +
          "review this pr",
      ),
      r.out,
    );
    assert.ok(lines.includes("per skill (precision, recall):"), r.out);
    assert.ok(lines.includes("  /review  precision 0.50 (1/2)  recall 1.00 (1/1)"), r.out);
    assert.ok(lines.includes("confusion (expected -> got):"), r.out);
    assert.ok(lines.includes("  /qa -> none: 1"), r.out);
    assert.ok(lines.includes("  none -> /review: 1"), r.out);
    const json = JSON.parse((await run(["eval", file, "--json", "--skills-dir", SKILLS])).out);
    assert.equal(json.recall, 2 / 3);
    assert.equal(json.nonFitRouted, 1);
    assert.deepEqual(json.wrong.map((w: { line: number }) => w.line), [4, 6]);
    assert.deepEqual(json.confusion, [
      { expected: "-", got: "review", count: 1 },
      { expected: "qa", got: "-", count: 1 },
    ]);
    assert.equal(json.perSkill.find((f: { skill: string }) => f.skill === "review").precision, 0.5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("route eval exits 3 for a missing file, 2 for a malformed one", async () => {
  const missing = await run(["eval", "/nonexistent/set.tsv"]);
  assert.equal(missing.code, 3);
  assert.equal(
    missing.err,
    "skillgate route eval: STATE_ERROR /nonexistent/set.tsv: No such file or directory",
  );
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(join(dir, "bad.tsv"), "investigate fix this bug\n");
    const bad = await run(["eval", join(dir, "bad.tsv")]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /: SKILL_ROUTE_USAGE .*bad\.tsv: Line 1 is not expected<TAB>prompt$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseLabeled() reads expected<TAB>prompt lines, skipping comments and blanks", () => {
  assert.deepEqual(parseLabeled("# c\n\n/qa\ttest the site\r\n-\tadd a flag\n"), [
    { line: 3, expected: "qa", prompt: "test the site" },
    { line: 4, expected: "-", prompt: "add a flag" },
  ]);
  assert.throws(() => parseLabeled("qa\t  \n"), /Line 1/);
});

Deno.test("route eval on the labeled set meets the no-fit bar", async () => {
  const r = await run([
    "eval",
    join(FIXTURES, "routing", "labeled.tsv"),
    "--json",
    "--skills-dir",
    SKILLS,
  ]);
  const data = JSON.parse(r.out);
  assert.ok(data.fit >= 40 && data.nonFit >= 40);
  assert.ok(data.nonFitRouted * 32 <= data.nonFit);
});

Deno.test("route: a skills dir that does not exist is an error (exit 3), not 0 skills", async () => {
  const explain = await run(["--explain", "fix this bug", "--skills-dir", "/nonexistent"]);
  assert.equal(explain.code, 3);
  assert.equal(explain.out, "");
  assert.equal(explain.err, "skillgate route: STATE_ERROR /nonexistent: No such file or directory");
  const evaluated = await run([
    "eval",
    join(FIXTURES, "routing", "labeled.tsv"),
    "--skills-dir",
    "/nonexistent",
  ]);
  assert.equal(evaluated.code, 3);
  assert.doesNotMatch(evaluated.out, /precision/);
  const json = await run(["--explain", "x", "--json", "--skills-dir", "/nonexistent"]);
  assert.equal(JSON.parse(json.out).word, "STATE_ERROR");
});

Deno.test("route --explain routes on a user overlay's trigger and says where it came from", async () => {
  const world = await Deno.makeTempDir();
  try {
    const skills = join(world, "claude", "skills");
    Deno.mkdirSync(join(skills, "investigate"), { recursive: true });
    Deno.copyFileSync(
      join(SKILLS, "investigate", "SKILL.md"),
      join(skills, "investigate", "SKILL.md"),
    );
    Deno.mkdirSync(join(skills, "debugging"), { recursive: true });
    Deno.writeTextFileSync(
      join(skills, "debugging", "SKILL.md"),
      "---\nname: debugging\ndescription: Finds causes.\n---\nFind the cause.\n",
    );
    const state = join(world, "state");
    Deno.mkdirSync(state);
    const overlay = join(state, "skills.yaml");
    Deno.writeTextFileSync(
      overlay,
      "debugging:\n  triggers: [tidy the changelog]\n  route: true\n",
    );
    const env = { CLAUDE_CONFIG_DIR: join(world, "claude"), SKILLGATE_STATE_ROOT: state };
    const r = await run(["--explain", "please tidy the changelog"], env);
    assert.equal(r.code, 0, r.out);
    const lines = r.out.split("\n");
    assert.ok(
      lines.includes(
        `  1.00  /debugging  "tidy the changelog" (2 words, from overlay user ${overlay}:2)`,
      ),
      r.out,
    );
    assert.ok(lines.includes("route: /debugging would route (routing is off)"), r.out);
    assert.ok(
      lines.includes(
        "reach: 2 skills, 2 with triggers (1 from skills.yaml), 2 can route, 1 with a contract",
      ),
      r.out,
    );
    // Without the overlay: the skill has no trigger and nothing routes.
    Deno.removeSync(overlay);
    const none = await run(["--explain", "please tidy the changelog"], env);
    assert.ok(none.out.includes("route: none"), none.out);
  } finally {
    await Deno.remove(world, { recursive: true });
  }
});

Deno.test("route --explain says 'from pack' for a pack's trigger in every path: --skills-dir, the installed skills (index built, then read), a renamed folder, --json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-pack-origin-" });
  try {
    const claude = join(dir, "claude");
    // writing-plans in a folder of its own name, and renamed (matched by its frontmatter name).
    for (const folder of ["writing-plans", "my-plans"]) {
      Deno.mkdirSync(join(claude, "skills", folder), { recursive: true });
      Deno.writeTextFileSync(
        join(claude, "skills", folder, "SKILL.md"),
        "---\nname: writing-plans\ndescription: Use when you have a spec or requirements for a " +
          "multi-step task, before touching code\n---\n1. Write the plan.\n",
      );
    }
    const prompt = "write an implementation plan for the csv export";
    const line = /"write an implementation plan" \(3 words, from pack superpowers\)/;
    const flat = await run(["--explain", prompt, "--skills-dir", join(claude, "skills")]);
    assert.match(flat.out, new RegExp(`/writing-plans  ${line.source}`));
    assert.match(flat.out, new RegExp(`/my-plans  ${line.source}`));
    const env = { CLAUDE_CONFIG_DIR: claude, SKILLGATE_STATE_ROOT: join(dir, "state") };
    for (const round of ["built", "read"]) {
      const r = await run(["--explain", prompt], env);
      assert.match(r.out, new RegExp(`/writing-plans  ${line.source}`), round);
      assert.match(r.out, new RegExp(`/my-plans  ${line.source}`), round);
      assert.match(
        r.out,
        /reach: 2 skills, 2 with triggers \(2 from built-in packs\), 2 can route/,
        round,
      );
    }
    assert.ok(Deno.statSync(join(dir, "state", "catalog", "routes.idx")).isFile);
    const json = JSON.parse((await run(["--explain", prompt, "--json"], env)).out);
    assert.deepEqual(
      json.candidates.map((c: { from: string }) => c.from),
      ["pack superpowers", "pack superpowers"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "./contract_command.ts";
import { capture } from "./_kit_test.ts";
import { withRoot } from "../contracts/_records_kit_test.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FIX = join(ROOT, "fixtures/transcripts");
const SKILL_FILE = join(ROOT, "fixtures/world/skills/investigate/SKILL.md");
const REVIEW_FILE = join(ROOT, "fixtures/world/skills/review/SKILL.md");

const SEED_BLOCK =
  `SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason "<why>" (this session only; counted as a miss for follow). This blocks once.`;

/** Runs main() in a temp world (config dir, state root) and captures what it prints. */
async function run(
  args: string[],
  setup?: (world: { claude: string; state: string }) => Promise<void>,
): Promise<{ code: number; out: string; err: string }> {
  const dir = await Deno.makeTempDir();
  const claude = join(dir, "claude");
  const state = join(dir, "state");
  await Deno.mkdir(join(claude, "skills"), { recursive: true });
  const saved = new Map<string, string | undefined>();
  for (
    const k of [
      "CLAUDE_CONFIG_DIR",
      "SKILLGATE_STATE_ROOT",
      "SKILLGATE_COMMAND",
      "CLAUDE_PROJECT_DIR",
    ]
  ) {
    saved.set(k, Deno.env.get(k));
  }
  Deno.env.set("CLAUDE_CONFIG_DIR", claude);
  Deno.env.set("SKILLGATE_STATE_ROOT", state);
  Deno.env.delete("SKILLGATE_COMMAND");
  Deno.env.delete("CLAUDE_PROJECT_DIR");
  try {
    if (setup) await setup({ claude, state });
    return await capture(() => main(args));
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await Deno.remove(dir, { recursive: true });
  }
}

async function install(claude: string, name: string, file: string): Promise<void> {
  await Deno.mkdir(join(claude, "skills", name), { recursive: true });
  await Deno.copyFile(file, join(claude, "skills", name, "SKILL.md"));
}

Deno.test("contract check prints the seed's block line first and exits 1 on the worked example", async () => {
  const r = await run([
    "check",
    "--transcript",
    join(FIX, "investigate_unmet.jsonl"),
    "--skill",
    "investigate",
    "--skill-file",
    SKILL_FILE,
  ]);
  assert.equal(r.code, 1);
  assert.equal(r.out.split("\n")[0], SEED_BLOCK);
  assert.match(r.out, /missing debug-report/);
});

Deno.test("contract check exits 0 after bun test and a DEBUG REPORT", async () => {
  const r = await run([
    "check",
    "--transcript",
    join(FIX, "investigate_met.jsonl"),
    "--skill",
    "investigate",
    "--skill-file",
    SKILL_FILE,
  ]);
  assert.equal(r.code, 0);
  assert.match(r.out, /^SKILL_CONTRACT_MET investigate \(contract v1\)/);
});

Deno.test("contract check reads the contract from the installed skill via the catalog", async () => {
  const r = await run(
    [
      "check",
      "--transcript",
      join(FIX, "investigate_waived.jsonl"),
      "--skill",
      "investigate",
      "--json",
    ],
    ({ claude }) => install(claude, "investigate", SKILL_FILE),
  );
  assert.equal(r.code, 0);
  const j = JSON.parse(r.out);
  assert.equal(j.word, "SKILL_CONTRACT_MET");
  assert.equal(j.waived, true);
  assert.deepEqual(j.items.map((i: { status: string }) => i.status), ["met", "waived"]);
  assert.equal(j.run.load.via, "base_directory");
});

Deno.test("contract check --json gives the block line and items when unmet", async () => {
  const r = await run([
    "check",
    "--transcript",
    join(FIX, "investigate_unmet.jsonl"),
    "--skill",
    "investigate",
    "--skill-file",
    SKILL_FILE,
    "--json",
  ]);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.out);
  assert.equal(j.blockLine, SEED_BLOCK);
  assert.equal(j.exit, 1);
});

Deno.test("contract check names the installed command from SKILLGATE_COMMAND in the block line", async () => {
  const r = await run(
    [
      "check",
      "--transcript",
      join(FIX, "investigate_unmet.jsonl"),
      "--skill",
      "investigate",
      "--skill-file",
      SKILL_FILE,
    ],
    () => {
      Deno.env.set("SKILLGATE_COMMAND", "/opt/skillgate/bin/skillgate");
      return Promise.resolve();
    },
  );
  assert.equal(r.code, 1);
  assert.ok(r.out.includes(`run '/opt/skillgate/bin/skillgate' contract waive <item>`));
});

Deno.test("contract check exits 2 without --transcript or --skill, or with an unknown option", async () => {
  assert.equal((await run(["check", "--skill", "investigate"])).code, 2);
  assert.equal((await run(["check", "--transcript", "x.jsonl"])).code, 2);
  const r = await run(["check", "--transcript", "x", "--skill", "y", "--bogus"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.err,
    "skillgate contract check: SKILL_CONTRACT_USAGE Unknown option '--bogus'",
  );
  assert.equal((await run([])).code, 2);
  assert.equal((await run(["frobnicate"])).code, 2);
});

Deno.test("contract check exits 3 for a missing transcript", async () => {
  const r = await run([
    "check",
    "--transcript",
    "/nonexistent/t.jsonl",
    "--skill",
    "investigate",
    "--skill-file",
    SKILL_FILE,
  ]);
  assert.equal(r.code, 3);
  assert.match(
    r.err,
    /^skillgate contract check: SKILL_CONTRACT_STATE_ERROR \/nonexistent\/t\.jsonl: No such file/,
  );
});

Deno.test("contract check exits 4 for a file that is no known host's transcript", async () => {
  await withRoot(async (dir) => {
    const path = join(dir, "events.jsonl");
    // A Copilot CLI events file (read as one) that never loads the skill: exit 6.
    await Deno.writeTextFile(
      path,
      '{"type":"session.start","data":{}}\n{"type":"user.message","data":{"content":"hi"}}\n',
    );
    const copilot = await run(
      ["check", "--transcript", path, "--skill", "investigate", "--skill-file", SKILL_FILE],
    );
    assert.equal(copilot.code, 6, copilot.err);
    await Deno.writeTextFile(path, '{"event":"start","payload":{}}\n{"event":"message"}\n');
    const r = await run([
      "check",
      "--transcript",
      path,
      "--skill",
      "investigate",
      "--skill-file",
      SKILL_FILE,
    ]);
    assert.equal(r.code, 4);
    assert.match(r.err, /^skillgate contract check: SKILL_CONTRACT_UNKNOWN_SHAPE/);
  });
});

Deno.test("contract check exits 5 for an unknown skill, no contract or an invalid contract", async () => {
  const t = join(FIX, "investigate_unmet.jsonl");
  const unknown = await run(["check", "--transcript", t, "--skill", "investigate"]);
  assert.equal(unknown.code, 5);
  assert.match(unknown.err, /No installed skill is named investigate/);
  await withRoot(async (dir) => {
    const none = join(dir, "none.md");
    await Deno.writeTextFile(none, "---\nname: x\n---\nbody\n");
    const r1 = await run([
      "check",
      "--transcript",
      t,
      "--skill",
      "investigate",
      "--skill-file",
      none,
    ]);
    assert.equal(r1.code, 5);
    assert.match(r1.err, /declares no contract/);
    const bad = join(dir, "bad.md");
    await Deno.writeTextFile(bad, "---\ncontract:\n  version: 2\n  items: []\n---\n");
    const r2 = await run([
      "check",
      "--transcript",
      t,
      "--skill",
      "investigate",
      "--skill-file",
      bad,
    ]);
    assert.equal(r2.code, 5);
    assert.ok(r2.err.includes(bad));
    assert.match(r2.err, /unsupported contract version 2/);
  });
});

Deno.test("contract check exits 6 when the transcript never loads the skill", async () => {
  const r = await run([
    "check",
    "--transcript",
    join(FIX, "investigate_unmet.jsonl"),
    "--skill",
    "review",
    "--skill-file",
    REVIEW_FILE,
  ]);
  assert.equal(r.code, 6);
  assert.match(r.err, /^skillgate contract check: SKILL_CONTRACT_NOT_LOADED/);
});

Deno.test("contract lint accepts the fixture skills and exits 5 on a bad block", async () => {
  const good = await run(["lint", SKILL_FILE, REVIEW_FILE]);
  assert.equal(good.code, 0);
  assert.match(good.out, /ok \(contract v1, 2 item\(s\): debug-report, repro-after-fix\)/);
  await withRoot(async (dir) => {
    const bad = join(dir, "SKILL.md");
    await Deno.writeTextFile(
      bad,
      "---\ncontract:\n  version: 1\n  items:\n    - id: x\n      kind: vibes\n---\n",
    );
    const r = await run(["lint", SKILL_FILE, bad]);
    assert.equal(r.code, 5);
    assert.match(r.out, /unknown kind "vibes"/);
    assert.equal((await run(["lint"])).code, 2);
  });
});

Deno.test("contract lint reports a match that RE2 cannot run (lookaround, back-reference)", async () => {
  await withRoot(async (dir) => {
    const cases: [string, RegExp][] = [
      ["(?=security)review", /lookaround and back-references are not supported/],
      ["(review)\\1", /lookaround and back-references are not supported/],
      ["security(?<!in)review", /not a valid RE2 regular expression/],
    ];
    for (const [match, problem] of cases) {
      const file = join(dir, "SKILL.md");
      await Deno.writeTextFile(
        file,
        "---\ncontract:\n  version: 1\n  items:\n    - id: sec\n      kind: agent_dispatch\n" +
          `      match: '${match}'\n---\n`,
      );
      const r = await run(["lint", file]);
      assert.equal(r.code, 5, match);
      assert.match(r.out, /item "sec": match is not a valid RE2 regular expression \(/, match);
      assert.match(r.out, problem, match);
    }
  });
});

Deno.test("skillgate contract check runs as a process with the seed's exit code and text", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      join(ROOT, "cli.ts"),
      "contract",
      "check",
      "--transcript",
      join(FIX, "investigate_unmet.jsonl"),
      "--skill",
      "investigate",
      "--skill-file",
      SKILL_FILE,
    ],
    env: { SKILLGATE_STATE_ROOT: "/nonexistent-skillgate-state", SKILLGATE_COMMAND: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  assert.equal(new TextDecoder().decode(out.stdout).split("\n")[0], SEED_BLOCK);
});

Deno.test("contract lint reports every problem of a file in one run", async () => {
  await withRoot(async (dir) => {
    const file = join(dir, "SKILL.md");
    await Deno.writeTextFile(
      file,
      "---\nname: x\ncontract:\n  version: 1\n  items:\n" +
        "    - id: Bad Id\n      kind: check_after_last_edit\n" +
        "    - id: two\n      kind: vibes\n" +
        "    - id: three\n      kind: agent_dispatch\n      match: '(?=x)y'\n---\n",
    );
    const r = await run(["lint", file]);
    assert.equal(r.code, 5);
    const lines = r.out.split("\n");
    assert.match(
      lines[0],
      /^skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*SKILL\.md: item 1: id must be lowercase letters/,
    );
    assert.match(
      lines[1],
      /^skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*SKILL\.md: item "two": unknown kind "vibes"/,
    );
    assert.match(
      lines[2],
      /^skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*SKILL\.md: item "three": match is not a valid RE2/,
    );
    assert.match(lines[3], /SKILL\.md: SKILL_CONTRACT_NO_CONTRACT 3 errors$/);
  });
});

Deno.test("contract lint gives a YAML error its line, and reads frontmatter as the hook does", async () => {
  await withRoot(async (dir) => {
    // A description with an unquoted colon: Claude Code (and the catalog) read it; the contract
    // below it is a mapping.
    const colon = join(dir, "colon.md");
    await Deno.writeTextFile(
      colon,
      "---\nname: colon\ndescription: Use when: the user says fix it\ncontract:\n  version: 1\n" +
        "  items:\n    - id: repro\n      kind: check_after_last_edit\n---\nbody\n",
    );
    const ok = await run(["lint", colon]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(
      ok.out,
      /skillgate contract lint: WARN .*colon\.md:3: description is not valid YAML \(.*\); read as plain text/,
    );
    assert.match(ok.out, /colon\.md: ok \(contract v1, 1 item\(s\): repro\)/);
    // A YAML error inside the contract block: an error, with its line.
    const broken = join(dir, "broken.md");
    await Deno.writeTextFile(
      broken,
      "---\nname: broken\ncontract:\n  version: 1\n  items:\n    - id: a\n      kind: [x\n---\n",
    );
    const bad = await run(["lint", broken]);
    assert.equal(bad.code, 5);
    assert.match(
      bad.out,
      /skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*broken\.md:\d+: contract is not valid YAML: /,
    );
  });
});

Deno.test("contract lint: a file without frontmatter is an error; --json gives every file's problems", async () => {
  await withRoot(async (dir) => {
    const plain = join(dir, "plain.md");
    await Deno.writeTextFile(plain, "# Just a heading\n");
    const r = await run(["lint", plain]);
    assert.equal(r.code, 5);
    assert.match(
      r.out,
      /skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*plain\.md:1: No frontmatter/,
    );
    const j = await run(["lint", "--json", plain, SKILL_FILE]);
    assert.equal(j.code, 5);
    const data = JSON.parse(j.out);
    assert.equal(data.word, "SKILL_CONTRACT_NO_CONTRACT");
    assert.equal(data.files[0].status, "invalid");
    assert.equal(data.files[0].errors[0].line, 1);
    assert.equal(data.files[1].status, "ok");
    assert.deepEqual(data.files[1].items, ["debug-report", "repro-after-fix"]);
  });
});

Deno.test("contract check reads a Copilot CLI events.jsonl (host from the file) with Copilot's own skills", async () => {
  const events = join(FIX, "copilot", "met_after_block.jsonl");
  const saved = Deno.env.get("COPILOT_HOME");
  const home = await Deno.makeTempDir();
  try {
    // The skill in Copilot CLI's own folder: the catalog reads it for a Copilot transcript.
    await Deno.mkdir(join(home, "skills", "investigate"), { recursive: true });
    await Deno.copyFile(
      join(ROOT, "fixtures/host/skills/investigate/SKILL.md"),
      join(home, "skills", "investigate", "SKILL.md"),
    );
    Deno.env.set("COPILOT_HOME", home);
    const met = await run(["check", "--transcript", events, "--skill", "investigate"]);
    assert.equal(met.code, 0, met.out + met.err);
    // Cut at the first agentStop: the state the hook blocked on.
    const lines = (await Deno.readTextFile(events)).split("\n");
    const at = lines.findIndex((l) => l.includes('"agentStop"') && l.includes('"hook.start"'));
    const cut = join(home, "events.jsonl");
    await Deno.writeTextFile(cut, lines.slice(0, at + 1).join("\n") + "\n");
    const unmet = await run(["check", "--transcript", cut, "--skill", "investigate"]);
    assert.equal(unmet.code, 1, unmet.out + unmet.err);
    assert.equal(unmet.out.split("\n")[0], SEED_BLOCK);
  } finally {
    saved === undefined ? Deno.env.delete("COPILOT_HOME") : Deno.env.set("COPILOT_HOME", saved);
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("contract lint checks an overlay file: every problem with its line", async () => {
  await withRoot(async (dir) => {
    const file = join(dir, "skills.yaml");
    await Deno.writeTextFile(
      file,
      "debugging:\n  route: maybe\n  contract:\n    version: 1\n    items:\n" +
        "      - {id: cause, kind: report_labels, heading: ROOT CAUSE, labels: [Cause]}\n" +
        "      - {id: two, kind: vibes}\n",
    );
    const r = await run(["lint", file]);
    assert.equal(r.code, 5);
    const lines = r.out.split("\n");
    assert.match(
      lines[0],
      /^skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*skills\.yaml:2: debugging: route must be true or false/,
    );
    assert.match(
      lines[1],
      /^skillgate contract lint: SKILL_CONTRACT_NO_CONTRACT .*skills\.yaml:7: debugging: item "two": unknown kind "vibes"/,
    );
    assert.match(lines[2], /skills\.yaml: SKILL_CONTRACT_NO_CONTRACT 2 errors$/);
    const good = join(dir, "good.yml");
    await Deno.writeTextFile(good, "debugging:\n  triggers: [debug this]\n");
    const ok = await run(["lint", good, "--json"]);
    assert.equal(ok.code, 0, ok.out);
    assert.deepEqual(JSON.parse(ok.out).files[0].overlay, true);
  });
});

Deno.test("contract check: an overlay's contract beats the skill's own, and says where it came from", async () => {
  const r = await run(
    ["check", "--transcript", join(FIX, "investigate_unmet.jsonl"), "--skill", "investigate"],
    async ({ claude, state }) => {
      await install(claude, "investigate", SKILL_FILE);
      await Deno.mkdir(state, { recursive: true });
      await Deno.writeTextFile(
        join(state, "skills.yaml"),
        "investigate:\n  contract:\n    version: 1\n    items:\n" +
          "      - {id: overlay-report, kind: report_labels, heading: OVERLAY REPORT, labels: [X]}\n",
      );
    },
  );
  assert.equal(r.code, 1);
  assert.match(
    r.out.split("\n")[0],
    /^SKILL_CONTRACT_UNMET investigate \(contract v1\): missing overlay-report\./,
  );
  assert.match(r.out, /\n {2}contract from overlay user .*skills\.yaml:2\n/);
  const own = await run(
    ["check", "--transcript", join(FIX, "investigate_unmet.jsonl"), "--skill", "investigate"],
    ({ claude }) => install(claude, "investigate", SKILL_FILE),
  );
  assert.match(own.out, /\n {2}contract from frontmatter .*investigate\/SKILL\.md\n/);
});

Deno.test("contract check: with contract_packs a superpowers skill's pack contract, said to come from the pack", async () => {
  const { jsonl, say, skillLoad, user } = await import("../../fixtures/transcripts/_build.ts");
  const dir = await Deno.makeTempDir();
  try {
    const transcript = join(dir, "t.jsonl");
    await Deno.writeTextFile(
      transcript,
      jsonl([
        user("plan the export"),
        ...skillLoad("toolu_wp", "writing-plans"),
        say("The plan: add the flag, then the exporter."),
      ]),
    );
    const args = ["check", "--transcript", transcript, "--skill", "writing-plans"];
    const world = (packs: string | undefined) =>
    async (
      { claude, state }: { claude: string; state: string },
    ) => {
      await Deno.mkdir(join(claude, "skills", "writing-plans"), { recursive: true });
      await Deno.writeTextFile(
        join(claude, "skills", "writing-plans", "SKILL.md"),
        "---\nname: writing-plans\ndescription: Use when you have a spec or requirements for a " +
          "multi-step task, before touching code\n---\n1. Write the plan.\n",
      );
      await Deno.mkdir(state, { recursive: true });
      if (packs) {
        await Deno.writeTextFile(join(state, "config.yaml"), `contract_packs: ${packs}\n`);
      }
    };
    const r = await run(args, world("superpowers"));
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(
      r.out.split("\n")[0],
      /^SKILL_CONTRACT_UNMET writing-plans \(contract v1\): missing plan-saved\./,
    );
    assert.match(r.out, /\n {2}contract from pack superpowers\n/);
    const off = await run(args, world(undefined));
    assert.equal(off.code, 5, off.out + off.err);
    assert.match(off.out + off.err, /declares no contract/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

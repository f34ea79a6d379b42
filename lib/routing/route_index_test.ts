import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { findSkill, loadCatalog } from "../catalog/catalog.ts";
import { loadRouteIndex, type TriggerCompiler } from "./route_index.ts";
import { compilerFingerprint, compileTrigger, preparePrompt } from "./score.ts";
import { loadRouteSkills, routeHint, routePrompt } from "./route.ts";
import type { RouteSkill } from "./route_skill.ts";
import { claudeFolders } from "../host/_kit_test.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

function skillFile(name: string, triggers: readonly string[], extra = ""): string {
  return `---\nname: ${name}\ntriggers: ${JSON.stringify(triggers)}\n${extra}---\n1. Do it.\n`;
}

async function withDir(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-route-index-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function counting(version: string): TriggerCompiler & { calls: number } {
  const c = {
    version,
    calls: 0,
    compile(text: string) {
      c.calls++;
      return compileTrigger(text);
    },
  };
  return c;
}

Deno.test("loadRouteIndex() compiles triggers once per compiler version and sees an in-place edit", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "investigate", "SKILL.md"),
      skillFile("investigate", ["debug this", "fix this bug"]),
    );
    write(
      join(claude, "skills", "migrate", "SKILL.md"),
      skillFile("amplihack-migrate", ["move it"]),
    );
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    const a = counting("a");
    const first = await loadRouteIndex({ ...opts, compiler: a });
    assert.equal(first.fromIndex, false);
    assert.equal(a.calls, 3);
    assert.equal(Deno.statSync(join(root, "state", "catalog", "routes.idx")).mode! & 0o777, 0o600);
    a.calls = 0;
    const second = await loadRouteIndex({ ...opts, compiler: a });
    assert.equal(second.fromIndex, true);
    assert.equal(a.calls, 0);
    assert.equal(second.count, 2);
    for (const e of second.all()) {
      assert.deepEqual(e.compiled, e.skill.triggers.map((t) => compileTrigger(t)));
    }
    assert.deepEqual(second.all().map((e) => [e.skill.name, e.skill.altName]), [
      ["investigate", undefined],
      ["migrate", "amplihack-migrate"],
    ]);
    // Another compiler version compiles again.
    const b = counting("b");
    assert.equal((await loadRouteIndex({ ...opts, compiler: b })).fromIndex, false);
    assert.equal(b.calls, 3);
    b.calls = 0;
    assert.equal((await loadRouteIndex({ ...opts, compiler: b })).fromIndex, true);
    assert.equal(b.calls, 0);
    // An in-place edit (the directory's mtime unchanged) is seen through the file's own mtime.
    const file = join(claude, "skills", "investigate", "SKILL.md");
    Deno.writeTextFileSync(file, skillFile("investigate", ["Fix This", "why?", "flamegraph"]));
    Deno.utimeSync(file, new Date(), new Date(Date.now() + 5000));
    const edited = await loadRouteIndex({ ...opts, compiler: b });
    assert.equal(edited.fromIndex, false);
    assert.deepEqual(edited.all()[0].skill.triggers, ["Fix This", "why?", "flamegraph"]);
    assert.deepEqual(edited.select(new Set(["flamegraph"])).map((e) => e.skill.name), [
      "investigate",
    ]);
  });
});

Deno.test("loadRouteIndex() keeps other projects' roots and survives a damaged file", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "investigate", "SKILL.md"),
      skillFile("investigate", ["debug this"]),
    );
    const projects = ["one", "two"].map((p) => {
      const dir = join(root, p);
      write(join(dir, ".git", "HEAD"), "ref");
      write(join(dir, ".claude", "skills", `${p}-skill`, "SKILL.md"), skillFile(`${p}-skill`, [p]));
      return dir;
    });
    const c = counting("a");
    const opts = (cwd: string) => ({
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      cwd,
      compiler: c,
    });
    await loadRouteIndex(opts(projects[0]));
    await loadRouteIndex(opts(projects[1]));
    c.calls = 0;
    const back = await loadRouteIndex(opts(projects[0]));
    assert.equal(back.fromIndex, true);
    assert.equal(c.calls, 0);
    assert.deepEqual(back.all().map((e) => e.skill.name), ["investigate", "one-skill"]);
    Deno.writeTextFileSync(
      join(root, "state", "catalog", "routes.idx"),
      '{"format":"skillgate-routes-1"}\n{"key":',
    );
    const damaged = await loadRouteIndex(opts(projects[0]));
    assert.equal(damaged.fromIndex, false);
    assert.deepEqual(damaged.all().map((e) => e.skill.name), ["investigate", "one-skill"]);
    assert.equal((await loadRouteIndex(opts(projects[0]))).fromIndex, true);
  });
});

Deno.test("a damaged line of a fresh routing index throws once and is rebuilt on the next load", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "investigate", "SKILL.md"),
      skillFile("investigate", ["debug this"]),
    );
    const opts = {
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler: counting("a"),
    };
    await loadRouteIndex(opts);
    const file = join(root, "state", "catalog", "routes.idx");
    const lines = Deno.readTextFileSync(file).split("\n");
    assert.ok(lines[6].startsWith('["investigate"'));
    lines[6] = lines[6].slice(0, 10);
    Deno.writeTextFileSync(file, lines.join("\n"));
    const damaged = await loadRouteIndex(opts);
    assert.equal(damaged.fromIndex, true);
    assert.throws(() => damaged.select(new Set(["debug"])), SyntaxError);
    const rebuilt = await loadRouteIndex(opts);
    assert.equal(rebuilt.fromIndex, false);
    assert.deepEqual(rebuilt.select(new Set(["debug"])).map((e) => e.skill.name), ["investigate"]);
  });
});

Deno.test("a skill from the routing index gives the same step and contract hints as its catalog entry", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const items = [
      "    - { id: a, kind: report_labels, summary: a DEBUG REPORT }",
      "    - { id: b, kind: report_labels, summary: 7 }",
      "    - just text",
      ...Array.from(
        { length: 25 },
        (_, i) => `    - { id: x${i}, kind: report_labels, summary: "item <${i}>" }`,
      ),
    ];
    write(
      join(claude, "skills", "investigate", "SKILL.md"),
      skillFile(
        "investigate",
        ["debug this"],
        `contract:\n  version: 1\n  items:\n${items.join("\n")}\n`,
      ),
    );
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    const compiler = { version: compilerFingerprint(), compile: compileTrigger };
    await loadRouteIndex({ ...opts, compiler });
    const fromIndex = (await loadRouteIndex({ ...opts, compiler })).all()[0].skill;
    const entry = findSkill(await loadCatalog({ ...opts, agents: false }), "investigate")!;
    for (const mode of ["name", "step", "contract"] as const) {
      assert.equal(routeHint(fromIndex, mode, "claude"), routeHint(entry, mode, "claude"));
    }
    assert.ok(
      routeHint(fromIndex, "contract", "claude").includes(
        "It is done when: a DEBUG REPORT; item '0'",
      ),
    );
  });
});

const VOCABULARY = [
  "fix",
  "bug",
  "bugs",
  "failing",
  "broken",
  "debug",
  "review",
  "pr",
  "pull",
  "request",
  "qa",
  "test",
  "tests",
  "site",
  "what's",
  "going",
  "on",
  "why",
  "how",
  "come",
  "off",
  "by",
  "one",
  "this",
  "the",
  "it",
  "do",
  "a",
  "deploy",
  "iOS",
  "TypeError",
  "error",
  "doesn't",
  "work",
  "check",
  "my",
  "diff",
  "once",
  "over",
  "look",
  "crash",
  "flamegraph",
  "café",
  "über",
];

Deno.test("routing through the index scores exactly like scoring every skill (property)", async () => {
  await withDir(async (root) => {
    const dir = join(root, "skills");
    const phrase = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 4 })
      .map((ws) => ws.join(" "));
    const skills = fc.sample(fc.array(phrase, { minLength: 0, maxLength: 4 }), {
      numRuns: 120,
      seed: 7,
    });
    skills.forEach((triggers, i) =>
      write(join(dir, `s${i}`, "SKILL.md"), skillFile(`s${i}`, triggers))
    );
    const world = await loadRouteSkills({
      hostFolders: claudeFolders(join(root, "no-claude")),
      extraSkillDirs: [dir],
      stateRoot: join(root, "state"),
    });
    const warm = await loadRouteSkills({
      hostFolders: claudeFolders(join(root, "no-claude")),
      extraSkillDirs: [dir],
      stateRoot: join(root, "state"),
    });
    assert.equal(world.count, skills.length);
    const all: readonly RouteSkill[] = world.skills;
    const show = (d: ReturnType<typeof routePrompt>) =>
      d.candidates.map((c) => `${c.skill.name} ${c.score} ${c.trigger} ${c.matched}`);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...VOCABULARY, "https://x.dev", "!", "?"), {
          minLength: 1,
          maxLength: 8,
        }),
        (words) => {
          const prompt = words.join(" ");
          const expected = show(routePrompt(prompt, all, { routable: ["*"] }));
          assert.deepEqual(show(routePrompt(prompt, world, { routable: ["*"] })), expected);
          assert.deepEqual(show(routePrompt(prompt, warm, { routable: ["*"] })), expected);
        },
      ),
      { numRuns: 300 },
    );
    // The index narrows: a prompt with one content word scores a few skills, not all of them.
    const few = warm.candidatesFor(preparePrompt("flamegraph"));
    assert.ok(few.length < warm.count / 2, `${few.length} of ${warm.count}`);
  });
});

Deno.test("loadRouteIndex() routes through a symlinked skills root and sees a skill added behind it", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    Deno.mkdirSync(claude);
    const shared = join(root, "dotfiles", "skills");
    write(join(shared, "investigate", "SKILL.md"), skillFile("investigate", ["debug this"]));
    Deno.symlinkSync(shared, join(claude, "skills"));
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    const compiler = counting("a");
    const first = await loadRouteIndex({ ...opts, compiler });
    assert.deepEqual(first.all().map((e) => e.skill.name), ["investigate"]);
    assert.equal((await loadRouteIndex({ ...opts, compiler })).fromIndex, true);
    write(join(shared, "profile", "SKILL.md"), skillFile("profile", ["flamegraph"]));
    Deno.utimeSync(shared, new Date(), new Date(Date.now() + 5000));
    const after = await loadRouteIndex({ ...opts, compiler });
    assert.equal(after.fromIndex, false);
    assert.deepEqual(after.select(new Set(["flamegraph"])).map((e) => e.skill.name), ["profile"]);
  });
});

Deno.test("a disable-model-invocation skill is user-only from the catalog and from the index", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "ship", "SKILL.md"),
      skillFile("ship", ["ship it"], "disable-model-invocation: true\n"),
    );
    write(join(claude, "skills", "investigate", "SKILL.md"), skillFile("investigate", ["debug"]));
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    for (let load = 0; load < 2; load++) {
      // The first load scans the catalog, the second reads the index file.
      const world = await loadRouteSkills(opts);
      const d = routePrompt("ok ship it", world, { routable: ["ship", "investigate"] });
      assert.equal(d.route?.skill.name, "ship", `load ${load}`);
      assert.equal(d.route?.skill.userOnly, true, `load ${load}`);
      const hint = routeHint(d.route!.skill, "name", "claude");
      assert.match(hint, /only the user can start, by typing \/ship/);
      assert.ok(!/Skill tool/.test(hint), hint);
      const inv = world.skills.find((s) => s.name === "investigate");
      assert.equal(inv?.userOnly, undefined);
    }
  });
});

Deno.test("loadRouteIndex() with a prompt's keys: candidates' edits at once, others by folder or sweep", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const skills = join(claude, "skills");
    const fileOf = (name: string) => join(skills, name, "SKILL.md");
    write(fileOf("investigate"), skillFile("investigate", ["debug this", "fix this bug"]));
    write(fileOf("release"), skillFile("release", ["ship the release"]));
    // Folders dated in the past, so that any change later moves their mtimes.
    const past = new Date(Date.now() - 3_600_000);
    for (const d of [skills, join(skills, "investigate"), join(skills, "release")]) {
      Deno.utimeSync(d, past, past);
    }
    const compiler = counting("a");
    let clock = Date.now();
    const opts = (prompt?: string) => ({
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler,
      now: () => clock,
      ...(prompt === undefined ? {} : { keys: preparePrompt(prompt).keys }),
    });
    const triggersOf = async (prompt: string | undefined, name: string) => {
      const index = await loadRouteIndex(opts(prompt));
      return { index, triggers: index.all().find((e) => e.skill.name === name)!.skill.triggers };
    };
    await loadRouteIndex(opts());
    const bugPrompt = "debug this bug please";
    assert.equal((await loadRouteIndex(opts(bugPrompt))).fromIndex, true);
    // An in-place edit of a candidate (the folder's mtime unchanged) is seen on the next prompt.
    const future = new Date(Date.now() + 5000);
    Deno.writeTextFileSync(fileOf("investigate"), skillFile("investigate", ["debug flamegraph"]));
    Deno.utimeSync(fileOf("investigate"), future, future);
    Deno.utimeSync(join(skills, "investigate"), past, past);
    let seen = await triggersOf(bugPrompt, "investigate");
    assert.equal(seen.index.fromIndex, false);
    assert.deepEqual(seen.triggers, ["debug flamegraph"]);
    // An in-place edit of a skill that is not a candidate waits for the sweep…
    Deno.writeTextFileSync(fileOf("release"), skillFile("release", ["cut a release"]));
    Deno.utimeSync(fileOf("release"), future, future);
    Deno.utimeSync(join(skills, "release"), past, past);
    seen = await triggersOf(bugPrompt, "release");
    assert.equal(seen.index.fromIndex, true);
    assert.deepEqual(seen.triggers, ["ship the release"]);
    // …and is seen once the last sweep is over a minute old, or with no keys at all.
    assert.deepEqual((await triggersOf(undefined, "release")).triggers, ["cut a release"]);
    Deno.writeTextFileSync(fileOf("release"), skillFile("release", ["tag a release"]));
    Deno.utimeSync(fileOf("release"), new Date(Date.now() + 9000), new Date(Date.now() + 9000));
    Deno.utimeSync(join(skills, "release"), past, past);
    clock += 30_000;
    assert.deepEqual((await triggersOf(bugPrompt, "release")).triggers, ["cut a release"]);
    clock += 31_000;
    seen = await triggersOf(bugPrompt, "release");
    assert.equal(seen.index.fromIndex, false);
    assert.deepEqual(seen.triggers, ["tag a release"]);
    // A sweep that finds nothing changed is written back: the next prompt does not sweep again.
    clock += 61_000;
    assert.equal((await loadRouteIndex(opts(bugPrompt))).fromIndex, true);
    const swept = Deno.readTextFileSync(join(root, "state", "catalog", "routes.idx"));
    assert.ok(swept.includes(`"swept":${clock}`));
    // An atomic save (a new file renamed over the old) of a candidate: seen on the next prompt.
    const atomic = (name: string, triggers: string[]) => {
      const tmp = join(skills, name, ".SKILL.md.tmp");
      Deno.writeTextFileSync(tmp, skillFile(name, triggers));
      Deno.renameSync(tmp, fileOf(name));
    };
    atomic("investigate", ["debug the heap"]);
    assert.deepEqual((await triggersOf(bugPrompt, "investigate")).triggers, ["debug the heap"]);
    // An atomic save of a skill that is not a candidate changes only its own folder, which is not
    // checked on each prompt: it is seen by the sweep (within a minute), not before.
    atomic("release", ["publish a release"]);
    clock += 59_000;
    assert.deepEqual((await triggersOf(bugPrompt, "release")).triggers, ["tag a release"]);
    clock += 2_000;
    assert.deepEqual((await triggersOf(bugPrompt, "release")).triggers, ["publish a release"]);
    // A skill added is seen at once (its root folder changes)…
    write(fileOf("review"), skillFile("review", ["review the diff"]));
    const names = async () =>
      (await loadRouteIndex(opts(bugPrompt))).all().map((e) => e.skill.name);
    assert.deepEqual((await names()).sort(), ["investigate", "release", "review"]);
    // …and so are a skill removed and a skill renamed.
    Deno.removeSync(join(skills, "review"), { recursive: true });
    assert.deepEqual((await names()).sort(), ["investigate", "release"]);
    Deno.renameSync(join(skills, "release"), join(skills, "ship"));
    assert.deepEqual((await names()).sort(), ["investigate", "ship"]);
  });
});

Deno.test("loadRouteIndex() sees a skill added, removed or renamed in a nested layout at once", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const skills = join(claude, "skills");
    write(join(skills, "ops", "release", "SKILL.md"), skillFile("release", ["ship the release"]));
    write(join(skills, "dev", "investigate", "SKILL.md"), skillFile("investigate", ["debug it"]));
    const clock = Date.now();
    const opts = {
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler: counting("a"),
      now: () => clock,
      keys: preparePrompt("debug it please").keys,
    };
    const names = async () => {
      const index = await loadRouteIndex(opts);
      return { fromIndex: index.fromIndex, names: index.all().map((e) => e.skill.name).sort() };
    };
    assert.deepEqual((await names()).names, ["investigate", "release"]);
    assert.deepEqual(await names(), { fromIndex: true, names: ["investigate", "release"] });
    // Added in a category folder (only that folder's mtime changes), then a new category.
    write(join(skills, "ops", "deploy", "SKILL.md"), skillFile("deploy", ["roll out"]));
    assert.deepEqual((await names()).names, ["deploy", "investigate", "release"]);
    write(join(skills, "qa", "browse", "SKILL.md"), skillFile("browse", ["open the page"]));
    assert.deepEqual((await names()).names, ["browse", "deploy", "investigate", "release"]);
    // Removed, and renamed, inside a category folder.
    Deno.removeSync(join(skills, "ops", "deploy"), { recursive: true });
    assert.deepEqual((await names()).names, ["browse", "investigate", "release"]);
    Deno.renameSync(join(skills, "ops", "release"), join(skills, "ops", "ship"));
    assert.deepEqual((await names()).names, ["browse", "investigate", "ship"]);
    // A SKILL.md that appears in an empty folder of a category (watched while it is empty).
    Deno.mkdirSync(join(skills, "qa", "lint"));
    assert.deepEqual((await names()).names, ["browse", "investigate", "ship"]);
    Deno.writeTextFileSync(join(skills, "qa", "lint", "SKILL.md"), skillFile("lint", ["lint it"]));
    assert.deepEqual((await names()).names, ["browse", "investigate", "lint", "ship"]);
  });
});

Deno.test("loadRouteSkills() with the prompt routes on a candidate's in-place edit at the next prompt", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const file = join(claude, "skills", "investigate", "SKILL.md");
    // A candidate before the edit: its old trigger shares a word with the prompt.
    write(file, skillFile("investigate", ["triage the outage"]));
    const past = new Date(Date.now() - 3_600_000);
    Deno.utimeSync(join(claude, "skills", "investigate"), past, past);
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    const prompt = "please triage the flamegraph";
    const first = await loadRouteSkills({ ...opts, prompt });
    assert.equal(routePrompt(prompt, first).route, undefined);
    Deno.writeTextFileSync(file, skillFile("investigate", ["triage the flamegraph"]));
    const future = new Date(Date.now() + 5000);
    Deno.utimeSync(file, future, future);
    Deno.utimeSync(join(claude, "skills", "investigate"), past, past);
    const next = await loadRouteSkills({ ...opts, prompt });
    assert.equal(routePrompt(prompt, next).route?.skill.name, "investigate");
  });
});

Deno.test("the skills a skill's text sends requests to come the same from the catalog and the index", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "qa", "SKILL.md"),
      skillFile("qa", ["qa test this"]) + "For report-only mode, use /qa-only.\n",
    );
    write(join(claude, "skills", "qa-only", "SKILL.md"), skillFile("qa-only", ["qa report only"]));
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    for (let load = 0; load < 2; load++) {
      // The first load scans the catalog, the second reads the index file.
      const world = await loadRouteSkills(opts);
      assert.deepEqual(world.skills.find((s) => s.name === "qa")?.sendsTo, ["qa-only"]);
      assert.equal(world.skills.find((s) => s.name === "qa-only")?.sendsTo, undefined);
      const d = routePrompt("QA it but only give me a report", world, { routable: ["qa"] });
      assert.equal(d.reason, "sent-elsewhere", `load ${load}`);
    }
  });
});

Deno.test("a pack entry gives its triggers and its pack only to a skill whose name and text match", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const debugging = "Use when encountering any bug, test failure, or unexpected behavior, " +
      "before proposing fixes";
    // The pack's own skill, a private skill of the same name, and a pack skill with own triggers.
    write(
      join(claude, "skills", "systematic-debugging", "SKILL.md"),
      `---\nname: systematic-debugging\ndescription: ${debugging}\n---\n1. Reproduce.\n`,
    );
    write(
      join(claude, "skills", "brainstorming", "SKILL.md"),
      "---\nname: brainstorming\ndescription: Our team's list of meeting rooms\n---\n1. Look.\n",
    );
    write(
      join(claude, "skills", "writing-plans", "SKILL.md"),
      skillFile(
        "writing-plans",
        ["plan it"],
        "description: Use when you have a spec or requirements for a multi-step task, before " +
          "touching code\n",
      ),
    );
    const index = await loadRouteIndex({
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler: counting("p"),
    });
    const by = new Map(index.all().map((e) => [e.skill.name, e.skill]));
    assert.equal(by.get("systematic-debugging")?.pack, "superpowers");
    assert.ok(by.get("systematic-debugging")!.triggers.includes("find the root cause"));
    assert.equal(by.get("brainstorming")?.pack, undefined);
    assert.deepEqual(by.get("brainstorming")?.triggers, []);
    assert.equal(by.get("writing-plans")?.pack, "superpowers");
    assert.deepEqual(by.get("writing-plans")?.triggers, ["plan it"]);
    // The same from the index file.
    const again = await loadRouteIndex({
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler: counting("p"),
    });
    assert.equal(again.fromIndex, true);
    assert.deepEqual(again.all().map((e) => e.skill.pack), index.all().map((e) => e.skill.pack));
  });
});

Deno.test("the routing index keeps the description terms of every root, by skill index", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: Merge and split PDF files. Do NOT use for spreadsheets.\n---\n",
    );
    write(
      join(root, "extra", "xlsx", "SKILL.md"),
      "---\nname: xlsx\ndescription: Use when a spreadsheet is the input.\n---\n",
    );
    const opts = {
      hostFolders: claudeFolders(claude),
      extraSkillDirs: [join(root, "extra")],
      stateRoot: join(root, "state"),
      compiler: counting("d"),
    };
    for (const index of [await loadRouteIndex(opts), await loadRouteIndex(opts)]) {
      const d = index.descriptions();
      assert.equal(d.count, 2);
      const names = (k: string) => d.postings(k).map(([i]) => index.entry(i).skill.name);
      assert.deepEqual(names("pdf"), ["pdf"]);
      assert.deepEqual(names("spreadsheet"), ["xlsx"]);
      assert.equal(d.postings("spreadsheet")[0][1], 2); // in the "Use when" clause
      assert.ok(d.length(1) > 0);
      assert.equal(d.totalLength, d.length(0) + d.length(1));
    }
  });
});

Deno.test("routing over the index: the description tier reads the index's terms", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(
      join(claude, "skills", "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: Merge, split and fill PDF files and forms, extract text and " +
        "tables from PDFs.\n---\n",
    );
    write(join(claude, "skills", "investigate", "SKILL.md"), skillFile("investigate", ["debug"]));
    const opts = { hostFolders: claudeFolders(claude), stateRoot: join(root, "state") };
    const prompt = "merge the scanned pdf forms and extract the tables";
    for (let i = 0; i < 2; i++) {
      const world = await loadRouteSkills({ ...opts, prompt });
      const d = routePrompt(prompt, world, { routable: ["pdf"] });
      assert.equal(d.route?.skill.name, "pdf");
      assert.equal(d.tier, "description");
      assert.equal(routePrompt(prompt, world).route, undefined);
    }
  });
});

Deno.test("loadRouteIndex(): overlay triggers are indexed; an overlay edit rebuilds from the JSON", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    const state = join(root, "state");
    write(join(claude, "skills", "debugging", "SKILL.md"), "---\nname: debugging\n---\nbody\n");
    write(join(claude, "skills", "other", "SKILL.md"), skillFile("other", ["tidy the docs"]));
    const opts = { hostFolders: claudeFolders(claude), stateRoot: state };
    const c = counting("a");
    const keysOf = (text: string) => preparePrompt(text).keys;
    const names = (list: { skill: { name: string } }[]) => list.map((e) => e.skill.name);
    const before = await loadRouteIndex({
      ...opts,
      compiler: c,
      keys: keysOf("find the root cause"),
    });
    assert.deepEqual(names(before.select(keysOf("find the root cause"))), []);
    const user = join(state, "skills.yaml");
    write(user, "debugging:\n  triggers: [find the root cause]\n  route: true\n");
    c.calls = 0;
    const after = await loadRouteIndex({
      ...opts,
      compiler: c,
      keys: keysOf("find the root cause"),
    });
    assert.equal(after.fromIndex, false, "built again for the new overlay files");
    const [hit] = after.select(keysOf("find the root cause"));
    assert.equal(hit.skill.name, "debugging");
    assert.deepEqual(hit.skill.triggers, ["find the root cause"]);
    assert.equal(hit.skill.route, true);
    assert.deepEqual(hit.skill.overlay?.triggers, { scope: "user", file: user, line: 2 });
    assert.deepEqual(hit.skill.overlay?.route, { scope: "user", file: user, line: 3 });
    // Unchanged: from the file, nothing compiled, and the YAML cache not needed.
    c.calls = 0;
    Deno.removeSync(join(state, "catalog", "overlays.json"));
    const again = await loadRouteIndex({
      ...opts,
      compiler: c,
      keys: keysOf("find the root cause"),
    });
    assert.equal(again.fromIndex, true);
    assert.equal(c.calls, 0);
    assert.deepEqual(names(again.select(keysOf("find the root cause"))), ["debugging"]);
    assert.equal(again.select(keysOf("find the root cause"))[0].skill.route, true);
    // The overlay removed: the skill's own (no) triggers again.
    Deno.removeSync(user);
    const gone = await loadRouteIndex({
      ...opts,
      compiler: c,
      keys: keysOf("find the root cause"),
    });
    assert.deepEqual(names(gone.select(keysOf("find the root cause"))), []);
    assert.deepEqual(names(gone.select(keysOf("tidy the docs"))), ["other"]);
  });
});

Deno.test("loadRouteIndex() never waits on a FIFO where an index file under the state root is", async () => {
  await withDir(async (root) => {
    const claude = join(root, "claude");
    write(join(claude, "skills", "investigate", "SKILL.md"), skillFile("investigate", ["debug"]));
    const catalog = join(root, "state", "catalog");
    Deno.mkdirSync(catalog, { recursive: true });
    const files = ["routes.idx", "skills.json", "skills.names.json", "skills.contracts.json"];
    for (const f of files) {
      const made = new Deno.Command("mkfifo", { args: [join(catalog, f)] }).outputSync();
      assert.ok(made.success, "mkfifo");
    }
    const index = await loadRouteIndex({
      hostFolders: claudeFolders(claude),
      stateRoot: join(root, "state"),
      compiler: counting("a"),
    });
    assert.equal(index.fromIndex, false);
    assert.deepEqual(index.all().map((e) => e.skill.name), ["investigate"]);
  });
});

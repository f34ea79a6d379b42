import assert from "node:assert/strict";
import { join } from "node:path";
import { contractSkills, findSkill, hasAgent, hasSkill, isAgent, loadCatalog } from "./catalog.ts";
import { claudeFolders } from "../host/_kit_test.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

const PAST = new Date(Date.now() - 3_600_000);

/** Skills (flat and nested) and agents, every folder dated in the past so any change moves it. */
async function world() {
  const root = await Deno.makeTempDir({ prefix: "skillgate-names-" });
  const claude = join(root, "claude");
  const project = join(root, "repo");
  write(join(claude, "skills", "investigate", "SKILL.md"), "---\nname: investigate\n---\n");
  write(join(claude, "skills", "migrate", "SKILL.md"), "---\nname: amplihack-migrate\n---\n");
  write(
    join(claude, "skills", "cat", "nested-skill", "SKILL.md"),
    "---\nname: nested-skill\n---\n",
  );
  write(join(claude, "agents", "prompt-writer.md"), "---\nname: prompt-writer\n---\n");
  write(join(claude, "agents", "core", "guide.md"), "---\nmeta:\n  name: guide\n---\n");
  write(join(claude, "agents", "stem-only.md"), "---\ndescription: no name\n---\n");
  write(join(project, ".git", "HEAD"), "ref");
  write(join(project, ".claude", "skills", "proj", "SKILL.md"), "---\nname: proj\n---\n");
  const plugin = join(claude, "plugins", "cache", "mkt", "tools", "1.0.0");
  write(join(plugin, ".claude-plugin", "plugin.json"), '{"name":"tools"}');
  write(join(plugin, "skills", "lint", "SKILL.md"), "---\nname: lint\n---\n");
  for (
    const d of [
      "skills",
      "skills/investigate",
      "skills/migrate",
      "skills/cat",
      "skills/cat/nested-skill",
      "agents",
      "agents/core",
    ]
  ) Deno.utimeSync(join(claude, d), PAST, PAST);
  return { root, claude, project, state: join(root, "state") };
}

/** An in-place edit: the file's content and mtime change, its folder's mtime does not. */
function editInPlace(file: string, text: string, ahead: number): void {
  const dir = join(file, "..");
  const before = Deno.statSync(dir).mtime!;
  Deno.writeTextFileSync(file, text);
  const t = new Date(Date.now() + ahead);
  Deno.utimeSync(file, t, t);
  Deno.utimeSync(dir, before, before);
}

/** An atomic save: a new file renamed over the old one (its folder's mtime changes). */
function saveAtomically(file: string, text: string): void {
  const tmp = join(file, "..", ".tmp-save");
  Deno.writeTextFileSync(tmp, text);
  Deno.renameSync(tmp, file);
}

Deno.test("hasAgent(): folders and the named file at once, other in-place edits at the sweep", async () => {
  const w = await world();
  try {
    let clock = Date.now();
    const sweepFile = join(w.state, "skill-redirect", ".catalog-sweep.json");
    // The redirect's view: it may not write the index, and keeps its sweeps in its own file.
    const opts = {
      hostFolders: claudeFolders(w.claude),
      stateRoot: w.state,
      writeIndex: false,
      sweepFile,
      now: () => clock,
    };
    assert.equal(await hasAgent(opts, "prompt-writer"), true, "no index: a full load");
    await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: w.state }); // another hook's write
    clock = Date.now() + 1;
    const index = join(w.state, "catalog", "agents.json");
    Deno.writeTextFileSync(index, "{damaged");
    // From the names index alone (a damaged full index is never read).
    assert.equal(await hasAgent(opts, "prompt-writer"), true);
    assert.equal(await hasAgent(opts, "/guide"), true);
    assert.equal(await hasAgent(opts, "stem-only"), true);
    assert.equal(await hasAgent(opts, "investigate"), false, "a skill");
    // The named file edited in place: seen at once.
    const writer = join(w.claude, "agents", "prompt-writer.md");
    editInPlace(writer, "---\nname: prompt-rewriter\n---\n", 5000);
    assert.equal(await hasAgent(opts, "prompt-writer"), false);
    // Its new name is not in the names index: like any other edit, seen at the sweep or once
    // another hook writes the index again.
    assert.equal(await hasAgent(opts, "prompt-rewriter"), false);
    await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: w.state });
    assert.equal(await hasAgent(opts, "prompt-rewriter"), true);
    // Another agent edited in place to take a new name: seen at the sweep, not before.
    editInPlace(join(w.claude, "agents", "stem-only.md"), "---\nname: renamed\n---\n", 6000);
    await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: w.state, agents: false });
    clock += 59_000;
    assert.equal(await hasAgent(opts, "renamed"), false, "not a candidate: waits for the sweep");
    clock += 2_000;
    assert.equal(await hasAgent(opts, "renamed"), true, "the sweep");
    // An agent file added, removed, or replaced atomically changes its folder: seen at once.
    write(join(w.claude, "agents", "core", "added.md"), "---\nname: added\n---\n");
    assert.equal(await hasAgent(opts, "added"), true);
    Deno.removeSync(join(w.claude, "agents", "core", "added.md"));
    assert.equal(await hasAgent(opts, "added"), false);
    await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: w.state, skills: false });
    saveAtomically(join(w.claude, "agents", "core", "guide.md"), "---\nname: sage\n---\n");
    assert.equal(await hasAgent(opts, "sage"), true);
    assert.equal(isAgent(await loadCatalog(opts), "sage"), true);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("hasSkill(): skills added, removed, renamed at once; another skill's edit at the sweep", async () => {
  const w = await world();
  try {
    let clock = Date.now();
    const sweepFile = join(w.state, "skill-redirect", ".catalog-sweep.json");
    const opts = {
      hostFolders: claudeFolders(w.claude),
      cwd: join(w.project, "src"),
      stateRoot: w.state,
      writeIndex: false,
      sweepFile,
      now: () => clock,
    };
    const writer = { ...opts, writeIndex: true, agents: false };
    await loadCatalog(writer);
    clock = Date.now() + 1;
    const names = join(w.state, "catalog", "skills.names.json");
    const index = join(w.state, "catalog", "skills.json");
    Deno.writeTextFileSync(index, "{damaged");
    assert.equal(await hasSkill(opts, "investigate"), true);
    assert.equal(await hasSkill(opts, "/amplihack-migrate"), true, "a frontmatter name");
    assert.equal(await hasSkill(opts, "migrate"), true, "a directory name");
    assert.equal(await hasSkill(opts, "nested-skill"), true, "a nested skill");
    assert.equal(await hasSkill(opts, "tools:lint"), true, "a plugin skill");
    assert.equal(await hasSkill(opts, "proj"), true, "a project skill");
    assert.equal(await hasSkill(opts, "prompt-writer"), false, "an agent");
    assert.equal(Deno.readTextFileSync(index), "{damaged", "the full index is never read");
    // A skill's own SKILL.md edited in place: seen at once.
    const file = join(w.claude, "skills", "investigate", "SKILL.md");
    editInPlace(file, "---\nname: probe\n---\n", 5000);
    assert.equal(await hasSkill(opts, "probe"), false, "not a name yet: waits for the sweep");
    assert.equal(await hasSkill(opts, "investigate"), true, "the directory name stays");
    // Atomically saved with a new frontmatter name: only its own folder changes, not checked on
    // each lookup; seen at the sweep.
    saveAtomically(join(w.claude, "skills", "migrate", "SKILL.md"), "---\nname: mover\n---\n");
    clock += 59_000;
    assert.equal(await hasSkill(opts, "mover"), false);
    assert.equal(await hasSkill(opts, "amplihack-migrate"), false, "the named file changed");
    clock += 2_000;
    assert.equal(await hasSkill(opts, "probe"), true, "the sweep");
    assert.equal(await hasSkill(opts, "mover"), true, "the sweep");
    await loadCatalog(writer);
    // A sweep that finds every file current is recorded in the sweep file, so the next lookup
    // does not check every file again (an in-place edit waits for the next sweep).
    clock += 61_000;
    assert.equal(await hasSkill(opts, "investigate"), true);
    const recorded = JSON.parse(Deno.readTextFileSync(sweepFile)).roots as Record<string, number>;
    assert.ok(Object.values(recorded).includes(clock));
    editInPlace(
      join(w.claude, "skills", "cat", "nested-skill", "SKILL.md"),
      "---\nname: n2\n---\n",
      7000,
    );
    clock += 1_000;
    assert.equal(await hasSkill(opts, "n2"), false);
    // Added, removed and renamed, flat and nested: seen at once.
    write(join(w.claude, "skills", "fresh", "SKILL.md"), "---\ndescription: d\n---\n");
    assert.equal(await hasSkill(opts, "fresh"), true);
    write(join(w.claude, "skills", "cat", "deep", "SKILL.md"), "---\nname: deep\n---\n");
    assert.equal(await hasSkill(opts, "deep"), true);
    Deno.removeSync(join(w.claude, "skills", "cat", "deep"), { recursive: true });
    assert.equal(await hasSkill(opts, "deep"), false);
    Deno.renameSync(join(w.claude, "skills", "fresh"), join(w.claude, "skills", "renamed"));
    assert.equal(await hasSkill(opts, "fresh"), false);
    assert.equal(await hasSkill(opts, "renamed"), true);
    // A names index that is missing (an upgrade) is written from a fresh skills index.
    await loadCatalog(writer);
    Deno.removeSync(names);
    await loadCatalog(writer);
    assert.ok(Deno.statSync(names).isFile);
    assert.ok(findSkill(await loadCatalog(opts), "renamed"));
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("hasSkill() from the names index: a name with a tab, newline or backslash is one name", async () => {
  const w = await world();
  try {
    write(join(w.claude, "skills", "odd", "SKILL.md"), '---\nname: "a\\tb\\nc\\\\d"\n---\n');
    const opts = { hostFolders: claudeFolders(w.claude), stateRoot: w.state, agents: false };
    await loadCatalog(opts);
    const view = { ...opts, writeIndex: false, now: () => Date.now() };
    assert.equal(await hasSkill(view, "a\tb\nc\\d"), true);
    for (const part of ["a", "b", "a\tb", "c\\d", "a\\tb\\nc\\\\d", "0"]) {
      assert.equal(await hasSkill(view, part), false, JSON.stringify(part));
    }
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

const CONTRACT = (id: string) =>
  `contract:\n  version: 1\n  items:\n    - id: ${id}\n      kind: report_labels\n` +
  `      heading: R\n      labels: [A]\n`;

/** The names and first contract item of the skills with a contract, as the Stop gets them. */
async function contracted(opts: Parameters<typeof contractSkills>[0]): Promise<string[]> {
  const { skills } = await contractSkills(opts);
  return skills.map((s) => {
    const items = (s.contract as { items?: { id?: string }[] }).items;
    return `${s.name}:${items?.[0]?.id ?? "?"}`;
  });
}

/** What loadCatalog() has: the same list, for comparison. */
async function fromCatalog(opts: Parameters<typeof loadCatalog>[0]): Promise<string[]> {
  const c = await loadCatalog({ ...opts, agents: false, writeIndex: false });
  return c.skills.filter((s) => s.contract != null).map((s) => {
    const items = (s.contract as { items?: { id?: string }[] }).items;
    return `${s.name}:${items?.[0]?.id ?? "?"}`;
  });
}

Deno.test("contractSkills(): a contract edited or a skill added at once, a contract gained in place at the sweep", async () => {
  const w = await world();
  try {
    write(join(w.claude, "skills", "investigate", "SKILL.md"), `---\n${CONTRACT("one")}---\n`);
    write(join(w.project, ".claude", "skills", "proj", "SKILL.md"), `---\n${CONTRACT("p")}---\n`);
    Deno.utimeSync(join(w.claude, "skills", "investigate"), PAST, PAST);
    let clock = Date.now();
    const sweepFile = join(w.state, "skill-contracts", ".catalog-sweep.json");
    const opts = {
      hostFolders: claudeFolders(w.claude),
      cwd: join(w.project, "src"),
      stateRoot: w.state,
      sweepFile,
      now: () => clock,
    };
    const view = join(w.state, "catalog", "skills.contracts.json");
    assert.deepEqual(await contracted(opts), ["investigate:one", "proj:p"], "no view: a full load");
    assert.equal(Deno.statSync(view).mode! & 0o777, 0o600);
    const held = JSON.stringify(JSON.parse(Deno.readTextFileSync(view)));
    assert.ok(held.includes('"name":"investigate"') && !held.includes('"name":"migrate"'));
    // From the view alone: the skills index damaged is neither read nor written.
    const index = join(w.state, "catalog", "skills.json");
    Deno.writeTextFileSync(index, "{damaged");
    clock = Date.now() + 1;
    const { skills, dirs } = await contractSkills(opts);
    assert.deepEqual(skills.map((s) => s.name), ["investigate", "proj"]);
    assert.equal(skills[0].file, join(w.claude, "skills", "investigate", "SKILL.md"));
    assert.deepEqual(dirs.length, 3, "personal, project and the plugin's skills");
    assert.equal(Deno.readTextFileSync(index), "{damaged");
    // A contracted skill's contract edited in place: seen at once.
    const file = join(w.claude, "skills", "investigate", "SKILL.md");
    editInPlace(file, `---\n${CONTRACT("two")}---\n`, 5000);
    assert.deepEqual(await contracted(opts), ["investigate:two", "proj:p"]);
    // A new skill folder with a contract (nested): seen at once; removed: gone at once.
    write(join(w.claude, "skills", "cat", "newer", "SKILL.md"), `---\n${CONTRACT("n")}---\n`);
    assert.deepEqual(await contracted(opts), ["newer:n", "investigate:two", "proj:p"]);
    assert.deepEqual(await contracted(opts), await fromCatalog(opts), "in the catalog's order");
    Deno.removeSync(join(w.claude, "skills", "cat", "newer"), { recursive: true });
    assert.deepEqual(await contracted(opts), ["investigate:two", "proj:p"]);
    // A contract removed in place: seen at once.
    editInPlace(file, "---\nname: investigate\n---\n", 6000);
    assert.deepEqual(await contracted(opts), ["proj:p"]);
    // A skill without a contract gains one in place: within the minute, at the sweep.
    const start = clock;
    clock = Date.now() + 2;
    editInPlace(
      join(w.claude, "skills", "migrate", "SKILL.md"),
      `---\n${CONTRACT("m")}---\n`,
      7000,
    );
    assert.deepEqual(await contracted(opts), ["proj:p"], "waits for the sweep");
    clock = start + 59_000;
    assert.deepEqual(await contracted(opts), ["proj:p"], "waits for the sweep");
    clock = start + 61_000 + 7000;
    assert.deepEqual(await contracted(opts), ["migrate:m", "proj:p"], "the sweep");
    assert.deepEqual(await contracted(opts), await fromCatalog(opts));
    // A sweep that finds every file current is recorded: the next lookup checks only the view's
    // own files until the next minute.
    clock += 61_000;
    assert.deepEqual(await contracted(opts), ["migrate:m", "proj:p"]);
    const recorded = JSON.parse(Deno.readTextFileSync(sweepFile)).roots as Record<string, number>;
    assert.ok(Object.values(recorded).includes(clock));
    editInPlace(
      join(w.claude, "skills", "cat", "nested-skill", "SKILL.md"),
      `---\n${CONTRACT("x")}---\n`,
      9000,
    );
    clock += 1_000;
    assert.deepEqual(await contracted(opts), ["migrate:m", "proj:p"], "until the next sweep");
    clock += 60_000;
    assert.deepEqual(await contracted(opts), ["nested-skill:x", "migrate:m", "proj:p"]);
    assert.deepEqual(await contracted(opts), await fromCatalog(opts));
    // A sweep file planted as a symbolic link (claiming every root was just checked) is not read:
    // the sweep is not put off.
    editInPlace(file, `---\n${CONTRACT("back")}---\n`, 11_000);
    clock += 61_000;
    const planted = join(w.root, "planted-sweep.json");
    const roots = JSON.parse(Deno.readTextFileSync(sweepFile)).roots as Record<string, number>;
    for (const k in roots) roots[k] = clock;
    Deno.writeTextFileSync(planted, JSON.stringify({ roots }));
    Deno.removeSync(sweepFile);
    Deno.symlinkSync(planted, sweepFile);
    assert.deepEqual(await contracted(opts), await fromCatalog(opts));
    assert.ok((await contracted(opts)).includes("investigate:back"));
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("contractSkills(): a missing, damaged or planted view is not used, and is written again", async () => {
  const w = await world();
  try {
    write(join(w.claude, "skills", "investigate", "SKILL.md"), `---\n${CONTRACT("one")}---\n`);
    const opts = { hostFolders: claudeFolders(w.claude), stateRoot: w.state };
    const view = join(w.state, "catalog", "skills.contracts.json");
    assert.deepEqual(await contracted(opts), ["investigate:one"]);
    const good = Deno.readTextFileSync(view);
    const fake = good.replace('"name":"investigate"', '"name":"planted"');
    assert.notEqual(fake, good);
    const other = join(w.root, "elsewhere.json");
    const broken: [string, () => void][] = [
      ["missing", () => Deno.removeSync(view)],
      ["not JSON", () => Deno.writeTextFileSync(view, "{damaged")],
      [
        "another version",
        () => Deno.writeTextFileSync(view, good.replace('"version":2', '"version":1')),
      ],
      ["no roots", () => Deno.writeTextFileSync(view, '{"version":2,"roots":null}')],
      [
        "entries not a list",
        () =>
          Deno.writeTextFileSync(
            view,
            good.replace(/"c":\[/, '"c":{"x":[').replace(/\],"s":/, ']},"s":'),
          ),
      ],
      [
        "an entry without its file",
        () => Deno.writeTextFileSync(view, good.replace(/"file":"[^"]*",/, "")),
      ],
      [
        "an entry without a contract",
        () => Deno.writeTextFileSync(view, good.replace(/"contract":\{/, '"contract":null,"x":{')),
      ],
      [
        "a root keyed __proto__",
        () =>
          Deno.writeTextFileSync(
            view,
            '{"version":2,"roots":{"__proto__":{"r":"/","d":{},"f":"","m":"","c":[],"s":0}}}',
          ),
      ],
      ["a symbolic link to a planted view", () => {
        Deno.writeTextFileSync(other, fake);
        Deno.removeSync(view);
        Deno.symlinkSync(other, view);
      }],
    ];
    for (const [what, damage] of broken) {
      damage();
      assert.deepEqual(await contracted(opts), ["investigate:one"], what);
      assert.ok(Deno.lstatSync(view).isFile, `${what}: written again`);
      assert.equal(
        Deno.readTextFileSync(view).replace(/"s":\d+/g, ""),
        good.replace(/"s":\d+/g, ""),
        what,
      );
      assert.deepEqual(await contracted(opts), ["investigate:one"], `${what}, then`);
    }
    assert.equal(Deno.readTextFileSync(other), fake, "the link's target is left alone");
    // A planted view that is valid and fresh is what the Stop reads: it lives in the private state
    // root (0700, 0600), like the skills index it stands for.
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("contractSkills(): overlay contracts, from the view while the overlay files are unchanged", async () => {
  const w = await world();
  try {
    const clock = Date.now();
    const opts = {
      hostFolders: claudeFolders(w.claude),
      cwd: join(w.project, "src"),
      stateRoot: w.state,
      now: () => clock,
    };
    assert.deepEqual(await contracted(opts), []);
    // A user overlay gives `investigate` a contract: the view written without it cannot tell.
    const user = join(w.state, "skills.yaml");
    write(user, `investigate:\n  ${CONTRACT("u").replaceAll("\n", "\n  ")}`);
    assert.deepEqual(await contracted(opts), ["investigate:u"]);
    const view = JSON.parse(
      Deno.readTextFileSync(join(w.state, "catalog", "skills.contracts.json")),
    );
    assert.ok(String(view.overlays).includes(user));
    // From the view: the skills index damaged is not read.
    const index = join(w.state, "catalog", "skills.json");
    Deno.writeTextFileSync(index, "{damaged");
    const { skills } = await contractSkills(opts);
    assert.deepEqual(skills[0].overlay?.contract, { scope: "user", file: user, line: 2 });
    assert.equal(Deno.readTextFileSync(index), "{damaged");
    Deno.removeSync(index);
    // The project's overlay wins over the user's and over the frontmatter; gone, the user's again.
    write(join(w.claude, "skills", "migrate", "SKILL.md"), `---\n${CONTRACT("own")}---\n`);
    const project = join(w.project, ".skillgate", "skills.yaml");
    write(
      project,
      `investigate:\n  ${CONTRACT("p").trimEnd().replaceAll("\n", "\n  ")}\nmigrate:\n  ${
        CONTRACT("pm").replaceAll("\n", "\n  ")
      }`,
    );
    assert.deepEqual(await contracted(opts), ["investigate:p", "migrate:pm"]);
    assert.deepEqual(await contracted(opts), await fromCatalog(opts));
    Deno.removeSync(project);
    assert.deepEqual(await contracted(opts), ["investigate:u", "migrate:own"]);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

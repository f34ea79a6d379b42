import assert from "node:assert/strict";
import { COPILOT } from "../host/copilot.ts";
import { join, relative as relativePath } from "node:path";
import {
  agentNames,
  catalogRoots,
  findSkill,
  hasAgent,
  hasSkill,
  isAgent,
  loadCatalog,
  skillNames,
} from "./catalog.ts";
import { claudeFolders } from "../host/_kit_test.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

async function world() {
  const root = await Deno.makeTempDir({ prefix: "skillgate-catalog-" });
  const claude = join(root, "claude");
  const project = join(root, "repo");
  write(
    join(claude, "skills", "investigate", "SKILL.md"),
    "---\nname: investigate\ntriggers:\n  - debug this\n---\n1. Reproduce the bug.\n",
  );
  write(
    join(claude, "skills", "migrate", "SKILL.md"),
    "---\nname: amplihack-migrate\ntriggers: move it\n---\nbody\n",
  );
  write(
    join(claude, "skills", "cat", "nested-skill", "SKILL.md"),
    "---\nname: nested-skill\n---\n",
  );
  write(
    join(claude, "agents", "prompt-writer.md"),
    "---\nname: prompt-writer\ndescription: d\n---\n",
  );
  write(
    join(claude, "agents", "core", "guide.md"),
    "---\nmeta:\n  name: guide\n  description: d\n---\n",
  );
  write(join(claude, "agents", "stem-only.md"), "---\ndescription: no name\n---\n");
  write(join(claude, "agents", "README.md"), "# not an agent\n");
  write(join(project, ".git", "HEAD"), "ref");
  write(join(project, ".claude", "skills", "proj", "SKILL.md"), "---\nname: proj\n---\n");
  write(join(project, ".claude", "agents", "proj-agent.md"), "---\nname: proj-agent\n---\n");
  const plugin = join(claude, "plugins", "cache", "mkt", "tools", "1.0.0");
  write(join(plugin, ".claude-plugin", "plugin.json"), '{"name":"tools"}');
  write(join(plugin, "skills", "lint", "SKILL.md"), "---\nname: lint\n---\n");
  write(join(plugin, "agents", "checker.md"), "---\nname: checker\n---\n");
  return { root, claude, project, plugin };
}

Deno.test("loadCatalog() finds personal, project, plugin and config skills and agents", async () => {
  const w = await world();
  try {
    const extra = join(w.root, "extra");
    write(join(extra, "x", "SKILL.md"), "---\nname: x\n---\n");
    const c = await loadCatalog({
      hostFolders: claudeFolders(w.claude),
      cwd: join(w.project, "sub"),
      extraSkillDirs: [extra],
    });
    assert.deepEqual(skillNames(c), [
      "amplihack-migrate",
      "investigate",
      "migrate",
      "nested-skill",
      "proj",
      "tools:lint",
      "x",
    ]);
    assert.deepEqual(agentNames(c), [
      "guide",
      "proj-agent",
      "prompt-writer",
      "stem-only",
      "tools:checker",
    ]);
    assert.equal(findSkill(c, "/investigate")?.source, "personal");
    assert.deepEqual(findSkill(c, "investigate")?.triggers, ["debug this"]);
    assert.equal(findSkill(c, "investigate")?.firstStep, "Reproduce the bug.");
    assert.equal(findSkill(c, "amplihack-migrate")?.name, "migrate");
    assert.deepEqual(findSkill(c, "migrate")?.triggers, ["move it"]);
    assert.equal(findSkill(c, "proj")?.source, "project");
    assert.equal(findSkill(c, "tools:lint")?.source, "plugin");
    assert.equal(findSkill(c, "lint"), undefined);
    assert.ok(isAgent(c, "prompt-writer"));
    assert.ok(!isAgent(c, "PROMPT-WRITER"));
    assert.ok(!isAgent(c, "README"));
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() reuses its index until a file or directory changes", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    const opts = { hostFolders: claudeFolders(w.claude), stateRoot: state };
    const first = await loadCatalog(opts);
    assert.equal(first.fromIndex, false);
    assert.equal(Deno.statSync(join(state, "catalog", "skills.json")).mode! & 0o777, 0o600);
    assert.equal(Deno.statSync(join(state, "catalog", "agents.json")).mode! & 0o777, 0o600);
    const second = await loadCatalog(opts);
    assert.equal(second.fromIndex, true);
    assert.deepEqual(skillNames(second), skillNames(first));
    // An in-place edit (same directory mtime) is seen through the file's own mtime.
    const file = join(w.claude, "skills", "investigate", "SKILL.md");
    Deno.writeTextFileSync(file, "---\nname: investigate\ntriggers: [changed]\n---\n");
    Deno.utimeSync(file, new Date(), new Date(Date.now() + 5000));
    const third = await loadCatalog(opts);
    assert.equal(third.fromIndex, false);
    assert.deepEqual(findSkill(third, "investigate")?.triggers, ["changed"]);
    // A new skill directory is seen through its parent's mtime.
    write(join(w.claude, "skills", "fresh", "SKILL.md"), "---\nname: fresh\n---\n");
    Deno.utimeSync(join(w.claude, "skills"), new Date(), new Date(Date.now() + 10000));
    const fourth = await loadCatalog(opts);
    assert.ok(findSkill(fourth, "fresh"));
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("a catalog served from the index loads no YAML parser (no npm module at all)", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state });
    const script = join(w.root, "load.ts");
    Deno.writeTextFileSync(
      script,
      `import { loadCatalog } from ${JSON.stringify(new URL("./catalog.ts", import.meta.url).href)};
const c = await loadCatalog({ hostFolders: ${JSON.stringify(claudeFolders(w.claude))}, stateRoot: ${
        JSON.stringify(state)
      } });
console.log(c.fromIndex, c.skills.length);`,
    );
    const emptyCache = join(w.root, "empty-deno-dir");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--cached-only", "-A", script],
      env: { DENO_DIR: emptyCache },
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "true 4");
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() fails open on unreadable entries and hostile names", async () => {
  const w = await world();
  try {
    const bad = join(w.claude, "skills", "bad");
    write(join(bad, "SKILL.md"), "---\nname: bad\n---\n");
    Deno.chmodSync(join(bad, "SKILL.md"), 0o000);
    write(join(w.claude, "skills", "$(touch pwned)", "SKILL.md"), "---\nname: '; rm -rf /'\n---\n");
    write(
      join(w.claude, "skills", "huge", "SKILL.md"),
      "---\nname: huge\n---\n" + "x".repeat(2 * 1024 * 1024),
    );
    const c = await loadCatalog({ hostFolders: claudeFolders(w.claude) });
    assert.ok(findSkill(c, "$(touch pwned)"), "a hostile name is kept as data");
    assert.equal(findSkill(c, "huge"), undefined);
    assert.ok(c.skipped >= 1);
    if (Deno.uid() !== 0) assert.equal(findSkill(c, "bad"), undefined);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("a catalog read on an empty Deno cache, offline, parses YAML with the bundled parser and is indexed", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    const script = join(w.root, "load.ts");
    Deno.writeTextFileSync(
      script,
      `import { loadCatalog, findSkill } from ${
        JSON.stringify(new URL("./catalog.ts", import.meta.url).href)
      };
const c = await loadCatalog({ hostFolders: ${JSON.stringify(claudeFolders(w.claude))}, stateRoot: ${
        JSON.stringify(state)
      } });
const s = findSkill(c, "investigate");
console.log(JSON.stringify({ degraded: s?.degraded === true, triggers: s?.triggers }));`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--cached-only", "-A", script],
      env: { DENO_DIR: join(w.root, "empty-deno-dir") },
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    // Before issue 32 the parser came from npm at first use: offline it was missing, the entry
    // degraded (read leniently) and left out of the index.
    const got = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(got.degraded, false);
    assert.ok(Deno.statSync(join(state, "catalog", "skills.json")).isFile);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() keeps one index per kind and other projects' roots", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    const other = join(w.root, "other");
    write(join(other, ".git", "HEAD"), "ref");
    write(join(other, ".claude", "skills", "o", "SKILL.md"), "---\nname: o\n---\n");
    // A skills-only reader (routing) and an agents-only reader (redirect) do not undo each other.
    assert.equal(
      (await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state, agents: false }))
        .fromIndex,
      false,
    );
    assert.equal(
      (await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state, skills: false }))
        .fromIndex,
      false,
    );
    assert.equal(
      (await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state, agents: false }))
        .fromIndex,
      true,
    );
    assert.equal(
      (await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state, skills: false }))
        .fromIndex,
      true,
    );
    // Sessions in two projects take turns without re-parsing each other's skills.
    await loadCatalog({
      hostFolders: claudeFolders(w.claude),
      stateRoot: state,
      cwd: w.project,
      agents: false,
    });
    await loadCatalog({
      hostFolders: claudeFolders(w.claude),
      stateRoot: state,
      cwd: other,
      agents: false,
    });
    const back = await loadCatalog({
      hostFolders: claudeFolders(w.claude),
      stateRoot: state,
      cwd: w.project,
      agents: false,
    });
    assert.equal(back.fromIndex, true);
    assert.ok(findSkill(back, "proj"));
    assert.equal(findSkill(back, "o"), undefined);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() defuses a YAML alias bomb in a contract block", async () => {
  const w = await world();
  try {
    const levels = ["  l0: &l0 [" + Array(10).fill('"lol"').join(",") + "]"];
    for (let i = 1; i <= 8; i++) {
      levels.push(`  l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(",")}]`);
    }
    write(
      join(w.claude, "skills", "bomb", "SKILL.md"),
      `---\nname: bomb\ntriggers: [debug this]\ncontract:\n${levels.join("\n")}\n---\n`,
    );
    const state = join(w.root, "state");
    const c = await loadCatalog({
      hostFolders: claudeFolders(w.claude),
      stateRoot: state,
      agents: false,
    });
    const bomb = findSkill(c, "bomb");
    assert.deepEqual(bomb?.contract, { version: "too large: more than 5000 values or 32 levels" });
    assert.deepEqual(bomb?.triggers, ["debug this"]);
    assert.ok(Deno.statSync(join(state, "catalog", "skills.json")).size < 100_000);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() sees a skill added to an empty folder and an agent added to a subfolder", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    Deno.mkdirSync(join(w.claude, "skills", "helper"));
    const opts = { hostFolders: claudeFolders(w.claude), stateRoot: state };
    await loadCatalog(opts);
    assert.equal((await loadCatalog(opts)).fromIndex, true);
    // Found in review: both used to be missed while the index looked fresh.
    write(join(w.claude, "skills", "helper", "SKILL.md"), "---\nname: helper\n---\n");
    write(join(w.claude, "agents", "core", "beta.md"), "---\nname: beta\n---\n");
    const later = Date.now() + 10_000;
    Deno.utimeSync(join(w.claude, "skills", "helper"), new Date(), new Date(later));
    Deno.utimeSync(join(w.claude, "agents", "core"), new Date(), new Date(later));
    const after = await loadCatalog(opts);
    assert.ok(findSkill(after, "helper"), "new skill in an empty folder");
    assert.ok(isAgent(after, "beta"), "new agent in a subfolder");
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

/** A symlink `link` to `target` (made relative to the link's folder when `relative`). */
function link(target: string, path: string, relative = false): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.symlinkSync(relative ? relativePath(join(path, ".."), target) : target, path);
}

Deno.test("loadCatalog() loads through symlinks as Claude Code does: a linked skill folder, a linked skills root, linked agents", async () => {
  const w = await world();
  try {
    const dot = join(w.root, "dotfiles");
    write(
      join(dot, "skills", "dot-skill", "SKILL.md"),
      "---\nname: dot-skill\ntriggers: [x]\n---\n",
    );
    link(join(dot, "skills", "dot-skill"), join(w.claude, "skills", "dot-skill"));
    write(join(dot, "agents", "linked-agent.md"), "---\nname: linked-agent\n---\n");
    link(join(dot, "agents", "linked-agent.md"), join(w.claude, "agents", "linked-agent.md"));
    write(join(dot, "team", "reviewer.md"), "---\nname: reviewer\n---\n");
    link(join(dot, "team"), join(w.claude, "agents", "team"));
    // A project whose skills root is a relative link: `.claude/skills -> ../shared-skills`.
    const repo = join(w.root, "repo2");
    write(join(repo, ".git", "HEAD"), "ref");
    write(join(repo, "shared-skills", "shared", "SKILL.md"), "---\nname: shared\n---\n");
    link(join(repo, "shared-skills"), join(repo, ".claude", "skills"), true);
    const c = await loadCatalog({ hostFolders: claudeFolders(w.claude), cwd: join(repo, "sub") });
    const dotSkill = findSkill(c, "dot-skill");
    assert.equal(dotSkill?.source, "personal");
    assert.equal(dotSkill?.file, join(w.claude, "skills", "dot-skill", "SKILL.md"), "as found");
    assert.deepEqual(dotSkill?.triggers, ["x"]);
    assert.equal(findSkill(c, "shared")?.source, "project");
    assert.equal(findSkill(c, "shared")?.dir, join(repo, ".claude", "skills", "shared"));
    assert.ok(isAgent(c, "linked-agent"));
    assert.ok(isAgent(c, "reviewer"));
    assert.ok(await hasSkill({ hostFolders: claudeFolders(w.claude), cwd: repo }, "shared"));
    assert.ok(await hasAgent({ hostFolders: claudeFolders(w.claude) }, "reviewer"));
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() ends symlink loops, enters each real folder once and skips dangling links", async () => {
  const w = await world();
  try {
    const skills = join(w.claude, "skills");
    link(skills, join(skills, "loop"));
    link(join(skills, "cat"), join(skills, "cat", "nested-skill", "up"));
    link(join(skills, "investigate"), join(skills, "investigate-again"));
    link(join(w.root, "nowhere"), join(skills, "dangling"));
    link(join(skills, "b"), join(skills, "a"));
    link(join(skills, "a"), join(skills, "b"));
    link(join(w.claude, "agents"), join(w.claude, "agents", "core", "all-again"));
    const c = await loadCatalog({ hostFolders: claudeFolders(w.claude) });
    assert.deepEqual(c.skills.map((s) => s.name).sort(), [
      "investigate",
      "migrate",
      "nested-skill",
      "tools:lint",
    ]);
    assert.deepEqual(agentNames(c), ["guide", "prompt-writer", "stem-only", "tools:checker"]);
    assert.equal(c.agents.length, 4, "no agent read twice");
    assert.ok(c.skipped >= 6, `skipped ${c.skipped}`);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() reads a SKILL.md linked to a file outside, bounded by the target's size and kind", async () => {
  const w = await world();
  try {
    const elsewhere = join(w.root, "elsewhere");
    write(join(elsewhere, "real.md"), "---\nname: outside-file\ntriggers: [from outside]\n---\n");
    write(join(elsewhere, "huge.md"), "---\nname: huge\n---\n" + "x".repeat(2 * 1024 * 1024));
    const skills = join(w.claude, "skills");
    link(join(elsewhere, "real.md"), join(skills, "outside-file", "SKILL.md"));
    link(join(elsewhere, "huge.md"), join(skills, "huge", "SKILL.md"));
    // A link to a file is not a skill folder; a link to a device is not a file (never read).
    link(join(elsewhere, "real.md"), join(skills, "file-not-folder"));
    if (Deno.build.os !== "windows") link("/dev/zero", join(skills, "device", "SKILL.md"));
    const c = await loadCatalog({ hostFolders: claudeFolders(w.claude) });
    assert.deepEqual(findSkill(c, "outside-file")?.triggers, ["from outside"]);
    assert.equal(findSkill(c, "huge"), undefined, "the target's size counts, not the link's");
    assert.equal(findSkill(c, "file-not-folder"), undefined);
    assert.equal(findSkill(c, "device"), undefined);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

/** Makes a symlink again until its own mtime differs from `before` (a clock tick apart). */
function relink(target: string, path: string, before: number): void {
  do {
    Deno.removeSync(path);
    Deno.symlinkSync(target, path);
  } while (Deno.lstatSync(path).mtime!.getTime() === before);
}

Deno.test("the catalog and names indexes see changes behind symlinks", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    const repo = join(w.root, "repo2");
    write(join(repo, ".git", "HEAD"), "ref");
    write(join(repo, "shared-a", "one", "SKILL.md"), "---\nname: one\ntriggers: [a]\n---\n");
    write(join(repo, "shared-b", "one", "SKILL.md"), "---\nname: one\ntriggers: [b]\n---\n");
    const rootLink = join(repo, ".claude", "skills");
    link(join(repo, "shared-a"), rootLink);
    const dot = join(w.root, "dotfiles", "dot-skill");
    write(join(dot, "SKILL.md"), "---\nname: dot-skill\ntriggers: [old]\n---\n");
    link(dot, join(w.claude, "skills", "dot-skill"));
    const opts = {
      hostFolders: claudeFolders(w.claude),
      cwd: repo,
      stateRoot: state,
      agents: false,
    };
    assert.equal((await loadCatalog(opts)).fromIndex, false);
    assert.equal((await loadCatalog(opts)).fromIndex, true);
    // A skill added in the linked root's target.
    write(join(repo, "shared-a", "two", "SKILL.md"), "---\nname: two\n---\n");
    Deno.utimeSync(join(repo, "shared-a"), new Date(), new Date(Date.now() + 5000));
    assert.ok(await hasSkill(opts, "two"), "the names index");
    assert.ok(findSkill(await loadCatalog(opts), "two"));
    // An in-place edit of a linked skill folder's SKILL.md.
    Deno.writeTextFileSync(join(dot, "SKILL.md"), "---\nname: dot-skill\ntriggers: [new]\n---\n");
    Deno.utimeSync(join(dot, "SKILL.md"), new Date(), new Date(Date.now() + 10000));
    assert.deepEqual(findSkill(await loadCatalog(opts), "dot-skill")?.triggers, ["new"]);
    // The root link made again to point at a tree whose mtimes are all the same as the old one's.
    const same = new Date(Date.now() + 20000);
    Deno.removeSync(join(repo, "shared-a", "two"), { recursive: true });
    for (const tree of ["shared-a", "shared-b"]) {
      for (const p of ["one/SKILL.md", "one", "."]) Deno.utimeSync(join(repo, tree, p), same, same);
    }
    assert.deepEqual(findSkill(await loadCatalog(opts), "one")?.triggers, ["a"]);
    relink(join(repo, "shared-b"), rootLink, Deno.lstatSync(rootLink).mtime!.getTime());
    assert.deepEqual(findSkill(await loadCatalog(opts), "one")?.triggers, ["b"]);
    // A linked skill folder made to point at another folder whose SKILL.md has the same mtime.
    const dot2 = join(w.root, "dotfiles", "dot-skill-2");
    write(join(dot2, "SKILL.md"), "---\nname: dot-skill\ntriggers: [other]\n---\n");
    const t = Deno.statSync(join(dot, "SKILL.md")).mtime!;
    Deno.utimeSync(join(dot2, "SKILL.md"), t, t);
    Deno.removeSync(join(w.claude, "skills", "dot-skill"));
    Deno.symlinkSync(dot2, join(w.claude, "skills", "dot-skill"));
    Deno.utimeSync(join(w.claude, "skills"), new Date(), new Date(Date.now() + 30000));
    assert.deepEqual(findSkill(await loadCatalog(opts), "dot-skill")?.triggers, ["other"]);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() with Copilot CLI's folders: its home and a project's .github, .claude, .agents; not ~/.claude", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const skill = (at: string, name: string) => {
      Deno.mkdirSync(`${at}/${name}`, { recursive: true });
      Deno.writeTextFileSync(`${at}/${name}/SKILL.md`, `---\nname: ${name}\ndescription: d\n---\n`);
    };
    const project = `${dir}/project`;
    Deno.mkdirSync(`${project}/.git`, { recursive: true });
    skill(`${dir}/copilot/skills`, "home-skill");
    skill(`${project}/.github/skills`, "github-skill");
    skill(`${project}/.claude/skills`, "claude-project-skill");
    skill(`${project}/.agents/skills`, "agents-skill");
    skill(`${dir}/claude/skills`, "claude-home-skill");
    Deno.mkdirSync(`${dir}/copilot/agents`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/copilot/agents/helper.agent.md`, "---\ndescription: d\n---\n");
    Deno.mkdirSync(`${project}/.github/agents`, { recursive: true });
    Deno.writeTextFileSync(`${project}/.github/agents/fixer.md`, "---\nname: fixer\n---\n");
    const c = await loadCatalog({
      hostFolders: { configDir: `${dir}/copilot`, home: `${dir}/home`, layout: COPILOT.layout },
      cwd: project,
    });
    assert.deepEqual(c.skills.map((s) => s.name).sort(), [
      "agents-skill",
      "claude-project-skill",
      "github-skill",
      "home-skill",
    ]);
    // An agent file's stem without `.agent.md` names it when its frontmatter does not.
    assert.deepEqual(c.agents.map((a) => a.name).sort(), ["fixer", "helper"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hasAgent() and hasSkill() given the roots of both kinds answer as when they find them", async () => {
  const w = await world();
  const state = join(w.root, "state");
  try {
    const opts = { hostFolders: claudeFolders(w.claude), stateRoot: state };
    const roots = await catalogRoots(opts);
    assert.deepEqual(new Set(roots.map((r) => r.root.kind)), new Set(["skills", "agents"]));
    for (const name of ["prompt-writer", "/guide", "investigate", "no-such-name"]) {
      assert.equal(await hasAgent(opts, name, roots), await hasAgent(opts, name), name);
      assert.equal(await hasSkill(opts, name, roots), await hasSkill(opts, name), name);
    }
    assert.equal(await hasAgent(opts, "prompt-writer", roots), true);
    assert.equal(await hasSkill(opts, "investigate", roots), true);
    // Roots of one kind only: the other kind has none to look in.
    const agentsOnly = roots.filter((r) => r.root.kind === "agents");
    assert.equal(await hasSkill(opts, "investigate", agentsOnly), false);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

/** Makes a FIFO (a named pipe) with no writer: a plain read of it waits for one forever. */
function fifo(path: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success, "mkfifo");
}

Deno.test("loadCatalog() never waits on a FIFO, reads a device or reads an oversized plugin manifest", async () => {
  const w = await world();
  try {
    const plugins = join(w.claude, "plugins");
    const installed = join(plugins, "installed_plugins.json");
    const opts = { hostFolders: claudeFolders(w.claude) };
    // A plugin installed outside the cache: only installed_plugins.json names it.
    const extra = join(plugins, "elsewhere", "extra");
    write(join(extra, ".claude-plugin", "plugin.json"), '{"name":"extra"}');
    write(join(extra, "skills", "x", "SKILL.md"), "---\nname: x\n---\n");
    const listing = JSON.stringify({
      plugins: { "tools@mkt": [{ installPath: w.plugin }], "extra@mkt": [{ installPath: extra }] },
    });
    write(installed, listing);
    assert.ok(findSkill(await loadCatalog(opts), "extra:x"), "listed, it is read");
    // Refused (a FIFO with no writer, a link to /dev/zero, over 1 MiB): the cache is walked.
    const refused: Array<() => void> = [
      () => fifo(installed),
      () => Deno.symlinkSync("/dev/zero", installed),
      () => write(installed, listing + " ".repeat(1024 * 1024)),
    ];
    for (const make of refused) {
      Deno.removeSync(installed);
      make();
      const c = await loadCatalog(opts);
      assert.ok(findSkill(c, "tools:lint"), "the cache's plugin");
      assert.equal(findSkill(c, "extra:x"), undefined, "the file was not read");
      assert.ok(findSkill(c, "investigate"));
    }
    // A plugin.json that is a FIFO or a device: the plugin is named by its folder.
    Deno.removeSync(installed);
    write(installed, listing);
    const manifest = join(extra, ".claude-plugin", "plugin.json");
    for (const make of [() => fifo(manifest), () => Deno.symlinkSync("/dev/zero", manifest)]) {
      Deno.removeSync(manifest);
      make();
      const c = await loadCatalog(opts);
      assert.ok(findSkill(c, "extra:x"));
      assert.ok(findSkill(c, "tools:lint"));
    }
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

Deno.test("loadCatalog() skips a SKILL.md that is a FIFO and builds its index again past one that is", async () => {
  const w = await world();
  try {
    const state = join(w.root, "state");
    fifo(join(w.claude, "skills", "pipe", "SKILL.md"));
    fifo(join(state, "catalog", "skills.json"));
    fifo(join(state, "catalog", "agents.json"));
    const c = await loadCatalog({ hostFolders: claudeFolders(w.claude), stateRoot: state });
    assert.ok(findSkill(c, "investigate"));
    assert.ok(findSkill(c, "tools:lint"));
    assert.ok(isAgent(c, "prompt-writer"));
    assert.equal(findSkill(c, "pipe"), undefined);
  } finally {
    await Deno.remove(w.root, { recursive: true });
  }
});

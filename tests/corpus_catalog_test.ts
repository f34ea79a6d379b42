/**
 * Opt-in: the catalog over the real third-party corpus in `../shared/corpus` (read at run time,
 * never copied). Skips, saying so, when the corpus is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentNames, findSkill, loadCatalog, skillNames } from "../lib/catalog/catalog.ts";
import { REPO_ROOT } from "./_helpers.ts";
import { claudeFolders } from "../lib/host/_kit_test.ts";

const CORPUS = join(REPO_ROOT, "..", "shared", "corpus");
const present = (() => {
  try {
    return Deno.statSync(CORPUS).isDirectory;
  } catch {
    return false;
  }
})();
if (!present) console.warn(`corpus_catalog_test: ${CORPUS} is absent; corpus tests skipped`);

function countFiles(dir: string, test: (name: string, path: string) => boolean): number {
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) n += countFiles(p, test);
    else if (e.isFile && test(e.name, p)) n++;
  }
  return n;
}

const none = "/nonexistent/claude";

Deno.test({
  name: "catalog finds the 127 amplihack skills with their names",
  ignore: !present,
  fn: async () => {
    const dir = join(CORPUS, "skills", "rysweet+amplihack-rs", "skills");
    const c = await loadCatalog({ hostFolders: claudeFolders(none), extraSkillDirs: [dir] });
    assert.equal(c.skills.length, 127);
    assert.equal(c.skills.length, countFiles(dir, (n) => n === "SKILL.md"));
    assert.equal(findSkill(c, "amplihack-migrate")?.dir, join(dir, "migrate"));
    for (
      const name of [
        "default-workflow",
        "pdf",
        "xlsx",
        "architecting-solutions",
        "reviewing-code",
        "analyzing-deeply",
        "gherkin-expert",
        "tla-plus-expert",
        "verus-expert",
        "smart-test",
      ]
    ) {
      assert.ok(findSkill(c, name), name);
    }
    assert.equal(
      findSkill(c, "smart-test")?.altName,
      undefined,
      "nested name: keys are not the top-level name",
    );
    assert.ok(!skillNames(c).includes("development/architecting-solutions"));
  },
});

Deno.test({
  name: "catalog finds 42 unique amplihack agent names in 43 files, guide once",
  ignore: !present,
  fn: async () => {
    const dir = join(CORPUS, "agents", "rysweet+amplihack-rs", "agents");
    const c = await loadCatalog({ hostFolders: claudeFolders(none), extraAgentDirs: [dir] });
    assert.equal(countFiles(dir, (n) => n.endsWith(".md")), 43);
    assert.equal(c.agents.length, 43);
    const names = agentNames(c);
    assert.equal(names.length, 42);
    assert.equal(c.agents.filter((a) => a.name === "guide").length, 2);
    for (const n of names) assert.match(n, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  },
});

Deno.test({
  name: "catalog reads every other corpus pack without throwing or skipping",
  ignore: !present,
  fn: async () => {
    const packs = ["anthropics+skills", "obra+superpowers", "garrytan+gstack"];
    for (const pack of packs) {
      const dir = join(CORPUS, "skills", pack);
      const c = await loadCatalog({ hostFolders: claudeFolders(none), extraSkillDirs: [dir] });
      assert.equal(c.skills.length, countFiles(dir, (n) => n === "SKILL.md"), pack);
      assert.equal(c.skipped, 0, pack);
    }
    const gstack = await loadCatalog({
      hostFolders: claudeFolders(none),
      extraSkillDirs: [join(CORPUS, "skills", "garrytan+gstack")],
    });
    assert.equal(gstack.skills.filter((s) => s.triggers.length > 0).length, 55);
    assert.deepEqual(findSkill(gstack, "investigate")?.triggers, [
      "debug this",
      "fix this bug",
      "why is this broken",
      "root cause analysis",
      "investigate this error",
    ]);
    assert.ok(findSkill(gstack, "gstack"), "the root SKILL.md is the gstack skill");
    assert.ok(findSkill(
      await loadCatalog({
        hostFolders: claudeFolders(none),
        extraSkillDirs: [join(CORPUS, "skills", "anthropics+skills")],
      }),
      "template-skill",
    ));
    const volt = join(CORPUS, "agents", "VoltAgent+awesome-claude-code-subagents");
    const v = await loadCatalog({ hostFolders: claudeFolders(none), extraAgentDirs: [volt] });
    const withFrontmatter = countFiles(
      volt,
      (n, p) => n.endsWith(".md") && Deno.readTextFileSync(p).startsWith("---"),
    );
    assert.equal(v.agents.length, withFrontmatter);
  },
});

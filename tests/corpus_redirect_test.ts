/**
 * Opt-in (`deno task test:corpus`): the redirect over the real amplihack bundle in
 * `../shared/corpus` (43 agent files, 42 names, 127 skills). Skips, saying so, when it is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempWorld, REPO_ROOT, runHookProcess, type TempWorld } from "./_helpers.ts";
import { parsePayload } from "../lib/host/payload.ts";
import { readConfig } from "../lib/base/config.ts";
import { agentNames, loadCatalog, skillNames } from "../lib/catalog/catalog.ts";
import {
  catalogSources,
  checkSkillRedirect,
  redirectMessage,
  type StopSources,
} from "../lib/redirect/redirect.ts";
import { claudeContext, claudeFolders } from "../lib/host/_kit_test.ts";

const CORPUS = join(REPO_ROOT, "..", "shared", "corpus");
const AGENTS = join(CORPUS, "agents", "rysweet+amplihack-rs", "agents");
const SKILLS = join(CORPUS, "skills", "rysweet+amplihack-rs", "skills");

function present(): boolean {
  try {
    return Deno.statSync(AGENTS).isDirectory && Deno.statSync(SKILLS).isDirectory;
  } catch {
    return false;
  }
}
const HAVE_CORPUS = present();

if (!HAVE_CORPUS) {
  Deno.test(`corpus redirect tests SKIPPED: amplihack bundle not found at ${CORPUS}`, () => {
    console.log(`SKIPPED: ${AGENTS} or ${SKILLS} is missing`);
  });
}

/** The 39 agent-only names of the bundle (reference/anchors.md §A.3). */
const AGENT_ONLY = [
  "ambiguity",
  "amplifier-cli-architect",
  "amplihack-improvement-workflow",
  "analyzer",
  "api-designer",
  "architect",
  "azure-kubernetes-expert",
  "builder",
  "ci-diagnostic-workflow",
  "cleanup",
  "concept-extractor",
  "database",
  "documentation-writer",
  "fallback-cascade",
  "fix-agent",
  "guide",
  "iac-planner",
  "insight-synthesizer",
  "integration",
  "knowledge-archaeologist",
  "mcp-server-builder",
  "multi-agent-debate",
  "n-version-validator",
  "openapi-scaffolder",
  "optimizer",
  "patterns",
  "philosophy-guardian",
  "pre-commit-diagnostic",
  "preference-reviewer",
  "prompt-review-workflow",
  "prompt-writer",
  "reviewer",
  "rust-programming-expert",
  "security",
  "socratic-reviewer",
  "tester",
  "visualization-architect",
  "worktree-manager",
  "xpia-defense",
];
const OVERLAP = ["gherkin-expert", "tla-plus-expert", "verus-expert"];

async function withCorpusWorld(fn: (world: TempWorld) => Promise<void>): Promise<void> {
  const world = await makeTempWorld({ skills: [SKILLS], agents: [AGENTS] });
  try {
    await fn(world);
  } finally {
    await world.cleanup();
  }
}

function sourcesFor(world: TempWorld): StopSources {
  const ev = parsePayload(JSON.stringify({ tool_name: "Skill", cwd: world.projectDir }));
  return catalogSources(ev, {
    stateRoot: world.stateRoot,
    ...claudeContext(world.claudeDir),
    config: readConfig(world.stateRoot),
    log: () => {},
  });
}

Deno.test({
  name: "corpus: the catalog finds 43 agent files, 42 agent names and 127 skills",
  ignore: !HAVE_CORPUS,
  fn: () =>
    withCorpusWorld(async (world) => {
      const catalog = await loadCatalog({ hostFolders: claudeFolders(world.claudeDir) });
      assert.equal(catalog.agents.length, 43);
      assert.equal(agentNames(catalog).length, 42);
      assert.equal(catalog.skills.length, 127);
      const skills = new Set(skillNames(catalog));
      const agentOnly = agentNames(catalog).filter((n) => !skills.has(n));
      assert.deepEqual(agentOnly, AGENT_ONLY);
      assert.deepEqual(agentNames(catalog).filter((n) => skills.has(n)), OVERLAP);
    }),
});

Deno.test({
  name: "corpus: each of the 39 agent-only names is denied with its redirect",
  ignore: !HAVE_CORPUS,
  fn: () =>
    withCorpusWorld(async (world) => {
      const sources = sourcesFor(world);
      assert.equal(AGENT_ONLY.length, 39);
      for (const name of AGENT_ONLY) {
        for (const [tool, host] of [["Skill", "claude"], ["skill", "copilot"]] as const) {
          const d = await checkSkillRedirect(tool, { skill: name }, sources, host);
          assert.deepEqual(
            d,
            { action: "deny", name, message: redirectMessage(name, host) },
            `${tool}(${name})`,
          );
        }
      }
    }),
});

Deno.test({
  name: "corpus: the 3 overlapping names and every one of the 127 skills pass",
  ignore: !HAVE_CORPUS,
  fn: () =>
    withCorpusWorld(async (world) => {
      const sources = sourcesFor(world);
      const catalog = await loadCatalog({ hostFolders: claudeFolders(world.claudeDir) });
      const skills = skillNames(catalog);
      assert.ok(skills.length >= 127);
      for (const name of [...OVERLAP, ...skills]) {
        const d = await checkSkillRedirect("Skill", { skill: name }, sources, "claude");
        assert.equal(d.action, "pass", name);
      }
      for (const name of OVERLAP) {
        const d = await checkSkillRedirect("Skill", { skill: name }, sources, "claude");
        assert.deepEqual(d, { action: "pass", reason: "is-skill" }, name);
      }
    }),
});

Deno.test({
  name: "corpus: the hook process under production flags denies prompt-writer and passes pdf",
  ignore: !HAVE_CORPUS,
  fn: () =>
    withCorpusWorld(async (world) => {
      const base = { session_id: "corpus", hook_event_name: "PreToolUse", tool_name: "Skill" };
      const deny = await runHookProcess("skill-redirect", {
        ...base,
        tool_input: { skill: "prompt-writer" },
      }, { world });
      assert.deepEqual(deny.json, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: redirectMessage("prompt-writer", "claude"),
        },
      });
      for (const skill of ["pdf", "verus-expert", "amplihack-migrate"]) {
        const pass = await runHookProcess("skill-redirect", {
          ...base,
          tool_input: { skill },
        }, { world });
        assert.equal(pass.stdout, "", skill);
        assert.equal(pass.stderr, "", skill);
      }
    }),
});

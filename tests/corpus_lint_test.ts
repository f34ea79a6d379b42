/**
 * Opt-in: `skillgate lint` over every skill of the real third-party corpus in `../shared/corpus`
 * installed at once (read at run time, never copied): Claude Code's 1% listing budget cannot hold
 * their descriptions, and lint names the skills it would drop with the estimate it used. Skips,
 * saying so, when the corpus is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { runCli } from "../lib/cli/_kit_test.ts";
import { claudeFolders } from "../lib/host/_kit_test.ts";
import { loadCatalog } from "../lib/catalog/catalog.ts";
import { CLAUDE_CONTEXT_TOKENS, listingBudget } from "../lib/report/lint.ts";

const SKILLS = join(REPO_ROOT, "..", "shared", "corpus", "skills");
const present = (() => {
  try {
    return Deno.statSync(SKILLS).isDirectory;
  } catch {
    return false;
  }
})();
if (!present) console.warn(`corpus_lint_test: ${SKILLS} is absent; corpus tests skipped`);

interface LintJson {
  hosts: {
    host: string;
    skills: number;
    budget: { budgetChars?: number; assumption: string };
    listingChars: number;
    findings: { kind: string; skills: string[]; detail: string }[];
  }[];
}

async function lint(args: string[]): Promise<{ code: number; stdout: string }> {
  const home = await Deno.makeTempDir({ prefix: "skillgate-lint-corpus-" });
  try {
    const r = await runCli(["lint", ...args], { home });
    return { code: r.code, stdout: r.out };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "lint: the whole corpus installed at once; a 1% budget drops most descriptions, named",
  ignore: !present,
  fn: async () => {
    const r = await lint(["--host", "claude", "--dir", SKILLS, "--json"]);
    assert.equal(r.code, 1, "findings exit 1");
    const [claude] = (JSON.parse(r.stdout) as LintJson).hosts;
    const catalog = await loadCatalog({
      hostFolders: claudeFolders("/nonexistent/claude"),
      extraSkillDirs: [SKILLS],
      agents: false,
    });
    assert.equal(claude.skills, catalog.skills.length);
    assert.ok(claude.skills >= 200, `${claude.skills} skills`);
    assert.equal(claude.budget.budgetChars, listingBudget("claude").budgetChars);
    assert.match(claude.budget.assumption, new RegExp(`${CLAUDE_CONTEXT_TOKENS}-token`));
    assert.ok(claude.listingChars > claude.budget.budgetChars! * 5, String(claude.listingChars));
    const dropped = claude.findings.filter((f) => f.kind === "listing_dropped")
      .map((f) => f.skills[0]);
    // Every dropped name is an installed skill, most are dropped, some are kept.
    const names = new Set(catalog.skills.map((s) => s.name));
    for (const d of dropped) assert.ok(names.has(d), d);
    assert.ok(dropped.length > claude.skills / 2, `${dropped.length} dropped`);
    assert.ok(dropped.length < claude.skills, "some descriptions fit");
    // Without use counts the order is by name: the first names keep their descriptions.
    const sorted = [...names].sort((a, b) => a.localeCompare(b));
    assert.ok(!dropped.includes(sorted[0]), `${sorted[0]} is kept`);
    assert.ok(dropped.includes(sorted.at(-1)!), `${sorted.at(-1)} is dropped`);
    // A larger window keeps more.
    const big = JSON.parse(
      (await lint(["--host", "claude", "--dir", SKILLS, "--json", "--context-tokens", "1000000"]))
        .stdout,
    ) as LintJson;
    const bigDropped = big.hosts[0].findings.filter((f) => f.kind === "listing_dropped").length;
    assert.ok(bigDropped < dropped.length, `${bigDropped} < ${dropped.length}`);
    // The human form states the estimate it used.
    const text = (await lint(["--host", "claude", "--dir", SKILLS])).stdout;
    assert.match(text, /^ {2}estimate: skillListingBudgetFraction 0\.01 of a 200000-token/m);
    assert.match(text, new RegExp(`Descriptions the listing drops \\(${dropped.length}\\):`));
  },
});

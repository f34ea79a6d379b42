/**
 * Opt-in: routes the labeled prompt set against the real gstack skills in the third-party corpus
 * (`../shared/corpus/skills/garrytan+gstack`, next to the repository). Skipped, with a note, when
 * that folder is absent.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { evalRoutes, parseLabeled } from "../lib/cli/route.ts";
import { loadRouteSkills, routePrompt } from "../lib/routing/route.ts";
import { FIXTURES, REPO_ROOT } from "./_helpers.ts";

const GSTACK = resolve(REPO_ROOT, "..", "shared", "corpus", "skills", "garrytan+gstack");

function present(): boolean {
  try {
    return Deno.statSync(GSTACK).isDirectory;
  } catch {
    return false;
  }
}

const ignore = !present();
if (ignore) console.log(`corpus_route_test: skipped, ${GSTACK} is absent`);

async function gstackSkills() {
  return await loadRouteSkills({
    claudeConfigDir: join(GSTACK, ".no-config-dir"),
    extraSkillDirs: [GSTACK],
  });
}

Deno.test({
  name: "gstack corpus: the seed's worked example holds against every gstack skill",
  ignore,
  fn: async () => {
    const world = await gstackSkills();
    assert.ok(world.skills.length >= 55, `${world.skills.length} skills`);
    const d = routePrompt("this test fails, fix it", world.skills);
    assert.equal(d.route?.skill.name, "investigate");
    assert.equal(d.candidates[0].trigger, "fix this bug");
    assert.equal(d.candidates[0].matched, 2);
    const ios = d.candidates.find((c) => c.skill.name === "ios-fix");
    assert.equal(ios?.score.toFixed(2), "0.67");
    assert.equal(ios?.trigger, "fix this ios bug");
  },
});

Deno.test({
  name: "gstack corpus: the labeled set meets the bar against every gstack skill",
  ignore,
  fn: async () => {
    const world = await gstackSkills();
    const items = parseLabeled(Deno.readTextFileSync(join(FIXTURES, "routing", "labeled.tsv")));
    const r = evalRoutes(items, world.skills);
    console.log(
      `gstack corpus (${world.skills.length} skills): precision ${r.precision.toFixed(3)} ` +
        `(${r.right}/${r.routed}), recall ${r.recall.toFixed(3)} (${r.right}/${r.fit}), ` +
        `no-fit routed ${r.nonFitRouted}/${r.nonFit}`,
    );
    for (const m of r.wrong) {
      console.log(`  line ${m.item.line}: expected ${m.item.expected}, got ${m.got}`);
    }
    assert.ok(r.nonFitRouted * 32 <= r.nonFit, `${r.nonFitRouted} of ${r.nonFit} no-fit routed`);
    assert.ok(r.right * 5 >= r.fit * 4, `recall ${r.right}/${r.fit}`);
  },
});

// Regression floors at the figures measured on the held-out sets (README "Tuning triggers"), not
// the bar: neither set was tuned against, and neither meets the recall bar.
for (
  const [file, right, nonFitRouted] of [["heldout.tsv", 20, 2], ["heldout2.tsv", 16, 0]] as const
) {
  Deno.test({
    name: `gstack corpus: ${file} keeps the recall and no-fit figures measured on it`,
    ignore,
    fn: async () => {
      const world = await gstackSkills();
      const items = parseLabeled(Deno.readTextFileSync(join(FIXTURES, "routing", file)));
      const r = evalRoutes(items, world.skills);
      console.log(
        `gstack corpus, ${file}: precision ${r.precision.toFixed(3)} (${r.right}/${r.routed}), ` +
          `recall ${r.recall.toFixed(3)} (${r.right}/${r.fit}), ` +
          `no-fit routed ${r.nonFitRouted}/${r.nonFit}`,
      );
      assert.ok(r.right >= right, `recall ${r.right}/${r.fit}`);
      assert.ok(r.nonFitRouted <= nonFitRouted, `${r.nonFitRouted} of ${r.nonFit} no-fit routed`);
    },
  });
}

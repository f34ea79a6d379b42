/**
 * Opt-in: routes the labeled prompt set against the real gstack skills in the third-party corpus
 * (`../shared/corpus/skills/garrytan+gstack`, next to the repository). Skipped, with a note, when
 * that folder is absent.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { evalRoutes, parseLabeled } from "../lib/cli/route_command.ts";
import { loadRouteSkills, routePrompt } from "../lib/routing/route.ts";
import { FIXTURES, REPO_ROOT } from "./_helpers.ts";
import { claudeFolders } from "../lib/host/_kit_test.ts";

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
    hostFolders: claudeFolders(join(GSTACK, ".no-config-dir")),
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

// Regression floors at the figures measured on the other sets (docs/routing.md "Tuning
// triggers"): [file, right routes at least, no-fit routed at most].
for (
  const [file, right, nonFitRouted] of [
    ["heldout.tsv", 37, 0],
    ["heldout2.tsv", 29, 0],
    ["messy.tsv", 25, 0],
    ["incidental.tsv", 6, 0],
    ["paraphrase.tsv", 25, 0],
    ["fresh.tsv", 19, 0],
    ["fresh2.tsv", 19, 0],
    ["fresh3.tsv", 23, 0],
    ["fresh4.tsv", 23, 0],
    ["lookalike.tsv", 4, 2],
    ["blind.tsv", 29, 0],
    ["blind2.tsv", 38, 0],
    ["blind3.tsv", 44, 0],
    ["blind4.tsv", 44, 0],
    ["blind5.tsv", 42, 1],
    ["blind6.tsv", 46, 2],
    ["blind7.tsv", 55, 0],
    ["blind8.tsv", 43, 0],
    ["blind9.tsv", 49, 0],
    ["blind10.tsv", 47, 0],
    ["blind11.tsv", 40, 3],
    ["blind12.tsv", 46, 2],
    ["blind13.tsv", 53, 3],
    ["blind14.tsv", 71, 2],
    ["blind15.tsv", 44, 2],
  ] as const
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

Deno.test({
  name: "gstack corpus: blind14_star.tsv keeps its figures with route_skills *",
  ignore,
  fn: async () => {
    const world = await gstackSkills();
    const file = "blind14_star.tsv";
    const items = parseLabeled(Deno.readTextFileSync(join(FIXTURES, "routing", file)));
    const r = evalRoutes(items, world.skills, { routable: ["*"] });
    const wrongSkill = r.routed - r.right - r.nonFitRouted;
    console.log(
      `gstack corpus, ${file} (*): right ${r.right}/${r.fit}, wrong skill ${wrongSkill}, ` +
        `no-fit routed ${r.nonFitRouted}/${r.nonFit}`,
    );
    assert.ok(r.right >= 13, `recall ${r.right}/${r.fit}`);
    assert.ok(wrongSkill <= 0, `${wrongSkill} wrong skill`);
    // 2 since "show me …" asks for an answer, not a build (docs/routing.md): "show me the open
    // issues on github" shares /spec's "make this a github issue" under *.
    assert.ok(r.nonFitRouted <= 2, `${r.nonFitRouted} of ${r.nonFit} no-fit routed`);
  },
});

const SKILL_ROOTS = [
  "garrytan+gstack",
  join("rysweet+amplihack-rs", "skills"),
  "anthropics+skills",
  "obra+superpowers",
].map((d) => resolve(REPO_ROOT, "..", "shared", "corpus", "skills", d));

Deno.test({
  name: "wide corpus: with route_skills * over every corpus skill, few non-fit prompts route",
  ignore: ignore || !SKILL_ROOTS.every((d) => {
    try {
      return Deno.statSync(d).isDirectory;
    } catch {
      return false;
    }
  }),
  fn: async () => {
    const world = await loadRouteSkills({
      hostFolders: claudeFolders(join(GSTACK, ".no-config-dir")),
      extraSkillDirs: SKILL_ROOTS,
    });
    assert.ok(world.count >= 200, `${world.count} skills`);
    let nonFit = 0, routed = 0;
    for (
      const file of [
        "heldout.tsv",
        "heldout2.tsv",
        "messy.tsv",
        "incidental.tsv",
        "paraphrase.tsv",
        "fresh.tsv",
        "fresh2.tsv",
        "fresh3.tsv",
        "fresh4.tsv",
        "lookalike.tsv",
        "blind.tsv",
        "blind2.tsv",
        "blind3.tsv",
        "blind4.tsv",
        "blind5.tsv",
        "blind6.tsv",
        "blind7.tsv",
        "blind8.tsv",
        "blind9.tsv",
        "blind10.tsv",
        "blind11.tsv",
        "blind12.tsv",
        "blind13.tsv",
      ]
    ) {
      const items = parseLabeled(Deno.readTextFileSync(join(FIXTURES, "routing", file)));
      const r = evalRoutes(items.filter((i) => i.expected === "-"), world, { routable: ["*"] });
      nonFit += r.nonFit;
      routed += r.nonFitRouted;
      for (const m of r.wrong) {
        console.log(`  ${file}:${m.item.line}: routed /${m.got}: ${m.why}`);
      }
    }
    console.log(`wide corpus (${world.count} skills, *): ${routed} of ${nonFit} non-fit routed`);
    // Measured: 27 of 743 at stop 21, 50 of 1932 at stop 22 (docs/routing.md); the bar is 1 in 20.
    assert.ok(routed * 20 <= nonFit, `${routed} of ${nonFit} non-fit prompts routed`);
  },
});

const TRANSCRIPTS = resolve(REPO_ROOT, "..", "shared", "corpus", "transcripts");

/** The prompts a person typed, from the Claude Code transcripts of the corpus (read at run time). */
function typedPrompts(): string[] {
  const out = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory && e.name !== "subagents") walk(path);
      else if (e.isFile && e.name.endsWith(".jsonl")) {
        for (const line of Deno.readTextFileSync(path).split("\n")) {
          let rec: Record<string, unknown>;
          try {
            rec = JSON.parse(line);
          } catch {
            continue;
          }
          if (rec.type !== "user" || rec.isMeta || rec.isCompactSummary || rec.toolUseResult) {
            continue;
          }
          const content = (rec.message as { content?: unknown } | undefined)?.content;
          const text = typeof content === "string"
            ? content
            : Array.isArray(content)
            ? content.filter((c) => c?.type === "text").map((c) => c.text).join(" ")
            : "";
          if (
            !text.trim() ||
            /^(?:This session is being continued|\[Request interrupted|Your task is to create)/
              .test(text)
          ) continue;
          out.add(text);
        }
      }
    }
  };
  walk(TRANSCRIPTS);
  return [...out];
}

Deno.test({
  name: "real transcripts: typed prompts route only when they report a malfunction",
  ignore: ignore || (() => {
    try {
      return !Deno.statSync(TRANSCRIPTS).isDirectory;
    } catch {
      return true;
    }
  })(),
  fn: async () => {
    const world = await gstackSkills();
    const prompts = typedPrompts();
    assert.ok(prompts.length >= 10, `${prompts.length} prompts`);
    const routed: string[] = [];
    for (const p of prompts) {
      const d = routePrompt(p, world.skills);
      if (d.route) routed.push(`${d.route.skill.name}: ${p.slice(0, 80)}`);
    }
    console.log(`real transcripts: ${routed.length} of ${prompts.length} typed prompts routed`);
    for (const r of routed) console.log(`  ${r}`);
    // Only bug reports may route, and only to investigate.
    for (const r of routed) assert.match(r, /^investigate: .*(?:does ?n[o']?t|not work|start)/, r);
  },
});

/**
 * The four public packs of issue 28: obra/superpowers and anthropics/skills from the corpus,
 * trailofbits/skills and wshobson/agents from `SKILLGATE_PACKS_DIR` (a folder holding checkouts
 * named `trailofbits+skills` and `wshobson+agents`; see docs/routing.md). Skipped, with a note,
 * when any is absent.
 */
const CORPUS_SKILLS = resolve(REPO_ROOT, "..", "shared", "corpus", "skills");
const PACKS_DIR = Deno.env.get("SKILLGATE_PACKS_DIR");
const PACK_ROOTS = [
  join(CORPUS_SKILLS, "obra+superpowers"),
  join(CORPUS_SKILLS, "anthropics+skills"),
  ...(PACKS_DIR
    ? [
      join(PACKS_DIR, "trailofbits+skills", "plugins"),
      join(PACKS_DIR, "wshobson+agents", "plugins"),
    ]
    : []),
];
const packsMissing = !PACKS_DIR ||
  !PACK_ROOTS.every((d) => {
    try {
      return Deno.statSync(d).isDirectory;
    } catch {
      return false;
    }
  });
if (packsMissing) {
  console.log(
    `corpus_route_test: the pack tests are skipped: ${
      PACKS_DIR ? "a pack folder is absent" : "SKILLGATE_PACKS_DIR is not set"
    } (${PACK_ROOTS.join(", ")})`,
  );
}

async function packSkills() {
  return await loadRouteSkills({
    hostFolders: claudeFolders(join(CORPUS_SKILLS, ".no-config-dir")),
    extraSkillDirs: PACK_ROOTS,
  });
}

Deno.test({
  name: "pack corpus: every built-in pack entry applies to its skill in the public pack",
  ignore: packsMissing,
  fn: async () => {
    const { PACK_ENTRIES } = await import("../lib/routing/packs.ts");
    const world = await packSkills();
    const applied = new Set(world.skills.filter((s) => s.pack).map((s) => s.name));
    const missing = PACK_ENTRIES.filter(([, name]) => !applied.has(name)).map(([p, n]) =>
      `${p}/${n}`
    );
    assert.deepEqual(missing, []);
  },
});

// Measured with the default config (docs/routing.md): [fit routed right, wrong skill, non-fit
// routed]. Each set was held out for its first run (docs/routing.md says which were read after);
// packs_tune is the tuning set.
const PACK_FLOORS: Record<string, [number, number, number]> = {
  "packs_superpowers.tsv": [21, 1, 0],
  // 23 (from 24) since round 16: a pack trigger's share that leaves out its last word is held, and
  // "give it a distinctive visual direction" leaves "design" out of "distinctive visual design".
  "packs_anthropics.tsv": [23, 0, 0],
  "packs_trailofbits.tsv": [21, 0, 0],
  "packs_wshobson.tsv": [21, 0, 0],
  "packs_heldout2.tsv": [34, 0, 0],
  "packs_heldout3.tsv": [34, 1, 0],
  "packs_heldout4.tsv": [35, 0, 0],
  "packs_heldout5.tsv": [21, 0, 0],
  "packs_heldout6.tsv": [35, 0, 1],
  "packs_heldout7.tsv": [33, 1, 0],
  "packs_heldout8.tsv": [28, 0, 0],
  "packs_heldout9.tsv": [33, 1, 0],
  "packs_heldout10.tsv": [29, 0, 1],
  "packs_heldout11.tsv": [35, 0, 1],
  "packs_heldout12.tsv": [33, 2, 2],
  "packs_heldout13.tsv": [25, 2, 0],
  "packs_heldout14.tsv": [30, 1, 0],
  "packs_heldout15.tsv": [36, 0, 0],
  "packs_heldout16.tsv": [36, 1, 1],
  "packs_heldout17.tsv": [31, 0, 1],
  "packs_heldout18.tsv": [30, 0, 0],
  "packs_heldout19.tsv": [28, 0, 0],
  "packs_heldout20.tsv": [34, 2, 2],
  "packs_heldout21.tsv": [25, 1, 0],
  "packs_heldout22.tsv": [35, 1, 0],
  "packs_heldout23.tsv": [29, 4, 0],
  "packs_heldout24.tsv": [33, 0, 0],
  "packs_heldout25.tsv": [34, 0, 1],
  "packs_heldout26.tsv": [37, 1, 1],
  "packs_heldout27.tsv": [31, 0, 0],
  // 32 (from 33) since round 15: "what do we need to do before flipping the repo to public?" is a
  // how-to question now, and the description tier is split between open-sourcing and
  // internal-comms (docs/routing.md); two other open-sourcing prompts route because of it.
  "packs_heldout28.tsv": [32, 0, 0],
  "packs_heldout29.tsv": [28, 1, 1],
  "packs_heldout30.tsv": [32, 1, 1],
  "packs_heldout31.tsv": [26, 0, 0],
  "packs_heldout32.tsv": [35, 1, 0],
  "packs_heldout33.tsv": [23, 2, 0],
  "packs_heldout34.tsv": [33, 3, 0],
  "packs_heldout35.tsv": [33, 1, 0],
  "packs_heldout36.tsv": [29, 0, 0],
  "packs_heldout37.tsv": [33, 0, 0],
  // 30 (from 31) since round 16: "… before it goes into main, could you get the diff reviewed …"
  // leaves "merging" out of "review my work before merging" (held, as above).
  "packs_heldout38.tsv": [30, 1, 2],
  "packs_heldout39.tsv": [32, 1, 0],
  "packs_heldout40.tsv": [37, 1, 1],
  "packs_heldout41.tsv": [29, 3, 0],
  "packs_heldout42.tsv": [34, 1, 0],
  "packs_heldout43.tsv": [33, 0, 1],
  "packs_heldout44.tsv": [30, 1, 1],
  "packs_heldout45.tsv": [32, 0, 0],
  "packs_heldout46.tsv": [31, 1, 2],
  "packs_heldout47.tsv": [32, 3, 2],
  "packs_heldout48.tsv": [36, 1, 1],
  "packs_heldout49.tsv": [33, 2, 1],
  "packs_heldout50.tsv": [27, 0, 2],
  "packs_heldout51.tsv": [33, 1, 0],
  "packs_heldout52.tsv": [32, 0, 1],
  "packs_heldout53.tsv": [30, 1, 0],
  "packs_heldout54.tsv": [32, 1, 0],
  "packs_heldout55.tsv": [37, 0, 1],
  "packs_heldout56.tsv": [30, 2, 0],
  "packs_heldout57.tsv": [33, 0, 0],
  "packs_heldout58.tsv": [26, 1, 1],
  "packs_heldout59.tsv": [30, 0, 0],
  "packs_heldout60.tsv": [40, 0, 1],
  "packs_heldout61.tsv": [33, 2, 1],
  "packs_heldout62.tsv": [31, 0, 0],
  "packs_heldout63.tsv": [29, 4, 0],
  "packs_heldout64.tsv": [31, 1, 0],
  "packs_heldout65.tsv": [31, 1, 0],
  "packs_heldout66.tsv": [27, 0, 1],
  "packs_heldout67.tsv": [31, 1, 1],
  "packs_heldout68.tsv": [29, 0, 4],
  "packs_heldout69.tsv": [30, 2, 0],
  "packs_heldout70.tsv": [29, 1, 1],
  "packs_heldout71.tsv": [33, 1, 0],
  "packs_heldout72.tsv": [34, 0, 1],
  "packs_heldout73.tsv": [32, 1, 0],
  "packs_heldout74.tsv": [23, 0, 2],
  "packs_heldout75.tsv": [27, 2, 0],
  "packs_heldout76.tsv": [31, 0, 0],
  "packs_heldout77.tsv": [31, 0, 0],
  "packs_heldout78.tsv": [28, 3, 1],
  "packs_heldout79.tsv": [31, 1, 1],
  "packs_heldout80.tsv": [30, 0, 0],
  "packs_heldout81.tsv": [27, 2, 1],
  "packs_heldout82.tsv": [34, 0, 1],
  "packs_heldout83.tsv": [29, 1, 3],
  "packs_heldout84.tsv": [28, 1, 3],
  "packs_heldout85.tsv": [29, 0, 0],
  "packs_heldout86.tsv": [33, 2, 1],
  "packs_heldout87.tsv": [24, 2, 1],
  "packs_heldout88.tsv": [31, 1, 2],
  "packs_heldout89.tsv": [36, 1, 0],
  "packs_heldout90.tsv": [27, 1, 1],
  "packs_heldout91.tsv": [31, 3, 1],
  "packs_heldout92.tsv": [34, 1, 0],
  "packs_heldout93.tsv": [38, 0, 1],
  "packs_heldout94.tsv": [34, 1, 1],
  "packs_heldout95.tsv": [26, 3, 1],
  "packs_heldout96.tsv": [31, 0, 2],
  "packs_heldout97.tsv": [34, 0, 1],
  "packs_heldout98.tsv": [34, 2, 0],
  "packs_heldout99.tsv": [32, 2, 1],
  "packs_heldout100.tsv": [33, 1, 2],
  "packs_heldout101.tsv": [33, 2, 1],
  "packs_heldout102.tsv": [28, 1, 1],
  "packs_heldout103.tsv": [32, 0, 2],
  "packs_heldout104.tsv": [26, 2, 1],
  "packs_heldout105.tsv": [29, 1, 0],
  "packs_tune.tsv": [35, 0, 0],
};

for (const [file, [right, wrong, nonFit]] of Object.entries(PACK_FLOORS)) {
  Deno.test({
    name: `pack corpus: ${file} keeps its measured figures with the default config`,
    ignore: packsMissing,
    fn: async () => {
      const world = await packSkills();
      const items = parseLabeled(Deno.readTextFileSync(join(FIXTURES, "routing", file)));
      const r = evalRoutes(items, world);
      const wrongSkill = r.routed - r.right - r.nonFitRouted;
      console.log(
        `pack corpus (${world.count} skills), ${file}: fit routed right ${r.right}/${r.fit}, ` +
          `wrong skill ${wrongSkill}, non-fit routed ${r.nonFitRouted}/${r.nonFit}`,
      );
      assert.ok(r.right >= right, `${r.right} right, measured ${right}`);
      assert.ok(wrongSkill <= wrong, `${wrongSkill} wrong, measured ${wrong}`);
      assert.ok(r.nonFitRouted <= nonFit, `${r.nonFitRouted} non-fit routed, measured ${nonFit}`);
    },
  });
}

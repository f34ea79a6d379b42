import assert from "node:assert/strict";
import {
  CLAIM_MARGIN,
  CLAIM_WORDS,
  describedClaim,
  describedList,
  describedRoute,
  descriptionIndex,
  descriptionTerms,
  LONE_SCORE,
  LONE_WORDS,
  MIN_DESCRIPTION_SCORE,
  rankDescriptions,
  unasked,
} from "./describe.ts";
import { preparePrompt, wordKey } from "./score.ts";

Deno.test("descriptionTerms: name words weigh 3, the Use-when clause 2, the rest 1; negatives cut", () => {
  const t = descriptionTerms(
    "plugin:pdf-tools",
    "Merge PDF files. Use when the user mentions invoices. Do NOT use for spreadsheets or slides.",
  );
  assert.equal(t.get("pdf"), 3 + 1);
  assert.equal(t.get("tool"), undefined); // "tools" is a word every description uses
  assert.equal(t.get("invoic"), 2);
  assert.equal(t.get("merg"), 1);
  assert.equal(t.get("spreadsheet"), undefined);
  assert.equal(t.get("slid"), undefined);
  assert.equal(t.get("plugin"), undefined);
  assert.deepEqual([...descriptionTerms("x", "Skip this when the repo is private.")], [["x", 3]]);
});

const SKILLS: [string, string][] = [
  ["pdf", "Use when merging, splitting or filling PDF forms and files."],
  ["xlsx", "Use when a spreadsheet is the input or output: formulas, charts, pivot tables."],
  ["pptx", "Use when slides or a presentation deck are involved."],
  ["docx", "Use when a Word document is created or edited: tracked changes, headings."],
];

function route(prompt: string, routable = () => true): string | undefined {
  const index = descriptionIndex(SKILLS.map(([n, d]) => descriptionTerms(n, d)));
  const p = preparePrompt(prompt);
  const hits = rankDescriptions(index, { keys: p.words, requestKeys: p.requestKeys, verb: p.verb });
  const hit = describedRoute(hits, routable);
  return hit ? SKILLS[hit.index][0] : undefined;
}

Deno.test("the description tier routes on two matched words and a clear margin, only if allowed", () => {
  assert.equal(route("merge the two pdf forms into one"), "pdf");
  assert.equal(route("add a pivot table with formulas to the spreadsheet"), "xlsx");
  assert.equal(route("add a pivot table with formulas to the spreadsheet", () => false), undefined);
  // One matched word is not enough.
  assert.equal(route("rename the pdf link"), undefined);
  // A question about what something means asks for an answer.
  assert.equal(route("what is a pivot table in a spreadsheet?"), undefined);
});

Deno.test("describedRoute: a close runner-up, too few words or a low score route nothing", () => {
  const hit = (index: number, score: number, n: number) => ({
    index,
    score,
    matched: Array.from({ length: n }, (_, i) => `w${i}`),
    distinctive: n,
  });
  const yes = () => true;
  assert.equal(describedRoute([hit(0, 20, 2), hit(1, 10, 3)], yes)?.index, 0);
  assert.equal(describedRoute([hit(0, 20, 2), hit(1, 17, 3)], yes), undefined);
  assert.equal(describedRoute([hit(0, 20, 1)], yes), undefined);
  assert.equal(describedRoute([hit(0, MIN_DESCRIPTION_SCORE - 0.1, 3)], yes), undefined);
  assert.equal(describedRoute([], yes), undefined);
});

Deno.test("describedRoute: a runner-up that matched the same words within CLAIM_MARGIN routes nothing", () => {
  const hit = (index: number, score: number, words: string[]) => ({
    index,
    score,
    matched: words,
    distinctive: words.length,
  });
  const yes = () => true;
  const same = ["timing", "side", "channel", "constant"];
  assert.ok(same.length >= CLAIM_WORDS);
  // constant-time-analysis and constant-time-testing: 25.2 and 20.4, the same four words.
  assert.equal(describedRoute([hit(0, 25.2, same), hit(1, 20.4, same)], yes), undefined);
  // Past the wider margin, or a word the runner-up did not match, or too few words: the best.
  assert.equal(
    describedRoute([hit(0, 20.4 * CLAIM_MARGIN + 0.1, same), hit(1, 20.4, same)], yes)?.index,
    0,
  );
  assert.equal(
    describedRoute([hit(0, 25.2, [...same, "hmac"]), hit(1, 20.4, same)], yes)?.index,
    0,
  );
  const two = ["hmac", "sidechannel"];
  assert.equal(describedRoute([hit(0, 25, two), hit(1, 20, two)], yes)?.index, 0);
});

Deno.test("describedClaim: the best text with CLAIM_WORDS distinctive words, however close the next", () => {
  const skills = [
    {
      name: "zeroize-audit",
      description: "Audit that secret key material is zeroized; the compiler may remove it.",
    },
    { name: "other", description: "Formats markdown tables." },
  ];
  const d = describedList(skills);
  const query = (text: string) => {
    const p = preparePrompt(text);
    return { keys: p.words, requestKeys: p.requestKeys, verb: p.verb };
  };
  const claim = describedClaim(
    query("check that the key material is zeroized and the compiler keeps it"),
    d,
    () => true,
  );
  assert.equal(claim?.skill.name, "zeroize-audit");
  assert.equal(describedClaim(query("format the tables"), d, () => true), undefined);
  assert.equal(
    describedClaim(
      query("check that the key material is zeroized and the compiler keeps it"),
      d,
      () => false,
    ),
    undefined,
  );
});

Deno.test("descriptionTerms: words every description uses are dropped in every form", () => {
  const t = descriptionTerms(
    "x",
    "Creates and writes reports, adding charts; built for making decks.",
  );
  for (const k of ["creat", "writ", "ad", "mak"]) assert.equal(t.get(k), undefined, k);
  assert.equal(t.get("chart"), 1);
});

Deno.test("unasked: a sibling whose name adds words the prompt does not say is out", () => {
  const skills = [
    { name: "semgrep-rule-creator", description: "Creates custom Semgrep rules." },
    { name: "semgrep-rule-variant-creator", description: "Ports Semgrep rules to new languages." },
    { name: "semgrep", description: "Run Semgrep scans." },
  ];
  const list = describedList(skills);
  const names = (prompt: string) => {
    const p = preparePrompt(prompt);
    const hits = rankDescriptions(list.index, { keys: p.words, requestKeys: p.requestKeys });
    return unasked(hits, list, p.words).map((h) => skills[h.index].name);
  };
  assert.ok(!names("write a semgrep rule for eval").includes("semgrep-rule-variant-creator"));
  assert.ok(names("write a semgrep rule variant for go").includes("semgrep-rule-variant-creator"));
});

Deno.test("descriptionTerms(): everything, anything and the like say nothing about a skill", () => {
  const t = descriptionTerms("github-triage", "Assign priority to everything outstanding.");
  assert.ok(!t.has(wordKey("everything")));
  assert.ok(t.has(wordKey("outstanding")));
  // A comparative says how, not what: "make text sound less like AI" is about AI, not "less".
  const c = descriptionTerms("avoid-ai-writing", "Make text sound less like AI, or more human.");
  assert.ok(!c.has(wordKey("less")) && !c.has(wordKey("more")));
  assert.ok(c.has(wordKey("human")));
});

Deno.test("describedRoute: one distinctive word routes only among three matched, scored high, well ahead", () => {
  const hit = (index: number, score: number, n: number, distinctive: number) => ({
    index,
    score,
    matched: Array.from({ length: n }, (_, i) => `w${i}`),
    distinctive,
  });
  const yes = () => true;
  assert.equal(LONE_WORDS, 3);
  // "handle GDPR data deletion requests": gdpr (distinctive), handl, data.
  assert.equal(describedRoute([hit(0, LONE_SCORE, 3, 1)], yes)?.index, 0);
  assert.equal(describedRoute([hit(0, LONE_SCORE, 3, 1), hit(1, 9, 2, 2)], yes)?.index, 0);
  // Two words, a lower score, or a runner-up within CLAIM_MARGIN: nothing.
  assert.equal(describedRoute([hit(0, LONE_SCORE + 5, 2, 1)], yes), undefined);
  assert.equal(describedRoute([hit(0, LONE_SCORE - 0.1, 4, 1)], yes), undefined);
  assert.equal(
    describedRoute([hit(0, LONE_SCORE, 3, 1), hit(1, LONE_SCORE / CLAIM_MARGIN + 0.1, 2, 1)], yes),
    undefined,
  );
  // No distinctive word at all: nothing.
  assert.equal(describedRoute([hit(0, LONE_SCORE + 5, 4, 0)], yes), undefined);
});

Deno.test("describedRoute: words everyone says route nothing without a rarer one beside them", () => {
  const hit = (words: string[]) => ({ index: 0, score: 20, matched: words, distinctive: 2 });
  const yes = () => true;
  // "add the new hire to the team section": hire, team.
  const common = [wordKey("hire"), wordKey("team")];
  assert.equal(describedRoute([hit(common)], yes), undefined);
  assert.equal(describedRoute([hit([...common, wordKey("compensation")])], yes)?.index, 0);
});

Deno.test("rankDescriptions: another language's function words match nothing", () => {
  const index = descriptionIndex([
    descriptionTerms("cargo-fuzz", "cargo-fuzz is the de facto fuzzing tool for Rust backends."),
  ]);
  const q = (text: string) => {
    const p = preparePrompt(text);
    return { keys: p.words, requestKeys: p.words };
  };
  assert.equal(rankDescriptions(index, q("la mise à jour de la direction")).length, 0);
  assert.equal(rankDescriptions(index, q("fuzz the rust parser")).length, 1);
  // "comme" is no "communications".
  const comms = descriptionIndex([
    descriptionTerms("internal-comms", "Write internal communications: status reports, updates."),
  ]);
  const fr = "pourquoi git status affiche mes fichiers comme modifiés";
  assert.deepEqual(rankDescriptions(comms, q(fr))[0]?.matched, ["status"]);
});

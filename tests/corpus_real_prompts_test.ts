/**
 * Opt-in: routes the real prompts of the corpus transcripts, labelled by reference in
 * `fixtures/routing/real_corpus.tsv` (`corpus:<file>:<line>`; the text is read from the record at
 * run time, never copied), against gstack's skills with the default config. Skipped, with a note,
 * when the corpus is absent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { evalRoutes, parseLabeled } from "../lib/cli/route_command.ts";
import { loadRouteSkills } from "../lib/routing/route.ts";
import { FIXTURES, REPO_ROOT } from "./_helpers.ts";
import { claudeFolders } from "../lib/host/_kit_test.ts";
import { CORPUS_TRANSCRIPTS, corpusPresent } from "./_corpus_transcripts.ts";

const GSTACK = resolve(REPO_ROOT, "..", "shared", "corpus", "skills", "garrytan+gstack");

function gstackPresent(): boolean {
  try {
    return Deno.statSync(GSTACK).isDirectory;
  } catch {
    return false;
  }
}

const ignore = !corpusPresent() || !gstackPresent();
if (ignore) console.log(`corpus_real_prompts_test: skipped, the corpus is absent`);

/**
 * The prompt text of a `user` record: its string content or its text blocks joined.
 *
 * @param ref `corpus:<file under the transcripts folder>:<line>`.
 * @returns The text.
 */
function promptAt(ref: string): string {
  const m = /^corpus:(.+):(\d+)$/.exec(ref);
  if (!m) throw new Error(`Not a corpus reference: ${ref}`);
  const line = Deno.readTextFileSync(join(CORPUS_TRANSCRIPTS, m[1])).split("\n")[Number(m[2]) - 1];
  const rec = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
  assert.equal(rec.type, "user", ref);
  const content = rec.message?.content;
  const text = typeof content === "string"
    ? content
    : Array.isArray(content)
    ? content.filter((c) => c?.type === "text").map((c) => c.text).join(" ")
    : "";
  assert.ok(text.trim(), `${ref} holds no text`);
  return text;
}

Deno.test({
  name: "real transcripts: the labelled real prompts keep their measured figures",
  ignore,
  fn: async () => {
    const world = await loadRouteSkills({
      hostFolders: claudeFolders(join(GSTACK, ".no-config-dir")),
      extraSkillDirs: [GSTACK],
    });
    const refs = parseLabeled(
      Deno.readTextFileSync(join(FIXTURES, "routing", "real_corpus.tsv")),
    );
    const items = refs.map((i) => ({ ...i, prompt: promptAt(i.prompt) }));
    const r = evalRoutes(items, world.skills);
    const wrong = r.routed - r.right;
    console.log(
      `real prompts (${items.length}): routed ${r.routed}, right ${r.right}/${r.fit}, ` +
        `wrong ${wrong}, non-fit routed ${r.nonFitRouted}/${r.nonFit}`,
    );
    for (const m of r.wrong) {
      console.log(`  line ${m.item.line}: expected ${m.item.expected}, got ${m.got}: ${m.why}`);
    }
    assert.ok(items.length >= 40, `${items.length} prompts`);
    // Measured (docs/routing.md): 2 routed, both right, before and after issue 28 item 4.
    assert.ok(r.right >= 2, `${r.right} right`);
    assert.ok(wrong <= 0, `${wrong} wrong routes`);
  },
});

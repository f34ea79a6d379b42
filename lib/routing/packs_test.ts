import assert from "node:assert/strict";
import { PACK_ENTRIES, PACK_NAMES, packFor } from "./packs.ts";
import { compileTrigger } from "./score.ts";

const DEBUGGING = "Use when encountering any bug, test failure, or unexpected behavior, before " +
  "proposing fixes";

Deno.test("packFor: the name (plugin prefix or frontmatter name too) and the text's opening", () => {
  assert.equal(packFor("systematic-debugging", undefined, DEBUGGING)?.pack, "superpowers");
  assert.equal(
    packFor("superpowers:systematic-debugging", undefined, DEBUGGING)?.pack,
    "superpowers",
  );
  assert.equal(packFor("debugging", "systematic-debugging", DEBUGGING)?.pack, "superpowers");
  assert.equal(
    packFor("systematic-debugging", undefined, `  ${DEBUGGING.toUpperCase()}`)?.pack,
    "superpowers",
  );
  assert.equal(
    packFor("systematic-debugging", undefined, "Our own debugging checklist"),
    undefined,
  );
  assert.equal(packFor("my-debugging", undefined, DEBUGGING), undefined);
  assert.equal(packFor("systematic-debugging", undefined, undefined), undefined);
});

Deno.test("pack entries: four packs, one entry per skill and pack, every trigger has a word", () => {
  assert.deepEqual(PACK_NAMES, ["superpowers", "anthropics", "trailofbits", "wshobson"]);
  const seen = new Set<string>();
  for (const [pack, name, opening, triggers] of PACK_ENTRIES) {
    assert.ok(!seen.has(`${pack}/${name}`), name);
    seen.add(`${pack}/${name}`);
    assert.ok(opening.split(" ").length >= 5, `${name}: a short opening`);
    assert.equal(opening, opening.toLowerCase().replace(/\s+/g, " "));
    for (const t of triggers) assert.ok(compileTrigger(t).phrase !== "", `${name}: "${t}"`);
  }
  assert.ok(!seen.has("superpowers/using-superpowers"));
});

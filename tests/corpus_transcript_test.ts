/**
 * Opt-in corpus test (`deno test -A tests/corpus_*`): the transcript reader over every real
 * Claude Code transcript in `../shared/corpus/transcripts`. Skips with a message when the corpus
 * folder is absent.
 */
import assert from "node:assert/strict";
import { CORPUS_TRANSCRIPTS, corpusPresent, jsonlFiles } from "./_corpus_transcripts.ts";
import { relative } from "node:path";
import type { SkillLoad } from "../lib/transcript/model.ts";
import { readTranscriptRun } from "../lib/transcript/read.ts";

const CORPUS = CORPUS_TRANSCRIPTS;

const present = corpusPresent();
if (!present) {
  console.log(`corpus_transcript_test: ${CORPUS} is absent; corpus tests skipped`);
}

Deno.test({
  name: "readTranscriptRun() reads every corpus transcript without throwing or unknown shape",
  ignore: !present,
  fn: async () => {
    const files = jsonlFiles(CORPUS);
    assert.ok(files.length >= 10, `found ${files.length} transcripts`);
    for (const file of files) {
      // Parse the whole file (from offset 0) with a selector that matches nothing.
      const read = await readTranscriptRun(file, { skill: () => false, fromOffset: 0 });
      assert.notEqual(
        read.kind,
        "unknown_shape",
        `${relative(CORPUS, file)}: ${read.kind === "unknown_shape" ? read.reason : ""}`,
      );
      assert.equal(read.kind, "not_loaded", relative(CORPUS, file));
      assert.ok(read.stats.records > 0, relative(CORPUS, file));
      assert.ok(read.stats.userOrAssistantRecords > 0, relative(CORPUS, file));
    }
  },
});

Deno.test({
  name: "readTranscriptRun() finds the corpus's two real Skill tool loads",
  ignore: !present,
  fn: async () => {
    const found: SkillLoad[] = [];
    for (const file of jsonlFiles(CORPUS)) {
      const read = await readTranscriptRun(file, { skill: (l) => l.via === "skill_tool" });
      assert.notEqual(read.kind, "unknown_shape", relative(CORPUS, file));
      if (read.kind === "ok") found.push(read.run.load);
    }
    assert.deepEqual(found.map((l) => l.qualifiedName).sort(), [
      "elixir:hex-docs-search",
      "handgemacht:commit",
    ]);
  },
});

Deno.test({
  name: "readTranscriptRun() finds the corpus's typed plugin slash command and Task dispatches",
  ignore: !present,
  fn: async () => {
    let commands = 0;
    let tasks = 0;
    for (const file of jsonlFiles(CORPUS)) {
      const cmd = await readTranscriptRun(file, { skill: "handgemacht:create-beads" });
      if (cmd.kind === "ok") {
        commands++;
        assert.equal(cmd.run.load.via, "command");
      }
      const all = await readTranscriptRun(file, { skill: () => true, fromOffset: 0 });
      if (all.kind === "ok") {
        tasks += all.run.toolCalls.filter((c) => c.name === "Task" && !c.sidechain).length;
      }
    }
    assert.ok(commands >= 1, "the typed /handgemacht:create-beads command is a load");
    assert.ok(tasks >= 1, "Task dispatches are read");
  },
});

Deno.test({
  name: "awaitTurnInTranscript() finds the final text of every corpus transcript that ends on one",
  ignore: !present,
  fn: async () => {
    const { awaitTurnInTranscript } = await import("../lib/transcript/currency.ts");
    let ending = 0;
    let midTurn = 0;
    for (const file of jsonlFiles(CORPUS)) {
      // The last main-chain assistant text, and whether anything moved the turn after it.
      let last: string | undefined;
      let movedOn = false;
      for (const line of Deno.readTextFileSync(file).split("\n")) {
        let rec;
        try {
          rec = JSON.parse(line);
        } catch {
          continue;
        }
        if (rec?.isSidechain === true || !Array.isArray(rec?.message?.content)) continue;
        const blocks = rec.message.content as { type?: string; text?: unknown }[];
        if (rec.type === "assistant") {
          const texts = blocks.filter((b) => b?.type === "text" && typeof b.text === "string");
          if (texts.length > 0) [last, movedOn] = [String(texts.at(-1)!.text), false];
          if (blocks.some((b) => b?.type === "tool_use")) movedOn = true;
        } else if (rec.type === "user" && rec.isMeta !== true) {
          if (blocks.some((b) => b?.type === "tool_result" || b?.type === "text")) movedOn = true;
        }
      }
      if (last === undefined || last.trim() === "" || movedOn) {
        midTurn++;
        continue;
      }
      ending++;
      const c = await awaitTurnInTranscript(file, last, { budgetMs: 0 });
      assert.equal(c.state, "current", relative(CORPUS, file));
    }
    console.log(`corpus: ${ending} transcripts end on a final text (current), ${midTurn} mid-turn`);
    assert.ok(ending >= 5, `only ${ending} transcripts end on a final text`);
  },
});

/**
 * Opt-in corpus test (`deno test -A tests/corpus_*`): the transcript reader over every real
 * Claude Code transcript in `../shared/corpus/transcripts`. Skips with a message when the corpus
 * folder is absent.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { readTranscriptRun, type SkillLoad } from "../lib/transcript.ts";

const CORPUS = new URL("../../shared/corpus/transcripts", import.meta.url).pathname;

function corpusPresent(): boolean {
  try {
    return Deno.statSync(CORPUS).isDirectory;
  } catch {
    return false;
  }
}

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...jsonlFiles(p));
    else if (e.isFile && e.name.endsWith(".jsonl")) out.push(p);
  }
  return out.sort();
}

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

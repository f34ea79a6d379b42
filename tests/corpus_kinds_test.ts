/**
 * Opt-in corpus test (`deno task test:corpus`): the shell status reader and the check, test-first
 * and file kinds over every real Claude Code transcript in `../shared/corpus/transcripts` (Claude
 * Code 2.1.38-2.1.39 sessions). Skips with a message when the corpus folder is absent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CORPUS_TRANSCRIPTS, corpusPresent, jsonlFiles } from "./_corpus_transcripts.ts";
import { relative } from "node:path";
import { turnRecords } from "../lib/transcript/builder.ts";
import type { ToolCall, TranscriptRun } from "../lib/transcript/model.ts";
import { checkContract } from "../lib/contracts/check.ts";
import { validateContract } from "../lib/contracts/schema.ts";

const CORPUS = CORPUS_TRANSCRIPTS;

/** A whole transcript as one run (every record; a stand-in load at its start). */
function wholeRun(file: string): TranscriptRun {
  const text = Deno.readTextFileSync(file);
  const lines: string[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    if (line.trim() !== "") {
      lines.push(line);
      offsets.push(at);
    }
    at += new TextEncoder().encode(line).length + 1;
  }
  const size = new TextEncoder().encode(text).length;
  const recs = turnRecords({
    start: "file-start",
    offset: 0,
    lines,
    offsets,
    fileSize: size,
    bytesRead: size,
  });
  const cwd = /"cwd":"([^"]+)"/.exec(text)?.[1];
  return {
    load: { seq: 0, offset: 0, qualifiedName: "corpus", name: "corpus", via: "skill_tool" },
    ...recs,
    ...(cwd ? { cwd } : {}),
  };
}

/** What the raw records say of each Bash result, read here without the reader's code. */
function rawBashEnds(file: string): Map<string, string> {
  const bash = new Set<string>();
  const out = new Map<string, string>();
  for (const line of Deno.readTextFileSync(file).split("\n")) {
    if (!line.includes('"tool_use"') && !line.includes('"tool_result"')) continue;
    const rec = JSON.parse(line);
    const msg = rec.message ?? rec.data?.message?.message ?? rec.data?.message;
    const content = Array.isArray(msg?.content) ? msg.content : [];
    for (const b of content) {
      if (b?.type === "tool_use" && b.name === "Bash") bash.add(b.id);
      if (b?.type !== "tool_result" || !bash.has(b.tool_use_id)) continue;
      const text = typeof b.content === "string"
        ? b.content
        : (b.content ?? []).map((c: { text?: string }) => c.text ?? "").join("\n");
      const tur = rec.toolUseResult;
      if (text.startsWith("<tool_use_error>") || /rejected/.test(String(tur))) {
        out.set(b.tool_use_id, "not_run");
      } else if (b.is_error === true) {
        const m = /^Exit code (\d+)/.exec(text);
        out.set(b.tool_use_id, m ? `failed ${m[1]}` : "failed");
      } else if (tur && typeof tur === "object" && "stdout" in tur) {
        out.set(b.tool_use_id, tur.interrupted || tur.backgroundTaskId ? "unknown" : "passed");
      }
    }
  }
  return out;
}

const corpus = corpusPresent();
if (!corpus) console.log(`corpus_kinds_test: ${CORPUS} is absent; corpus tests skipped`);

Deno.test({
  name: "the run model's shell status agrees with every real Bash result of the corpus",
  ignore: !corpus,
  fn: () => {
    const tally: Record<string, number> = {};
    for (const file of jsonlFiles(CORPUS)) {
      const raw = rawBashEnds(file);
      const calls = new Map<string, ToolCall>(
        wholeRun(file).toolCalls.filter((c) => c.name === "Bash").map((c) => [c.id, c]),
      );
      for (const [id, want] of raw) {
        const r = calls.get(id)?.result;
        if (!r) continue; // a result whose call the reader did not pair (nested elsewhere)
        const got = r.status === "failed" && r.exitCode !== undefined
          ? `failed ${r.exitCode}`
          : r.status ?? "none";
        assert.equal(got, want, `${relative(CORPUS, file)} ${id}`);
        tally[want.split(" ")[0]] = (tally[want.split(" ")[0]] ?? 0) + 1;
      }
    }
    console.log(`corpus Bash results: ${JSON.stringify(tally)}`);
    assert.ok((tally.passed ?? 0) > 50, "many passing commands");
    assert.ok((tally.failed ?? 0) > 5, "some failing commands");
  },
});

Deno.test({
  name:
    "the check, test-first and file kinds decide every corpus session, consistently with its statuses",
  ignore: !corpus,
  fn: async () => {
    const v = await validateContract({
      version: 1,
      items: [
        { id: "pass", kind: "check_passed_after_last_edit" },
        { id: "tdd", kind: "test_first" },
        { id: "docs", kind: "file_written", path: "**/*.md" },
      ],
    });
    assert.ok(v.ok);
    const rows: string[] = [];
    for (const file of jsonlFiles(CORPUS)) {
      const run = wholeRun(file);
      const r = checkContract(run, v.contract, { skill: "corpus" });
      const [pass, tdd, docs] = r.items;
      rows.push(
        `${relative(CORPUS, file)}: ${
          r.items.map((i) => `${i.id}=${i.status} (${i.detail})`).join("; ")
        }`,
      );
      // A met check item has a passing check after the last edit (or no edit); test_first met
      // implies the check item is met (its end is the same rule).
      if (tdd.status === "met") assert.equal(pass.status, "met", rows.at(-1));
      if (/failed \(exit \d+\)/.test(pass.detail)) assert.equal(pass.status, "missing");
      assert.equal(typeof docs.detail, "string");
    }
    console.log(rows.join("\n"));
  },
});

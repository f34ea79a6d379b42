/**
 * The reader's shortcuts against a plain reference: the backward search decodes a chunk at once,
 * looks only at the lines that hold a load needle, starts with small chunks, and keeps the run's
 * lines for the forward parse. On random transcripts (non-ASCII text, loads of several kinds and
 * skills, long results, blank lines, a cut last line, any chunk size) the run must be the one a
 * reference gets by parsing every line: the last selected load found by `loadsOfRecord` over all
 * lines, and every line from there fed to a `RunBuilder`.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { RunRead, SkillLoad } from "./model.ts";
import { findLastLoad, linesWithNeedles, parseTranscriptText, readTranscriptRun } from "./read.ts";
import { LOAD_NEEDLES } from "./loads.ts";
import { RunBuilder } from "./builder.ts";
import { loadsOfRecord, selects } from "./loads.ts";
import { parseLine } from "./record.ts";
import { readerFor } from "./readers.ts";
import {
  bash,
  call,
  type Rec,
  result,
  say,
  skillLoad,
  user,
} from "../../fixtures/transcripts/_build.ts";

const SKILL = "investigate";
const DIRS = ["/home/dev/.claude/skills"];
const TEXTS = ["plain", "ünïcödé ✓", "emoji 🎉 and 中文", 'a \\ " quote', "x".repeat(3000)];

const arbText = fc.oneof(fc.constantFrom(...TEXTS), fc.string({ maxLength: 40 }));
const arbId = fc.integer({ min: 1, max: 6 }).map((n) => `t${n}`);
const arbSkill = fc.constantFrom(SKILL, "other", "plug:investigate");

/** One step of a transcript: one or more records, or a blank line. */
const arbStep: fc.Arbitrary<Array<Rec | "">> = fc.oneof(
  arbText.map((t) => [user(t)]),
  arbText.map((t) => [say(t)]),
  fc.tuple(arbId, arbSkill).map(([id, s]) => skillLoad(id, s)),
  fc.tuple(arbId, arbSkill).map(([id, s]) => [call(id, "Skill", { skill: s })]),
  arbSkill.map((s) => [user(`<command-name>/${s}</command-name>`)]),
  fc.tuple(arbId, arbSkill).map(([id, s]) => [
    call(id, "Read", { file_path: `/home/dev/.claude/skills/${s}/SKILL.md` }),
  ]),
  fc.tuple(arbId, arbText, arbText).map(([id, c, o]) => bash(id, c, o)),
  fc.tuple(arbId, fc.integer({ min: 0, max: 20_000 })).map(([id, n]) => [
    call(id, "Read", { file_path: "/home/dev/app/a.ts" }),
    result(id, "é".repeat(n)),
  ]),
  arbText.map((t) => [{ type: "queue-operation", content: `<task-notification>${t}` }]),
  fc.constant([""] as Array<Rec | "">),
  fc.jsonValue().map((v) => [{ type: "user", message: { content: v } }]),
);

const enc = new TextEncoder();

/** The reference: every line parsed; the last selected load; every line from it fed. */
function reference(text: string, stopAtNextRun = false, from?: number): RunRead | undefined {
  const lines = text.split("\n");
  const offsets: number[] = [];
  for (let k = 0, at = 0; k < lines.length; k++) {
    offsets.push(at);
    at += enc.encode(lines[k]).length + 1;
  }
  let first = -1;
  if (from !== undefined) first = offsets.indexOf(from);
  for (let k = lines.length - 1; first < 0 && k >= 0; k--) {
    const rec = parseLine(lines[k]);
    const loads = rec ? loadsOfRecord(rec, DIRS) : [];
    if (loads.some((l) => selects(SKILL, { ...l, seq: 0, offset: offsets[k] } as SkillLoad))) {
      first = k;
    }
  }
  if (first < 0) return undefined;
  const size = enc.encode(text).length;
  const builder = new RunBuilder(SKILL, DIRS, size);
  for (let k = first; k < lines.length; k++) {
    if (builder.feed(lines[k], offsets[k], stopAtNextRun) === "stop") break;
  }
  const run = builder.finish();
  return run && builder.stats.badContent === 0 ? { kind: "ok", run } : undefined;
}

/**
 * A run without the bytes the search read (which differ by how it read them); for a comparison
 * with the reference, without the offsets only a reader sets either.
 */
function model(read: RunRead | undefined, offsets = true): unknown {
  if (read?.kind !== "ok") return read?.kind ?? "none";
  const { stats, ...rest } = read.run;
  const { bytesScanned: _, startOffset, endOffset, bytesParsed, ...counts } = stats;
  return offsets ? { ...rest, counts, startOffset, endOffset, bytesParsed } : { ...rest, counts };
}

Deno.test("the reader's shortcuts give the run of a parse of every line, at any chunk size (property)", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.jsonl`;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbStep, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 16, max: 64 * 1024 }),
        async (steps, cutLastNewline, chunkSize) => {
          const lines = steps.flat().map((r) => r === "" ? "" : JSON.stringify(r));
          let text = lines.join("\n") + "\n";
          if (cutLastNewline) text = text.slice(0, -1);
          Deno.writeTextFileSync(path, text);
          const options = { skill: SKILL, skillsDirs: DIRS, chunkSize };
          const expected = reference(text);
          const whole = await readTranscriptRun(path, options);
          if (expected) assert.deepEqual(model(whole, false), model(expected, false));
          else assert.notEqual(whole.kind, "ok");
          assert.deepEqual(model(parseTranscriptText(text, options)), model(whole));
          // The search and then the run from its load, with and without the lines it kept.
          const found = await findLastLoad(path, options);
          if (whole.kind === "ok") assert.equal(found.kind, "found");
          if (found.kind !== "found") return;
          const again = { ...options, fromOffset: found.load.offset };
          const withTail = await readTranscriptRun(path, { ...again, tail: found.tail });
          const reread = await readTranscriptRun(path, again);
          assert.deepEqual(model(withTail), model(reread));
          if (whole.kind === "ok") assert.deepEqual(model(withTail), model(whole));
          const ref = reference(text, true, found.load.offset);
          if (ref) assert.deepEqual(model(withTail, false), model(ref, false));
        },
      ),
      { numRuns: 300 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a tail kept for another file size is not used", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.jsonl`;
  try {
    const recs = [...skillLoad("t1", SKILL), say("first")];
    Deno.writeTextFileSync(path, recs.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const found = await findLastLoad(path, { skill: SKILL, skillsDirs: DIRS });
    assert(found.kind === "found" && found.tail !== undefined);
    Deno.writeTextFileSync(path, JSON.stringify(say("appended")) + "\n", { append: true });
    const read = await readTranscriptRun(path, {
      skill: SKILL,
      skillsDirs: DIRS,
      fromOffset: found.load.offset,
      tail: found.tail,
    });
    assert(read.kind === "ok");
    assert.deepEqual(read.run.messages.slice(-2).map((m) => m.text), ["first", "appended"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a search that shows the turn means the wait finds it at once, on any flushed prefix (property)", async () => {
  const reader = await readerFor("claude-code-jsonl");
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.jsonl`;
  const FINAL = "FINAL answer ✓";
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(arbStep, fc.constant([say(FINAL)]), fc.constant([say(` ${FINAL} `)]))),
        fc.nat(100_000),
        fc.boolean(),
        async (steps, cutAt, atLineEnd) => {
          const lines = steps.flat().map((r) => r === "" ? "" : JSON.stringify(r));
          const bytes = enc.encode(lines.join("\n") + "\n");
          const ends = lines.map((_, j) => enc.encode(lines.slice(0, j + 1).join("\n")).length);
          const cut = atLineEnd && ends.length > 0
            ? ends[cutAt % ends.length]
            : cutAt % (bytes.length + 1);
          Deno.writeFileSync(path, bytes.subarray(0, cut));
          const stop = { finalText: FINAL };
          const search = await findLastLoad(path, { skill: SKILL, skillsDirs: DIRS });
          const shown = reader.searchShowsTurn!(search, stop);
          const waited = await reader.awaitTurn(path, stop, { budgetMs: 0 });
          if (shown) assert.equal(waited.state, "current");
          // A file whose last line is the final text, ended, shows it.
          if (cut === bytes.length && lines.at(-1)?.includes(FINAL)) assert(shown);
        },
      ),
      { numRuns: 300 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("linesWithNeedles names exactly the lines that hold a load needle (property)", () => {
  // Pieces that make needles, near misses, split needles, non-ASCII and empty lines.
  const piece = fc.constantFrom(
    ...LOAD_NEEDLES,
    ...LOAD_NEEDLES.map((n) => n.slice(0, -1)),
    ...LOAD_NEEDLES.map((n) => n.slice(1)),
    "x",
    "é✓🎉",
    "\\",
    '"',
    "",
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(piece, { maxLength: 6 }).map((p) => p.join("")), {
        minLength: 1,
        maxLength: 40,
      }),
      (lines) => {
        const expected = lines.flatMap((l, k) =>
          LOAD_NEEDLES.some((n) => l.includes(n)) ? [k] : []
        );
        assert.deepEqual(linesWithNeedles(lines.join("\n"), lines), expected);
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("a record with a load holds a load needle in its JSON line (property)", () => {
  // The search looks for loads only in lines holding a needle, and the run's parse looks for none
  // in the other lines of a kept tail: a load kind without its needle would be missed.
  const arbName = fc.oneof(arbSkill, fc.string({ maxLength: 12 }));
  const arbRecord: fc.Arbitrary<Rec> = fc.oneof(
    arbStep.map((s) => (s.find((r) => r !== "") ?? {}) as Rec),
    fc.tuple(arbId, arbName).map(([id, s]) => call(id, "Skill", { skill: s })),
    fc.tuple(arbId, arbName).map(([id, s]) => call(id, "Skill", { command: `/${s}` })),
    fc.tuple(arbId, arbName).map(([id, s]) =>
      call(id, "Read", { file_path: `/home/dev/.claude/skills/${s}/SKILL.md` })
    ),
    arbName.map((s) => user(`<command-name>/${s}</command-name>`)),
    arbName.map((s) => ({ ...user(`Base directory for this skill: /x/${s}`), isMeta: true })),
    fc.jsonValue().map((v) => ({ type: "assistant", message: { content: v } })),
    fc.jsonValue().map((v) => ({ type: "user", isMeta: true, message: { content: v } })),
  );
  fc.assert(
    fc.property(arbRecord, (rec) => {
      if (loadsOfRecord(rec, DIRS).length === 0 && loadsOfRecord(rec, undefined).length === 0) {
        return;
      }
      const line = JSON.stringify(rec);
      assert(LOAD_NEEDLES.some((n) => line.includes(n)), line);
    }),
    { numRuns: 2000 },
  );
});

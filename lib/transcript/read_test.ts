import assert from "node:assert/strict";
import { ok, parse } from "./_kit_test.ts";
import { join } from "node:path";
import fc from "fast-check";
import { TranscriptReadError } from "./model.ts";
import { findLastLoad, parseTranscriptText, readTranscriptRun } from "./read.ts";
import { endsOnQuestion, finalAssistantText, pendingAgentDispatches } from "./turn.ts";
import {
  assistant,
  bash,
  call,
  edit,
  jsonl,
  result,
  say,
  skillLoad,
  user,
} from "../../fixtures/transcripts/_build.ts";

Deno.test("parseTranscriptText() parses only from the last load", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    ...edit("e1"),
    say("first run"),
    user("again"),
    ...skillLoad("t2", "investigate"),
    say("second run"),
  ]));
  assert(!run.toolCalls.some((c) => c.id === "e1"), "the first run's edit is not in the run");
  assert.deepEqual(run.messages.filter((m) => m.role === "assistant").map((m) => m.text), [
    "second run",
  ]);
  assert(run.stats.startOffset > 0);
});

/** Files of a session with no turns yet, as Claude Code writes them before the first prompt. */
const NO_TURNS_YET: Record<string, string> = {
  empty: "",
  summary: jsonl([{ type: "summary", summary: "x", leafUuid: "u0" }]),
  "summary and system": jsonl([
    { type: "summary", summary: "x" },
    { type: "system", subtype: "informational" },
  ]),
  "queue operations": jsonl([
    { type: "queue-operation", operation: "enqueue", content: "hi" },
    { type: "queue-operation", operation: "dequeue" },
  ]),
  "snapshots and hook progress": jsonl([
    { type: "file-history-snapshot", messageId: "m1", snapshot: {} },
    { type: "progress", data: { type: "hook_progress", hookEvent: "SessionStart" } },
  ]),
  attachments: jsonl([
    { type: "attachment", attachment: { type: "skill_listing", content: "x" } },
    { type: "attachment", attachment: { type: "date", content: "2026-01-01" } },
    { type: "last-prompt", lastPrompt: "x" },
  ]),
  "a first line still being written": '{"type":"file-history-snapshot","messageId":"m1","snap',
  "blank lines": "\n\n",
};

Deno.test("a transcript with no turns yet is not_loaded, never an unknown shape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { findLastLoad } = await import("./read.ts");
    for (const [name, text] of Object.entries(NO_TURNS_YET)) {
      assert.equal(parseTranscriptText(text, { skill: "investigate" }).kind, "not_loaded", name);
      if (!text.endsWith("snap")) {
        // Read forward from the start (a re-check), whole records only.
        const forward = parseTranscriptText(text, { skill: "investigate", fromOffset: 0 });
        assert.equal(forward.kind, "not_loaded", name);
      }
      const path = join(dir, "t.jsonl");
      Deno.writeTextFileSync(path, text);
      assert.equal((await readTranscriptRun(path, { skill: () => true })).kind, "not_loaded", name);
      assert.equal((await findLastLoad(path, { skill: () => true })).kind, "not_loaded", name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a transcript of records this reader does not know is still an unknown shape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { findLastLoad } = await import("./read.ts");
    const unknown: Record<string, string> = {
      // GitHub Copilot CLI's events.jsonl.
      "copilot events": jsonl([
        { type: "session.start", data: { sessionId: "c1" } },
        { type: "user.message", data: { content: "hi" } },
      ]),
      // Messages under a new record type.
      "renamed message type": jsonl([
        { type: "summary", summary: "x" },
        { type: "message", role: "user", message: { role: "user", content: "hi" } },
      ]),
      "not JSON objects": "hello\n[1,2]\n",
      "no type": jsonl([{ uuid: "u1", message: { role: "user", content: "hi" } }]),
    };
    for (const [name, text] of Object.entries(unknown)) {
      const read = parseTranscriptText(text, { skill: "investigate" });
      assert.equal(read.kind, "unknown_shape", name);
      assert.match((read as { reason: string }).reason, /does not know/, name);
      const path = join(dir, "t.jsonl");
      Deno.writeTextFileSync(path, text);
      assert.equal((await findLastLoad(path, { skill: () => true })).kind, "unknown_shape", name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseTranscriptText() gives too_large when the run exceeds the parse limit", () => {
  const filler = say("x".repeat(5000));
  const recs = [...skillLoad("t1", "investigate"), filler, filler, say("end")];
  const read = parse(recs, "investigate", { maxParseBytes: 8000 });
  assert.deepEqual(read.kind, "too_large");
  // The same bytes before the load do not count against the limit.
  const early = [filler, filler, filler, ...skillLoad("t1", "investigate"), say("end")];
  const run = ok(parse(early, "investigate", { maxParseBytes: 8000 }));
  assert(run.stats.bytesParsed < 8000);
});

Deno.test("parseTranscriptText() with fromOffset re-checks an earlier run up to the next load", () => {
  const recs = [
    user("one"),
    ...skillLoad("t1", "investigate"),
    ...edit("e1"),
    say("first"),
    ...skillLoad("t2", "investigate"),
    say("second"),
  ];
  assert.deepEqual(finalAssistantText(ok(parse(recs))), "second");
  const text = jsonl(recs);
  const firstOffset = text.indexOf('"name":"Skill"');
  const lineStart = text.lastIndexOf("\n", firstOffset) + 1;
  const run = ok(parseTranscriptText(text, { skill: "investigate", fromOffset: lineStart }));
  assert.deepEqual(run.load.via, "skill_tool");
  assert(run.toolCalls.some((c) => c.id === "e1"));
  assert.deepEqual(finalAssistantText(run), "first");
  assert(run.stats.endOffset < text.length);
});

Deno.test("readTranscriptRun() gives the same run as the in-memory reader across chunk sizes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const recs = [
      user("héllo — ünïcode ✓ 日本語"),
      ...skillLoad("t0", "investigate"),
      say("old run ✓"),
      ...skillLoad("t1", "investigate"),
      ...edit("e1"),
      ...bash("b1", "bun test", "✓ 2 pass"),
      say("DEBUG REPORT\nSymptom: ✓ ünïcode"),
    ];
    const text = jsonl(recs);
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(path, text);
    const mem = ok(parseTranscriptText(text, { skill: "investigate" }));
    for (const chunkSize of [16, 37, 100, 4096]) {
      const file = ok(await readTranscriptRun(path, { skill: "investigate", chunkSize }));
      assert.deepEqual(file.stats.startOffset, mem.stats.startOffset, `chunk ${chunkSize}`);
      assert.deepEqual(file.messages, mem.messages, `chunk ${chunkSize}`);
      assert.deepEqual(file.toolCalls, mem.toolCalls, `chunk ${chunkSize}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTranscriptRun() parses only the run's bytes of a long file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const filler = jsonl([say("x".repeat(4000))]);
    const path = join(dir, "big.jsonl");
    const head = filler.repeat(500); // ~2 MB before the load
    await Deno.writeTextFile(path, head + jsonl([...skillLoad("t1", "investigate"), say("end")]));
    const run = ok(
      await readTranscriptRun(path, { skill: "investigate", maxParseBytes: 64 * 1024 }),
    );
    assert(run.stats.bytesParsed < 4096, `parsed ${run.stats.bytesParsed}`);
    assert(run.stats.startOffset >= head.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTranscriptRun() treats a line longer than the limit holding a load as too large", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "giant.jsonl");
    const giant = jsonl([
      assistant([
        { type: "text", text: "y".repeat(20000) },
        { type: "tool_use", id: "s", name: "Skill", input: { skill: "investigate" } },
      ]),
    ]);
    await Deno.writeTextFile(path, jsonl([user("hi")]) + giant + jsonl([say("z")]));
    const read = await readTranscriptRun(path, {
      skill: "investigate",
      maxParseBytes: 5000,
      chunkSize: 1000,
    });
    assert.deepEqual(read.kind, "too_large");
    const other = await readTranscriptRun(path, {
      skill: "review",
      maxParseBytes: 5000,
      chunkSize: 1000,
    });
    assert.deepEqual(other.kind, "not_loaded");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTranscriptRun() throws TranscriptReadError for a missing file", async () => {
  let caught: unknown;
  try {
    await readTranscriptRun("/nonexistent/skillgate/none.jsonl", { skill: "x" });
  } catch (e) {
    caught = e;
  }
  assert(caught instanceof TranscriptReadError);
});

const arbRecord = fc.oneof(
  fc.constant(user("hi")),
  fc.constant(say("hello")),
  fc.constant(call("s1", "Skill", { skill: "investigate" })),
  fc.constant(call("e1", "Edit", { file_path: "/a" })),
  fc.constant(result("e1", "ok")),
  fc.constant({ type: "progress", data: { message: { type: "assistant", message: {} } } }),
  fc.constant({ type: "attachment", attachment: { type: "invoked_skills", skills: [null, 3] } }),
  fc.jsonValue().map((v) => ({ type: "user", message: { content: v } })),
  fc.jsonValue().map((v) => ({ type: "assistant", message: { content: v, id: 5 } })),
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom("type", "message", "data", "attachment", "uuid"), fc.jsonValue()),
);

Deno.test("parseTranscriptText() never throws on random and truncated JSONL (property)", () => {
  fc.assert(
    fc.property(
      fc.array(arbRecord, { maxLength: 20 }),
      fc.nat(),
      fc.integer({ min: 16, max: 200 }),
      (recs, cut, chunkSize) => {
        const text = recs.map((r) => JSON.stringify(r) ?? "null").join("\n");
        const truncated = text.slice(0, text.length === 0 ? 0 : cut % (text.length + 1));
        for (const t of [text, truncated]) {
          const read = parseTranscriptText(t, { skill: "investigate", chunkSize });
          assert(["ok", "not_loaded", "too_large", "unknown_shape"].includes(read.kind));
          if (read.kind === "ok") {
            finalAssistantText(read.run);
            endsOnQuestion(read.run);
            pendingAgentDispatches(read.run);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("parseTranscriptText() never throws on random text (property)", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 400 }), (s) => {
      parseTranscriptText(s, { skill: "investigate", chunkSize: 16 });
    }),
    { numRuns: 300 },
  );
});

Deno.test("readTranscriptRun() searches no lower than scanFloor, and ignores a floor past the end", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.jsonl`;
    const text = Deno.readTextFileSync(
      new URL("../../fixtures/transcripts/investigate_unmet.jsonl", import.meta.url),
    );
    Deno.writeTextFileSync(path, text);
    const size = new TextEncoder().encode(text).length;
    const whole = await readTranscriptRun(path, { skill: "investigate" });
    assert.equal(whole.kind, "ok");
    const loadAt = whole.kind === "ok" ? whole.run.load.offset : -1;
    // The load starts at the floor: the search does not see it, and says so without a shape error.
    const above = await readTranscriptRun(path, { skill: "investigate", scanFloor: loadAt });
    assert.equal(above.kind, "not_loaded");
    // A floor just below the load still finds it; a floor past the end is another file: search all.
    assert.equal(
      (await readTranscriptRun(path, { skill: "investigate", scanFloor: loadAt - 1 })).kind,
      "ok",
    );
    assert.equal(
      (await readTranscriptRun(path, { skill: "investigate", scanFloor: size + 1 })).kind,
      "ok",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findLastLoad() stops at its byte budget: a load further back is not found, and says so", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.jsonl`;
    const fixture = Deno.readTextFileSync(
      new URL("../../fixtures/transcripts/stop_unmet.jsonl", import.meta.url),
    );
    const last = fixture.trimEnd().split("\n").at(-1)!;
    // The load is in the fixture's first lines; 2 MiB of later turns follow it.
    Deno.writeTextFileSync(path, fixture + `${last}\n`.repeat(Math.ceil(2 ** 21 / last.length)));
    const options = { skill: "investigate", skillsDirs: [] };
    assert.equal((await findLastLoad(path, options)).kind, "found");
    const bounded = await findLastLoad(path, { ...options, scanBudget: 2 ** 20 });
    assert.equal(bounded.kind, "not_loaded");
    assert.equal(bounded.kind === "not_loaded" && bounded.budget, true);
    // A budget that covers the file changes nothing.
    assert.equal((await findLastLoad(path, { ...options, scanBudget: 2 ** 23 })).kind, "found");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

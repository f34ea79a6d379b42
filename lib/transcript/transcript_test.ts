import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  endsOnQuestion,
  finalAssistantText,
  findStatusLine,
  parseTranscriptText,
  pendingAgentDispatches,
  readTranscriptRun,
  type RunRead,
  skillNameMatches,
  TranscriptReadError,
  type TranscriptRun,
} from "./transcript.ts";
import {
  assistant,
  bash,
  call,
  edit,
  jsonl,
  type Rec,
  result,
  say,
  skillLoad,
  user,
} from "../../fixtures/transcripts/_build.ts";

function ok(read: RunRead): TranscriptRun {
  assert.equal(read.kind, "ok", `expected a run, got ${JSON.stringify(read).slice(0, 300)}`);
  return (read as { kind: "ok"; run: TranscriptRun }).run;
}

function parse(records: Rec[] | string, skill = "investigate", extra = {}): RunRead {
  const text = typeof records === "string" ? records : jsonl(records);
  return parseTranscriptText(text, { skill, ...extra });
}

Deno.test("parseTranscriptText() starts the run at a Skill tool load", () => {
  const run = ok(parse([user("fix this bug"), ...skillLoad("t1", "investigate"), say("done")]));
  assert.deepEqual(run.load.via, "base_directory");
  assert.deepEqual(run.loads.map((l) => l.via), ["base_directory"]);
  assert.deepEqual(finalAssistantText(run), "done");
});

Deno.test("parseTranscriptText() finds a Skill call with a plugin prefix and a leading slash", () => {
  const run = ok(parse([call("t1", "Skill", { skill: "/gstack:investigate" }), say("x")]));
  assert.deepEqual(run.load.via, "skill_tool");
  assert.deepEqual(run.load.name, "investigate");
  assert.deepEqual(run.load.qualifiedName, "gstack:investigate");
  assert.deepEqual(run.load.toolUseId, "t1");
});

Deno.test("parseTranscriptText() reads the legacy Skill input key command", () => {
  const run = ok(parse([call("t1", "Skill", { command: "investigate" }), say("x")]));
  assert.deepEqual(run.load.via, "skill_tool");
});

Deno.test("parseTranscriptText() finds a typed /name command whatever the tag order", () => {
  for (
    const text of [
      "<command-message>investigate</command-message>\n<command-name>/investigate</command-name>\n<command-args>login</command-args>",
      "<command-name>/investigate</command-name>\n<command-message>investigate</command-message>",
      "<command-args></command-args><command-name>/gstack:investigate</command-name>",
    ]
  ) {
    const run = ok(parse([user(text), say("ok")]));
    assert.deepEqual(run.load.via, "command");
    assert.deepEqual(run.load.name, "investigate");
  }
});

Deno.test("parseTranscriptText() counts a Read of SKILL.md under an installed skills dir only", () => {
  const dirs = ["/home/dev/.claude/skills"];
  const under = [
    call("r1", "Read", { file_path: "/home/dev/.claude/skills/investigate/SKILL.md" }),
    say("ok"),
  ];
  assert.deepEqual(ok(parse(under, "investigate", { skillsDirs: dirs })).load.via, "read");
  const checkout = [
    call("r1", "Read", { file_path: "/home/dev/src/gstack/investigate/SKILL.md" }),
    say("ok"),
  ];
  assert.deepEqual(parse(checkout, "investigate", { skillsDirs: dirs }).kind, "not_loaded");
  // Without the catalog's dirs, only a .claude/skills path counts.
  assert.deepEqual(ok(parse(under)).load.via, "read");
  assert.deepEqual(parse(checkout).kind, "not_loaded");
  const nested = [
    call("r1", "Read", { file_path: "/home/dev/.claude/skills/investigate/docs/SKILL.md" }),
    say("ok"),
  ];
  assert.deepEqual(parse(nested, "investigate", { skillsDirs: dirs }).kind, "not_loaded");
});

Deno.test("parseTranscriptText() does not take a compaction's invoked_skills attachment for a load", () => {
  const att: Rec = {
    type: "attachment",
    uuid: "att-1",
    attachment: {
      type: "invoked_skills",
      skills: [{ name: "investigate", path: "/x/investigate/SKILL.md", content: "..." }],
    },
  };
  // Alone it loads nothing; after a real load it does not start a second run.
  assert.equal(parse([user("hi"), att, say("ok")]).kind, "not_loaded");
  const records = [user("hi"), ...skillLoad("t1", "investigate"), say("a")];
  const without = ok(parse([...records, say("b")]));
  const withAtt = ok(parse([...records, att, say("b")]));
  assert.equal(withAtt.load.offset, without.load.offset);
  assert.equal(withAtt.loads.length, without.loads.length);
});

Deno.test("parseTranscriptText() gives not_loaded when the skill never loads", () => {
  const read = parse([user("hi"), ...skillLoad("t1", "review"), say("ok")]);
  assert.deepEqual(read.kind, "not_loaded");
});

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

Deno.test("parseTranscriptText() ignores a Skill load inside a subagent (progress record)", () => {
  const progress: Rec = {
    type: "progress",
    uuid: "p1",
    data: {
      type: "agent_progress",
      message: {
        type: "assistant",
        message: {
          id: "msg_sub",
          role: "assistant",
          content: [{ type: "tool_use", id: "s1", name: "Skill", input: { skill: "investigate" } }],
        },
      },
    },
  };
  assert.deepEqual(parse([user("hi"), progress, say("x")]).kind, "not_loaded");
});

Deno.test("parseTranscriptText() reads progress records' nested messages as sidechain", () => {
  const nested = (rec: Rec): Rec => ({
    type: "progress",
    uuid: `p-${Math.random()}`,
    data: { type: "agent_progress", message: rec },
  });
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    nested({
      type: "assistant",
      message: {
        id: "msg_sub",
        role: "assistant",
        content: [{ type: "tool_use", id: "sb1", name: "Bash", input: { command: "npm test" } }],
      },
    }),
    nested({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "sb1", content: "ok" }],
      },
    }),
    nested({
      type: "assistant",
      message: { id: "msg_sub2", role: "assistant", content: [{ type: "text", text: "sub says" }] },
    }),
    say("main says"),
  ]));
  const sub = run.toolCalls.find((c) => c.id === "sb1");
  assert(sub && sub.sidechain && sub.result?.text === "ok");
  assert.deepEqual(finalAssistantText(run), "main says");
  assert(run.messages.some((m) => m.sidechain && m.text === "sub says"));
});

Deno.test("parseTranscriptText() merges one API message spread over several records", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    assistant([{ type: "text", text: "part one" }], "msg_X"),
    assistant([{ type: "tool_use", id: "b1", name: "Bash", input: { command: "ls" } }], "msg_X"),
    assistant([{ type: "text", text: "part two" }], "msg_X"),
  ]));
  const msgs = run.messages.filter((m) => m.messageId === "msg_X");
  assert.deepEqual(msgs.length, 1);
  assert.deepEqual(msgs[0].text, "part one\npart two");
  assert.deepEqual(msgs[0].toolUseIds, ["b1"]);
});

Deno.test("parseTranscriptText() skips and counts truncated and unparseable lines", () => {
  const good = jsonl([...skillLoad("t1", "investigate"), say("fine")]);
  const text = good + "not json\n" + "[1,2]\n" + '{"type":"assistant","message":{"content":[{"ty';
  const run = ok(parseTranscriptText(text, { skill: "investigate" }));
  assert.deepEqual(run.stats.skippedLines, 3);
  assert.deepEqual(finalAssistantText(run), "fine");
});

Deno.test("parseTranscriptText() ignores and counts unknown record types", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    { type: "brand-new-type", uuid: "n1", foo: 1 },
    { type: "api-request-shape", uuid: "n2" },
    say("x"),
  ]));
  assert.deepEqual(run.stats.unknownTypes, 1);
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
    const { findLastLoad } = await import("./transcript.ts");
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
    const { findLastLoad } = await import("./transcript.ts");
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

Deno.test("parseTranscriptText() gives unknown_shape for content that is neither text nor blocks", () => {
  const bad = user("x");
  (bad.message as Rec).content = { weird: true };
  const read = parse([...skillLoad("t1", "investigate"), bad, say("x")]);
  assert.deepEqual(read.kind, "unknown_shape");
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

Deno.test("parseTranscriptText() recognises both Agent and Task dispatches", () => {
  const run = ok(parse([
    ...skillLoad("t1", "investigate"),
    call("a1", "Agent", { description: "Testing review", prompt: "p" }),
    call("a2", "Task", { description: "Security review", prompt: "p" }),
  ]));
  assert.deepEqual(pendingAgentDispatches(run).map((p) => p.toolUseId), ["a1", "a2"]);
});

Deno.test("pendingAgentDispatches() waits for a background agent's task notification", () => {
  const launch = (id: string) =>
    result(id, "Async agent launched successfully.", {
      structured: { isAsync: true, status: "async_launched", agentId: `ag-${id}` },
    });
  const base = [
    ...skillLoad("t1", "review"),
    call("a1", "Agent", { description: "Testing", prompt: "p" }),
    launch("a1"),
    call("a2", "Agent", { description: "Security", prompt: "p" }),
    launch("a2"),
    call("a3", "Agent", { description: "Perf", prompt: "p" }),
    result("a3", [{ type: "text", text: "done" }], { structured: { status: "completed" } }),
  ];
  const run1 = ok(parse(base, "review"));
  assert.deepEqual(pendingAgentDispatches(run1).map((p) => [p.toolUseId, p.state]), [
    ["a1", "async_running"],
    ["a2", "async_running"],
  ]);
  const notice = user(
    "<task-notification><task-id>ag-a1</task-id><tool-use-id>a1</tool-use-id><status>completed</status></task-notification>",
    { origin: { kind: "task-notification" } },
  );
  const queued: Rec = {
    type: "queue-operation",
    operation: "enqueue",
    content:
      "<task-notification>\n<task-id>ag-a2</task-id>\n<tool-use-id>a2</tool-use-id>\n<status>completed</status>\n</task-notification>",
  };
  const run2 = ok(parse([...base, notice], "review"));
  assert.deepEqual(pendingAgentDispatches(run2).map((p) => p.toolUseId), ["a2"]);
  const run3 = ok(parse([...base, notice, queued], "review"));
  assert.deepEqual(pendingAgentDispatches(run3), []);
});

Deno.test("findStatusLine() reads the STATUS line forms", () => {
  assert.deepEqual(findStatusLine("x\nSTATUS: DONE")?.value, "DONE");
  assert.deepEqual(findStatusLine("Status: DONE_WITH_CONCERNS")?.value, "DONE_WITH_CONCERNS");
  assert.deepEqual(findStatusLine("**Status:** BLOCKED")?.value, "BLOCKED");
  assert.deepEqual(findStatusLine("- **STATUS**: NEEDS_CONTEXT")?.value, "NEEDS_CONTEXT");
  assert.deepEqual(findStatusLine("STATUS: DONE\nlater\nStatus: BLOCKED")?.value, "BLOCKED");
  assert.deepEqual(findStatusLine("the status: unclear"), undefined);
  assert.deepEqual(findStatusLine("no status here"), undefined);
});

Deno.test("endsOnQuestion() sees a question, NEEDS_CONTEXT or a pending AskUserQuestion", () => {
  const run = ok(parse([...skillLoad("t1", "investigate"), say("Which branch should I use?")]));
  assert(endsOnQuestion(run));
  assert(endsOnQuestion(run, "Should I also update the docs?**"));
  assert(!endsOnQuestion(run, "Is it fixed? Yes.\n\nAll done."));
  assert(endsOnQuestion(run, "I need the log.\nSTATUS: NEEDS_CONTEXT"));
  const ask = ok(parse([
    ...skillLoad("t1", "investigate"),
    say("Let me ask."),
    call("q1", "AskUserQuestion", { questions: [] }),
  ]));
  assert(endsOnQuestion(ask));
  const answered = ok(parse([
    ...skillLoad("t1", "investigate"),
    call("q1", "AskUserQuestion", { questions: [] }),
    result("q1", "User has answered your questions"),
    say("Done."),
  ]));
  assert(!endsOnQuestion(answered));
});

Deno.test("finalAssistantText() prefers the Stop payload's last_assistant_message", () => {
  const run = ok(parse([...skillLoad("t1", "investigate"), say("old")]));
  assert.deepEqual(finalAssistantText(run, "newer"), "newer");
  assert.deepEqual(finalAssistantText(run, "  "), "old");
});

Deno.test("skillNameMatches() ignores a plugin prefix and a leading slash", () => {
  assert(skillNameMatches("gstack:investigate", "investigate"));
  assert(skillNameMatches("/investigate", "gstack:investigate"));
  assert(!skillNameMatches("investigate-old", "investigate"));
  assert(!skillNameMatches("", ""));
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

Deno.test("readTranscriptRun() accepts a predicate selecting the last contracted skill", () => {
  const text = jsonl([
    ...skillLoad("t1", "investigate"),
    say("a"),
    ...skillLoad("t2", "no-contract-skill"),
    say("b"),
  ]);
  const read = parseTranscriptText(text, {
    skill: (l) => l.name === "investigate" || l.name === "review",
  });
  assert.deepEqual(ok(read).load.name, "investigate");
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

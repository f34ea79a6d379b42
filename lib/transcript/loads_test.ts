import assert from "node:assert/strict";
import { ok, parse } from "./_kit_test.ts";
import { skillNameMatches } from "./loads.ts";
import { parseTranscriptText } from "./read.ts";
import { finalAssistantText } from "./turn.ts";
import { call, jsonl, type Rec, say, skillLoad, user } from "../../fixtures/transcripts/_build.ts";

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

Deno.test("skillNameMatches() ignores a plugin prefix and a leading slash", () => {
  assert(skillNameMatches("gstack:investigate", "investigate"));
  assert(skillNameMatches("/investigate", "gstack:investigate"));
  assert(!skillNameMatches("investigate-old", "investigate"));
  assert(!skillNameMatches("", ""));
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

/**
 * The redirect's front settles a Stop only where the core passes: a turn in the file, with no
 * `Unknown skill` in it. Every other stop (a failed call, a turn not yet flushed, a transcript
 * elsewhere, a FIFO, another payload) is left to the core.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { stopSettles } from "./stop_front.ts";
import { redirectStop } from "./redirect.ts";
import {
  CLEAN_FINAL,
  CLEAN_TURN,
  FAILED_FINAL,
  FAILED_TURN,
  stopEvent,
  stopPayload,
  stopSources,
  stopWorld,
} from "./_kit_test.ts";
import {
  bash,
  call,
  jsonl,
  type Rec,
  result,
  say,
  user,
  writeLongSession,
} from "../../fixtures/transcripts/_build.ts";

/** Runs `fn` with `CLAUDE_CONFIG_DIR` at the stop world's Claude folder. */
async function withClaudeDir<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const saved = Deno.env.get("CLAUDE_CONFIG_DIR");
  Deno.env.set("CLAUDE_CONFIG_DIR", `${root}/claude`);
  try {
    return await fn();
  } finally {
    if (saved === undefined) Deno.env.delete("CLAUDE_CONFIG_DIR");
    else Deno.env.set("CLAUDE_CONFIG_DIR", saved);
  }
}

Deno.test("stopSettles() settles a stop whose turn is in the file with no Unknown skill, as the core passes it", async () => {
  const previousFailed = FAILED_TURN + CLEAN_TURN;
  for (
    const [label, session, final] of [["clean", CLEAN_TURN, CLEAN_FINAL], [
      "earlier turn failed",
      previousFailed,
      CLEAN_FINAL,
    ]]
  ) {
    await stopWorld((p) => writeLongSession(p, 1024 * 1024, session), async (root, ctx, logs) => {
      const raw = stopPayload({ last_assistant_message: final }, root);
      assert.equal(await withClaudeDir(root, () => stopSettles(raw)), true, label);
      const ev = stopEvent({ last_assistant_message: final }, root);
      assert.equal(await redirectStop(ev, ctx, stopSources()), null, label);
      assert.deepEqual(logs, ["pass:no-unknown-skill"], label);
    });
  }
});

Deno.test("stopSettles() leaves to the core a failed call, a turn not yet in the file, or another payload", async () => {
  await stopWorld((p) => writeLongSession(p, 1024 * 1024, FAILED_TURN), async (root) => {
    const settles = (extra: Record<string, unknown>) =>
      withClaudeDir(root, () => stopSettles(stopPayload(extra, root)));
    // The turn has a failed Skill call: the core decides (it blocks).
    assert.equal(await settles({ last_assistant_message: FAILED_FINAL }), false);
    // stop_hook_active does not change what the front reads.
    assert.equal(
      await settles({ last_assistant_message: FAILED_FINAL, stop_hook_active: true }),
      false,
    );
  });
  await stopWorld((p) => writeLongSession(p, 1024 * 1024, CLEAN_TURN), async (root) => {
    const settles = (raw: string) => withClaudeDir(root, () => stopSettles(raw));
    // The final text is not the file's last text yet (Claude Code fires Stop before the flush).
    assert.equal(
      await settles(stopPayload({ last_assistant_message: "Not written yet." }, root)),
      false,
    );
    assert.equal(await settles(stopPayload({}, root)), false);
    // A transcript outside the Claude Code projects folder is never read.
    const outside = `${root}/elsewhere.jsonl`;
    Deno.copyFileSync(`${root}/claude/projects/p/sess-1.jsonl`, outside);
    assert.equal(
      await settles(
        stopPayload({ transcript_path: outside, last_assistant_message: CLEAN_FINAL }, root),
      ),
      false,
    );
    assert.equal(
      await settles(
        stopPayload({
          transcript_path: `${root}/claude/projects/../elsewhere.jsonl`,
          last_assistant_message: CLEAN_FINAL,
        }, root),
      ),
      false,
    );
    for (
      const raw of [
        "{not json",
        "null",
        "[]",
        '"Stop"',
        stopPayload({ hook_event_name: "PreToolUse", last_assistant_message: CLEAN_FINAL }, root),
      ]
    ) {
      assert.equal(await settles(raw), false, raw);
    }
  });
});

Deno.test({
  name: "stopSettles() does not open a FIFO (its open would wait for a writer)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await stopWorld(() => {}, async (root) => {
      const fifo = `${root}/claude/projects/p/sess-1.jsonl`;
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.equal(made.code, 0);
      const raw = stopPayload({ last_assistant_message: CLEAN_FINAL }, root);
      assert.equal(await withClaudeDir(root, () => stopSettles(raw)), false);
    });
  },
});

Deno.test("stopSettles() never settles a stop the core would block (property)", async () => {
  const failed: Rec[] = [
    call("toolu_f1", "Skill", { skill: "prompt-writer" }),
    result("toolu_f1", "<tool_use_error>Unknown skill: prompt-writer</tool_use_error>", {
      error: true,
      structured: "Error: Unknown skill: prompt-writer",
    }),
  ];
  const piece = fc.constantFrom<Rec[]>(
    [user("next step please")],
    bash("toolu_b1", "ls", "a\nb\n"),
    failed,
    [call("toolu_a1", "Agent", { subagent_type: "prompt-writer", prompt: "go" })],
    [say("Working on it.")],
  );
  const seen = { settled: 0, blocked: 0 };
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 6 }), async (pieces) => {
      const records = [user("start"), ...pieces.flat(), say("Done.")];
      await stopWorld((p) => Deno.writeTextFileSync(p, jsonl(records)), async (root, ctx) => {
        const raw = stopPayload({ last_assistant_message: "Done." }, root);
        const settles = await withClaudeDir(root, () => stopSettles(raw));
        const answer = await redirectStop(
          stopEvent({ last_assistant_message: "Done." }, root),
          ctx,
          stopSources(),
        );
        if (settles) assert.equal(answer, null);
        if (settles) seen.settled++;
        if (answer !== null) seen.blocked++;
      });
    }),
    { numRuns: 40 },
  );
  // Both sides were exercised: stops the front settled and stops the core blocked.
  assert.ok(seen.settled > 0 && seen.blocked > 0, JSON.stringify(seen));
});

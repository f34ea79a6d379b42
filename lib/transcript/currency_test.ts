import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import {
  awaitTurnInTranscript,
  catchUpBudget,
  normalizeFinalText,
  turnShowsFinalText,
} from "./currency.ts";
import { currentTurnOfText } from "./turn_read.ts";
import {
  assistant,
  call,
  jsonl,
  type Rec,
  result,
  say,
  user,
} from "../../fixtures/transcripts/_build.ts";

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-currency-" });
  try {
    await fn(join(dir, "session.jsonl"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A whole turn: prompt, a tool call and its result, the final text, then host bookkeeping. */
function turn(final: string): Rec[] {
  return [
    user("fix the login bug"),
    call("toolu_1", "Edit", { file_path: "/a.ts", old_string: "a", new_string: "b" }),
    result("toolu_1", "ok"),
    say(final),
    { type: "system", subtype: "stop_hook_summary", isSidechain: false },
    { type: "attachment", attachment: { type: "hook_additional_context", content: ["x"] } },
  ];
}

/** Sleeps that run `onSleep` first (appending to the file, say), without waiting. */
function scriptedSleep(onSleep: (n: number) => void): (ms: number) => Promise<void> {
  let n = 0;
  return () => {
    onSleep(++n);
    return Promise.resolve();
  };
}

Deno.test("awaitTurnInTranscript() finds the turn at once when the file holds it", async () => {
  await withFile(async (path) => {
    Deno.writeTextFileSync(path, jsonl(turn("Fixed: the null check was missing.")));
    const c = await awaitTurnInTranscript(path, "Fixed: the null check was missing.");
    assert.deepEqual(c, { state: "current", waitedMs: 0, polls: 0 });
  });
});

Deno.test("awaitTurnInTranscript() compares the final text block (two blocks of one message)", async () => {
  await withFile(async (path) => {
    const records = [
      user("go"),
      assistant([{ type: "text", text: "First paragraph of the answer." }], "msg_9"),
      assistant([{ type: "text", text: "STATUS: DONE" }], "msg_9"),
    ];
    Deno.writeTextFileSync(path, jsonl(records));
    assert.equal((await awaitTurnInTranscript(path, "STATUS: DONE")).state, "current");
    assert.equal(
      (await awaitTurnInTranscript(path, "First paragraph of the answer.", { budgetMs: 0 })).state,
      "behind",
    );
  });
});

Deno.test("awaitTurnInTranscript() waits for records appended later and reads only what is new", async () => {
  await withFile(async (path) => {
    const all = turn("Done, the test passes.");
    Deno.writeTextFileSync(path, jsonl(all.slice(0, 2)));
    const sleep = scriptedSleep((n) => {
      // The host flushes the rest on the third pause, the last line in two pieces.
      if (n === 2) Deno.writeTextFileSync(path, jsonl([all[2]]), { append: true });
      if (n === 3) {
        const rest = jsonl(all.slice(3));
        Deno.writeTextFileSync(path, rest.slice(0, 40), { append: true });
      }
      if (n === 4) {
        const rest = jsonl(all.slice(3));
        Deno.writeTextFileSync(path, rest.slice(40), { append: true });
      }
    });
    const c = await awaitTurnInTranscript(path, "Done, the test passes.", {
      budgetMs: 60_000,
      sleep,
    });
    assert.equal(c.state, "current");
    assert.equal(c.state === "current" && c.polls, 4);
  });
});

Deno.test("awaitTurnInTranscript() gives up within its budget when the file never catches up", async () => {
  await withFile(async (path) => {
    Deno.writeTextFileSync(path, jsonl(turn("An earlier answer.")));
    const c = await awaitTurnInTranscript(path, "The new answer.", { budgetMs: 30 });
    assert.equal(c.state, "behind");
  });
});

Deno.test("awaitTurnInTranscript() is not fooled by an earlier turn that ended on the same text", async () => {
  await withFile(async (path) => {
    // The new prompt reached the file, its tool call and final text did not.
    Deno.writeTextFileSync(path, jsonl([...turn("Done."), user("now the signup bug")]));
    assert.equal((await awaitTurnInTranscript(path, "Done.", { budgetMs: 0 })).state, "behind");
    // A tool call after the text: the text was not the turn's end.
    Deno.writeTextFileSync(path, jsonl([...turn("Done."), call("toolu_9", "Bash", {})]));
    assert.equal((await awaitTurnInTranscript(path, "Done.", { budgetMs: 0 })).state, "behind");
    // Its result likewise.
    Deno.writeTextFileSync(path, jsonl([...turn("Done."), result("toolu_9", "ok")]));
    assert.equal((await awaitTurnInTranscript(path, "Done.", { budgetMs: 0 })).state, "behind");
  });
});

Deno.test("awaitTurnInTranscript() skips records that do not move the turn: meta, sidechain, thinking", async () => {
  await withFile(async (path) => {
    Deno.writeTextFileSync(
      path,
      jsonl([
        ...turn("All green."),
        user("<system-reminder>x</system-reminder>", { isMeta: true }),
        assistant([{ type: "text", text: "subagent text" }], "msg_s", { isSidechain: true }),
        assistant([{ type: "thinking", thinking: "hmm" }], "msg_t"),
      ]),
    );
    assert.equal((await awaitTurnInTranscript(path, "All green.")).state, "current");
  });
});

Deno.test("awaitTurnInTranscript() folds white space and finds a final text longer than the first look", async () => {
  await withFile(async (path) => {
    const long = "word ".repeat(40_000) + "end";
    Deno.writeTextFileSync(
      path,
      jsonl([
        ...turn(long),
        ...Array.from({ length: 2000 }, (_, i) => ({
          type: "attachment",
          attachment: { type: "date", content: `filler ${i} ${"z".repeat(400)}` },
        })),
      ]),
    );
    assert.equal(
      (await awaitTurnInTranscript(path, `  ${long.replaceAll(" ", "\n")} `)).state,
      "current",
    );
    assert.equal(normalizeFinalText(" a\r\n\tb  "), "a b");
  });
});

Deno.test("awaitTurnInTranscript() waits for a file that is not there yet; says unverified without a final text or a regular file", async () => {
  await withFile(async (path) => {
    const sleep = scriptedSleep((n) => {
      if (n === 1) Deno.writeTextFileSync(path, jsonl(turn("Made it.")));
    });
    assert.equal(
      (await awaitTurnInTranscript(path, "Made it.", { budgetMs: 60_000, sleep })).state,
      "current",
    );
    assert.deepEqual(await awaitTurnInTranscript(path, undefined), {
      state: "unverified",
      reason: "no-final-text",
    });
    assert.deepEqual(await awaitTurnInTranscript(path, "  "), {
      state: "unverified",
      reason: "no-final-text",
    });
    assert.deepEqual(await awaitTurnInTranscript(join(path, ".."), "Made it."), {
      state: "unverified",
      reason: "not-a-file",
    });
  });
});

Deno.test("awaitTurnInTranscript() stops waiting when its signal aborts", async () => {
  await withFile(async (path) => {
    Deno.writeTextFileSync(path, jsonl(turn("Old.")));
    const ctl = new AbortController();
    const sleep = scriptedSleep(() => ctl.abort());
    const c = await awaitTurnInTranscript(path, "New.", {
      budgetMs: 60_000,
      sleep,
      signal: ctl.signal,
    });
    assert.equal(c.state, "behind");
    assert.equal(c.state === "behind" && c.polls, 1);
  });
});

Deno.test("awaitTurnInTranscript() looks again from the end when the file shrank", async () => {
  await withFile(async (path) => {
    Deno.writeTextFileSync(path, jsonl([...turn("Old."), user("next")]));
    const sleep = scriptedSleep((n) => {
      if (n === 1) Deno.writeTextFileSync(path, jsonl(turn("New.")));
    });
    assert.equal(
      (await awaitTurnInTranscript(path, "New.", { budgetMs: 60_000, sleep })).state,
      "current",
    );
  });
});

Deno.test("awaitTurnInTranscript(): for any flushed prefix, current exactly when the final text is in it (property)", async () => {
  await withFile(async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("prompt", "call", "result", "text", "meta", "attachment"), {
          maxLength: 12,
        }),
        fc.nat(20),
        async (kinds, cutAt) => {
          let i = 0;
          const records: Rec[] = kinds.map((k) => {
            i++;
            if (k === "prompt") return user(`prompt ${i}`);
            if (k === "call") return call(`toolu_${i}`, "Bash", { command: "ls" });
            if (k === "result") return result(`toolu_${i}`, "ok");
            if (k === "text") return say(`text ${i}`);
            if (k === "meta") return user("<reminder/>", { isMeta: true });
            return { type: "attachment", attachment: { type: "date" } };
          });
          records.push(say("FINAL ANSWER"));
          records.push({ type: "system", subtype: "stop_hook_summary" });
          const cut = Math.min(cutAt, records.length);
          Deno.writeTextFileSync(path, jsonl(records.slice(0, cut)));
          const c = await awaitTurnInTranscript(path, "FINAL ANSWER", { budgetMs: 0 });
          assert.equal(c.state, cut >= records.length - 1 ? "current" : "behind");
        },
      ),
      { numRuns: 200 },
    );
  });
});

Deno.test("turnShowsFinalText(): a turn read that shows the final text means the wait finds it at once (property)", async () => {
  await withFile(async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom(
            "prompt",
            "call",
            "result",
            "text",
            "final",
            "meta",
            "sidechain",
            "blank",
          ),
          { maxLength: 12 },
        ),
        fc.boolean(),
        fc.nat(4000),
        fc.boolean(),
        async (kinds, whole, cutAt, atLineEnd) => {
          let i = 0;
          const lines = kinds.map((k) => {
            i++;
            if (k === "blank") return "";
            if (k === "prompt") return JSON.stringify(user(`prompt ${i}`));
            if (k === "call") return JSON.stringify(call(`toolu_${i}`, "Bash", { command: "ls" }));
            if (k === "result") return JSON.stringify(result(`toolu_${i}`, "ok"));
            if (k === "text") return JSON.stringify(say(`text ${i}`));
            if (k === "final") return JSON.stringify(say("FINAL  answer ✓"));
            if (k === "meta") return JSON.stringify(user("<reminder/>", { isMeta: true }));
            return JSON.stringify({ ...say("FINAL answer ✓", "side"), isSidechain: true });
          });
          const text = lines.join("\n") + "\n";
          const bytes = new TextEncoder().encode(text);
          // A cut anywhere, or right after a line's last byte (a record not yet ended by its newline).
          const ends = lines.map((_, j) =>
            new TextEncoder().encode(lines.slice(0, j + 1).join("\n")).length
          );
          const cut = atLineEnd && ends.length > 0
            ? ends[cutAt % ends.length]
            : cutAt % (bytes.length + 1);
          const prefix = whole ? text : new TextDecoder().decode(bytes.subarray(0, cut));
          Deno.writeTextFileSync(path, prefix);
          const turn = currentTurnOfText(prefix);
          const shown = turnShowsFinalText(turn, turn.fileSize, "FINAL answer ✓");
          const c = await awaitTurnInTranscript(path, "FINAL answer ✓", { budgetMs: 0 });
          if (shown) assert.equal(c.state, "current");
          // A whole file that ends on the final text shows it in its turn.
          if (
            whole &&
            kinds.filter((k) => k !== "blank" && k !== "meta" && k !== "sidechain").at(-1) ===
              "final"
          ) {
            assert(shown);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
  const one = currentTurnOfText(jsonl([say("x")]));
  assert.equal(turnShowsFinalText(one, one.fileSize, undefined), false);
});

Deno.test("catchUpBudget() is 2 s, or 40 % of a shorter deadline", () => {
  assert.equal(catchUpBudget(5000), 2000);
  assert.equal(catchUpBudget(60_000), 2000);
  assert.equal(catchUpBudget(1000), 400);
  assert.equal(catchUpBudget(0), 0);
  assert.equal(catchUpBudget(Number.NaN), 0);
});

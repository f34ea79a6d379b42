/**
 * The redirect's Stop path reads only the current turn: a bounded number of bytes whatever the
 * session's size, a turn longer than the bound cut to its last part, each failed agent of a turn
 * named (up to MAX_STOP_REDIRECTS a block), and the same turn as the whole file gives.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_STOP_REDIRECTS, redirectMessage, redirectStop } from "./redirect.ts";
import { currentTurnEvents } from "../transcript/turn_events.ts";
import {
  CLEAN_FINAL,
  CLEAN_TURN,
  FAILED_FINAL,
  FAILED_TURN,
  stopEvent,
  stopSources,
  stopWorld,
} from "./_kit_test.ts";
import { currentTurnOfText } from "../transcript/turn_read.ts";
import { RunBuilder, turnRecords } from "../transcript/builder.ts";
import { MAX_TURN_BYTES } from "../transcript/model.ts";
import {
  assistant,
  bash,
  call,
  jsonl,
  type Rec,
  result,
  say,
  user,
  writeLongSession,
} from "../../fixtures/transcripts/_build.ts";

/**
 * Counts the bytes read through Deno's file APIs (`FsFile` reads, `readFile`, `readTextFile`)
 * while `fn` runs: the read seam of the tests below.
 */
async function countBytesRead<T>(fn: () => Promise<T>): Promise<{ value: T; bytes: number }> {
  const proto = Deno.FsFile.prototype;
  const { read, readSync } = proto;
  const deno = Deno as unknown as Record<string, unknown>;
  const saved = ["readFile", "readFileSync", "readTextFile", "readTextFileSync"].map((k) =>
    [k, deno[k]] as const
  );
  let bytes = 0;
  proto.read = async function (this: Deno.FsFile, p: Uint8Array) {
    const n = await read.call(this, p);
    bytes += n ?? 0;
    return n;
  };
  proto.readSync = function (this: Deno.FsFile, p: Uint8Array) {
    const n = readSync.call(this, p);
    bytes += n ?? 0;
    return n;
  };
  const size = (v: unknown) =>
    typeof v === "string" ? new TextEncoder().encode(v).length : (v as Uint8Array).length;
  for (const [k, f] of saved) {
    const fn = f as (...a: unknown[]) => unknown;
    deno[k] = k.endsWith("Sync")
      ? (...a: unknown[]) => {
        const v = fn(...a);
        bytes += size(v);
        return v;
      }
      : async (...a: unknown[]) => {
        const v = await fn(...a);
        bytes += size(v);
        return v;
      };
  }
  try {
    const value = await fn();
    return { value, bytes };
  } finally {
    proto.read = read;
    proto.readSync = readSync;
    for (const [k, f] of saved) deno[k] = f;
  }
}

const MiB = 1024 * 1024;

Deno.test("redirectStop() on a long session reads a bounded number of bytes, whatever its size", async () => {
  const read: Record<string, number[]> = { clean: [], failed: [] };
  for (const size of [8 * MiB, 32 * MiB]) {
    await stopWorld((p) => writeLongSession(p, size, CLEAN_TURN), async (root, ctx, logs) => {
      assert.ok(Deno.statSync(`${root}/claude/projects/p/sess-1.jsonl`).size > size);
      const ev = stopEvent({ last_assistant_message: CLEAN_FINAL }, root);
      const { value, bytes } = await countBytesRead(() => redirectStop(ev, ctx, stopSources()));
      assert.ok(bytes <= 256 * 1024, `${bytes} bytes read of a ${size / MiB} MiB session`);
      assert.equal(value, null);
      assert.deepEqual(logs, ["pass:no-unknown-skill"]);
      read.clean.push(bytes);
    });
    await stopWorld((p) => writeLongSession(p, size, FAILED_TURN), async (root, ctx, logs) => {
      const ev = stopEvent({ last_assistant_message: FAILED_FINAL }, root);
      const { value, bytes } = await countBytesRead(() => redirectStop(ev, ctx, stopSources()));
      assert.ok(bytes <= 256 * 1024, `${bytes} bytes read of a ${size / MiB} MiB session`);
      assert.deepEqual(value, {
        decision: "block",
        reason: redirectMessage("prompt-writer", "claude"),
      });
      assert.deepEqual(logs, ["block:unknown-skill-agent"]);
      read.failed.push(bytes);
    });
  }
  for (const [label, [at8, at32]] of Object.entries(read)) {
    assert.equal(at8, at32, `${label}: the same bytes read of an 8 and a 32 MiB session`);
  }
});

/** A turn of `bytes` or more: a prompt, Bash calls with large results, a final text. */
function longTurn(bytes: number, failedAt: "start" | "end"): string {
  const failed = [
    call("toolu_f1", "Skill", { skill: "prompt-writer" }),
    result("toolu_f1", "<tool_use_error>Unknown skill: prompt-writer</tool_use_error>", {
      error: true,
      structured: "Error: Unknown skill: prompt-writer",
    }),
  ];
  const out = [jsonl([user("migrate every module"), ...(failedAt === "start" ? failed : [])])];
  let size = out[0].length;
  for (let i = 0; size < bytes; i++) {
    const step = jsonl(bash(`toolu_b${i}`, `migrate m${i}`, "migrated line\n".repeat(4096)));
    out.push(step);
    size += step.length;
  }
  out.push(jsonl([...(failedAt === "end" ? failed : []), say("All modules are migrated.")]));
  return out.join("");
}

Deno.test("redirectStop() on a turn longer than MAX_TURN_BYTES looks at its last part only", async () => {
  const turnBytes = MAX_TURN_BYTES + 2 * MiB;
  const ev = (root: string) =>
    stopEvent({ last_assistant_message: "All modules are migrated." }, root);
  // A failed call in the turn's last MAX_TURN_BYTES is redirected; the log line says the turn was cut.
  await stopWorld(
    (p) => writeLongSession(p, MiB, longTurn(turnBytes, "end")),
    async (root, ctx, logs) => {
      const { value, bytes } = await countBytesRead(() =>
        redirectStop(ev(root), ctx, stopSources())
      );
      assert.ok(bytes <= MAX_TURN_BYTES + 256 * 1024, `${bytes}`);
      assert.deepEqual(value, {
        decision: "block",
        reason: redirectMessage("prompt-writer", "claude"),
      });
      assert.deepEqual(logs, ["block:unknown-skill-agent"]);
      assert.equal(logs.fields[0].turn, "cut");
    },
  );
  // One before them is not seen: the stop passes (fails open) and its log line says the turn was cut.
  await stopWorld(
    (p) => writeLongSession(p, MiB, longTurn(turnBytes, "start")),
    async (root, ctx, logs) => {
      const { value, bytes } = await countBytesRead(() =>
        redirectStop(ev(root), ctx, stopSources())
      );
      assert.ok(bytes <= MAX_TURN_BYTES + 256 * 1024, `${bytes}`);
      assert.equal(value, null);
      assert.deepEqual(logs, ["pass:no-unknown-skill"]);
      assert.equal(logs.fields[0].turn, "cut");
    },
  );
});

Deno.test("redirectStop() names each failed agent of a long turn, up to MAX_STOP_REDIRECTS, the rest at a later stop", async () => {
  const names = ["architect", "guide", "prompt-writer", "security"];
  const failed = names.flatMap((name, i) => [
    call(`toolu_n${i}`, "Skill", { skill: name }),
    result(`toolu_n${i}`, `<tool_use_error>Unknown skill: ${name}</tool_use_error>`, {
      error: true,
    }),
    ...bash(`toolu_w${i}`, `work ${i}`, "output\n".repeat(20_000)),
  ]);
  const turn = jsonl([user("write the spec"), ...failed, say("The spec is written.")]);
  await stopWorld((p) => writeLongSession(p, 4 * MiB, turn), async (root, ctx, logs) => {
    const ev = stopEvent({ last_assistant_message: "The spec is written." }, root);
    const paragraphs = async () => {
      const answer = await redirectStop(ev, ctx, stopSources());
      return answer === null ? [] : (answer as { reason: string }).reason.split("\n\n");
    };
    const first = await paragraphs();
    assert.equal(first.length, MAX_STOP_REDIRECTS);
    // A later stop of the same turn (the host's stop_hook_active can be false again) names the
    // one left, and the one after it none.
    const second = await paragraphs();
    assert.deepEqual(
      [...first, ...second].sort(),
      names.map((n) => redirectMessage(n, "claude")).sort(),
    );
    assert.deepEqual(await paragraphs(), []);
    assert.deepEqual(logs, [
      "block:unknown-skill-agent",
      "block:unknown-skill-agent",
      "pass:already-blocked",
    ]);
  });
});

/** Records of one kind, for the property below (ids made unique by `i`). */
function recordsOf(kind: number, i: number): Rec[] {
  const id = `toolu_p${i}`;
  switch (kind) {
    case 0:
      return [user(`prompt ${i}`)];
    case 1:
      return [user([{ type: "text", text: `block prompt ${i}` }])];
    case 2:
      return [user(`<task-notification><tool-use-id>${id}</tool-use-id></task-notification>`, {
        origin: { kind: "task-notification" },
      })];
    case 3:
      return [user(`Stop hook feedback:\n${i}`, { isMeta: true })];
    case 4:
      return [
        call(id, "Skill", { skill: "prompt-writer" }),
        result(id, "Unknown skill: prompt-writer", { error: true }),
      ];
    case 5:
      return [call(id, "Agent", { subagent_type: "prompt-writer", prompt: "p" })];
    case 6:
      return [result(`toolu_p${i - 1}`, "a result, maybe of a call before the turn")];
    case 7:
      return [
        user(`sub prompt ${i}`, { isSidechain: true }),
        call(id, "Bash", { command: "ls" }, undefined),
      ];
    case 8:
      return [{
        type: "progress",
        data: { message: { type: "user", message: { content: `nested ${i}` } } },
      }];
    case 9:
      return [user("   ")];
    default:
      return [assistant([{ type: "text", text: `text ${i} ✓` }])];
  }
}

Deno.test("the turn read backward gives currentTurnEvents() the turn that the whole file gives", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 40 }),
      fc.integer({ min: 16, max: 2048 }),
      (kinds, chunkSize) => {
        const text = jsonl(kinds.flatMap((k, i) => recordsOf(k, i)));
        const whole = new RunBuilder(() => false, undefined, text.length);
        for (const line of text.split("\n")) whole.feed(line, 0, false);
        const turn = currentTurnOfText(text, { chunkSize });
        assert.deepEqual(currentTurnEvents(turnRecords(turn)), currentTurnEvents(whole));
      },
    ),
    { numRuns: 400 },
  );
});

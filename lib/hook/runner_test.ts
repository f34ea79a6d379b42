import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluateHook, HookFailure, type HookSpec } from "./runner.ts";

const PROMPT = JSON.stringify({
  session_id: "sess-1",
  hook_event_name: "UserPromptSubmit",
  prompt: "SECRET-PROMPT-TEXT please fix it",
});

async function withState<T>(
  fn: (root: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const root = await Deno.makeTempDir();
  const names = ["SKILLGATE_STATE_ROOT", "SKILLGATE_SKILL_ROUTING", ...Object.keys(env)];
  const saved = Object.fromEntries(names.map((k) => [k, Deno.env.get(k)]));
  try {
    Deno.env.set("SKILLGATE_STATE_ROOT", root);
    Deno.env.set("SKILLGATE_SKILL_ROUTING", "on");
    for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
    return await fn(root);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    }
    await Deno.remove(root, { recursive: true });
  }
}

function spec(run: HookSpec["run"], extra: Partial<HookSpec> = {}): HookSpec {
  return { ids: ["skill-route"], run, ...extra };
}

Deno.test("evaluateHook() prints the answer as one JSON object", () =>
  withState(async () => {
    const out = await evaluateHook(spec(() => ({ a: 1 })), PROMPT);
    assert.deepEqual(out, { stdout: '{"a":1}' });
  }));

Deno.test("evaluateHook() passes through with one stderr line on a malformed payload", () =>
  withState(async () => {
    for (const raw of ["", "{", "[1]", "null"]) {
      const out = await evaluateHook(spec(() => ({ a: 1 })), raw);
      assert.equal(out.stdout, "");
      assert.match(out.stderr ?? "", /^skillgate: PAYLOAD /);
      assert.ok(!(out.stderr ?? "").includes("\n"));
    }
  }));

Deno.test("evaluateHook() passes a payload of no known host through, with one UNKNOWN_HOST line", () =>
  withState(async (root) => {
    let ran = false;
    const hook = spec(() => (ran = true, { a: 1 }));
    for (const raw of ['{"prompt":"fix it","cwd":"/p"}', "{}", '{"thread_id":"t","input":"x"}']) {
      const out = await evaluateHook(hook, raw);
      assert.equal(out.stdout, "");
      assert.match(
        out.stderr ?? "",
        /^skillgate: UNKNOWN_HOST Payload has no field of a known host/,
      );
      assert.ok(!(out.stderr ?? "").includes("\n"));
    }
    assert.equal(ran, false, "a payload of no host is never read as Claude Code's");
    assert.throws(
      () => Deno.statSync(join(root, "hooks", "skill-route.log")),
      Deno.errors.NotFound,
    );
  }));

Deno.test("evaluateHook() fails open on a throw, logs an error with a per-session count", () =>
  withState(async (root) => {
    const boom = spec(() => {
      throw new Error("kaboom");
    });
    const first = await evaluateHook(boom, PROMPT);
    assert.deepEqual(first, { stdout: "", stderr: "skillgate: ERROR kaboom" });
    // The next prompt of the session (another event: its own prompt id).
    await evaluateHook(boom, JSON.stringify({ ...JSON.parse(PROMPT), prompt_id: "p-2" }));
    const log = Deno.readTextFileSync(join(root, "hooks", "skill-route.log"));
    const lines = log.trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(
      lines[0],
      /session=sess-1 hook=skill-route event=UserPromptSubmit outcome=error reason=ERROR failures=1$/,
    );
    assert.match(lines[1], /failures=2$/);
    assert.ok(!log.includes("SECRET-PROMPT-TEXT"));
  }));

Deno.test("evaluateHook() uses the hook's own failure line", () =>
  withState(async () => {
    const out = await evaluateHook(
      spec(() => {
        throw new HookFailure("SKILL_CONTRACT_STATE_ERROR", "/x: gone");
      }, { formatFailure: (f) => `skillgate: ${f.code} ${f.detail}; stop allowed` }),
      PROMPT,
    );
    assert.equal(out.stderr, "skillgate: SKILL_CONTRACT_STATE_ERROR /x: gone; stop allowed");
  }));

Deno.test("evaluateHook() does not run a hook whose switch is off", () =>
  withState(async () => {
    let ran = false;
    const out = await evaluateHook(
      spec(() => {
        ran = true;
        return { a: 1 };
      }),
      PROMPT,
    );
    assert.deepEqual(out, { stdout: "" });
    assert.equal(ran, false);
  }, { SKILLGATE_SKILL_ROUTING: "off" }));

Deno.test("evaluateHook() turns the hook off with one line when config cannot be read", () =>
  withState(async (root) => {
    Deno.writeFileSync(join(root, "config.yaml"), new Uint8Array([0xc3, 0x28, 0x00]));
    Deno.env.delete("SKILLGATE_SKILL_ROUTING");
    let ran = false;
    const out = await evaluateHook(
      spec(() => {
        ran = true;
        return null;
      }),
      PROMPT,
    );
    assert.equal(out.stdout, "");
    assert.match(out.stderr ?? "", /^skillgate: CONFIG_UNREADABLE .*config\.yaml: .*hook off$/);
    assert.equal(ran, false);
  }));

Deno.test("evaluateHook() ends a hook at its deadline", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 50\n");
    let aborted = false;
    const out = await evaluateHook(
      spec((_ev, ctx) =>
        new Promise((resolve) => {
          const t = setTimeout(() => resolve({ late: true }), 2000);
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            clearTimeout(t);
          });
        })
      ),
      PROMPT,
    );
    assert.deepEqual(out, {
      stdout: "",
      stderr: "skillgate: DEADLINE hook ran past its 50 ms deadline",
    });
    assert.equal(aborted, true);
  }));

Deno.test("evaluateHook() ends at its deadline a hook that waits without asking for the signal", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 50\n");
    // The pending timer stands for the I/O a waiting hook keeps the process alive with.
    let t: ReturnType<typeof setTimeout> | undefined;
    const out = await evaluateHook(
      spec(() => new Promise((resolve) => t = setTimeout(() => resolve({ late: true }), 2000))),
      PROMPT,
    );
    clearTimeout(t);
    assert.deepEqual(out, {
      stdout: "",
      stderr: "skillgate: DEADLINE hook ran past its 50 ms deadline",
    });
  }));

Deno.test("evaluateHook() ends a hook that ran past its deadline without a pause", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 20\n");
    let pastBefore = true;
    let pastAfter = false;
    const out = await evaluateHook(
      spec((_ev, ctx) => {
        pastBefore = ctx.pastDeadline?.() ?? true;
        const end = performance.now() + 60;
        while (performance.now() < end) {
          // Busy, never yielding: the abort cannot fire before the answer is ready.
        }
        pastAfter = ctx.pastDeadline?.() ?? false;
        return { late: true };
      }),
      PROMPT,
    );
    assert.deepEqual(out, {
      stdout: "",
      stderr: "skillgate: DEADLINE hook ran past its 20 ms deadline",
    });
    assert.equal(pastBefore, false);
    assert.equal(pastAfter, true);
  }));

Deno.test("evaluateHook() prints the answer of a hook that committed before its deadline ran out", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 20\n");
    let recorded = false;
    const out = await evaluateHook(
      spec((_ev, ctx) => {
        ctx.commit();
        recorded = true; // the block's record, say
        const end = performance.now() + 60;
        while (performance.now() < end) {
          // The write and the log took long: the deadline passes after the commit.
        }
        return { decision: "block" };
      }),
      PROMPT,
    );
    assert.equal(recorded, true);
    assert.deepEqual(out, { stdout: '{"decision":"block"}' }, "recorded, so printed");
  }));

Deno.test("evaluateHook() prints the answer of a hook that committed, then paused past its deadline", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 30\n");
    const out = await evaluateHook(
      spec(async (_ev, ctx) => {
        ctx.commit();
        await new Promise((r) => setTimeout(r, 120));
        return { decision: "block" };
      }),
      PROMPT,
    );
    assert.deepEqual(out, { stdout: '{"decision":"block"}' });
  }));

Deno.test("evaluateHook(): a commit past the deadline throws, so nothing is recorded or printed", () =>
  withState(async (root) => {
    Deno.writeTextFileSync(join(root, "config.yaml"), "hook_deadline_ms: 20\n");
    let recorded = false;
    const out = await evaluateHook(
      spec((_ev, ctx) => {
        const end = performance.now() + 60;
        while (performance.now() < end) {
          // The check took long: the deadline passes before the commit.
        }
        ctx.commit();
        recorded = true;
        return { decision: "block" };
      }),
      PROMPT,
    );
    assert.equal(recorded, false, "not recorded");
    assert.deepEqual(out, {
      stdout: "",
      stderr: "skillgate: DEADLINE hook ran past its 20 ms deadline",
    });
  }));

Deno.test("evaluateHook() ignores events its rows do not serve", () =>
  withState(async () => {
    const out = await evaluateHook(
      spec(() => ({ a: 1 })),
      '{"session_id":"s","hook_event_name":"Stop"}',
    );
    assert.deepEqual(out, { stdout: "" });
  }));

Deno.test("evaluateHook() picks the table row by event for a shared entry", () =>
  withState(async () => {
    const seen: string[] = [];
    const shared: HookSpec = {
      ids: ["skill-redirect", "skill-redirect-stop"],
      run: (_ev, ctx) => {
        seen.push(ctx.row.id);
        return null;
      },
    };
    await evaluateHook(
      shared,
      '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Skill"}',
    );
    await evaluateHook(shared, '{"session_id":"s","hook_event_name":"Stop"}');
    assert.deepEqual(seen, ["skill-redirect", "skill-redirect-stop"]);
  }));

Deno.test("evaluateHook() ends an event the hook does not concern before reading anything", () =>
  withState(async (root) => {
    Deno.writeFileSync(join(root, "config.yaml"), new Uint8Array([0xc3, 0x28]));
    let ran = false;
    const out = await evaluateHook(
      {
        ids: ["skill-redirect"],
        relevant: (ev) => ev.toolName === "Skill",
        run: () => {
          ran = true;
          return null;
        },
      },
      '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}',
    );
    // Not even the unreadable config is reported: the Bash call never concerned the hook.
    assert.deepEqual(out, { stdout: "" });
    assert.equal(ran, false);
  }));

Deno.test("evaluateHook() lets an env switch win over a config file that cannot be read", () =>
  withState(async (root) => {
    Deno.writeFileSync(join(root, "config.yaml"), new Uint8Array([0xc3, 0x28, 0x00]));
    // withState sets SKILLGATE_SKILL_ROUTING=on, as `route --explain` and `config list` read it.
    const out = await evaluateHook(spec(() => ({ ran: true })), PROMPT);
    assert.deepEqual(out, { stdout: '{"ran":true}' });
  }));

Deno.test("evaluateHook(): a second registration of the same event stays silent; the next event is answered", () =>
  withState(async (root) => {
    let runs = 0;
    const answering = spec(() => {
      runs++;
      return { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "x" } };
    });
    const [a, b] = await Promise.all([
      evaluateHook(answering, PROMPT),
      evaluateHook(answering, PROMPT),
    ]);
    assert.deepEqual([a.stdout === "", b.stdout === ""].sort(), [false, true]);
    assert.equal(runs, 1, "the silent one decided nothing");
    const next = await evaluateHook(
      answering,
      JSON.stringify({ ...JSON.parse(PROMPT), prompt_id: "p-2" }),
    );
    assert.notEqual(next.stdout, "");
    assert.ok(Deno.statSync(join(root, "claims")).isDirectory);
  }));

Deno.test("evaluateHook(): the same stop bytes after the transcript grew are another stop, answered again; a registration of the same stop is not", () =>
  withState(async (root) => {
    const transcript = join(root, "session.jsonl");
    Deno.writeTextFileSync(transcript, '{"type":"assistant"}\n');
    const stop = JSON.stringify({
      session_id: "s-stop",
      transcript_path: transcript,
      hook_event_name: "Stop",
      stop_hook_active: true,
      last_assistant_message: "Done.",
    });
    let runs = 0;
    const blocking = spec(() => (runs++, { decision: "block", reason: "x" }), {
      ids: ["skill-contract"],
    });
    const [a, b] = await Promise.all([evaluateHook(blocking, stop), evaluateHook(blocking, stop)]);
    assert.deepEqual([a.stdout === "", b.stdout === ""].sort(), [false, true]);
    // The model replied with the same text: the transcript grew, the payload is the same bytes.
    const claims = join(root, "claims");
    const [claim] = [...Deno.readDirSync(claims)].filter((e) => e.name !== ".swept");
    const earlier = (Date.now() - 5_000) / 1000;
    Deno.utimeSync(join(claims, claim.name), earlier, earlier);
    Deno.writeTextFileSync(transcript, '{"type":"user"}\n{"type":"assistant"}\n', { append: true });
    const [c, d] = await Promise.all([evaluateHook(blocking, stop), evaluateHook(blocking, stop)]);
    assert.deepEqual([c.stdout === "", d.stdout === ""].sort(), [false, true], "answered once");
    assert.equal(runs, 2);
    // Sent again, the transcript unchanged since: the same stop.
    assert.equal((await evaluateHook(blocking, stop)).stdout, "");
  }));

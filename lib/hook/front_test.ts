/**
 * Tests of a hook's front: the process's guard ends a hook that still waits past its deadline and
 * the grace, with exit 0 and one stderr line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { GUARD_GRACE_MS } from "./front.ts";

Deno.test("a hook process still waiting past its deadline and the grace is ended by its guard: exit 0, one line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "fifo");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    if (!made.success) return; // no mkfifo here
    Deno.writeTextFileSync(join(dir, "config.yaml"), "hook_deadline_ms: 100\n");
    // A front whose `settles` waits on the open of a FIFO no one writes: only the guard ends it.
    const script = join(dir, "hook.ts");
    Deno.writeTextFileSync(
      script,
      `import { runFront } from ${JSON.stringify(new URL("./front.ts", import.meta.url).href)};\n` +
        `await runFront({ switchName: "skill_routing", settles: async () => {\n` +
        `  await Deno.open(${JSON.stringify(fifo)}, { read: true });\n` +
        `  return true;\n` +
        `} }, () => Promise.reject(new Error("no core")), true);\n` +
        `Deno.exit(0);\n`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-prompt", "--quiet", script],
      env: { SKILLGATE_STATE_ROOT: dir, SKILLGATE_SKILL_ROUTING: "on" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode('{"hook_event_name":"UserPromptSubmit"}'));
    await w.close();
    // A watchdog far above the guard: it catches a hang, not a delay.
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const out = await child.output().finally(() => clearTimeout(watchdog));
    const stderr = new TextDecoder().decode(out.stderr).trim();
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.equal(
      stderr,
      `skillgate: DEADLINE hook ended by its guard ${GUARD_GRACE_MS} ms past its 100 ms deadline`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

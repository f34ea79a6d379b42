import assert from "node:assert/strict";
import { join } from "node:path";
import { formatLogLine, logDecision } from "./log.ts";

Deno.test("formatLogLine() writes key=value fields with sanitised values", () => {
  const line = formatLogLine(
    {
      session: "s1",
      hook: "skill-route",
      event: "UserPromptSubmit",
      outcome: "routed",
      reason: "a b",
      n: 3,
    },
    new Date("2026-01-02T03:04:05Z"),
  );
  assert.equal(
    line,
    "time=2026-01-02T03:04:05.000Z session=s1 hook=skill-route event=UserPromptSubmit outcome=routed reason=a_b n=3",
  );
});

Deno.test("logDecision() appends one private line per decision and never throws", async () => {
  const root = await Deno.makeTempDir();
  try {
    assert.equal(
      logDecision(root, "skill-route.log", { hook: "h", event: "e", outcome: "o1" }),
      true,
    );
    assert.equal(
      logDecision(root, "skill-route.log", { hook: "h", event: "e", outcome: "o2" }),
      true,
    );
    const path = join(root, "hooks", "skill-route.log");
    const lines = Deno.readTextFileSync(path).trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[1], /outcome=o2$/);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    Deno.writeTextFileSync(join(root, "blocker"), "file");
    assert.equal(
      logDecision(join(root, "blocker"), "skill-route.log", {
        hook: "h",
        event: "e",
        outcome: "o",
      }),
      false,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("logDecision() makes a private log folder, and rotates a log past 1 MiB to .1", async () => {
  const root = await Deno.makeTempDir();
  try {
    const line = { hook: "h", event: "e", outcome: "o" };
    assert.equal(logDecision(root, "skill-redirect.log", line), true);
    const dir = join(root, "hooks");
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    const path = join(dir, "skill-redirect.log");
    Deno.writeTextFileSync(path, "x".repeat(1024 * 1024 + 1));
    assert.equal(logDecision(root, "skill-redirect.log", { ...line, outcome: "after" }), true);
    assert.equal(Deno.statSync(`${path}.1`).size, 1024 * 1024 + 1);
    assert.match(Deno.readTextFileSync(path), /^time=\S+ hook=h event=e outcome=after\n$/);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("formatLogLine() writes the time as toISOString() does", () => {
  for (
    const iso of [
      "1970-01-01T00:00:00.000Z",
      "0999-12-31T23:59:59.999Z",
      "2024-02-29T07:08:09.005Z",
      "2026-11-30T12:34:56.780Z",
    ]
  ) {
    const line = formatLogLine({ hook: "h", event: "e", outcome: "o" }, new Date(iso));
    assert.equal(line.split(" ")[0], `time=${new Date(iso).toISOString()}`);
  }
});

Deno.test("logDecision() refuses a log planted as a symbolic link and leaves its target alone", async () => {
  const root = await Deno.makeTempDir();
  try {
    const outside = join(root, "outside.txt");
    Deno.writeTextFileSync(outside, "do not touch\n");
    Deno.mkdirSync(join(root, "state", "hooks"), { recursive: true });
    const log = join(root, "state", "hooks", "skill-route.log");
    Deno.symlinkSync(outside, log);
    const fields = { session: "s1", hook: "skill-route", event: "UserPromptSubmit", outcome: "x" };
    assert.equal(logDecision(join(root, "state"), "skill-route.log", fields), false);
    assert.equal(Deno.readTextFileSync(outside), "do not touch\n");
    assert.equal(Deno.lstatSync(log).isSymlink, true);
    // A dangling link makes nothing where it points.
    Deno.removeSync(log);
    Deno.symlinkSync(join(root, "made-by-the-link"), log);
    assert.equal(logDecision(join(root, "state"), "skill-route.log", fields), false);
    assert.throws(() => Deno.lstatSync(join(root, "made-by-the-link")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

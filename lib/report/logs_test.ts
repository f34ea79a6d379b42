import assert from "node:assert/strict";
import { join } from "node:path";
import { parseLogLine, readLogLines } from "./logs.ts";
import { formatLogLine } from "../hook/log.ts";
import { parseSince } from "./report.ts";

Deno.test("parseLogLine reads back what formatLogLine wrote", () => {
  const when = new Date("2026-12-01T10:00:00.000Z");
  const line = formatLogLine(
    {
      session: "s1",
      hook: "skill-route",
      event: "UserPromptSubmit",
      outcome: "routed",
      skill: "qa",
    },
    when,
  );
  assert.deepEqual(parseLogLine(line), {
    time: when.getTime(),
    fields: {
      time: "2026-12-01T10:00:00.000Z",
      session: "s1",
      hook: "skill-route",
      event: "UserPromptSubmit",
      outcome: "routed",
      skill: "qa",
    },
  });
  assert.equal(parseLogLine("no time here"), undefined);
});

Deno.test("readLogLines reads the rotated part first and keeps the window", async () => {
  const root = await Deno.makeTempDir();
  try {
    Deno.mkdirSync(join(root, "hooks"));
    const at = (iso: string, o: string) =>
      formatLogLine({ hook: "h", event: "e", outcome: o }, new Date(iso));
    Deno.writeTextFileSync(
      join(root, "hooks", "x.log.1"),
      at("2026-11-01T00:00:00Z", "old") + "\n",
    );
    Deno.writeTextFileSync(
      join(root, "hooks", "x.log"),
      [at("2026-11-20T00:00:00Z", "mid"), "garbage", at("2026-12-01T00:00:00Z", "new")].join("\n"),
    );
    assert.deepEqual(readLogLines(root, "x.log").lines.map((l) => l.fields.outcome), [
      "old",
      "mid",
      "new",
    ]);
    const since = Date.parse("2026-11-15T00:00:00Z");
    assert.deepEqual(readLogLines(root, "x.log", since).lines.map((l) => l.fields.outcome), [
      "mid",
      "new",
    ]);
    assert.deepEqual(readLogLines(root, "absent.log"), { lines: [], problems: [] });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("parseSince: a duration back from now, or a date; anything else is refused", () => {
  const now = Date.parse("2026-12-08T00:00:00Z");
  assert.equal(parseSince("7d", now), Date.parse("2026-12-01T00:00:00Z"));
  assert.equal(parseSince("24h", now), Date.parse("2026-12-07T00:00:00Z"));
  assert.equal(parseSince("2w", now), Date.parse("2026-11-24T00:00:00Z"));
  assert.equal(parseSince("30m", now), now - 30 * 60_000);
  assert.equal(parseSince("2026-11-01", now), Date.parse("2026-11-01"));
  for (const bad of ["7", "d", "-7d", "7y", "yesterday", "2026-13-45"]) {
    assert.equal(parseSince(bad, now), undefined, bad);
  }
});

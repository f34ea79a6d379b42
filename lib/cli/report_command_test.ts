import assert from "node:assert/strict";
import { join } from "node:path";
import { capture, runCli } from "./_kit_test.ts";
import { main as report } from "./report_command.ts";
import { main as lint } from "./lint_command.ts";

const none = { skills: [], dirs: [] };
const noRecheck = () => Promise.resolve({ note: "not in this test" });

Deno.test("report: a bad --since or --host is a usage error (exit 2) that says what it takes", async () => {
  const since = await capture(() => report(["--since", "yesterday"]));
  assert.equal(since.code, 2);
  assert.match(since.err, /^skillgate report: USAGE --since takes 30m, 24h, 7d, 2w or a date/);
  const host = await capture(() => report(["--host", "emacs", "--json"]));
  assert.equal(host.code, 2);
  assert.match(host.err, /--host takes one of: .*claude/);
  assert.equal(JSON.parse(host.out).exit, 2);
});

Deno.test("report: an empty state root reports nothing, exit 0; an unwritable page is exit 3", async () => {
  const root = await Deno.makeTempDir();
  try {
    const opts = { stateRoot: root, places: [], installed: none, recheck: noRecheck };
    const r = await capture(() => report(["--json"], opts));
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(r.out);
    assert.deepEqual([json.sessions, json.skills, json.unused, json.unread], [0, [], [], []]);
    const text = await capture(() => report(["--since", "7d"], opts));
    assert.match(text.out, /^skillgate report, since \d{4}-.*: 0 session\(s\)/);
    const bad = await capture(() => report(["--html", join(root, "no", "such", "dir.html")], opts));
    assert.equal(bad.code, 3);
    assert.match(bad.err, /^skillgate report: STATE_ERROR .*dir\.html: No such file or directory$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("lint: bad numbers are usage errors; a missing --dir is exit 3", async () => {
  assert.equal((await capture(() => lint(["--context-tokens", "lots"]))).code, 2);
  assert.equal((await capture(() => lint(["--budget-fraction", "2"]))).code, 2);
  const missing = await capture(() => lint(["--dir", "/nonexistent/skills"]));
  assert.equal(missing.code, 3);
  assert.match(missing.err, /^skillgate lint: STATE_ERROR \/nonexistent\/skills: No such file/);
});

Deno.test("lint, as a user runs it: a clean skill folder exits 0; a vague description exits 1", async () => {
  const home = await Deno.makeTempDir();
  try {
    const skill = (name: string, description: string) => {
      Deno.mkdirSync(join(home, "extra", name), { recursive: true });
      Deno.writeTextFileSync(
        join(home, "extra", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it.\n`,
      );
    };
    skill("release", "Use when cutting a release.");
    const clean = await runCli(["lint", "--host", "claude", "--dir", join(home, "extra")], {
      home,
    });
    assert.equal(clean.code, 0, clean.out + clean.err);
    assert.match(clean.out, /^claude: 1 skill\(s\), listing about \d+ of 8000 characters$/m);
    assert.match(clean.out, /^ {2}nothing found$/m);
    skill("notes", "Notes about things.");
    const vague = await runCli(["lint", "--host", "claude", "--dir", join(home, "extra")], {
      home,
    });
    assert.equal(vague.code, 1);
    assert.match(
      vague.out,
      /Descriptions with no "when to use" \(1\):\n {4}notes: its description/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

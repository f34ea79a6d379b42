import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "./config_command.ts";
import { capture } from "./_kit_test.ts";

/** Runs `skillgate config` against a state root holding `text` as its config file. */
async function config(args: string[], text?: string) {
  const root = await Deno.makeTempDir({ prefix: "skillgate-config-" });
  const saved = new Map<string, string | undefined>();
  for (
    const k of [
      "SKILLGATE_STATE_ROOT",
      "SKILLGATE_SKILL_ROUTING",
      "SKILLGATE_SKILL_CONTRACTS",
      "SKILLGATE_SKILL_REDIRECT",
    ]
  ) {
    saved.set(k, Deno.env.get(k));
    Deno.env.delete(k);
  }
  Deno.env.set("SKILLGATE_STATE_ROOT", root);
  try {
    if (text !== undefined) Deno.writeTextFileSync(join(root, "config.yaml"), text);
    const r = await capture(() => main(args));
    return { ...r, root };
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("config: an inline comment is a comment (`skill_routing: on   # comment` is on)", async () => {
  const r = await config(["get", "skill_routing"], "skill_routing: on   # for the pilot\n");
  assert.equal(r.code, 0);
  assert.equal(r.out, "on");
  assert.equal(r.err, "");
  const list = await config(["list"], "skill_routing: on   # for the pilot\n");
  assert.match(list.out, /^skill_routing: on \(config\)$/m);
});

Deno.test("config get: an invalid value is the default, reported on stderr", async () => {
  const r = await config(["get", "hook_deadline_ms"], "hook_deadline_ms: -5\n");
  assert.equal(r.code, 0);
  assert.equal(r.out, "5000");
  assert.equal(
    r.err,
    "skillgate config get: WARN line 1: hook_deadline_ms takes a whole number from 1 to 600000 (not -5); the default 5000 is used",
  );
});

Deno.test("config list: every invalid or ignored line is reported, and no invalid value shows (config)", async () => {
  const r = await config(
    ["list"],
    [
      "route_threshold: 7",
      "skill_dirs:",
      "  - /opt/skills",
      "  - /srv/more-skills",
      "colour: red",
      "  stray: line",
      "skill_contracts: maybe",
    ].join("\n") + "\n",
  );
  assert.equal(r.code, 0);
  const lines = r.out.split("\n");
  assert.ok(
    lines.includes(
      "route_threshold: 0.66 (default)  # line 1: route_threshold takes a number greater than 0 and at most 1 (not 7); the default 0.66 is used",
    ),
    r.out,
  );
  // A YAML list under skill_dirs is read.
  assert.ok(lines.includes("skill_dirs: /opt/skills,/srv/more-skills (config)"), r.out);
  assert.ok(lines.includes("# line 5: Unknown key colour; ignored"), r.out);
  assert.ok(lines.some((l) => l.startsWith("# line 6: Not understood")), r.out);
  assert.match(
    r.out,
    /^skill_contracts: on \(default\) {2}# line 7: skill_contracts takes on or off/m,
  );
});

Deno.test("config list --json gives values, sources and problems; an unknown flag is exit 2", async () => {
  const r = await config(["list", "--json"], "route_threshold: 7\nroute_skills: qa # one\n");
  assert.equal(r.code, 0);
  const j = JSON.parse(r.out);
  const by = Object.fromEntries(j.values.map((v: { key: string }) => [v.key, v]));
  assert.deepEqual(by.route_threshold, {
    key: "route_threshold",
    value: "0.66",
    source: "default",
  });
  assert.deepEqual(by.route_skills, { key: "route_skills", value: "qa", source: "config" });
  assert.equal(j.problems.length, 1);
  assert.equal(j.problems[0].line, 1);
  const bogus = await config(["list", "--bogus"]);
  assert.equal(bogus.code, 2);
  assert.equal(bogus.out, "");
  assert.equal(bogus.err, "skillgate config list: USAGE Unknown option '--bogus'");
});

Deno.test("config set validates as the reader does, and what it writes reads back", async () => {
  const bad = await config(["set", "route_threshold", "0"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.err,
    /^skillgate config set: USAGE route_threshold takes a number greater than 0/,
  );
  const root = await Deno.makeTempDir();
  const prior = Deno.env.get("SKILLGATE_STATE_ROOT");
  Deno.env.set("SKILLGATE_STATE_ROOT", root);
  try {
    const set = await capture(() => main(["set", "skillgate_command", "sg --tag #1"]));
    assert.equal(set.code, 0);
    const get = await capture(() => main(["get", "skillgate_command"]));
    assert.equal(get.out, "sg --tag #1");
  } finally {
    prior === undefined
      ? Deno.env.delete("SKILLGATE_STATE_ROOT")
      : Deno.env.set("SKILLGATE_STATE_ROOT", prior);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("config set: a folder key says setup must run again to grant it", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = await Deno.makeTempDir();
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-prompt",
        new URL("../../cli.ts", import.meta.url).pathname,
        "config",
        "set",
        "skill_dirs",
        dir,
      ],
      env: { SKILLGATE_STATE_ROOT: root },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(r.code, 0);
    const err = new TextDecoder().decode(r.stderr).trim().split("\n");
    assert.equal(err.length, 1, err.join("\n"));
    assert.match(err[0], /^skillgate config set: RUN_SETUP .*run skillgate setup again/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

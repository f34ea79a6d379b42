import assert from "node:assert/strict";
import { stateRoot } from "../host/places.ts";
import { join } from "node:path";
import {
  configList,
  configNumber,
  parseConfig,
  parseConfigText,
  parseSwitchValue,
  readConfig,
  readSwitch,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_NAMES,
  validateConfigValue,
  writeConfigValue,
} from "./config.ts";

/** What a test's environment sets: the switches, and where the state root is. */
const ENV_NAMES = [
  "SKILLGATE_STATE_ROOT",
  "SKILLGATE_SKILL_ROUTING",
  "SKILLGATE_SKILL_CONTRACTS",
  "SKILLGATE_SKILL_REDIRECT",
  "CLAUDE_PLUGIN_DATA",
];

function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved = Object.fromEntries(ENV_NAMES.map((k) => [k, Deno.env.get(k)]));
  try {
    for (const k of ENV_NAMES) Deno.env.delete(k);
    for (const [k, v] of Object.entries(vars)) if (v !== undefined) Deno.env.set(k, v);
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    }
  }
}

Deno.test("SWITCH_DEFAULT holds the design's defaults", () => {
  assert.deepEqual({ ...SWITCH_DEFAULT }, {
    skill_routing: false,
    skill_contracts: true,
    skill_redirect: true,
  });
  assert.ok(Object.isFrozen(SWITCH_DEFAULT));
});

Deno.test("parseSwitchValue() accepts the seed's words and nothing else", () => {
  for (const w of ["on", "yes", "true", "1", "ON", " Yes "]) {
    assert.equal(parseSwitchValue(w), true);
  }
  for (const w of ["off", "no", "false", "0", "OFF"]) assert.equal(parseSwitchValue(w), false);
  for (const w of ["maybe", "", "2", "enabled"]) assert.equal(parseSwitchValue(w), undefined);
});

Deno.test("parseConfigText() reads flat key: value lines, last one wins", () => {
  const v = parseConfigText(
    "\uFEFF# header\nskill_routing: off\r\nroute_threshold: '0.5'\nskill_routing: on\n  nested: x\nbad line\n" +
      "skillgate_command: '/opt/my tools/deno' run -A '/home/me/it'\\''s #1/cli.ts'\n",
  );
  assert.equal(v.skill_routing, "on");
  assert.equal(v.route_threshold, "0.5");
  // A shell-quoted command keeps every quote and its quoted ` #`.
  assert.equal(v.skillgate_command, "'/opt/my tools/deno' run -A '/home/me/it'\\''s #1/cli.ts'");
  // An indented line is not part of the format: not a key.
  assert.equal(Object.keys(v).length, 3);
});

Deno.test("parseConfig() takes inline comments, validates every value and reports each ignored line", () => {
  const { values, problems } = parseConfig(
    [
      "skill_routing: on   # turned on for the pilot",
      "hook_deadline_ms: -5",
      "route_threshold: 7",
      "skill_dirs:",
      "  - /a",
      '  - "/b c"  # quoted',
      "agent_dirs: [/x, '/y']",
      "colour: red",
      "  nested: x",
      "route_skills: qa, review # two",
      "skill_contracts: maybe",
      "skillgate_command: deno run -A '/p/#1/cli.ts' # a comment",
      "skill_redirect: off#not-a-comment",
    ].join("\n"),
  );
  assert.equal(values.skill_routing, "on");
  assert.equal(values.hook_deadline_ms, undefined);
  assert.equal(values.route_threshold, undefined);
  assert.equal(values.skill_dirs, "/a,/b c");
  assert.equal(values.agent_dirs, "/x,/y");
  assert.equal(values.route_skills, "qa, review");
  assert.equal(values.skill_contracts, undefined);
  assert.equal(values.skillgate_command, "deno run -A '/p/#1/cli.ts'");
  assert.equal(values.skill_redirect, undefined);
  assert.deepEqual(problems.map((p) => [p.line, p.key]), [
    [2, "hook_deadline_ms"],
    [3, "route_threshold"],
    [8, "colour"],
    [9, undefined],
    [11, "skill_contracts"],
    [13, "skill_redirect"],
  ]);
  assert.match(
    problems[0].message,
    /hook_deadline_ms takes a whole number .*the default 5000 is used/,
  );
  assert.match(
    problems[1].message,
    /route_threshold takes a number greater than 0 .*0\.66 is used/,
  );
  assert.match(problems[2].message, /^Unknown key colour; ignored$/);
});

Deno.test("an invalid value means the default, for the hooks too: readConfig() and the readers", async () => {
  const root = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(
      join(root, "config.yaml"),
      "hook_deadline_ms: -5\nroute_threshold: 7\nskill_routing: on # yes\n",
    );
    const config = readConfig(root);
    assert.equal(configNumber(config, "hook_deadline_ms", 5000), 5000);
    assert.equal(configNumber(config, "route_threshold", 0.66), 0.66);
    withEnv({}, () => {
      assert.deepEqual(resolveSwitch("skill_routing", config), { on: true, source: "config" });
    });
    assert.equal(config.problems?.length, 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("writeConfigValue() quotes a value that would otherwise read back as a comment", async () => {
  const root = await Deno.makeTempDir();
  try {
    writeConfigValue("skillgate_command", "my-skillgate --tag #1", root);
    writeConfigValue("skill_dirs", "/a,/b", root);
    assert.equal(readConfig(root).values.skillgate_command, "my-skillgate --tag #1");
    assert.match(Deno.readTextFileSync(join(root, "config.yaml")), /"my-skillgate --tag #1"/);
    // A YAML list under a key is replaced whole.
    Deno.writeTextFileSync(
      join(root, "config.yaml"),
      "skill_dirs:\n  - /x\n  - /y\nroute_skills: qa\n",
    );
    writeConfigValue("skill_dirs", "/z", root);
    assert.equal(
      Deno.readTextFileSync(join(root, "config.yaml")),
      "route_skills: qa\nskill_dirs: /z\n",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resolveSwitch() follows env > config > default", async (t) => {
  const root = await Deno.makeTempDir();
  try {
    await t.step("default when nothing is set", () =>
      withEnv({}, () => {
        const r = resolveSwitch("skill_routing", readConfig(root));
        assert.deepEqual(r, { on: false, source: "default" });
      }));
    Deno.writeTextFileSync(
      join(root, "config.yaml"),
      "skill_routing: on\nskill_contracts: maybe\n",
    );
    await t.step("config beats default", () =>
      withEnv({}, () => {
        assert.deepEqual(resolveSwitch("skill_routing", readConfig(root)), {
          on: true,
          source: "config",
        });
      }));
    await t.step(
      "an invalid config word gives the default with a warning",
      () =>
        withEnv({}, () => {
          const r = resolveSwitch("skill_contracts", readConfig(root));
          assert.equal(r.on, true);
          assert.equal(r.source, "default");
          assert.match(r.warning ?? "", /skill_contracts/);
        }),
    );
    await t.step("env beats config", () =>
      withEnv({ SKILLGATE_SKILL_ROUTING: "no" }, () => {
        assert.deepEqual(resolveSwitch("skill_routing", readConfig(root)), {
          on: false,
          source: "env",
        });
      }));
    await t.step(
      "an invalid env word gives the default with a warning",
      () =>
        withEnv({ SKILLGATE_SKILL_REDIRECT: "sometimes" }, () => {
          const r = resolveSwitch("skill_redirect", readConfig(root));
          assert.equal(r.on, true);
          assert.match(r.warning ?? "", /SKILLGATE_SKILL_REDIRECT/);
        }),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an unreadable config file turns every switch off", async () => {
  const root = await Deno.makeTempDir();
  try {
    Deno.mkdirSync(join(root, "config.yaml"));
    withEnv({}, () => {
      const config = readConfig(root);
      assert.equal(config.readable, false);
      for (const name of ["skill_routing", "skill_contracts", "skill_redirect"] as const) {
        assert.deepEqual(resolveSwitch(name, config), { on: false, source: "unreadable-config" });
      }
    });
    Deno.removeSync(join(root, "config.yaml"));
    Deno.writeFileSync(join(root, "config.yaml"), new Uint8Array([0xff, 0xfe, 0x00, 0x41]));
    assert.equal(readConfig(root).readable, false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("configNumber() and configList() fall back on absent or invalid values", () => {
  const config = {
    path: "x",
    exists: true,
    readable: true,
    values: { a: "0.5", b: "zz", l: " x, ,y ", e: "" },
  };
  assert.equal(configNumber(config, "a", 1), 0.5);
  assert.equal(configNumber(config, "b", 1), 1);
  assert.equal(configNumber(config, "missing", 2), 2);
  assert.deepEqual(configList(config, "l", []), ["x", "y"]);
  assert.deepEqual(configList(config, "e", ["d"]), []);
  assert.deepEqual(configList(config, "missing", ["d"]), ["d"]);
});

Deno.test("validateConfigValue() checks keys and values", () => {
  assert.equal(validateConfigValue("skill_routing", "on"), undefined);
  assert.match(validateConfigValue("skill_routing", "perhaps") ?? "", /on or off/);
  assert.match(validateConfigValue("route_threshold", "2") ?? "", /greater than 0 and at most 1/);
  assert.match(validateConfigValue("route_threshold", "0") ?? "", /greater than 0/);
  assert.match(validateConfigValue("hook_deadline_ms", "-5") ?? "", /whole number from 1 to/);
  assert.match(validateConfigValue("hook_deadline_ms", "2.5") ?? "", /whole number/);
  assert.equal(validateConfigValue("hook_deadline_ms", "2500"), undefined);
  assert.match(validateConfigValue("nope", "1") ?? "", /Unknown config key/);
  assert.match(validateConfigValue("route_skills", "a\nb") ?? "", /one line/);
  assert.match(validateConfigValue("__proto__", "1") ?? "", /Unknown/);
});

Deno.test("writeConfigValue() keeps other lines, replaces the key, writes 0600", async () => {
  const root = await Deno.makeTempDir();
  try {
    const path = join(root, "config.yaml");
    Deno.writeTextFileSync(path, "# mine\nskill_routing: off\nroute_skills: qa\n");
    writeConfigValue("skill_routing", "on", root);
    writeConfigValue("route_threshold", "0.7", root);
    assert.equal(
      Deno.readTextFileSync(path),
      "# mine\nroute_skills: qa\nskill_routing: on\nroute_threshold: 0.7\n",
    );
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    assert.throws(() => writeConfigValue("skill_routing", "bogus", root), /on or off/);
    assert.equal(readConfig(root).values.skill_routing, "on");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

function withSwitchState(env: Record<string, string>, fn: (root: string) => void): void {
  const root = Deno.makeTempDirSync({ prefix: "skillgate-front-" });
  try {
    withEnv({ ...env, SKILLGATE_STATE_ROOT: root }, () => fn(root));
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

Deno.test("readSwitch(): off exactly when resolveSwitch() is off for a readable file, and silent", () => {
  const configs: (string | undefined)[] = [
    undefined, // no config file: the defaults
    "skill_routing: on\nskill_contracts: off\nskill_redirect: no\n",
    "skill_routing: off\nskill_contracts: yes # on\n",
    "skill_redirect: maybe\n", // an invalid word: the default
    "skill_contracts: 0\nskill_contracts: 1\n", // the last line wins
    "\u0000binary", // unreadable: off, but reported by the core, so not ended early
  ];
  const envs: Record<string, string>[] = [
    {},
    { SKILLGATE_SKILL_ROUTING: "off", SKILLGATE_SKILL_CONTRACTS: "on" },
    { SKILLGATE_SKILL_REDIRECT: "false", SKILLGATE_SKILL_ROUTING: "bogus" },
  ];
  let ended = 0;
  for (const text of configs) {
    for (const env of envs) {
      withSwitchState(env, (root) => {
        if (text !== undefined) Deno.writeTextFileSync(join(root, "config.yaml"), text);
        for (const name of SWITCH_NAMES) {
          const sw = resolveSwitch(name, readConfig(root));
          const got = readSwitch(name, stateRoot);
          const what = `${name} ${JSON.stringify(env)} ${text}`;
          assert.equal(got.off, !sw.on && sw.source !== "unreadable-config", what);
          assert.equal(got.on, sw.on, what);
          if (got.off) ended++;
          // The config file it hands on is the one readConfig() reads.
          if (got.config) assert.deepEqual(got.config, readConfig(root));
        }
      });
    }
  }
  assert.ok(ended > 0 && ended < configs.length * envs.length * SWITCH_NAMES.length);
});

Deno.test("readSwitch() with no state root folder yet: the defaults, read without a file", () => {
  withSwitchState({}, (root) => {
    Deno.env.set("SKILLGATE_STATE_ROOT", join(root, "not-yet"));
    assert.equal(readSwitch("skill_routing", stateRoot).off, true);
    const contracts = readSwitch("skill_contracts", stateRoot);
    assert.equal(contracts.off, false);
    assert.equal(contracts.config?.exists, false);
    assert.equal(contracts.config?.readable, true);
  });
});

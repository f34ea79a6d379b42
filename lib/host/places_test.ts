import assert from "node:assert/strict";
import { getEnv } from "../base/locations.ts";
import {
  configDirOf,
  pluginDataDir,
  pluginHookStateRoot,
  skillgateCommand,
  stateRoot,
} from "./places.ts";
import { pluginStateRoot } from "./plugin_state.ts";
import { CLAUDE } from "./claude.ts";

const NAMES = [
  "SKILLGATE_STATE_ROOT",
  "CLAUDE_PLUGIN_DATA",
  "CLAUDE_PLUGIN_ROOT",
  "CLAUDE_CONFIG_DIR",
  "SKILLGATE_COMMAND",
  "HOME",
];

function withEnv(vars: Record<string, string>, fn: () => void, _why?: string): void {
  const saved = Object.fromEntries(NAMES.map((k) => [k, Deno.env.get(k)]));
  try {
    for (const k of NAMES) Deno.env.delete(k);
    for (const [k, v] of Object.entries(vars)) Deno.env.set(k, v);
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    }
  }
}

Deno.test("stateRoot() prefers SKILLGATE_STATE_ROOT, then the plugin's data dir, then ~/.skillgate", () => {
  withEnv({ HOME: "/h" }, () => assert.equal(stateRoot(), "/h/.skillgate"));
  withEnv({ HOME: "/h", CLAUDE_PLUGIN_DATA: "/p" }, () => assert.equal(stateRoot(), "/p"));
  withEnv(
    { HOME: "/h", CLAUDE_PLUGIN_DATA: "/p", SKILLGATE_STATE_ROOT: "/s" },
    () => assert.equal(stateRoot(), "/s"),
  );
  withEnv({ HOME: "/h" }, () => assert.equal(configDirOf(CLAUDE), "/h/.claude"));
  withEnv({ HOME: "/h", CLAUDE_CONFIG_DIR: "/c" }, () => assert.equal(configDirOf(CLAUDE), "/c"));
});

Deno.test("pluginHookStateRoot(): the user's state root when it lies beside the Claude config folder, else the plugin's data dir", () => {
  const data = "/h/.claude/plugins/data/skillgate-skillgate";
  assert.equal(pluginHookStateRoot(data, "/h/.skillgate"), "/h/.skillgate");
  assert.equal(pluginHookStateRoot(data, "/h/.skillgate/"), "/h/.skillgate");
  // A state root elsewhere (SKILLGATE_STATE_ROOT), or a Claude config folder not beside it: the
  // plugin's grants do not reach it.
  assert.equal(pluginHookStateRoot(data, "/s"), data);
  assert.equal(pluginHookStateRoot("/c/plugins/data/sg", "/h/.skillgate"), "/c/plugins/data/sg");
  assert.equal(pluginHookStateRoot(data, undefined), data);
  assert.equal(pluginHookStateRoot(data, ".skillgate"), data);
  withEnv({ HOME: "/h" }, () => assert.equal(pluginHookStateRoot(data), "/h/.skillgate"));
  withEnv(
    { HOME: "/h", SKILLGATE_STATE_ROOT: "/s" },
    () => assert.equal(pluginHookStateRoot(data), data),
  );
  withEnv(
    { HOME: "/x", SKILLGATE_STATE_ROOT: "/h/.skillgate" },
    () => assert.equal(pluginHookStateRoot(data), "/h/.skillgate"),
  );
  // As the plugin's hook (a module under CLAUDE_PLUGIN_ROOT), stateRoot() says the same.
  withEnv({ HOME: "/h", CLAUDE_PLUGIN_ROOT: "/", CLAUDE_PLUGIN_DATA: data }, () => {
    assert.equal(stateRoot(), "/h/.skillgate");
  });
  withEnv({ HOME: "/elsewhere", CLAUDE_PLUGIN_ROOT: "/", CLAUDE_PLUGIN_DATA: data }, () => {
    assert.equal(stateRoot(), data);
  });
});

Deno.test("pluginDataDir(): the plugin's data dir only for a module under CLAUDE_PLUGIN_ROOT", () => {
  const plugin = {
    HOME: "/h",
    CLAUDE_PLUGIN_ROOT: "/c/plugins/cache/sg",
    CLAUDE_PLUGIN_DATA: "/d",
  };
  const hook = "file:///c/plugins/cache/sg/hooks/dist/skill_route.js";
  withEnv(plugin, () => {
    assert.equal(pluginDataDir(hook), "/d");
    assert.equal(pluginDataDir("file:///c/plugins/cache/sg/cli.ts"), "/d");
    // Another module (setup's hooks from a checkout, JSR, another plugin's folder): not the plugin.
    assert.equal(pluginDataDir("file:///home/u/skillgate/hooks/dist/skill_route.js"), undefined);
    assert.equal(pluginDataDir("file:///c/plugins/cache/sg-other/cli.ts"), undefined);
    assert.equal(pluginDataDir("jsr:@skillgate/skillgate/hooks/skill-route"), undefined);
  });
  withEnv({ ...plugin, CLAUDE_PLUGIN_ROOT: "/c/plugins/cache/sg/" }, () => {
    assert.equal(pluginDataDir(hook), "/d");
  });
  withEnv(
    { HOME: "/h", CLAUDE_PLUGIN_DATA: "/d" },
    () => assert.equal(pluginDataDir(hook), undefined),
  );
  withEnv({ HOME: "/h", CLAUDE_PLUGIN_ROOT: "/c/plugins/cache/sg" }, () => {
    assert.equal(pluginDataDir(hook), undefined);
  });
});

Deno.test("skillgateCommand(): env, then setup's config value, then the plugin's own CLI, then skillgate", () => {
  withEnv({}, () => assert.equal(skillgateCommand(), "skillgate"));
  withEnv({ CLAUDE_PLUGIN_ROOT: "/p/it's" }, () => {
    assert.equal(skillgateCommand(), "deno run -A '/p/it'\\''s/cli.ts'");
    assert.equal(skillgateCommand({ skillgate_command: "/opt/sg" }), "/opt/sg");
  });
  withEnv(
    { SKILLGATE_COMMAND: "sg" },
    () => assert.equal(skillgateCommand({ skillgate_command: "x" }), "sg"),
  );
});

Deno.test("getEnv() reads an empty value as unset and never throws", () => {
  withEnv({ SKILLGATE_COMMAND: "" }, () => assert.equal(getEnv("SKILLGATE_COMMAND"), undefined));
  assert.equal(getEnv("SKILLGATE_SURELY_UNSET_VARIABLE"), undefined);
});

Deno.test("pluginStateRoot() finds the one plugin data directory when nothing else names a root", () => {
  const home = Deno.makeTempDirSync();
  try {
    const data = `${home}/.claude/plugins/data`;
    withEnv({ HOME: home }, () => assert.equal(pluginStateRoot(), undefined));
    Deno.mkdirSync(`${data}/skillgate-skillgate`, { recursive: true });
    Deno.mkdirSync(`${data}/other-plugin`, { recursive: true });
    // Its hooks keep their state in ~/.skillgate, beside ~/.claude: so does the CLI.
    withEnv({ HOME: home }, () => assert.equal(pluginStateRoot(), undefined));
    // A Claude config folder elsewhere: the plugin's hooks keep their state in their data dir.
    const config = `${home}/config/claude`;
    const moved = `${config}/plugins/data`;
    Deno.mkdirSync(`${moved}/skillgate-skillgate`, { recursive: true });
    withEnv(
      { HOME: home, CLAUDE_CONFIG_DIR: config },
      () => assert.equal(pluginStateRoot(), `${moved}/skillgate-skillgate`),
    );
    withEnv(
      { HOME: home, SKILLGATE_STATE_ROOT: "/s" },
      () => assert.equal(pluginStateRoot(), undefined),
    );
    Deno.mkdirSync(`${moved}/skillgate-inline`);
    withEnv(
      { HOME: home, CLAUDE_CONFIG_DIR: config },
      () => assert.equal(pluginStateRoot(), undefined),
      "two: ambiguous",
    );
    Deno.removeSync(`${moved}/skillgate-inline`);
    Deno.mkdirSync(`${home}/.skillgate`);
    withEnv(
      { HOME: home, CLAUDE_CONFIG_DIR: config },
      () => assert.equal(pluginStateRoot(), undefined),
      "a setup install wins",
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

/**
 * Tests of the hooks' front: it must read a switch exactly as the runner does, so that a hook the
 * runner would run is never ended early, and one it would leave off never loads its core.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfig, resolveSwitch, SWITCH_NAMES } from "../base/config.ts";
import { frontSwitch } from "./front.ts";

const VARS = [
  "SKILLGATE_STATE_ROOT",
  "SKILLGATE_SKILL_ROUTING",
  "SKILLGATE_SKILL_CONTRACTS",
  "SKILLGATE_SKILL_REDIRECT",
  "CLAUDE_PLUGIN_DATA",
];

function withState(env: Record<string, string>, fn: (root: string) => void): void {
  const saved = Object.fromEntries(VARS.map((k) => [k, Deno.env.get(k)]));
  const root = Deno.makeTempDirSync({ prefix: "skillgate-front-" });
  try {
    for (const k of VARS) Deno.env.delete(k);
    Deno.env.set("SKILLGATE_STATE_ROOT", root);
    for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
    fn(root);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
    }
    Deno.removeSync(root, { recursive: true });
  }
}

Deno.test("frontSwitch() ends a hook exactly when the runner's switch leaves it off", () => {
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
      withState(env, (root) => {
        if (text !== undefined) Deno.writeTextFileSync(join(root, "config.yaml"), text);
        for (const name of SWITCH_NAMES) {
          const sw = resolveSwitch(name, readConfig(root));
          const runnerEnds = !sw.on && sw.source !== "unreadable-config";
          const front = frontSwitch(name);
          assert.equal(front.off, runnerEnds, `${name} ${JSON.stringify(env)} ${text}`);
          if (front.off) ended++;
          // What the front read is what the core would read.
          if (front.config) assert.deepEqual(front.config, readConfig(root));
        }
      });
    }
  }
  assert.ok(ended > 0 && ended < configs.length * envs.length * SWITCH_NAMES.length);
});

Deno.test("frontSwitch() with no state root folder yet: the defaults, read without a file", () => {
  withState({}, (root) => {
    Deno.env.set("SKILLGATE_STATE_ROOT", join(root, "not-yet"));
    assert.equal(frontSwitch("skill_routing").off, true);
    const contracts = frontSwitch("skill_contracts");
    assert.equal(contracts.off, false);
    assert.equal(contracts.config?.exists, false);
    assert.equal(contracts.config?.readable, true);
  });
});

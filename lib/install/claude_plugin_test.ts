import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { type HookRow, HOOKS, hostRegistration } from "../hook/table.ts";
import { CLAUDE } from "../host/claude.ts";
import {
  PLUGIN_CONFIG_DIR,
  PLUGIN_USER_STATE_ROOT,
  pluginHookArgs,
  pluginHooksFile,
  renderPluginHooksJson,
} from "./claude_plugin.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function readJson(rel: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(join(ROOT, rel)));
}

Deno.test("hooks/hooks.json agrees with the hook table (regenerate: deno run --allow-write=hooks/hooks.json lib/install/claude_plugin.ts)", () => {
  assert.deepEqual(readJson("hooks/hooks.json"), pluginHooksFile());
});

Deno.test("pluginHooksFile() registers every row of the hook table once, under its Claude event and matcher", () => {
  const file = pluginHooksFile();
  const seen: string[] = [];
  for (const [event, groups] of Object.entries(file.hooks)) {
    for (const g of groups) {
      for (const h of g.hooks) {
        seen.push(`${event}|${g.matcher ?? ""}|${h.args.at(-1)}|${h.timeout}`);
      }
    }
  }
  const want = HOOKS.map((r) => {
    const reg = hostRegistration(CLAUDE, r)!;
    return `${reg.event}|${reg.matcher ?? ""}|\${CLAUDE_PLUGIN_ROOT}/${r.bundle}|${r.timeoutSec}`;
  });
  assert.deepEqual(seen.toSorted(), want.toSorted());
});

Deno.test("pluginHooksFile() follows a changed table (the committed-file test is not vacuous)", () => {
  const changed: HookRow[] = HOOKS.map((r) => ({ ...r, timeoutSec: r.timeoutSec + 1 }));
  assert.notDeepEqual(pluginHooksFile(changed), pluginHooksFile());
  // A row whose tools change gets another matcher.
  const renamed: HookRow[] = HOOKS.map((r, i) => i === 0 ? { ...r, tools: "shell" } : r);
  assert.notDeepEqual(pluginHooksFile(renamed), pluginHooksFile());
});

Deno.test("plugin hooks are exec form: command deno, run --no-prompt --no-config, entry under ${CLAUDE_PLUGIN_ROOT}", () => {
  for (const groups of Object.values(pluginHooksFile().hooks)) {
    for (const g of groups) {
      for (const h of g.hooks) {
        assert.equal(h.type, "command");
        assert.equal(h.command, "deno");
        assert.deepEqual(h.args.slice(0, 4), ["run", "--quiet", "--no-prompt", "--no-config"]);
        assert.match(h.args.at(-1)!, /^\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/dist\/[a-z_]+\.js$/);
      }
    }
  }
});

Deno.test("plugin hooks never get -A, --allow-all, --allow-run, --allow-net, --allow-ffi or --allow-sys", () => {
  for (const row of HOOKS) {
    for (const a of pluginHookArgs(row)) {
      assert.doesNotMatch(
        a,
        /^(-A|--allow-all|--allow-run|--allow-net|--allow-ffi|--allow-sys)(=|$)/,
      );
    }
  }
});

Deno.test("plugin hook paths use only placeholders Claude Code substitutes in exec form", () => {
  for (const row of HOOKS) {
    for (const a of pluginHookArgs(row)) {
      for (const m of a.matchAll(/\$\{([^}]*)\}/g)) {
        assert.ok(
          ["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"].includes(m[1]),
          `${row.id}: placeholder \${${m[1]}} is not substituted in exec form`,
        );
      }
      assert.doesNotMatch(a, /\$HOME|~\/|@@/, `${row.id}: literal home or token in ${a}`);
    }
  }
});

Deno.test("plugin hook state roots are ${CLAUDE_PLUGIN_DATA} and .skillgate beside the config dir, three levels above it", () => {
  const route = HOOKS.find((r) => r.id === "skill-route")!;
  const args = pluginHookArgs(route);
  assert.ok(
    args.includes(
      "--allow-write=${CLAUDE_PLUGIN_DATA},${CLAUDE_PLUGIN_DATA}/../../../../.skillgate",
    ),
    args.join(" "),
  );
  assert.equal(PLUGIN_USER_STATE_ROOT, "${CLAUDE_PLUGIN_DATA}/../../../../.skillgate");
  // The redirect keeps its narrow grants in either root.
  const redirect = HOOKS.find((r) => r.id === "skill-redirect")!;
  assert.ok(
    pluginHookArgs(redirect).includes(
      "--allow-write=" +
        ["${CLAUDE_PLUGIN_DATA}", PLUGIN_USER_STATE_ROOT].flatMap((root) =>
          ["hooks", "skill-redirect", "claims"].map((d) => `${root}/${d}`)
        ).join(","),
    ),
  );
  const read = args.find((a) => a.startsWith("--allow-read="))!.slice("--allow-read=".length);
  assert.ok(read.split(",").includes(`${PLUGIN_CONFIG_DIR}/skills`));
  assert.equal(PLUGIN_CONFIG_DIR, "${CLAUDE_PLUGIN_DATA}/../../..");
  const contract = HOOKS.find((r) => r.id === "skill-contract")!;
  const cread = pluginHookArgs(contract).find((a) => a.startsWith("--allow-read="))!;
  assert.ok(cread.split(/[=,]/).includes(`${PLUGIN_CONFIG_DIR}/projects`));
});

Deno.test("renderPluginHooksJson() is the committed text's JSON with a final newline", () => {
  const text = renderPluginHooksJson();
  assert.ok(text.endsWith("}\n"));
  assert.deepEqual(JSON.parse(text), pluginHooksFile());
});

Deno.test("every plugin hook entry file exists in the package", () => {
  for (const row of HOOKS) {
    const st = Deno.statSync(join(ROOT, row.bundle));
    assert.ok(st.isFile, `${row.bundle} is missing`);
  }
});

Deno.test("plugin.json names skillgate, matches deno.json's version and license, and does not list hooks", () => {
  const plugin = readJson(".claude-plugin/plugin.json");
  const deno = readJson("deno.json");
  assert.equal(plugin.name, "skillgate");
  assert.equal(plugin.version, deno.version);
  assert.equal(plugin.license, deno.license);
  assert.equal(typeof plugin.description, "string");
  assert.equal(typeof plugin.repository, "string");
  assert.equal(
    plugin.hooks,
    undefined,
    "hooks/hooks.json is loaded by convention; listing it too doubles it",
  );
});

Deno.test("marketplace.json is named skillgate and offers the repository root as plugin skillgate", () => {
  const market = readJson(".claude-plugin/marketplace.json");
  const plugin = readJson(".claude-plugin/plugin.json");
  assert.equal(market.name, "skillgate");
  const plugins = market.plugins as Record<string, unknown>[];
  assert.equal(plugins.length, 1);
  assert.equal(plugins[0].name, "skillgate");
  assert.equal(plugins[0].source, "./");
  assert.equal(plugins[0].version, plugin.version);
});

Deno.test("plugin hooks grant the project's folders relative to the working directory and its parents, never through CLAUDE_PROJECT_DIR", () => {
  for (const row of HOOKS) {
    const args = pluginHookArgs(row);
    assert.ok(!args.some((a) => a.includes("${CLAUDE_PROJECT_DIR}")), row.id);
    const read = args.find((a) => a.startsWith("--allow-read="))!.split(/[=,]/);
    for (const g of [".claude/skills", "../.claude/skills", "../../../.claude/skills"]) {
      assert.ok(read.includes(g), `${row.id}: ${g}`);
    }
  }
});

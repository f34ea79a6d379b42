import assert from "node:assert/strict";
import { join } from "node:path";
import { findPluginRegistrations } from "./registrations.ts";

/** Makes a FIFO with no writer: a plain read of it waits for one forever. */
function fifo(path: string): void {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success, "mkfifo");
}

Deno.test("findPluginRegistrations() never waits on a FIFO where a plugin's manifest or hooks.json is", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skillgate-registrations-" });
  try {
    const plugins = join(dir, "plugins");
    const install = join(plugins, "cache", "mkt", "skillgate", "0.1.0");
    const listing = JSON.stringify({ plugins: { "skillgate@mkt": [{ installPath: install }] } });
    const places = { claudeConfigDir: dir, cwd: dir };
    fifo(join(plugins, "installed_plugins.json"));
    assert.deepEqual(findPluginRegistrations(places).hooks, []);
    Deno.removeSync(join(plugins, "installed_plugins.json"));
    Deno.writeTextFileSync(join(plugins, "installed_plugins.json"), listing);
    fifo(join(install, ".claude-plugin", "plugin.json"));
    assert.deepEqual(findPluginRegistrations(places).hooks, []);
    Deno.removeSync(join(install, ".claude-plugin", "plugin.json"));
    Deno.writeTextFileSync(join(install, ".claude-plugin", "plugin.json"), '{"name":"skillgate"}');
    fifo(join(install, "hooks", "hooks.json"));
    const found = findPluginRegistrations(places);
    assert.deepEqual(found.hooks, []);
    assert.equal(found.problems.length, 1);
    assert.match(found.problems[0], /hooks\.json: .*Not a regular file \(a FIFO\)/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/**
 * For the CLI of a user who installed skillgate as a plugin: where the plugin's hooks keep their
 * state, found under the plugins folder of the host that has one.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { exists } from "../base/fs.ts";
import { getEnv, homeDir } from "../base/locations.ts";
import { HOSTS } from "./mod.ts";
import { configDirOf, pluginHookStateRoot, USER_STATE_DIR } from "./places.ts";
import { PLUGIN_ENV } from "./plugin.ts";

/**
 * The plugin's data directory (`<config>/plugins/data/skillgate…`), where its hooks keep their
 * state, when nothing else names a state root (no `SKILLGATE_STATE_ROOT`, no plugin data variable,
 * no `~/.skillgate`), exactly one such directory exists, and its hooks keep their state there: a
 * plugin whose Claude config folder lies beside `~/.skillgate` (the default, `~/.claude`) keeps it
 * in `~/.skillgate` (`pluginHookStateRoot`), the CLI's own default.
 *
 * @returns The directory, or `undefined`.
 */
export function pluginStateRoot(): string | undefined {
  if (getEnv("SKILLGATE_STATE_ROOT") || getEnv(PLUGIN_ENV.data)) return undefined;
  try {
    // A state root of a setup install wins; without one, look for the plugin's.
    if (exists(join(homeDir(), USER_STATE_DIR), { followSymlinks: true })) return undefined;
    const found: string[] = [];
    for (const host of HOSTS) {
      if (!host.layout.plugins) continue;
      const dataDir = join(configDirOf(host), host.layout.plugins, "data");
      try {
        for (const e of Deno.readDirSync(dataDir)) {
          if (e.isDirectory && e.name.startsWith("skillgate")) found.push(join(dataDir, e.name));
        }
      } catch {
        // No plugins data folder for this host.
      }
    }
    return found.length === 1 && pluginHookStateRoot(found[0]) === found[0] ? found[0] : undefined;
  } catch {
    return undefined;
  }
}

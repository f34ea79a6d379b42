/**
 * Installed plugins' skill and agent folders (Claude Code's plugins layout): the installs its
 * `installed_plugins.json` lists under the plugins folder, else every `.claude-plugin/plugin.json`
 * found in its cache; each plugin named by its manifest.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "../base/path.ts";
import { readRegularTextSync } from "../base/fs.ts";

/** A plugin's skills or agents folder (a catalog root of source `plugin`). */
export interface PluginRoot {
  /** The directory (absolute). */
  readonly dir: string;
  /** What it holds. */
  readonly kind: "skills" | "agents";
  /** Always `plugin`. */
  readonly source: "plugin";
  /** The plugin's name. */
  readonly plugin: string;
}

/** How deep the plugin cache is searched for manifests. */
const MAX_PLUGIN_DEPTH = 5;
/** The largest `installed_plugins.json` or `plugin.json` read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * The skill and agent roots of the installed plugins.
 *
 * @param pluginsDir The host's plugins folder.
 * @returns Two roots per plugin (its `skills` and `agents`), in install order.
 */
export async function pluginRoots(pluginsDir: string): Promise<PluginRoot[]> {
  const installs: string[] = [];
  try {
    const text = readRegularTextSync(
      join(pluginsDir, "installed_plugins.json"),
      MAX_MANIFEST_BYTES,
    );
    const data = JSON.parse(text) as { plugins?: Record<string, unknown> };
    for (const value of Object.values(data.plugins ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const path = (item as { installPath?: unknown })?.installPath;
        if (typeof path === "string" && resolve(path).startsWith(resolve(pluginsDir) + "/")) {
          installs.push(resolve(path));
        }
      }
    }
  } catch {
    const { walkFiles } = await import("./walk.ts");
    const found = walkFiles(join(pluginsDir, "cache"), (n) => n === "plugin.json", {
      maxDepth: MAX_PLUGIN_DEPTH,
      followSymlinks: true,
    });
    for (const f of found.files) {
      if (basename(f.dir) === ".claude-plugin") installs.push(dirname(f.dir));
    }
  }
  const roots: PluginRoot[] = [];
  for (const install of [...new Set(installs)].sort()) {
    let plugin = basename(install);
    try {
      const manifest = JSON.parse(
        readRegularTextSync(join(install, ".claude-plugin", "plugin.json"), MAX_MANIFEST_BYTES),
      ) as { name?: unknown };
      if (typeof manifest.name === "string") plugin = manifest.name;
    } catch {
      // No manifest: the directory's name stands for the plugin.
    }
    if (/^\d+(\.\d+)*/.test(plugin)) plugin = basename(dirname(install));
    plugin = plugin.replace(/[^A-Za-z0-9_.-]/g, "");
    if (!plugin) continue;
    roots.push({ dir: join(install, "skills"), kind: "skills", source: "plugin", plugin });
    roots.push({ dir: join(install, "agents"), kind: "agents", source: "plugin", plugin });
  }
  return roots;
}

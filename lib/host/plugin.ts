/**
 * skillgate as a plugin: the client that installs plugins (Claude Code) sets two variables for a
 * plugin's hooks, its install and its persistent data directory. A hook of the skillgate plugin
 * keeps its state there. Tiny on purpose: every hook's front reads it (for the state root, see
 * `places.ts`).
 *
 * @module
 */

/** The variables a plugin's hooks get: the plugin's install and its data directory. */
export const PLUGIN_ENV: { readonly root: string; readonly data: string } = {
  root: "CLAUDE_PLUGIN_ROOT",
  data: "CLAUDE_PLUGIN_DATA",
};

/**
 * Codex CLI's agent files (`.codex/agents/<name>.toml`, `~/.codex/agents`): the agent's name.
 *
 * @module
 */

/**
 * The `name` of a Codex CLI agent file (`.codex/agents/<name>.toml`): its top-level `name = "…"`
 * key (a basic or literal string on one line, before any table), read without a TOML parser,
 * since nothing else of the file is used; else the file's stem.
 *
 * @param text The file's text.
 * @param fileName The file's name (`prompt-writer.toml`).
 * @param plugin The plugin whose agent it is, which prefixes the name (`plugin:name`).
 * @returns The agent's name.
 */
export function tomlAgentName(text: string, fileName: string, plugin?: string): string {
  const name = nameOf(text, fileName).slice(0, 256);
  return plugin ? `${plugin}:${name}` : name;
}

function nameOf(text: string, fileName: string): string {
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/.exec(line);
    if (m) {
      let v = m[2] ?? m[1];
      if (m[1] !== undefined) {
        try {
          v = JSON.parse(`"${m[1]}"`);
        } catch {
          v = m[1];
        }
      }
      if (v.trim()) return v.trim();
    }
  }
  return fileName.replace(/\.toml$/i, "");
}

/**
 * Helpers the host module tests share (a `_test.ts` name keeps it out of the package).
 *
 * @module
 */
import type { JsonObject } from "./json.ts";
import type { HostFolders } from "./host.ts";
import { CLAUDE } from "./claude.ts";

/** Other tools' entries on the same events, including a mixed group. */
export function foreignSettings(): JsonObject {
  return {
    model: "opus",
    permissions: { allow: ["Bash(git *)"], deny: [] },
    env: { FOO: "1" },
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "/usr/bin/other-tool prompt", timeout: 5 }] },
      ],
      PreToolUse: [
        { matcher: "Skill", hooks: [{ type: "command", command: "echo skill-audit" }] },
        { matcher: "Bash", hooks: [{ type: "command", command: "/opt/guard.sh", timeout: 3 }] },
      ],
      Stop: [
        {
          hooks: [
            { type: "command", command: "bash ~/.claude/stop.sh" },
            { type: "command", command: "deno run /opt/other/hooks/notify.ts" },
          ],
        },
      ],
      SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "date" }] }],
    },
    statusLine: { type: "command", command: "echo hi" },
  };
}

/**
 * Claude Code's folders under a config directory, for tests that set one up (home is not read).
 *
 * @param configDir The config directory.
 * @returns The folders.
 */
export function claudeFolders(configDir: string): HostFolders {
  return { configDir, home: "", layout: CLAUDE.layout };
}

/**
 * A hook context's host fields for Claude Code under a config directory.
 *
 * @param configDir The config directory.
 * @returns `host` and `folders`.
 */
export function claudeContext(
  configDir: string,
): { host: typeof CLAUDE; folders: HostFolders } {
  return { host: CLAUDE, folders: claudeFolders(configDir) };
}

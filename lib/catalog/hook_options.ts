/**
 * Where a hook's catalog looks, from its event and context: the host's config dir, the session's
 * directory and project, the config file's extra skill and agent directories, the state root.
 * The routing, contract and redirect hooks all start from it.
 *
 * @module
 */

import { configList, type ConfigState } from "../base/config.ts";
import { getEnv, homeDir } from "../base/locations.ts";
import { CLAUDE } from "../host/claude.ts";
import { hostFolders } from "../host/folders.ts";
import { hostFor } from "../host/mod.ts";
import type { HookEvent } from "../host/payload.ts";
import type { CatalogOptions } from "./catalog.ts";

/** What {@link hookCatalogOptions} reads of a hook's context. */
export interface CatalogContext {
  /** The Claude Code config directory. */
  readonly claudeConfigDir: string;
  /** The config file as read (`skill_dirs`, `agent_dirs`). */
  readonly config: ConfigState;
  /** The state root holding the catalog index. */
  readonly stateRoot: string;
}

/**
 * The catalog options of one hook run.
 *
 * @param ev The event (its `cwd`).
 * @param ctx The hook's context.
 * @returns The options; callers add their own (`agents`, `writeIndex`).
 */
export function hookCatalogOptions(ev: HookEvent, ctx: CatalogContext): CatalogOptions {
  // Another host's hook sees that host's skills and agents (the folders its layout declares:
  // Copilot CLI's, Codex CLI's), not Claude Code's.
  const host = ev.host === CLAUDE.kind ? undefined : hostFor(ev.host);
  return {
    claudeConfigDir: ctx.claudeConfigDir,
    ...(host ? { hostFolders: hostFolders(host, { home: homeDir(), env: getEnv }) } : {}),
    cwd: ev.cwd,
    projectDir: getEnv(CLAUDE.env.projectDir),
    extraSkillDirs: configList(ctx.config, "skill_dirs", []),
    extraAgentDirs: configList(ctx.config, "agent_dirs", []),
    stateRoot: ctx.stateRoot,
  };
}

/**
 * Where a hook's catalog looks, from its event and context: the host's config dir, the session's
 * directory and project, the config file's extra skill and agent directories, the state root.
 * The routing, contract and redirect hooks all start from it.
 *
 * @module
 */

import { configList, type ConfigState } from "../base/config.ts";
import { getEnv } from "../base/locations.ts";
import { CLAUDE } from "../host/claude.ts";
import { catalogFolders } from "../host/folders.ts";
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
  // The sending host's own folders (Codex CLI's `.agents/skills`, `.codex/agents`, ...), besides
  // Claude Code's, when its layout is cataloged.
  const host = catalogFolders(hostFor(ev.host), { home: getEnv("HOME") ?? "", env: getEnv });
  return {
    claudeConfigDir: ctx.claudeConfigDir,
    cwd: ev.cwd,
    projectDir: getEnv(CLAUDE.env.projectDir),
    extraSkillDirs: [...configList(ctx.config, "skill_dirs", []), ...host.skillDirs],
    extraAgentDirs: [...configList(ctx.config, "agent_dirs", []), ...host.agentDirs],
    ...(host.projectSkills.length ? { projectSkillFolders: host.projectSkills } : {}),
    ...(host.projectAgents.length ? { projectAgentFolders: host.projectAgents } : {}),
    stateRoot: ctx.stateRoot,
  };
}

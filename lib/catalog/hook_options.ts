/**
 * Where a hook's catalog looks, from its event and context: the host's folders, the session's
 * directory and project, the config file's extra skill and agent directories, the state root.
 * The routing, contract and redirect hooks all start from it.
 *
 * @module
 */

import { configList, type ConfigState, contractPacksOf } from "../base/config.ts";
import { projectDirOf } from "../host/places.ts";
import type { Host, HostFolders, HostKind } from "../host/host.ts";
import type { HookEvent } from "../host/payload.ts";
import type { CatalogOptions } from "./catalog.ts";

/** What {@link hookCatalogOptions} reads of a hook's context. */
export interface CatalogContext {
  /** The host that sent the event. */
  readonly host: Host<HostKind>;
  /** Its folders on this machine. */
  readonly folders: HostFolders;
  /** The config file as read (`skill_dirs`, `agent_dirs`, `contract_packs`). */
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
  // A hook sees the skills and agents of the host that sent the event (the folders its layout
  // declares), and no other host's.
  return {
    hostFolders: ctx.folders,
    cwd: ev.cwd,
    projectDir: projectDirOf(ctx.host),
    extraSkillDirs: configList(ctx.config, "skill_dirs", []),
    extraAgentDirs: configList(ctx.config, "agent_dirs", []),
    contractPacks: contractPacksOf(ctx.config),
    stateRoot: ctx.stateRoot,
  };
}

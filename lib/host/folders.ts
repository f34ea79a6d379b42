/**
 * The folders a hook run reads for the host that sent it: each host declares them in its
 * {@link HostLayout} (its user, home and project skills and agents, its plugins, its transcripts),
 * {@link hostFolders} resolves them for one user, and {@link readFolders} lists them. The catalog
 * scans exactly these (`lib/catalog/catalog.ts`) and the hook table grants exactly these
 * (`lib/hook/table.ts`), plus config `skill_dirs`/`agent_dirs` and skillgate's state: a hook run
 * for Copilot CLI or Codex CLI does not read Claude Code's `~/.claude/skills`, which those clients
 * do not read either.
 *
 * @module
 */

import { dirname, join } from "../base/path.ts";
import type { Host, HostFolders, HostPlaces } from "./host.ts";

/** A host's folders as paths: absolute ones, and ones relative to a project root. */
export interface ReadFolders {
  /** Absolute skills folders (the user's, under the config directory and home). */
  readonly skillDirs: readonly string[];
  /** Absolute agents folders (the user's). */
  readonly agentDirs: readonly string[];
  /** Skills folders relative to a project root (searched in every project folder). */
  readonly projectSkills: readonly string[];
  /** Agents folders relative to a project root. */
  readonly projectAgents: readonly string[];
  /** The plugins folder (absolute), when the host has plugins skillgate reads (Claude Code). */
  readonly plugins?: string;
  /**
   * A project's agents loaded once acknowledged (Gemini CLI): their folder relative to the project
   * root, and the acknowledgements file (absolute).
   */
  readonly acknowledgedAgents?: { readonly dir: string; readonly record: string };
  /** The extensions folder (absolute), when the host has extensions (Gemini CLI). */
  readonly extensions?: string;
  /** The transcripts folder (absolute). */
  readonly transcripts?: string;
}

/**
 * A host's folders for one user.
 *
 * @param host The host.
 * @param places Home and environment (the host's config directory variable).
 * @returns Its config directory, home and layout.
 */
export function hostFolders(host: Host, places: HostPlaces): HostFolders {
  return { configDir: host.configDir(places), home: places.home, layout: host.layout };
}

/**
 * The folders a host reads, as paths.
 *
 * @param folders The host's folders ({@link hostFolders}).
 * @returns Its skills, agents, plugins, extensions and transcripts folders.
 */
export function readFolders(folders: HostFolders): ReadFolders {
  const { configDir, layout: l } = folders;
  const home = l.homeBesideConfig ? (configDir && dirname(configDir)) : folders.home;
  const at = (base: string, sub: string | undefined) => base && sub ? [join(base, sub)] : [];
  const rel = (
    first: string | undefined,
    more: readonly string[] | undefined,
  ) => [...(first ? [first] : []), ...(more ?? [])];
  return {
    skillDirs: [...at(configDir, l.userSkills), ...at(home, l.homeSkills)],
    agentDirs: at(configDir, l.userAgents),
    projectSkills: rel(l.projectSkills, l.moreProjectSkills),
    projectAgents: rel(l.projectAgents, l.moreProjectAgents),
    ...(l.plugins ? { plugins: join(configDir, l.plugins) } : {}),
    ...(l.acknowledgedAgents
      ? {
        acknowledgedAgents: {
          dir: l.acknowledgedAgents.dir,
          record: join(configDir, l.acknowledgedAgents.record),
        },
      }
      : {}),
    ...(l.extensions ? { extensions: join(configDir, l.extensions) } : {}),
    ...(l.transcripts ? { transcripts: join(configDir, l.transcripts) } : {}),
  };
}

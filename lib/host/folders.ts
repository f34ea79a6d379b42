/**
 * The folders of a host that skillgate reads besides Claude Code's (which it reads for every
 * host): for a host whose layout is `cataloged` (Codex CLI), its user, home and project skills,
 * its agents and its transcripts. The catalog of a hook run asks {@link catalogFolders}; `setup`
 * grants {@link hostReadDirs} to the hooks it writes for that host.
 *
 * @module
 */

import { join } from "../base/path.ts";
import type { Host, HostPlaces } from "./host.ts";

/** Where a host's skills and agents are, for the catalog. */
export interface HostCatalogFolders {
  /** Absolute skills folders (the user's, under the config directory and home). */
  readonly skillDirs: readonly string[];
  /** Absolute agents folders (the user's). */
  readonly agentDirs: readonly string[];
  /** Skills folders relative to a project root (searched in every project folder). */
  readonly projectSkills: readonly string[];
  /** Agents folders relative to a project root. */
  readonly projectAgents: readonly string[];
}

const NONE: HostCatalogFolders = {
  skillDirs: [],
  agentDirs: [],
  projectSkills: [],
  projectAgents: [],
};

/**
 * The host's own skills and agents folders, when its layout is cataloged; none otherwise.
 *
 * @param host The host that runs the hook.
 * @param places Home and environment.
 * @returns The folders.
 */
export function catalogFolders(host: Host, places: HostPlaces): HostCatalogFolders {
  const l = host.layout;
  if (!l.cataloged) return NONE;
  const config = host.configDir(places);
  const at = (base: string, sub: string | undefined) => sub ? [join(base, sub)] : [];
  return {
    skillDirs: [...at(config, l.userSkills), ...at(places.home, l.homeSkills)],
    agentDirs: at(config, l.userAgents),
    projectSkills: l.projectSkills ? [l.projectSkills] : [],
    projectAgents: l.projectAgents ? [l.projectAgents] : [],
  };
}

/**
 * Every folder of the host that its hooks read besides Claude Code's: its skills and agents, its
 * project folders under each given project directory, and its transcripts.
 *
 * @param host The host the hooks are written for.
 * @param places Home and environment.
 * @param projectDirs Project directories (absolute, or the runtime placeholder setup writes).
 * @returns The folders; none for a host whose layout is not cataloged.
 */
export function hostReadDirs(
  host: Host,
  places: HostPlaces,
  projectDirs: readonly string[],
): string[] {
  if (!host.layout.cataloged) return [];
  const f = catalogFolders(host, places);
  const out = [...f.skillDirs, ...f.agentDirs];
  for (const rel of [...f.projectSkills, ...f.projectAgents]) {
    out.push(rel);
    for (const d of projectDirs) out.push(`${d}/${rel}`);
  }
  if (host.layout.transcripts) out.push(join(host.configDir(places), host.layout.transcripts));
  return out;
}

/**
 * `skillgate doctor`'s lines about skills: the overlay files, their problems and entries that name
 * no installed skill, and the reach lines (how many skills can route, how many have a contract,
 * and why the others cannot).
 *
 * @module
 */

import { configList, contractPacksOf, type readConfig } from "../base/config.ts";
import { loadCatalog } from "../catalog/catalog.ts";
import { catalogOverlays, unmatchedOverlays } from "../catalog/overlay_index.ts";
import { isRoutable, routeSettings } from "../routing/route.ts";
import { reachLines, reachOf, withPacks } from "../routing/reach.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { CLAUDE } from "../host/claude.ts";
import { projectRoot } from "./setup.ts";

/** Where doctor looks for skills. */
export interface SkillsContext {
  /** The state root (the user's overlay file, the catalog's index). */
  readonly stateRoot: string;
  /** The Claude Code config directory. */
  readonly claudeConfigDir: string;
  /** The user's home directory. */
  readonly home: string;
  /** The working directory (its project's skills and overlay file). */
  readonly cwd: string;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The installed skills as the hooks see them (Claude Code's folders, the project around `cwd`,
 * config `skill_dirs`, the overlay files): each overlay file and its problems, each overlay entry
 * that names no installed skill, and the reach lines (`lib/routing/reach.ts`).
 *
 * @param ctx Where doctor looks (`DoctorContext` fits).
 * @param config The config file as read.
 * @param emit Prints one of doctor's lines.
 */
export async function reportSkills(
  ctx: SkillsContext,
  config: ReturnType<typeof readConfig>,
  emit: (status: "info" | "warn" | "note", text: string) => void,
): Promise<void> {
  const opts = {
    hostFolders: { configDir: ctx.claudeConfigDir, home: ctx.home, layout: CLAUDE.layout },
    cwd: ctx.cwd,
    projectDir: projectRoot(ctx.cwd),
    extraSkillDirs: configList(config, "skill_dirs", []),
    contractPacks: contractPacksOf(config),
    stateRoot: ctx.stateRoot,
    writeIndex: false,
    agents: false,
  };
  const catalog = await loadCatalog(opts);
  const overlays = await catalogOverlays(opts);
  for (const f of overlays.files) {
    const count = Object.keys(f.entries).length;
    const where = `overlay ${f.scope} ${sanitizeLine(f.path, 300)}`;
    emit("info", `${where}: ${plural(count, "skill")}`);
    if (f.problems > 0) {
      emit(
        "warn",
        `${where}: ${plural(f.problems, "problem")}: skillgate contract lint ${
          sanitizeLine(f.path, 300)
        } lists them`,
      );
    }
  }
  for (const u of unmatchedOverlays(catalog.skills, overlays)) {
    emit(
      "note",
      `overlay ${u.from.scope} ${sanitizeLine(u.from.file, 300)}:${u.from.line}: ` +
        `${sanitizeLine(JSON.stringify(u.name), 100)} names no installed skill`,
    );
  }
  const { routable } = routeSettings(config);
  const reach = reachOf(withPacks(catalog.skills), (s) => isRoutable(s, routable));
  for (const line of reachLines(reach)) emit("info", line);
}

/**
 * One call from a prompt to the skill that fits it: what the routing hook decides, for library
 * users. It loads the installed skills (and `skill-rules.json` triggers), scores the prompt, and
 * gives the line the hook would add.
 *
 * @example Which skill fits a prompt
 * ```ts
 * import { suggestSkill } from "@skillgate/skillgate";
 *
 * const s = await suggestSkill("the login test is failing, please fix this bug", {
 *   host: "claude",
 * });
 * console.log(s.skill ?? `no route: ${s.reason}`);
 * ```
 *
 * @module
 */

import { DEFAULT_ROUTE_SKILLS, DEFAULT_ROUTE_THRESHOLD, type HintMode } from "./route.ts";
import type { HostKind } from "../host/host.ts";
import { hostFor } from "../host/mod.ts";
import { foldersOf } from "../host/places.ts";

/** Where {@link suggestSkill} looks, and how it decides. */
export interface SuggestOptions {
  /** The host whose skills are scored, and whose skill tool the line names. */
  readonly host: HostKind;
  /**
   * The host's config directory holding the personal and plugin skills (default: the host's own,
   * from its variable or home).
   */
  readonly configDir?: string;
  /** The session's directory, for project skills (default: none). */
  readonly cwd?: string;
  /** The project root (the host's project variable). */
  readonly projectDir?: string;
  /** Extra skill directories (config `skill_dirs`). */
  readonly extraSkillDirs?: readonly string[];
  /** A state root for the catalog and routing indexes (default: none, nothing is written). */
  readonly stateRoot?: string;
  /** The score a skill needs, in (0, 1] (default 0.66, config `route_threshold`). */
  readonly threshold?: number;
  /** The skills that may route; `*` allows all (default: config `route_skills`'s default). */
  readonly routable?: readonly string[];
  /** What the line says besides the name: `name`, `step` or `contract` (default `name`). */
  readonly hint?: HintMode;
}

/** One skill's score for a prompt. */
export interface SkillScore {
  /** The skill's name. */
  readonly name: string;
  /** Its best score, 0..1. */
  readonly score: number;
  /** The trigger (or `/pattern/`) that gave it. */
  readonly trigger: string;
}

/** What {@link suggestSkill} decided. */
export interface RouteSuggestion {
  /** The skill that routes, when one does. */
  readonly skill?: string;
  /** The line the routing hook would add to the model's context, when a skill routes. */
  readonly line?: string;
  /** Why nothing routed, such as `no-match`, `below-threshold` or `slash-command`. */
  readonly reason?: string;
  /** Skills with a score above 0, best first. */
  readonly candidates: readonly SkillScore[];
  /** The threshold applied. */
  readonly threshold: number;
}

/**
 * Scores a prompt against the installed skills, as the routing hook does, and says which skill
 * fits (if any) and the line the hook would add.
 *
 * @param prompt The user's prompt.
 * @param options Where the skills are, and the routing settings.
 * @returns The suggestion.
 */
export async function suggestSkill(
  prompt: string,
  options: SuggestOptions,
): Promise<RouteSuggestion> {
  const { loadRouteSkills, routeHint, routePrompt, skipReason } = await import("./route.ts");
  const threshold = options.threshold ?? DEFAULT_ROUTE_THRESHOLD;
  const early = skipReason(prompt);
  if (early) return { reason: early, candidates: [], threshold };
  const host = hostFor(options.host);
  const folders = foldersOf(host);
  const world = await loadRouteSkills({
    ...options,
    hostFolders: options.configDir === undefined
      ? folders
      : { ...folders, configDir: options.configDir },
  });
  const decision = routePrompt(prompt, world, {
    threshold,
    routable: options.routable ?? DEFAULT_ROUTE_SKILLS,
  });
  const candidates = decision.candidates.map((c) => ({
    name: c.skill.name,
    score: c.score,
    trigger: c.trigger,
  }));
  if (!decision.route) {
    return { reason: decision.reason, candidates, threshold: decision.threshold };
  }
  return {
    skill: decision.route.skill.name,
    line: routeHint(decision.route.skill, options.hint ?? "name", options.host),
    candidates,
    threshold: decision.threshold,
  };
}

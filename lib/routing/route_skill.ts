/**
 * A skill as routing sees it: its names, its triggers and its compiled intent patterns. Routing
 * (`route.ts`) scores these; `skill-rules.json` (`skill_rules.ts`) adds keywords and patterns to
 * them. Types only.
 *
 * @module
 */

import type { OverlayOrigins } from "../catalog/overlay_index.ts";

/** A compiled intent pattern: what routing needs of it. */
export interface IntentPattern {
  /** The pattern as written, shown as the trigger that matched (`/source/`). */
  readonly source: string;
  /**
   * Whether it matches anywhere in the text.
   *
   * @param text The prompt (its first `MAX_INTENT_TEXT` characters, see `skill_rules.ts`).
   * @returns True on a match.
   */
  test(text: string): boolean;
}

/** A skill as routing sees it; the catalog's `SkillEntry` fits this shape. */
export interface RouteSkill {
  /** The invocable name. */
  readonly name: string;
  /** The frontmatter `name`, when it differs. */
  readonly altName?: string;
  /** Where it was found (`personal`, `project`, `plugin`, ...). */
  readonly source?: string;
  /** The `triggers:` phrases. */
  readonly triggers: readonly string[];
  /**
   * `skill-rules.json` keywords: a foreign list (path-like ones never count, a one-word one only
   * next to another match; see `ScoreOptions` in `score.ts`).
   */
  readonly keywords?: readonly string[];
  /**
   * True for `disable-model-invocation: true`: the model cannot load it (the host hides it and
   * its `Skill` call fails), only the user can, by typing `/name`.
   */
  readonly userOnly?: boolean;
  /**
   * `skill-rules.json` intent patterns, already compiled (by the linear-time engine of
   * `user_regex.ts`; a `RegExp` fits too, for patterns the caller trusts).
   */
  readonly intentPatterns?: readonly IntentPattern[];
  /**
   * The skills its text sends a kind of request to ("For report-only mode, use /qa-only"): it
   * does not route a request that one of them fits as well.
   */
  readonly sendsTo?: readonly string[];
  /** The first instruction of its body (for the `step` hint). */
  readonly firstStep?: string;
  /** Its contract block as parsed (for the `contract` hint). */
  readonly contract?: unknown;
  /** Its `description:` (for the description tier, when the skills are a list). */
  readonly description?: string;
  /** The built-in pack whose reviewed entry applies to it (`packs.ts`): it routes under `+packs`. */
  readonly pack?: string;
  /** Whether it may route, overriding config `route_skills` (an overlay file's `route`). */
  readonly route?: boolean;
  /** Where the fields an overlay file gave it came from (absent: its own frontmatter). */
  readonly overlay?: OverlayOrigins;
}

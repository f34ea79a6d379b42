/**
 * When a built-in pack's entry applies to an installed skill (`packs.ts` for triggers,
 * `pack_contracts.ts` for contracts): the skill's name (or frontmatter name), without a `plugin:`
 * prefix, is the entry's, and its description opens with the entry's words (compared lower-cased,
 * spaces collapsed). Kept apart from the pack data so that the contract hook can ask without
 * loading it.
 *
 * @module
 */

/** What the match reads of an installed skill. */
export interface PackCandidate {
  /** The invocable name (`plugin:name` for a plugin's skill). */
  readonly name: string;
  /** The frontmatter `name`, where it differs. */
  readonly altName?: string;
  /** Its `description:`. */
  readonly description?: string;
}

/**
 * A description as entries compare it: lower-cased, white space collapsed.
 *
 * @param text The description.
 * @returns Its normal form.
 */
export function normalDescription(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The skill's names without a `plugin:` prefix: its invocable name, then its frontmatter name.
 *
 * @param skill The skill.
 * @returns The names (one or two).
 */
export function localNames(skill: PackCandidate): string[] {
  return [skill.name, skill.altName].flatMap((n) => n ? [n.slice(n.indexOf(":") + 1)] : []);
}

/**
 * Whether an entry (a skill name and the opening words of its description) applies to a skill.
 *
 * @param entryName The entry's skill name.
 * @param opening The entry's opening words, in {@link normalDescription}'s form.
 * @param skill The installed skill.
 * @returns `true` when both the name and the text match.
 */
export function packEntryApplies(
  entryName: string,
  opening: string,
  skill: PackCandidate,
): boolean {
  return !!skill.description && localNames(skill).includes(entryName) &&
    normalDescription(skill.description).startsWith(opening);
}

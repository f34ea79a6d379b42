/**
 * Built-in packs: reviewed triggers for well-known public skill packs (obra/superpowers,
 * anthropics/skills, trailofbits/skills, wshobson/agents), so that their skills, which declare no
 * `triggers:`, can route.
 *
 * Every entry was written from the skill's own text (its name, description and "when to use"
 * section; for trailofbits and wshobson, the phrases its description quotes), never from the
 * prompts routing is measured on. An entry applies to an installed skill only when its name
 * (without a `plugin:` prefix) is the entry's and its description opens with the entry's words
 * (compared lower-cased, spaces collapsed): a private skill that happens to be named
 * `brainstorming` is untouched, and so is a pack skill whose text changed upstream, until its
 * entry is reviewed again. A skill's own `triggers:` win over its entry's.
 *
 * A skill an entry applies to may route under the default `route_skills` (`+packs`): the entries
 * are the reviewed ones. Skills left out: those whose text asks to run on every prompt or on vague
 * words (using-superpowers, let-fate-decide) and broad "patterns" skills whose text fits most
 * programming requests (python-code-style, debugging-strategies, …); they still count as the
 * description tier's runner-up.
 *
 * Read only when the routing index is built, never on a prompt.
 *
 * @module
 */

import { PACK_LINES } from "./pack_data.ts";
import { localNames, normalDescription } from "./pack_match.ts";

/** One reviewed pack skill: pack, skill name, the opening words of its description, triggers. */
export type PackEntry = readonly [
  pack: string,
  name: string,
  opening: string,
  triggers: readonly string[],
];

/** The reviewed entries (`pack_data.ts`). */
export const PACK_ENTRIES: readonly PackEntry[] = PACK_LINES.split("\n").filter((l) => l !== "")
  .map((line) => {
    const [pack, name, opening, triggers] = line.split("|");
    return [pack, name, opening, triggers ? triggers.split(";") : []] as const;
  });

/** The pack names. */
export const PACK_NAMES: readonly string[] = [...new Set(PACK_ENTRIES.map((e) => e[0]))];

let byName: Map<string, PackEntry[]> | undefined;

/** What a pack gives a skill it applies to. */
export interface PackMatch {
  /** The pack's name (`superpowers`, …). */
  readonly pack: string;
  /** Its reviewed triggers (empty: the description tier alone routes it). */
  readonly triggers: readonly string[];
}

/**
 * The pack entry that applies to an installed skill: its name (or frontmatter name), without a
 * `plugin:` prefix, is the entry's, and its description opens with the entry's words.
 *
 * @param name The skill's invocable name.
 * @param altName Its frontmatter `name`, where it differs.
 * @param description Its `description:`.
 * @returns The pack and its triggers, or `undefined`.
 */
export function packFor(
  name: string,
  altName: string | undefined,
  description: string | undefined,
): PackMatch | undefined {
  if (!description) return undefined;
  byName ??= PACK_ENTRIES.reduce((m, e) => m.set(e[1], [...(m.get(e[1]) ?? []), e]), new Map());
  const text = normalDescription(description);
  for (const local of localNames({ name, altName })) {
    const hit = byName.get(local)?.find((e) => text.startsWith(e[2]));
    if (hit) return { pack: hit[0], triggers: hit[3] };
  }
  return undefined;
}

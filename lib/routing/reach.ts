/**
 * Reach: how many installed skills routing and contracts can act on, and why the others cannot
 * ("292 skills, 0 with triggers: see skills.yaml"). `skillgate doctor` and `skillgate route
 * --explain` print it.
 *
 * @module
 */

import { PACK_ENTRIES, packFor } from "./packs.ts";
import { localNames } from "./pack_match.ts";

/** What reach reads of a skill (the catalog's entry, overlays applied). */
export interface ReachSkill {
  /** The invocable name. */
  readonly name: string;
  /** The frontmatter name, where it differs. */
  readonly altName?: string;
  /** Its triggers (its own, or an overlay's). */
  readonly triggers: readonly string[];
  /** Its raw contract (its own, or an overlay's). */
  readonly contract?: unknown;
  /** An overlay's `route`. */
  readonly route?: boolean;
  /** Where overlay fields came from. */
  readonly overlay?: { readonly triggers?: unknown; readonly contract?: unknown };
  /** The built-in pack its contract came from (config `contract_packs`). */
  readonly contractPack?: string;
  /** The built-in pack whose entry applies to it ({@link withPacks}). */
  readonly pack?: string;
  /** True when its triggers are its pack entry's ({@link withPacks}). */
  readonly packTriggers?: boolean;
}

/** The counts. */
export interface Reach {
  /** Installed skills. */
  readonly skills: number;
  /** With at least one trigger. */
  readonly withTriggers: number;
  /** With triggers and allowed to route (config `route_skills` or an overlay's `route: true`). */
  readonly canRoute: number;
  /** With triggers but not allowed to route. */
  readonly notAllowed: number;
  /** Allowed to route but without triggers. */
  readonly allowedWithoutTriggers: number;
  /** With a contract. */
  readonly withContract: number;
  /** Whose triggers came from an overlay file. */
  readonly triggersFromOverlay: number;
  /** Whose triggers came from a built-in pack's entry. */
  readonly triggersFromPack?: number;
  /** Whose contract came from an overlay file. */
  readonly contractsFromOverlay: number;
  /** Whose contract came from a built-in pack (config `contract_packs`). */
  readonly contractsFromPack?: number;
}

/**
 * Counts what routing and contracts can act on.
 *
 * @param skills The installed skills, overlays applied.
 * @param mayRoute Whether a skill may route (config `route_skills`, `*` for every one); an
 *   overlay's `route` is asked first.
 * @returns The counts.
 */
export function reachOf(
  skills: readonly ReachSkill[],
  mayRoute: (skill: ReachSkill) => boolean,
): Reach {
  let withTriggers = 0, canRoute = 0, allowedWithoutTriggers = 0, withContract = 0;
  let triggersFromOverlay = 0, contractsFromOverlay = 0, contractsFromPack = 0;
  let triggersFromPack = 0, notAllowed = 0;
  for (const s of skills) {
    const has = s.triggers.length > 0;
    const allowed = s.route ?? mayRoute(s);
    if (has) withTriggers++;
    if (has && !allowed) notAllowed++;
    if (has && s.packTriggers) triggersFromPack++;
    // A pack skill without triggers routes on its description (the description tier).
    if ((has || s.pack !== undefined) && allowed) canRoute++;
    if (!has && s.pack === undefined && allowed) allowedWithoutTriggers++;
    if (s.contract !== undefined && s.contract !== null) withContract++;
    if (s.overlay?.triggers) triggersFromOverlay++;
    if (s.overlay?.contract) contractsFromOverlay++;
    if (s.contractPack !== undefined) contractsFromPack++;
  }
  return {
    skills: skills.length,
    withTriggers,
    canRoute,
    notAllowed,
    allowedWithoutTriggers,
    withContract,
    triggersFromOverlay,
    triggersFromPack,
    contractsFromOverlay,
    contractsFromPack,
  };
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Reach in lines: the counts, then why the others cannot route or have no contract.
 *
 * @param r The counts.
 * @returns The lines: `reach: 292 skills, 0 with triggers, 0 can route, 1 with a contract`, then
 *   one line per reason.
 */
export function reachLines(r: Reach): string[] {
  const from = (n: number, pack = 0, packWord = "contract_packs") => {
    const parts = [n ? `${n} from skills.yaml` : "", pack ? `${pack} from ${packWord}` : ""];
    const said = parts.filter((p) => p !== "");
    return said.length ? ` (${said.join(", ")})` : "";
  };
  const lines = [
    `reach: ${count(r.skills, "skill")}, ${r.withTriggers} with triggers${
      from(r.triggersFromOverlay, r.triggersFromPack, "built-in packs")
    }, ${r.canRoute} can route, ${r.withContract} with a contract${
      from(r.contractsFromOverlay, r.contractsFromPack)
    }`,
  ];
  if (r.skills === 0) return lines;
  if (r.withTriggers === 0) {
    lines.push(
      `why: ${r.skills === 1 ? "the skill has" : `none of the ${r.skills} skills has`} triggers, ` +
        "so none can route: give triggers in skills.yaml (docs/overlays.md)",
    );
  } else if (r.notAllowed > 0) {
    lines.push(
      `why: ${count(r.notAllowed, "skill")} with triggers may not route: not in route_skills ` +
        "(add them to route_skills, or set route: true in skills.yaml)",
    );
  }
  if (r.allowedWithoutTriggers > 0 && r.withTriggers > 0) {
    lines.push(
      `why: ${count(r.allowedWithoutTriggers, "skill")} in route_skills ` +
        `${r.allowedWithoutTriggers === 1 ? "has" : "have"} no triggers: give them in skills.yaml`,
    );
  }
  if (r.withContract === 0) {
    lines.push("why: no skill has a contract, so no stop is checked: give one in skills.yaml");
  }
  return lines;
}

/**
 * Skills as routing sees them: each that a built-in pack's entry applies to (`packs.ts`) carries
 * the pack's name and, when it has no triggers of its own or from an overlay, the entry's.
 *
 * @param skills The catalog's skills, overlays applied.
 * @returns The skills, pack skills marked.
 */
export function withPacks<
  T extends ReachSkill & { readonly description?: string },
>(skills: readonly T[]): (T & { readonly pack?: string })[] {
  return skills.map((s) => {
    const p = packFor(s.name, s.altName, s.description);
    if (!p) return s;
    const own = s.overlay?.triggers || s.triggers.length > 0;
    return { ...s, pack: p.pack, ...(own ? {} : { triggers: p.triggers, packTriggers: true }) };
  });
}

/** What {@link triggerOrigin} reads of a skill. */
export interface OriginSkill {
  /** Its invocable name. */
  readonly name: string;
  /** Its frontmatter name, where it differs. */
  readonly altName?: string;
  /** Its triggers. */
  readonly triggers: readonly string[];
  /** The built-in pack whose entry applies to it. */
  readonly pack?: string;
  /** Its `skill-rules.json` keywords. */
  readonly keywords?: readonly string[];
  /** Where an overlay's triggers came from. */
  readonly overlay?: {
    readonly triggers?: { readonly scope: string; readonly file: string; readonly line: number };
  };
}

/**
 * Where a trigger that scored came from: `frontmatter` (the SKILL.md), `overlay user <file>:<line>`
 * or `overlay project <file>:<line>` (an overlay file), `pack <name>` (a built-in pack's reviewed
 * entry, `packs.ts`), or `skill-rules.json` (a keyword or an intent pattern).
 *
 * @param skill The skill.
 * @param trigger The trigger that scored.
 * @param intent True when an intent pattern gave the score.
 * @returns The origin.
 */
export function triggerOrigin(skill: OriginSkill, trigger: string, intent = false): string {
  if (intent) return "skill-rules.json";
  if (skill.triggers.includes(trigger)) {
    const o = skill.overlay?.triggers;
    if (o) return `overlay ${o.scope} ${o.file}:${o.line}`;
    // A pack's triggers stand in for a skill that has none of its own (`route_index.ts`).
    // The entry matched the skill by its name or its frontmatter name.
    const names = localNames(skill);
    const entry = skill.pack === undefined
      ? undefined
      : PACK_ENTRIES.find((e) => e[0] === skill.pack && names.includes(e[1]));
    return entry && entry[3].includes(trigger) ? `pack ${skill.pack}` : "frontmatter";
  }
  return skill.keywords?.includes(trigger) ? "skill-rules.json" : "frontmatter";
}

/**
 * `skillgate lint`'s checks of the installed skills, per host: descriptions the host's skill
 * listing will cut or drop (an estimate from the host's documented budget, stated with its
 * assumptions), descriptions that never say when to use the skill, and triggers or names two
 * skills share. Pure: the command line reads the skills (`lib/cli/lint.ts`).
 *
 * **The listing estimates** (from the clients' documentation, `docs/report.md`):
 *
 * - Claude Code lists every skill's name and, within `skillListingBudgetFraction` of the context
 *   window (default 1%), its description plus `when_to_use` (each cut at 1,536 characters); past the
 *   budget the descriptions of the least-used skills are dropped. The estimate: a 200,000-token
 *   window, 4 characters a token (so 8,000 characters), a `- name: description` line per skill;
 *   names first, then descriptions in order of use (most used kept; without use counts, by name).
 * - Codex CLI cuts descriptions in its listing; the estimate flags one over 1,024 characters (its
 *   documented longest description). It documents no total budget.
 * - Other hosts document no listing budget: not estimated.
 *
 * @module
 */

/** One skill as lint reads it. */
export interface LintSkill {
  /** Its invocable name. */
  readonly name: string;
  /** Its `description:`, whole. */
  readonly description?: string;
  /** Its `when_to_use:`. */
  readonly whenToUse?: string;
  /** Its `triggers:`. */
  readonly triggers: readonly string[];
  /** How often it was loaded (for the order of use), when known. */
  readonly uses?: number;
}

/** A host's listing budget, as lint estimates it. */
export interface ListingBudget {
  /** The host. */
  readonly host: string;
  /** The whole listing's budget in characters, when the host has one. */
  readonly budgetChars?: number;
  /** The longest description (with `when_to_use`) the listing keeps whole. */
  readonly entryMaxChars?: number;
  /** The assumption, in words. */
  readonly assumption: string;
}

/** Claude Code's documented default: 1% of the context window. */
export const CLAUDE_BUDGET_FRACTION = 0.01;

/** The context window the Claude Code estimate assumes, in tokens. */
export const CLAUDE_CONTEXT_TOKENS = 200_000;

/** Characters a token, for the estimate. */
export const CHARS_PER_TOKEN = 4;

/**
 * The listing budget of a host.
 *
 * @param host The host's kind.
 * @param opts The context window (tokens) and budget fraction, for Claude Code.
 * @returns The budget, with its assumption.
 */
export function listingBudget(
  host: string,
  opts: { contextTokens?: number; fraction?: number } = {},
): ListingBudget {
  if (host === "claude") {
    const tokens = opts.contextTokens ?? CLAUDE_CONTEXT_TOKENS;
    const fraction = opts.fraction ?? CLAUDE_BUDGET_FRACTION;
    const budgetChars = Math.floor(tokens * fraction * CHARS_PER_TOKEN);
    return {
      host,
      budgetChars,
      entryMaxChars: 1536,
      assumption: `skillListingBudgetFraction ${fraction} of a ${tokens}-token context window, ` +
        `${CHARS_PER_TOKEN} characters a token: ${budgetChars} characters for the listing; ` +
        "every name is listed, then descriptions in order of use (most used first; by name " +
        "where use is unknown) until the budget is spent; each description plus when_to_use " +
        "is cut at 1536 characters",
    };
  }
  if (host === "codex") {
    return {
      host,
      entryMaxChars: 1024,
      assumption: "descriptions over 1024 characters are cut; no total budget is documented",
    };
  }
  return { host, assumption: "no listing budget is documented: not estimated" };
}

/** One finding. */
export interface LintFinding {
  /** What: the listing drops or cuts the description, it says no "when", a shared trigger or name. */
  readonly kind:
    | "listing_dropped"
    | "listing_cut"
    | "no_when_to_use"
    | "trigger_collision"
    | "name_collision";
  /** The host whose listing or skills it concerns. */
  readonly host: string;
  /** The skill(s). */
  readonly skills: readonly string[];
  /** The detail (a trigger, a length). */
  readonly detail: string;
}

/** A description that says when to use its skill. */
const WHEN_RE =
  /\b(?:when|whenever|use (?:it |this (?:skill )?)?(?:for|to|on|in|if|before|after|during)|if (?:the )?(?:user|you)|trigger(?:s|ed)?|invoke)\b/i;

function listingText(s: LintSkill): string {
  return [s.description ?? "", s.whenToUse ?? ""].filter((t) => t !== "").join(" ")
    .replace(/\s+/g, " ").trim();
}

/**
 * The listing estimate of one host: which descriptions are dropped and which are cut.
 *
 * @param skills The host's skills.
 * @param budget Its budget.
 * @returns The findings, and the listing's estimated size in characters.
 */
export function listingFindings(
  skills: readonly LintSkill[],
  budget: ListingBudget,
): { findings: LintFinding[]; listingChars: number } {
  const findings: LintFinding[] = [];
  const max = budget.entryMaxChars;
  const text = new Map(skills.map((s) => [s.name, listingText(s)]));
  let listingChars = 0;
  for (const s of skills) {
    const t = text.get(s.name)!;
    listingChars += `- ${s.name}\n`.length + (t ? Math.min(t.length, max ?? Infinity) + 2 : 0);
    if (max !== undefined && t.length > max) {
      findings.push({
        kind: "listing_cut",
        host: budget.host,
        skills: [s.name],
        detail: `${t.length} characters, cut at ${max}`,
      });
    }
  }
  if (budget.budgetChars === undefined) return { findings, listingChars };
  let used = skills.reduce((n, s) => n + `- ${s.name}\n`.length, 0);
  const order = [...skills].sort((a, b) =>
    (b.uses ?? 0) - (a.uses ?? 0) || a.name.localeCompare(b.name)
  );
  // The least used are dropped first: the kept descriptions are the most used, up to the first
  // that does not fit.
  const dropped: string[] = [];
  for (const s of order) {
    const t = text.get(s.name)!;
    if (t === "") continue;
    const cost = Math.min(t.length, max ?? Infinity) + 2;
    if (dropped.length === 0 && used + cost <= budget.budgetChars) used += cost;
    else dropped.push(s.name);
  }
  for (const name of dropped) {
    findings.push({
      kind: "listing_dropped",
      host: budget.host,
      skills: [name],
      detail: `past the ${budget.budgetChars}-character budget`,
    });
  }
  return { findings, listingChars };
}

/**
 * Every check over one host's skills.
 *
 * @param host The host.
 * @param skills Its skills.
 * @param budget Its listing budget.
 * @returns The findings, and the listing's estimated size.
 */
export function lintSkills(
  host: string,
  skills: readonly LintSkill[],
  budget: ListingBudget,
): { findings: LintFinding[]; listingChars: number } {
  const { findings, listingChars } = listingFindings(skills, budget);
  for (const s of skills) {
    if (s.whenToUse || s.triggers.length > 0 || WHEN_RE.test(s.description ?? "")) continue;
    findings.push({
      kind: "no_when_to_use",
      host,
      skills: [s.name],
      detail: s.description ? "its description never says when to use it" : "no description",
    });
  }
  const byTrigger = new Map<string, Set<string>>();
  const byName = new Map<string, number>();
  for (const s of skills) {
    byName.set(s.name, (byName.get(s.name) ?? 0) + 1);
    for (const t of s.triggers) {
      const k = t.toLowerCase().replace(/\s+/g, " ").trim();
      if (k === "") continue;
      byTrigger.set(k, (byTrigger.get(k) ?? new Set()).add(s.name));
    }
  }
  for (const [trigger, names] of byTrigger) {
    if (names.size < 2) continue;
    findings.push({
      kind: "trigger_collision",
      host,
      skills: [...names].sort(),
      detail: `trigger "${trigger}"`,
    });
  }
  for (const [name, n] of byName) {
    if (n > 1) {
      findings.push({
        kind: "name_collision",
        host,
        skills: [name],
        detail: `${n} skills have this name; the host loads one`,
      });
    }
  }
  return { findings, listingChars };
}

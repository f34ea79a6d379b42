/**
 * Values the catalog keeps from a SKILL.md: string lists from frontmatter, the body's first
 * instruction, the skills its text sends a kind of request to, and a bounded copy of a parsed
 * block (safe against YAML alias bombs).
 *
 * @module
 */

/**
 * A frontmatter value as a list of non-empty strings: a string, a list of strings, or an object's
 * `keywords` (skill-rules.json style).
 *
 * @param value The parsed value.
 * @returns The strings, trimmed.
 */
export function asStrings(value: unknown): string[] {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) {
    return value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) =>
      v.trim()
    );
  }
  if (value && typeof value === "object" && "keywords" in value) {
    return asStrings((value as { keywords: unknown }).keywords);
  }
  return [];
}

/**
 * The first instruction of a skill's body: the first list item, else the first line of text that
 * is not a heading, a fence or a comment. Markdown markers are removed; at most 200 characters.
 *
 * @param body The SKILL.md body.
 * @returns The instruction, or `undefined` when the body has none.
 */
export function firstInstruction(body: string): string | undefined {
  let inFence = false;
  let firstText: string | undefined;
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("```")) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line === "" || line.startsWith("#") || line.startsWith("<!--")) continue;
    if (line.startsWith("|") || line.startsWith(">")) continue;
    const item = /^(?:\d+[.)]|[-*+])\s+(.+)$/.exec(line);
    const text = (item ? item[1] : line).replace(/[*_`]/g, "").trim();
    if (!text) continue;
    if (item) return text.slice(0, 200);
    firstText ??= text.slice(0, 200);
  }
  return firstText;
}

/** "For report-only mode, use /qa-only", "For the full loop, use /qa instead". */
const SENDS_TO =
  /\bfor\s[^.;:!?\n]{1,80},\s*use\s+`?\/([A-Za-z0-9][\w:.-]{0,63})|\buse\s+`?\/([A-Za-z0-9][\w:.-]{0,63})`?\s+instead\b/gi;

/**
 * The skills a skill's own text sends a kind of request to: "For report-only mode, use /qa-only"
 * or "use /qa instead" outside code blocks. Routing does not route a request to the skill when
 * the skill it names fits that request as well (`route.ts`). At most 8 names.
 *
 * @param body The SKILL.md body.
 * @returns The names, without the slash, in order of first mention.
 */
export function sendsTo(body: string): string[] {
  const names = new Set<string>();
  const prose = body.length > 200_000 ? body.slice(0, 200_000) : body;
  for (const part of prose.split(/^[ \t]*```/m).filter((_, i) => i % 2 === 0)) {
    for (const m of part.matchAll(SENDS_TO)) {
      names.add((m[1] ?? m[2]).replace(/[.:]+$/, ""));
      if (names.size === 8) return [...names];
    }
  }
  return [...names];
}

/**
 * What the catalog keeps from a skill's body: its first instruction ({@link firstInstruction})
 * and the skills it sends a kind of request to ({@link sendsTo}), each only when there is one.
 *
 * @param body The SKILL.md body.
 * @returns The values, ready to spread into a catalog entry.
 */
export function bodyValues(body: string): { firstStep?: string; sendsTo?: string[] } {
  const firstStep = firstInstruction(body);
  const sends = sendsTo(body);
  return { ...(firstStep ? { firstStep } : {}), ...(sends.length ? { sendsTo: sends } : {}) };
}

/** The most values a frontmatter block kept in the catalog may hold. */
export const MAX_KEPT_VALUES = 5000;

/**
 * A deep copy of parsed YAML with at most {@link MAX_KEPT_VALUES} values. YAML aliases make shared
 * references, so a few hundred bytes can stand for billions of values (an "alias bomb"); copying,
 * indexing or checking those would hang the hook. Past the bound the block is replaced by one that
 * the contract schema rejects, naming the problem.
 *
 * @param value The parsed YAML.
 * @returns The copy, or a stand-in block when it is too large.
 */
export function boundedCopy(value: unknown): unknown {
  let budget = MAX_KEPT_VALUES;
  const copy = (v: unknown, depth: number): unknown => {
    if (--budget < 0 || depth > 32) throw new RangeError("too large");
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = copy(x, depth + 1);
    return out;
  };
  try {
    return copy(value, 0);
  } catch {
    return { version: `too large: more than ${MAX_KEPT_VALUES} values or 32 levels` };
  }
}

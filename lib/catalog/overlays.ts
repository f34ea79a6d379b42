/**
 * Overlay files (`skills.yaml`): triggers, a contract and `route: true|false` given to installed
 * skills by name, without touching their SKILL.md. The user's file is `<state root>/skills.yaml`,
 * a project's `<repo>/.skillgate/skills.yaml`; the project's wins per skill and field, and an
 * overlay's field beats the skill's own frontmatter (see `overlay_index.ts`, which applies them).
 *
 * ```yaml
 * systematic-debugging:
 *   triggers: [debug this, find the root cause]
 *   route: true
 *   contract:
 *     version: 1
 *     items:
 *       - {id: root-cause, kind: report_labels, heading: ROOT CAUSE, labels: [Cause, Evidence]}
 * ```
 *
 * This module parses and checks a file's shape, every problem with its line (strict YAML: a
 * duplicated skill key is an error). A contract is kept raw here, as the catalog keeps a SKILL.md's;
 * `contract lint` validates it against the schema (`lib/contracts/lint.ts`). The YAML parser is
 * loaded on first use, and this module only when an overlay file changed: hooks read the parsed
 * form from the catalog's JSON (`overlay_index.ts`).
 *
 * @module
 */

import { boundedCopy } from "./frontmatter_values.ts";
import { loadYaml } from "./frontmatter.ts";

/** The largest overlay file read. */
export const MAX_OVERLAY_BYTES = 1024 * 1024;

/** The most skills one overlay file names (the rest are reported and ignored). */
export const MAX_OVERLAY_SKILLS = 5000;

/** The most triggers one overlay entry gives a skill. */
export const MAX_OVERLAY_TRIGGERS = 200;

/** The fields an overlay entry may have. */
export const OVERLAY_FIELDS: readonly string[] = ["triggers", "contract", "route"];

/** One skill's entry of an overlay file, as parsed. */
export interface OverlayEntry {
  /** The triggers it gives the skill (replacing the skill's own), when it has the field. */
  readonly triggers?: readonly string[];
  /** The raw `contract:` block it gives the skill, when it has the field. */
  readonly contract?: unknown;
  /** Whether the skill may route, overriding config `route_skills`, when it has the field. */
  readonly route?: boolean;
  /** The line (1-based) of the entry's key, and of each field it has. */
  readonly lines: {
    readonly entry: number;
    readonly triggers?: number;
    readonly contract?: number;
    readonly route?: number;
  };
}

/** A problem of an overlay file. */
export interface OverlayProblem {
  /** An error makes the field (or the file) be ignored; a warning does not. */
  readonly severity: "error" | "warning";
  /** The line (1-based), when known. */
  readonly line?: number;
  /** What is wrong, naming the skill and the field. */
  readonly message: string;
}

/** An overlay file's text, parsed. */
export interface ParsedOverlay {
  /** The entries by skill name (no prototype: `Object.create(null)`). */
  readonly entries: Record<string, OverlayEntry>;
  /** Every problem found, in the file's order where lines are known. */
  readonly problems: readonly OverlayProblem[];
  /** True when the YAML parser could not be loaded (nothing was read). */
  readonly yamlUnavailable?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A top-level key line: a plain or quoted key at column 0, then `:`. */
const TOP_KEY =
  /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s|$)/;

/** A nested key line: indentation, a plain key, then `:`. */
const NESTED_KEY = /^(\s+)([A-Za-z_][\w-]*)\s*:(?:\s|$)/;

function unquoteKey(key: string): string {
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key.trim();
}

/** Where things are in an overlay file's text, found by indentation (block or flow style). */
export interface OverlayLines {
  /** Each top-level key's line (1-based). */
  readonly entries: Map<string, number>;
  /** Each entry's field lines. */
  readonly fields: Map<string, Map<string, number>>;
  /** Each entry's contract item lines, in order (a flow list's items share its line). */
  readonly items: Map<string, number[]>;
}

/**
 * Finds the lines of an overlay file's entries, their fields and their contract items. Block
 * style is followed by indentation; anything written in flow style (`{…}`, `[…]`) is placed on
 * the line where it starts.
 *
 * @param text The file's text.
 * @returns The lines found.
 */
export function overlayLines(text: string): OverlayLines {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  const entries = new Map<string, number>();
  const fields = new Map<string, Map<string, number>>();
  const items = new Map<string, number[]>();
  let current: string | undefined;
  let fieldIndent = -1;
  let field: string | undefined;
  let itemsIndent = -1;
  let itemIndent = -1;
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    const top = TOP_KEY.exec(line);
    if (top) {
      current = unquoteKey(top[1]);
      if (!entries.has(current)) entries.set(current, n);
      fields.set(current, new Map());
      fieldIndent = -1;
      field = undefined;
      return;
    }
    if (current === undefined || !/^\s/.test(line)) return;
    const indent = line.length - line.trimStart().length;
    const nested = NESTED_KEY.exec(line);
    if (nested && (fieldIndent < 0 || indent <= fieldIndent)) {
      fieldIndent = indent;
      field = nested[2];
      fields.get(current)!.set(field, n);
      itemsIndent = -1;
      itemIndent = -1;
      if (field === "contract" && /\bitems\s*:\s*\[/.test(line)) items.set(current, [n]);
      return;
    }
    if (field !== "contract") return;
    if (nested && nested[2] === "items" && indent > fieldIndent) {
      itemsIndent = indent;
      itemIndent = -1;
      if (/:\s*\[/.test(line)) items.set(current, [n]);
      else items.set(current, []);
      return;
    }
    if (itemsIndent < 0) return;
    if (indent < itemsIndent || (indent === itemsIndent && !line.trimStart().startsWith("-"))) {
      itemsIndent = -1;
      return;
    }
    if (/^\s*-(\s|$)/.test(line) && (itemIndent < 0 || indent === itemIndent)) {
      itemIndent = indent;
      items.get(current)!.push(n);
    }
  });
  return { entries, fields, items };
}

/** The 1-based line and short reason of a js-yaml error. */
function yamlError(err: unknown): { line?: number; reason: string } {
  const e = err as { mark?: { line?: unknown }; reason?: unknown };
  const line = typeof e?.mark?.line === "number" ? e.mark.line + 1 : undefined;
  const reason = typeof e?.reason === "string"
    ? e.reason
    : err instanceof Error
    ? err.message.split("\n")[0]
    : String(err);
  return { ...(line !== undefined ? { line } : {}), reason };
}

/**
 * Parses an overlay file's text and checks its shape: a mapping of skill names to entries, each
 * with `triggers` (a string or a list of strings), `contract` (kept raw) and `route` (true or
 * false). A field that is wrong is reported and left out; an unknown field is a warning. Never
 * throws.
 *
 * @param text The file's text.
 * @returns The entries and every problem, with lines.
 */
export async function parseOverlayText(text: string): Promise<ParsedOverlay> {
  const entries: Record<string, OverlayEntry> = Object.create(null);
  const problems: OverlayProblem[] = [];
  let load: (text: string, opts?: Record<string, unknown>) => unknown;
  try {
    ({ load } = await loadYaml());
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    problems.push({ severity: "error", message: `YAML parser unavailable: ${reason}` });
    return { entries, problems, yamlUnavailable: true };
  }
  let data: unknown;
  try {
    data = load(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    const { line, reason } = yamlError(err);
    problems.push({
      severity: "error",
      ...(line ? { line } : {}),
      message: `Not valid YAML: ${reason}`,
    });
    return { entries, problems };
  }
  if (data === null || data === undefined) return { entries, problems };
  if (!isRecord(data)) {
    problems.push({
      severity: "error",
      line: 1,
      message: "The file is not a mapping of skill names to entries",
    });
    return { entries, problems };
  }
  const at = overlayLines(text);
  let count = 0;
  for (const [name, raw] of Object.entries(data)) {
    const line = at.entries.get(name);
    const where = (field?: string) => {
      const l = field ? at.fields.get(name)?.get(field) ?? line : line;
      return l !== undefined ? { line: l } : {};
    };
    const shown = JSON.stringify(name.slice(0, 80));
    // deno-lint-ignore no-control-regex
    if (!name.trim() || name.length > 256 || /[\0-\x1f\x7f]/.test(name)) {
      problems.push({ severity: "error", ...where(), message: `${shown}: not a skill name` });
      continue;
    }
    if (++count > MAX_OVERLAY_SKILLS) {
      problems.push({
        severity: "error",
        ...where(),
        message: `More than ${MAX_OVERLAY_SKILLS} skills: ${shown} and the rest are ignored`,
      });
      break;
    }
    if (raw === null) {
      problems.push({ severity: "warning", ...where(), message: `${name}: empty entry` });
      continue;
    }
    if (!isRecord(raw)) {
      problems.push({
        severity: "error",
        ...where(),
        message: `${name}: not a mapping (an entry has triggers, contract and route)`,
      });
      continue;
    }
    const lines: { entry: number; triggers?: number; contract?: number; route?: number } = {
      entry: line ?? 0,
    };
    const entry: { triggers?: string[]; contract?: unknown; route?: boolean } = {};
    for (const [key, value] of Object.entries(raw)) {
      const l = at.fields.get(name)?.get(key) ?? line;
      if (!OVERLAY_FIELDS.includes(key)) {
        problems.push({
          severity: "warning",
          ...where(key),
          message: `${name}: unknown field ${JSON.stringify(key.slice(0, 40))} ignored ` +
            `(known: ${OVERLAY_FIELDS.join(", ")})`,
        });
        continue;
      }
      if (l !== undefined) lines[key as "triggers"] = l;
      if (key === "route") {
        if (typeof value === "boolean") entry.route = value;
        else {
          problems.push({
            severity: "error",
            ...where(key),
            message: `${name}: route must be true or false (got ${JSON.stringify(value)})`,
          });
        }
      } else if (key === "triggers") {
        const list = typeof value === "string" ? [value] : value;
        const ok = Array.isArray(list) &&
          list.every((t) => typeof t === "string" && t.trim() !== "");
        if (!ok) {
          problems.push({
            severity: "error",
            ...where(key),
            message: `${name}: triggers must be a phrase or a list of non-empty phrases`,
          });
          continue;
        }
        if (list.length > MAX_OVERLAY_TRIGGERS) {
          problems.push({
            severity: "warning",
            ...where(key),
            message:
              `${name}: ${list.length} triggers; only the first ${MAX_OVERLAY_TRIGGERS} kept`,
          });
        }
        entry.triggers = (list as string[]).slice(0, MAX_OVERLAY_TRIGGERS).map((t) =>
          t.trim().slice(0, 500)
        );
      } else if (value === null) {
        problems.push({ severity: "error", ...where(key), message: `${name}: contract is empty` });
      } else {
        entry.contract = boundedCopy(value);
      }
    }
    entries[name] = { ...entry, lines };
  }
  return { entries, problems };
}

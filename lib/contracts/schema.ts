/**
 * Skill contract schema, version 1: validation of a SKILL.md frontmatter `contract:` block and the
 * one table of default marker strings ({@link DEFAULT_MATCHERS}).
 *
 * A `match` is a regular expression in RE2 syntax, compiled by the linear-time engine of
 * `user_regex.ts` (loaded only for a contract that has one), so no pattern can stall the Stop hook;
 * a pattern RE2 refuses (lookaround, back-references) makes the contract invalid.
 *
 * @module
 */

import {
  isRegexError,
  loadUserRegexEngine,
  type RegexBudget,
  type UserRegex,
  type UserRegexEngine,
} from "../base/user_regex.ts";

/** The contract kinds of schema v1. */
export const CONTRACT_KINDS: readonly ContractKind[] = [
  "report_labels",
  "check_after_last_edit",
  "selected_specialists_dispatched",
  "agent_dispatch",
];

/** A contract item kind. */
export type ContractKind =
  | "report_labels"
  | "check_after_last_edit"
  | "selected_specialists_dispatched"
  | "agent_dispatch";

/** The most items one contract may declare. */
export const MAX_CONTRACT_ITEMS = 20;

/** The longest regular expression (`match`) or marker a contract may declare. */
export const MAX_PATTERN_CHARS = 300;

/**
 * Every default marker string of the checker. A skill's own `marker`, `empty_marker` or `match`
 * overrides the matching entry.
 */
export const DEFAULT_MATCHERS: {
  /** Selection line of `selected_specialists_dispatched`; a whole-word `N` stands for a number. */
  readonly specialistsMarker: string;
  /** A line containing this (case-insensitive) means no specialist was selected. */
  readonly specialistsEmptyMarker: string;
  /** Early end of a run: a final STATUS of this value (`STATUS: BLOCKED`, `Status: BLOCKED`). */
  readonly blockedStatus: string;
  /** Early end of a run: a final-message line starting with this (review's early exit). */
  readonly nothingToReview: string;
  /** The STATUS words a final message may carry. */
  readonly statusWords: readonly string[];
  /** A final STATUS with this value means the model is waiting on the user. */
  readonly needsContextStatus: string;
  /** Placeholder values a `report_labels` label may not have (whole value, case-insensitive). */
  readonly placeholderWords: readonly string[];
  /** Opening tag of a background agent's completion notice. */
  readonly taskNotificationTag: string;
  /** Text of the `isMeta` record that carries a loaded skill's body. */
  readonly baseDirectoryPrefix: string;
} = {
  specialistsMarker: "Dispatching N specialists:",
  specialistsEmptyMarker: "specialists skipped",
  blockedStatus: "BLOCKED",
  nothingToReview: "Nothing to review",
  statusWords: ["DONE_WITH_CONCERNS", "DONE", "BLOCKED", "NEEDS_CONTEXT"],
  needsContextStatus: "NEEDS_CONTEXT",
  placeholderWords: ["TBD", "TODO", "...", "…"],
  taskNotificationTag: "<task-notification>",
  baseDirectoryPrefix: "Base directory for this skill:",
};

/** Fields every item has. */
export interface ItemBase {
  /** Item id: lowercase letters, digits, `.`, `_`, `-`. */
  id: string;
  /** The action the block text names (a default per kind when absent). */
  fix?: string;
  /** The phrase the routing hint's contract variant uses. */
  summary?: string;
}

/** `report_labels`: the last message with `heading` has a real `Label: value` for every label. */
export interface ReportLabelsItem extends ItemBase {
  /** The kind. */
  kind: "report_labels";
  /** The heading text, for example `DEBUG REPORT`. */
  heading: string;
  /** The labels, for example `["Symptom", "Root cause", "Fix", "Evidence"]`. */
  labels: string[];
}

/** `check_after_last_edit`: a test or repro command ran after the last edit (or nothing was edited). */
export interface CheckAfterLastEditItem extends ItemBase {
  /** The kind. */
  kind: "check_after_last_edit";
  /**
   * A regular expression (RE2 syntax, case-sensitive) that replaces the default command
   * classifier.
   */
  match?: string;
  /** `match`, compiled by {@link validateContract} (present exactly when `match` is). */
  matcher?: UserRegex;
}

/** `selected_specialists_dispatched`: every specialist on the selection line was dispatched. */
export interface SelectedSpecialistsItem extends ItemBase {
  /** The kind. */
  kind: "selected_specialists_dispatched";
  /** The selection line's literal text; a whole-word `N` stands for the count. */
  marker?: string;
  /** A line containing this (case-insensitive) means zero specialists were selected. */
  empty_marker?: string;
}

/** `agent_dispatch`: an Agent dispatch's description or prompt matches `match`. */
export interface AgentDispatchItem extends ItemBase {
  /** The kind. */
  kind: "agent_dispatch";
  /** A case-insensitive regular expression (RE2 syntax). */
  match: string;
  /** `match`, compiled by {@link validateContract}. */
  matcher: UserRegex;
}

/** One contract item. */
export type ContractItem =
  | ReportLabelsItem
  | CheckAfterLastEditItem
  | SelectedSpecialistsItem
  | AgentDispatchItem;

/** A validated contract. */
export interface Contract {
  /** Always 1. */
  version: 1;
  /** The items, in declared order. */
  items: ContractItem[];
}

/** The result of {@link validateContract}. */
export type ContractValidation =
  | { ok: true; contract: Contract; warnings: string[] }
  | { ok: false; error: string; warnings: string[] };

const ID_RE = /^[a-z0-9._-]{1,64}$/;

const KEYS: Record<ContractKind, readonly string[]> = {
  report_labels: ["heading", "labels"],
  check_after_last_edit: ["match"],
  selected_specialists_dispatched: ["marker", "empty_marker"],
  agent_dispatch: ["match"],
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalString(
  item: Record<string, unknown>,
  key: string,
  where: string,
): string | undefined | Error {
  const v = item[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.trim() === "") {
    return new Error(`${where}: ${key} must be a non-empty string`);
  }
  if (v.length > 2000) return new Error(`${where}: ${key} is longer than 2000 characters`);
  return v;
}

/** What compiling a contract's patterns needs: the engine (when one has a `match`) and a budget. */
interface PatternContext {
  readonly engine?: UserRegexEngine;
  readonly budget: RegexBudget;
}

/** The most RE2 instructions all `match` patterns of one contract may compile to. */
const MAX_CONTRACT_PROGRAM = 20000;

function compilePattern(
  v: string,
  key: string,
  where: string,
  ignoreCase: boolean,
  ctx: PatternContext,
): UserRegex | Error {
  if (v.length > MAX_PATTERN_CHARS) {
    return new Error(`${where}: ${key} is longer than ${MAX_PATTERN_CHARS} characters`);
  }
  if (!ctx.engine) return new Error(`${where}: ${key} cannot be compiled (no regex engine)`);
  const re = ctx.engine.compile(v, { ignoreCase, budget: ctx.budget });
  if (isRegexError(re)) return new Error(`${where}: ${key} is ${re.error}`);
  return re;
}

function validateItem(
  raw: unknown,
  index: number,
  warnings: string[],
  ctx: PatternContext,
): ContractItem | Error {
  const at = `item ${index + 1}`;
  if (!isRecord(raw)) return new Error(`${at} is not a mapping`);
  const id = raw.id;
  if (typeof id !== "string" || !ID_RE.test(id)) {
    return new Error(
      `${at}: id must be lowercase letters, digits, '.', '_' or '-' (got ${
        typeof id === "string" ? JSON.stringify(id.slice(0, 40)) : typeof id
      })`,
    );
  }
  const where = `item ${JSON.stringify(id)}`;
  const kind = raw.kind;
  if (typeof kind !== "string" || !(CONTRACT_KINDS as readonly string[]).includes(kind)) {
    return new Error(
      `${where}: unknown kind ${
        typeof kind === "string" ? JSON.stringify(kind.slice(0, 60)) : String(kind)
      } (known: ${CONTRACT_KINDS.join(", ")})`,
    );
  }
  const k = kind as ContractKind;
  const fix = optionalString(raw, "fix", where);
  if (fix instanceof Error) return fix;
  const summary = optionalString(raw, "summary", where);
  if (summary instanceof Error) return summary;
  for (const key of Object.keys(raw)) {
    if (!["id", "kind", "fix", "summary", ...KEYS[k]].includes(key)) {
      if (k === "agent_dispatch" && key === "marker") {
        return new Error(
          `${where}: agent_dispatch does not accept a marker (the checker cannot bind a marker to the dispatch it names); use match`,
        );
      }
      warnings.push(`${where}: unknown field ${JSON.stringify(key.slice(0, 40))} ignored`);
    }
  }
  const base: ItemBase = { id };
  if (fix !== undefined) base.fix = fix;
  if (summary !== undefined) base.summary = summary;
  switch (k) {
    case "report_labels": {
      const heading = optionalString(raw, "heading", where);
      if (heading instanceof Error) return heading;
      if (heading === undefined) return new Error(`${where}: report_labels needs a heading`);
      const labels = raw.labels;
      if (
        !Array.isArray(labels) || labels.length === 0 ||
        !labels.every((l) => typeof l === "string" && l.trim() !== "" && l.length <= 100)
      ) {
        return new Error(`${where}: report_labels needs labels, a non-empty list of strings`);
      }
      return {
        ...base,
        kind: k,
        heading: heading.trim(),
        labels: (labels as string[]).map((l) => l.trim()),
      };
    }
    case "check_after_last_edit": {
      const match = optionalString(raw, "match", where);
      if (match instanceof Error) return match;
      if (match !== undefined) {
        const matcher = compilePattern(match, "match", where, false, ctx);
        if (matcher instanceof Error) return matcher;
        return { ...base, kind: k, match, matcher };
      }
      return { ...base, kind: k };
    }
    case "selected_specialists_dispatched": {
      const marker = optionalString(raw, "marker", where);
      if (marker instanceof Error) return marker;
      const empty = optionalString(raw, "empty_marker", where);
      if (empty instanceof Error) return empty;
      const item: SelectedSpecialistsItem = { ...base, kind: k };
      if (marker !== undefined) {
        if (marker.length > MAX_PATTERN_CHARS) {
          return new Error(`${where}: marker is longer than ${MAX_PATTERN_CHARS} characters`);
        }
        item.marker = marker;
      }
      if (empty !== undefined) {
        if (empty.length > MAX_PATTERN_CHARS) {
          return new Error(
            `${where}: empty_marker is longer than ${MAX_PATTERN_CHARS} characters`,
          );
        }
        item.empty_marker = empty;
      }
      return item;
    }
    case "agent_dispatch": {
      const match = optionalString(raw, "match", where);
      if (match instanceof Error) return match;
      if (match === undefined) return new Error(`${where}: agent_dispatch needs match`);
      const matcher = compilePattern(match, "match", where, true, ctx);
      if (matcher instanceof Error) return matcher;
      return { ...base, kind: k, match, matcher };
    }
  }
}

/** Whether any item of a raw contract has a string `match` (so the regex engine is needed). */
function hasMatch(items: unknown[]): boolean {
  return items.some((i) => isRecord(i) && typeof i.match === "string");
}

/**
 * Validates a frontmatter `contract:` value against schema v1 and compiles its `match` patterns
 * (loading the linear-time regex engine only when an item has one). Never rejects.
 *
 * @param raw The parsed `contract` value.
 * @returns The contract, or the first problem found (a sentence naming the item and the field).
 */
export async function validateContract(raw: unknown): Promise<ContractValidation> {
  const warnings: string[] = [];
  if (!isRecord(raw)) {
    return { ok: false, error: "contract is not a mapping with version and items", warnings };
  }
  const version = raw.version;
  if (version === undefined) return { ok: false, error: "contract has no version", warnings };
  if (version !== 1) {
    return {
      ok: false,
      error: `unsupported contract version ${JSON.stringify(version)} (supported: 1)`,
      warnings,
    };
  }
  for (const key of Object.keys(raw)) {
    if (key !== "version" && key !== "items") {
      warnings.push(`contract: unknown field ${JSON.stringify(key.slice(0, 40))} ignored`);
    }
  }
  const items = raw.items;
  if (!Array.isArray(items) || items.length === 0) {
    return { ok: false, error: "contract items must be a non-empty list", warnings };
  }
  if (items.length > MAX_CONTRACT_ITEMS) {
    return {
      ok: false,
      error: `contract has ${items.length} items (at most ${MAX_CONTRACT_ITEMS})`,
      warnings,
    };
  }
  let engine: UserRegexEngine | undefined;
  if (hasMatch(items)) {
    try {
      engine = await loadUserRegexEngine();
    } catch {
      engine = undefined; // Each match then reports that it cannot be compiled.
    }
  }
  const ctx: PatternContext = { engine, budget: { left: MAX_CONTRACT_PROGRAM } };
  const out: ContractItem[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const item = validateItem(items[i], i, warnings, ctx);
    if (item instanceof Error) return { ok: false, error: item.message, warnings };
    if (seen.has(item.id)) {
      return { ok: false, error: `duplicate item id ${JSON.stringify(item.id)}`, warnings };
    }
    seen.add(item.id);
    out.push(item);
  }
  return { ok: true, contract: { version: 1, items: out }, warnings };
}

/**
 * Compiles a selection marker into a regular expression: the text is literal except that a
 * whole-word `N` becomes a captured number.
 *
 * @param marker The marker, for example `Dispatching N specialists:`.
 * @returns A regular expression whose group 1 (when the marker has an `N`) is the count.
 */
export function compileMarker(marker: string): RegExp {
  const parts = marker.split(/\bN\b/);
  const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(escaped.join("(\\d+)"));
}

/**
 * What a contract item kind is: {@link ItemKind}, the shape every module under `items/` exports
 * (its keys, validation, check and fix text), and the helpers those modules share.
 *
 * @module
 */

import {
  isRegexError,
  type RegexBudget,
  type UserRegex,
  type UserRegexEngine,
} from "../../base/user_regex.ts";
import { sanitizeName, sanitizeText } from "../../base/sanitize.ts";
import type { ToolCall, TranscriptRun } from "../../transcript/model.ts";
import { AGENT_TOOLS } from "../../transcript/tool_groups.ts";

/** Fields every item has. */
export interface ItemBase {
  /** Item id: lowercase letters, digits, `.`, `_`, `-`. */
  id: string;
  /** The action the block text names (a default per kind when absent). */
  fix?: string;
  /** The phrase the routing hint's contract variant uses. */
  summary?: string;
  /**
   * How many times the item may block one run (1 to {@link MAX_HOLD}); absent: once. Each stop
   * re-checks; after that many blocks the run is recorded `miss` and the stop goes through.
   */
  hold?: number;
}

/** The most blocks a held item (`hold: N`) may give one run. */
export const MAX_HOLD = 5;

/** The fields every item has, whatever its kind (the keys no kind declares). */
export const BASE_KEYS: readonly string[] = ["id", "kind", "fix", "summary", "hold"];

/** The longest regular expression (`match`) or marker a contract may declare. */
export const MAX_PATTERN_CHARS = 300;

/** What compiling a contract's patterns needs: the engine (when one has a `match`) and a budget. */
export interface PatternContext {
  /** The linear-time engine, loaded when some item has a `match`. */
  readonly engine?: UserRegexEngine;
  /** The RE2 instructions all `match` patterns of the contract may still compile to. */
  readonly budget: RegexBudget;
}

/** What a kind's validation gets besides the raw item. */
export interface ValidationScope {
  /** How messages name the item: `item "<id>"`. */
  readonly where: string;
  /** The pattern engine and budget of the contract. */
  readonly patterns: PatternContext;
}

/** What a kind's check reads. */
export interface CheckInput {
  /** The run, from the skill's load to the end. */
  readonly run: TranscriptRun;
  /** The turn's final text (the payload's, when newer than the file). */
  readonly finalText: string;
  /** The installed skillgate command: a run of it is never a test or repro. */
  readonly command?: string;
}

/** One item's verdict. */
export interface Verdict {
  /** Whether the item is met. */
  met: boolean;
  /** A short explanation (what was found or not found); data is sanitised. */
  detail: string;
}

/**
 * A contract item kind: one module under `items/`, registered in `items/mod.ts`.
 *
 * @typeParam T The item type of the kind (its `kind` field is the kind's name).
 */
export interface ItemKind<T extends ItemBase & { kind: string }> {
  /** The kind's name, as a contract writes it. */
  readonly kind: T["kind"];
  /** The kind's own fields (besides {@link BASE_KEYS}); any other field is warned about. */
  readonly keys: readonly string[];
  /**
   * Fields the kind refuses outright rather than ignores, each with the reason the error gives
   * (`agent_dispatch` refuses a `marker`).
   */
  readonly refusedKeys?: Readonly<Record<string, string>>;
  /**
   * Validates the kind's own fields. The id, the kind, `fix`, `summary` and unknown fields are
   * checked already.
   *
   * @param raw The raw item.
   * @param base The validated id, fix and summary.
   * @param scope How messages name the item, and the pattern engine.
   * @returns The item, or the first problem (a message naming the item and the field).
   */
  validate(
    raw: Readonly<Record<string, unknown>>,
    base: ItemBase,
    scope: ValidationScope,
  ): T | Error;
  /**
   * Checks the item against a run.
   *
   * @param item The validated item.
   * @param input The run, the final text and the installed command.
   * @returns Met or not, and why.
   */
  check(item: T, input: CheckInput): Verdict;
  /**
   * The fix text of the block line when the item declares no `fix`.
   *
   * @param item The validated item.
   * @returns For example `run the test or repro again after your last edit and show its result`.
   */
  fix(item: T): string;
}

/**
 * Reads an optional string field: absent (or null) gives undefined; anything but a non-empty
 * string of at most 2000 characters is an error.
 *
 * @param item The raw item.
 * @param key The field.
 * @param where How the message names the item.
 * @returns The value, undefined, or the problem.
 */
export function optionalString(
  item: Readonly<Record<string, unknown>>,
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

/**
 * Reads an optional text field, as {@link optionalString}, without its control characters
 * (`sanitizeText`): a `fix`, `summary`, `heading` or marker reaches the model, a log and the
 * terminal, and text from disk is data. A text of nothing but control characters is an error.
 *
 * @param item The raw item.
 * @param key The field.
 * @param where How the message names the item.
 * @returns The sanitised value, undefined, or the problem.
 */
export function optionalText(
  item: Readonly<Record<string, unknown>>,
  key: string,
  where: string,
): string | undefined | Error {
  const v = optionalString(item, key, where);
  if (typeof v !== "string") return v;
  const text = sanitizeText(v);
  return text.trim() === "" ? new Error(`${where}: ${key} must be a non-empty string`) : text;
}

/**
 * Compiles a `match` pattern with the linear-time engine, within the contract's budget.
 *
 * @param v The pattern (RE2 syntax).
 * @param key The field, for messages.
 * @param ignoreCase Whether the pattern ignores case.
 * @param scope How messages name the item, and the pattern engine.
 * @returns The compiled pattern, or the problem.
 */
export function compilePattern(
  v: string,
  key: string,
  ignoreCase: boolean,
  scope: ValidationScope,
): UserRegex | Error {
  const { where, patterns } = scope;
  if (v.length > MAX_PATTERN_CHARS) {
    return new Error(`${where}: ${key} is longer than ${MAX_PATTERN_CHARS} characters`);
  }
  if (!patterns.engine) return new Error(`${where}: ${key} cannot be compiled (no regex engine)`);
  const re = patterns.engine.compile(v, { ignoreCase, budget: patterns.budget });
  if (isRegexError(re)) return new Error(`${where}: ${key} is ${re.error}`);
  return re;
}

/**
 * Reads an item's optional `match` that replaces the command classifier (a case-sensitive RE2
 * regular expression) and compiles it.
 *
 * @param raw The raw item.
 * @param scope How messages name the item, and the pattern engine.
 * @returns The pattern and its compiled form, undefined without one, or the problem.
 */
export function optionalMatch(
  raw: Readonly<Record<string, unknown>>,
  scope: ValidationScope,
): { match: string; matcher: UserRegex } | undefined | Error {
  const match = optionalString(raw, "match", scope.where);
  if (match === undefined || match instanceof Error) return match;
  const matcher = compilePattern(match, "match", false, scope);
  return matcher instanceof Error ? matcher : { match, matcher };
}

/**
 * An item's compiled `match` (linear-time RE2, compiled by `validateContract`). A contract built
 * by hand, with a `match` but no `matcher`, is a caller's error.
 *
 * @param item An item with an optional `match`.
 * @returns The compiled pattern, or undefined when the item has no `match`.
 * @throws {TypeError} When the item has a `match` but no `matcher`.
 */
export function matcherOf(
  item: { readonly id: string; readonly match?: string; readonly matcher?: UserRegex },
): UserRegex | undefined {
  if (item.match === undefined) return undefined;
  if (!item.matcher) {
    throw new TypeError(
      `Contract item ${
        sanitizeName(item.id, 64)
      } has a match but no matcher: validate the contract with validateContract()`,
    );
  }
  return item.matcher;
}

/**
 * Escapes a text for use inside a regular expression.
 *
 * @param s The text.
 * @returns The text with every special character escaped.
 */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The main chain's Agent (or Task) dispatches of a run.
 *
 * @param run The run.
 * @returns The calls, in order.
 */
export function agentCalls(run: TranscriptRun): ToolCall[] {
  return run.toolCalls.filter((c) => !c.sidechain && AGENT_TOOLS.includes(c.name));
}

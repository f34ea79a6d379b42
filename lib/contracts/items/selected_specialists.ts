/**
 * The `selected_specialists_dispatched` item kind: the selection line (default
 * `Dispatching N specialists:`) was printed in an assistant message or a shell result (never a
 * fetched page or file), its names are plain, and each name has an Agent dispatch that mentions
 * it. Zero specialists, or a "specialists skipped" line, passes.
 *
 * @module
 */

import { sanitizeLine } from "../../base/sanitize.ts";
import type { ToolCall } from "../../transcript/model.ts";
import { SHELL_TOOLS } from "../../transcript/tool_groups.ts";
import { printsFileOrPage } from "../commands/classify.ts";
import { compileMarker, DEFAULT_MATCHERS } from "../matchers.ts";
import {
  agentCalls,
  type CheckInput,
  escapeRe,
  type ItemBase,
  type ItemKind,
  MAX_PATTERN_CHARS,
  optionalText,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `selected_specialists_dispatched`: every specialist on the selection line was dispatched. */
export interface SelectedSpecialistsItem extends ItemBase {
  /** The kind. */
  kind: "selected_specialists_dispatched";
  /** The selection line's literal text; a whole-word `N` stands for the count. */
  marker?: string;
  /** A line containing this (case-insensitive) means zero specialists were selected. */
  empty_marker?: string;
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  { where }: ValidationScope,
): SelectedSpecialistsItem | Error {
  const marker = optionalText(raw, "marker", where);
  if (marker instanceof Error) return marker;
  const empty = optionalText(raw, "empty_marker", where);
  if (empty instanceof Error) return empty;
  const item: SelectedSpecialistsItem = { ...base, kind: "selected_specialists_dispatched" };
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

/** A specialists selection line: the count and names found after the marker. */
export interface SpecialistSelection {
  /** The count the line gives (undefined when the marker has no `N`). */
  count?: number;
  /** The plain names (parenthesised text removed). */
  names: string[];
  /** True when every name is plain (letters, digits, spaces, `_`, `.`, `-`, ≤ 40 characters). */
  plain: boolean;
  /** True when the line is an empty marker ("specialists skipped"). */
  empty: boolean;
}

/**
 * Parses the last selection line of a text.
 *
 * @param text A message or Bash output.
 * @param marker The marker (a whole-word `N` stands for the count).
 * @param emptyMarker The "none selected" marker.
 * @returns The selection, or undefined when the text has none.
 */
export function parseSelection(
  text: string,
  marker: string,
  emptyMarker: string,
): SpecialistSelection | undefined {
  const re = compileMarker(marker);
  const hasN = /\bN\b/.test(marker);
  const emptyLower = emptyMarker.toLowerCase();
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.length > 2000) continue;
    if (line.toLowerCase().includes(emptyLower)) {
      return { count: 0, names: [], plain: true, empty: true };
    }
    const m = re.exec(line);
    if (!m) continue;
    const count = hasN ? Number(m[1]) : undefined;
    const rest = line.slice(m.index + m[0].length)
      .replace(/\([^)]*\)/g, " ")
      .replace(/[*_`]/g, "")
      .trim()
      .replace(/[.;]+$/, "");
    const names = rest === ""
      ? []
      : rest.split(/,|\band\b/).map((n) => n.trim()).filter((n) => n !== "");
    const plain = names.every((n) => n.length <= 40 && /^[A-Za-z0-9 _.-]+$/.test(n));
    return { count, names, plain, empty: false };
  }
  return undefined;
}

function mentions(call: ToolCall, name: string): boolean {
  const re = new RegExp(`(?:^|[^A-Za-z0-9])${escapeRe(name)}(?:[^A-Za-z0-9]|$)`, "i");
  for (const k of ["description", "prompt", "subagent_type", "name"]) {
    const v = call.input[k];
    if (typeof v === "string" && re.test(v)) return true;
  }
  return false;
}

function check(item: SelectedSpecialistsItem, { run, finalText }: CheckInput): Verdict {
  const marker = item.marker ?? DEFAULT_MATCHERS.specialistsMarker;
  const emptyMarker = item.empty_marker ?? DEFAULT_MATCHERS.specialistsEmptyMarker;
  // Sources: main assistant messages and shell results, newest last; never a fetched page or a
  // file (Read/WebFetch output, or a shell command such as `cat notes.md` or `curl URL`).
  const sources: { seq: number; text: string }[] = [];
  for (const m of run.messages) {
    if (m.role === "assistant" && !m.sidechain && m.text !== "") {
      sources.push({ seq: m.seq, text: m.text });
    }
  }
  for (const c of run.toolCalls) {
    if (!c.sidechain && SHELL_TOOLS.includes(c.name) && c.result && c.result.text !== "") {
      const cmd = c.input.command;
      if (typeof cmd !== "string" || printsFileOrPage(cmd)) continue;
      sources.push({ seq: c.result.seq, text: c.result.text });
    }
  }
  sources.sort((a, b) => a.seq - b.seq);
  if (finalText !== "") sources.push({ seq: Number.MAX_SAFE_INTEGER, text: finalText });
  let selection: SpecialistSelection | undefined;
  for (let i = sources.length - 1; i >= 0 && !selection; i--) {
    selection = parseSelection(sources[i].text, marker, emptyMarker);
  }
  if (!selection) return { met: false, detail: "no specialists selection line was printed" };
  if (selection.empty || selection.count === 0) {
    return { met: true, detail: "zero specialists were selected" };
  }
  if (!selection.plain) {
    return { met: false, detail: "the selection line names are not plain specialist names" };
  }
  if (selection.names.length === 0) {
    return { met: false, detail: "the selection line names no specialists" };
  }
  const calls = agentCalls(run);
  const missing = selection.names.filter((n) => !calls.some((c) => mentions(c, n)));
  if (missing.length > 0) {
    return {
      met: false,
      detail: `no Agent dispatch for ${missing.map((n) => sanitizeLine(n, 40)).join(", ")}`,
    };
  }
  return { met: true, detail: `dispatched ${selection.names.length} specialists` };
}

/** The `selected_specialists_dispatched` kind. */
export const selectedSpecialists: ItemKind<SelectedSpecialistsItem> = {
  kind: "selected_specialists_dispatched",
  keys: ["marker", "empty_marker"],
  validate,
  check,
  fix: (item) =>
    `print the selection line (${
      item.marker ?? DEFAULT_MATCHERS.specialistsMarker
    } followed by the names) and dispatch an agent for each specialist it names`,
};

/**
 * The `report_labels` item kind: the last assistant message containing `heading` has a
 * `Label: value` line with a real value (not empty, not a placeholder) for every label.
 *
 * @module
 */

import { sanitizeText } from "../../base/sanitize.ts";
import type { TranscriptMessage, TranscriptRun } from "../../transcript/model.ts";
import {
  type CheckInput,
  escapeRe,
  type ItemBase,
  type ItemKind,
  optionalText,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `report_labels`: the last message with `heading` has a real `Label: value` for every label. */
export interface ReportLabelsItem extends ItemBase {
  /** The kind. */
  kind: "report_labels";
  /** The heading text, for example `DEBUG REPORT`. */
  heading: string;
  /** The labels, for example `["Symptom", "Root cause", "Fix", "Evidence"]`. */
  labels: string[];
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  { where }: ValidationScope,
): ReportLabelsItem | Error {
  const heading = optionalText(raw, "heading", where);
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
    kind: "report_labels",
    heading: heading.trim(),
    labels: (labels as string[]).map((l) => sanitizeText(l).trim()),
  };
}

/**
 * Whether a label value is empty or a placeholder: `[...]`, `<...>`, `TBD`, `TODO`, `...`, `…`,
 * or a template of alternatives such as `DONE | BLOCKED`.
 *
 * @param value The text after `Label:`.
 * @returns True when it is no real value.
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.replace(/^[\s*_`]+|[\s*_`]+$/g, "").trim();
  if (v === "") return true;
  if (/^\[[^\]]*\]$/.test(v)) return true;
  if (/^<[^>]*>$/.test(v)) return true;
  if (/^(?:\.{3,}|…)$/.test(v)) return true;
  if (/^(?:TBD|TODO)\b/i.test(v)) return true;
  const alts = v.split("|").map((p) => p.trim());
  if (alts.length >= 2 && alts.every((p) => /^[A-Za-z][\w-]*$/.test(p))) return true;
  return false;
}

function mainAssistantTexts(run: TranscriptRun, finalText: string): string[] {
  const texts = run.messages
    .filter((m: TranscriptMessage) => m.role === "assistant" && !m.sidechain && m.text !== "")
    .map((m) => m.text);
  if (finalText !== "" && texts[texts.length - 1] !== finalText) texts.push(finalText);
  return texts;
}

/** The labels that have no `Label: value` line with a real value among `lines`. */
function badLabels(lines: string[], labels: string[]): string[] {
  const bad: string[] = [];
  for (const label of labels) {
    const re = new RegExp(
      `^[\\s>|]*(?:[-*+]\\s+|\\d+[.)]\\s+)?[*_\`]*${escapeRe(label)}[*_\`]*\\s*:(.*)$`,
      "i",
    );
    let value: string | undefined;
    for (const line of lines) {
      const m = re.exec(line);
      if (m) {
        value = m[1];
        break;
      }
    }
    if (value === undefined || isPlaceholderValue(value.replace(/\|\s*$/, ""))) bad.push(label);
  }
  return bad;
}

function check(item: ReportLabelsItem, { run, finalText }: CheckInput): Verdict {
  const { heading, labels } = item;
  const texts = mainAssistantTexts(run, finalText);
  const h = heading.toLowerCase();
  let text: string | undefined;
  for (let i = texts.length - 1; i >= 0; i--) {
    if (texts[i].toLowerCase().includes(h)) {
      text = texts[i];
      break;
    }
  }
  if (text === undefined) return { met: false, detail: `no message contains ${heading}` };
  // The heading may also be mentioned in passing ("I kept the debug report short"): the report is
  // there when the text after any mention of it has every label, the last mention tried first.
  const lower = text.toLowerCase();
  let firstBad: string[] | undefined;
  for (let at = lower.lastIndexOf(h); at >= 0; at = at === 0 ? -1 : lower.lastIndexOf(h, at - 1)) {
    const bad = badLabels(text.slice(at + h.length).split("\n"), labels);
    if (bad.length === 0) return { met: true, detail: `${heading} has ${labels.join(", ")}` };
    firstBad ??= bad;
  }
  return { met: false, detail: `${heading} has no real value for ${firstBad!.join(", ")}` };
}

/** The `report_labels` kind. */
export const reportLabels: ItemKind<ReportLabelsItem> = {
  kind: "report_labels",
  keys: ["heading", "labels"],
  validate,
  check,
  fix: (item) => `print the ${item.heading} with real values for ${item.labels.join(", ")}`,
};

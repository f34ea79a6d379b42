/**
 * The one line of context the routing hook adds for a routed skill (`route.ts`), and its wording
 * (`SKILLGATE_SKILL_ROUTE_HINT`: the name, the first step, or the contract's items).
 *
 * @module
 */

import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import { hostFor, type HostKind } from "../host/mod.ts";
import type { RouteSkill } from "./route_skill.ts";

/** The off switch the hint names. */
export const ROUTE_OFF_COMMAND = "skillgate config set skill_routing off";

/** The wording of the injected line (`SKILLGATE_SKILL_ROUTE_HINT`). */
export type HintMode = "name" | "step" | "contract";

/**
 * Reads a hint mode; anything other than `step` or `contract` is `name`.
 *
 * @param value The `SKILLGATE_SKILL_ROUTE_HINT` value.
 * @returns The mode.
 */
export function parseHintMode(value: string | undefined): HintMode {
  const v = (value ?? "").trim().toLowerCase();
  return v === "step" || v === "contract" ? v : "name";
}

/** Text from a SKILL.md made safe for the hint: one line, no quotes or angle brackets, bounded. */
function hintText(text: string, max: number): string {
  return sanitizeLine(text, 4 * max).replace(/["<>`]/g, "'").replace(/\s+/g, " ").trim()
    .slice(0, max);
}

/**
 * The contract items' `summary` phrases of a skill, in order.
 *
 * @param contract The parsed `contract:` block.
 * @returns The summaries (at most 20).
 */
export function contractSummaries(contract: unknown): string[] {
  if (!contract || typeof contract !== "object") return [];
  const items = (contract as { items?: unknown }).items;
  if (!Array.isArray(items)) return [];
  const out: string[] = [];
  for (const item of items.slice(0, 20)) {
    const summary = item && typeof item === "object"
      ? (item as { summary?: unknown }).summary
      : undefined;
    if (typeof summary === "string" && summary.trim()) out.push(hintText(summary, 120));
  }
  return out;
}

/**
 * The one line of context the hook adds for a routed skill. It states the fit as a fact, names
 * skillgate's UserPromptSubmit hook as its source and the off switch, and asks the model to tell
 * the user in one sentence that skillgate routed the request. For a skill the model cannot load
 * (`disable-model-invocation: true`) it never says a tool loads it: it says the user can type
 * `/name`, and asks the model to tell the user so.
 *
 * @param skill The routed skill.
 * @param mode `name` (default), `step` (plus its first step) or `contract` (plus its contract).
 * @param host The host the line is for: it names that host's skill tool.
 * @returns The line.
 */
export function routeHint(skill: RouteSkill, mode: HintMode, host: HostKind): string {
  const name = sanitizeName(skill.name) || "skill";
  const h = hostFor(host);
  // The host's own names: its prompt event (`userPromptSubmitted` on Copilot CLI), its skill tool.
  const event = h.hookEvents.UserPromptSubmit ?? "UserPromptSubmit";
  const head = `skillgate skill routing (${event} hook; the user can turn it off with: ` +
    `${ROUTE_OFF_COMMAND}): this request fits the installed skill /${name}`;
  if (skill.userOnly) {
    // disable-model-invocation: the model cannot load it; only the user can start it.
    return `${head}, which only the user can start, by typing /${name} (the model cannot load ` +
      `it). Please tell the user in one sentence that they can type /${name} to run it.`;
  }
  let line = `${head}, which ${h.texts.skillTool} loads.`;
  if (mode === "step" && skill.firstStep && hintText(skill.firstStep, 200)) {
    line += ` Its first step: "${hintText(skill.firstStep, 200).replace(/[.;:]+$/, "")}".`;
  } else if (mode === "contract") {
    const summaries = contractSummaries(skill.contract);
    if (summaries.length) line += ` It is done when: ${summaries.join("; ")}.`;
  }
  return line + ` Please tell the user in one sentence that skillgate routed this request ` +
    `to /${name}.`;
}

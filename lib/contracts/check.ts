/**
 * The skill contract checker: a pure function of one parsed transcript run and a contract.
 *
 * `checkContract(run, contract, options)` gives each item as met, missing or waived and the overall
 * outcome. Each item is checked by its kind's module (`items/`); a run that ended early counts as
 * met, and an unmet item with a waiver in the run (`waivers.ts`) is waived. The line the Stop hook
 * blocks with is `block_line.ts`.
 *
 * @module
 */

import { finalAssistantText, findStatusLine } from "../transcript/turn.ts";
import type { TranscriptRun } from "../transcript/model.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { DEFAULT_MATCHERS } from "./matchers.ts";
import { checkItem, type ContractItem, type ContractKind, itemFix } from "./items/mod.ts";
import type { CheckInput } from "./items/kind.ts";
import type { Contract } from "./schema.ts";
import { findWaivers, type Waiver } from "./waivers.ts";

/** The state of one item. */
export type ItemStatus = "met" | "missing" | "waived";

/** One item's result. */
export interface ItemResult {
  /** The item id. */
  id: string;
  /** The item kind. */
  kind: ContractKind;
  /** Met, missing or waived. */
  status: ItemStatus;
  /** A short explanation (what was found or not found); data is sanitised. */
  detail: string;
  /** The fix text the block line names (the item's `fix`, or the kind's default). */
  fix: string;
  /** The waiver's reason, when waived. */
  waiverReason?: string;
  /** How many times the item may block one run, when it declares `hold` (absent: once). */
  hold?: number;
}

/** How a run ended early (counts as met for every item). */
export type EarlyEnd = "blocked" | "nothing_to_review";

/** The result of {@link checkContract}. */
export interface CheckResult {
  /** The skill name (as given to the check). */
  skill: string;
  /** The contract version (1). */
  version: 1;
  /** `met` when every item is met or waived, else `unmet`. */
  outcome: "met" | "unmet";
  /** True when at least one item is waived (a met run that counts as a miss for follow). */
  waived: boolean;
  /** Each item, in contract order. */
  items: ItemResult[];
  /** Set when the skill ended the run early (STATUS: BLOCKED, "Nothing to review"). */
  earlyEnd?: EarlyEnd;
}

/** Options of {@link checkContract}. */
export interface CheckOptions {
  /** The skill name (used in results, waiver `--skill` matching and the block line). */
  skill: string;
  /** The turn's final text (Stop payload `last_assistant_message`), newer than the file. */
  finalText?: string;
  /** The session id: only waivers recorded in this session count (all when omitted). */
  sessionId?: string;
  /**
   * The installed skillgate command (`skillgateCommand()`): recognises waive calls, and a run of it
   * is never a test or repro.
   */
  command?: string;
}

/**
 * Checks a contract against one run.
 *
 * @param run The parsed run (from the skill's load to the end).
 * @param contract The validated contract.
 * @param options Skill name, final-text override, session id.
 * @returns Each item's state and the overall outcome.
 */
export function checkContract(
  run: TranscriptRun,
  contract: Contract,
  options: CheckOptions,
): CheckResult {
  const finalText = finalAssistantText(run, options.finalText);
  const earlyEnd = findEarlyEnd(finalText);
  const waivers = new Map<string, Waiver>();
  for (const w of findWaivers(run, options)) {
    waivers.set(w.item, w);
  }
  const items = contract.items.map((item) => {
    const r = itemResult(item, { run, finalText, command: options.command }, earlyEnd, waivers);
    if (item.hold !== undefined) r.hold = item.hold;
    return r;
  });
  const result: CheckResult = {
    skill: options.skill,
    version: 1,
    outcome: items.every((i) => i.status !== "missing") ? "met" : "unmet",
    waived: items.some((i) => i.status === "waived"),
    items,
  };
  if (earlyEnd) result.earlyEnd = earlyEnd;
  return result;
}

/** One item's result: met by an early end, else its kind's verdict, waived when unmet. */
function itemResult(
  item: ContractItem,
  input: CheckInput,
  earlyEnd: EarlyEnd | undefined,
  waivers: ReadonlyMap<string, Waiver>,
): ItemResult {
  const result = (status: ItemStatus, detail: string): ItemResult => ({
    id: item.id,
    kind: item.kind,
    status,
    detail,
    fix: itemFix(item),
  });
  if (earlyEnd) {
    return result(
      "met",
      earlyEnd === "blocked"
        ? "the run ended early with STATUS: BLOCKED"
        : "the run ended early with Nothing to review",
    );
  }
  const verdict = checkItem(item, input);
  const w = verdict.met ? undefined : waivers.get(item.id);
  if (w) return { ...result("waived", verdict.detail), waiverReason: sanitizeLine(w.reason, 200) };
  return result(verdict.met ? "met" : "missing", verdict.detail);
}

/**
 * How many times an unmet result may block its run: the largest `hold` of its missing items
 * (an item without one blocks once).
 *
 * @param result A check result.
 * @returns 1 to `MAX_HOLD`.
 */
export function blockLimit(result: CheckResult): number {
  let limit = 1;
  for (const i of result.items) {
    if (i.status === "missing" && i.hold !== undefined && i.hold > limit) limit = i.hold;
  }
  return limit;
}

/**
 * How the final text ends the run early, if it does: a final STATUS of BLOCKED, or a line that
 * starts "Nothing to review".
 *
 * @param finalText The turn's final text.
 * @returns The early end, or undefined.
 */
export function findEarlyEnd(finalText: string): EarlyEnd | undefined {
  if (findStatusLine(finalText)?.value === DEFAULT_MATCHERS.blockedStatus) return "blocked";
  const prefix = DEFAULT_MATCHERS.nothingToReview.toLowerCase();
  for (const line of finalText.split("\n")) {
    if (line.replace(/^[\s>*_#-]+/, "").toLowerCase().startsWith(prefix)) {
      return "nothing_to_review";
    }
  }
  return undefined;
}

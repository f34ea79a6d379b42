/**
 * The registry of contract item kinds: one module per kind, each an {@link ItemKind} (its keys,
 * validation, check and fix text). The schema's kind list ({@link CONTRACT_KINDS}) and the
 * {@link ContractKind} type come from here, and the compiler holds {@link ContractItem} and
 * {@link ITEM_KINDS} to the same kinds.
 *
 * Adding a kind: a module `items/<kind>.ts` exporting its item type and its `ItemKind`, one line
 * in {@link ContractItem} and one in {@link ITEM_KINDS}, and `items/<kind>_test.ts` (the list is
 * in `docs/architecture.md`, "Contract item kinds").
 *
 * @module
 */

import type { CheckInput, ItemKind, Verdict } from "./kind.ts";
import { reportLabels, type ReportLabelsItem } from "./report_labels.ts";
import { checkAfterLastEdit, type CheckAfterLastEditItem } from "./check_after_last_edit.ts";
import { selectedSpecialists, type SelectedSpecialistsItem } from "./selected_specialists.ts";
import { agentDispatch, type AgentDispatchItem } from "./agent_dispatch.ts";
import {
  checkPassedAfterLastEdit,
  type CheckPassedAfterLastEditItem,
} from "./check_passed_after_last_edit.ts";
import { testFirst, type TestFirstItem } from "./test_first.ts";
import { fileWritten, type FileWrittenItem } from "./file_written.ts";

/** One contract item, of any registered kind. */
export type ContractItem =
  | ReportLabelsItem
  | CheckAfterLastEditItem
  | SelectedSpecialistsItem
  | AgentDispatchItem
  | CheckPassedAfterLastEditItem
  | TestFirstItem
  | FileWrittenItem;

/**
 * A contract item kind's name. Written out (not derived from {@link ContractItem}) so that the
 * public API names kinds without every item type; {@link KINDS_AGREE} keeps the two in step.
 */
export type ContractKind =
  | "report_labels"
  | "check_after_last_edit"
  | "selected_specialists_dispatched"
  | "agent_dispatch"
  | "check_passed_after_last_edit"
  | "test_first"
  | "file_written";

/** Compile-time: the written-out kinds are exactly the item types' kinds. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const KINDS_AGREE: Same<ContractKind, ContractItem["kind"]> = true;
void KINDS_AGREE;

/** Every item kind, by name, in the order the schema lists them. */
export const ITEM_KINDS: {
  readonly [K in ContractKind]: ItemKind<Extract<ContractItem, { kind: K }>>;
} = {
  report_labels: reportLabels,
  check_after_last_edit: checkAfterLastEdit,
  selected_specialists_dispatched: selectedSpecialists,
  agent_dispatch: agentDispatch,
  check_passed_after_last_edit: checkPassedAfterLastEdit,
  test_first: testFirst,
  file_written: fileWritten,
};

/** The contract kinds of schema v1, in registry order. */
export const CONTRACT_KINDS: readonly ContractKind[] = Object.keys(ITEM_KINDS) as ContractKind[];

/**
 * Whether a text names a registered kind.
 *
 * @param kind Any value (a raw item's `kind`).
 * @returns True for a kind of {@link CONTRACT_KINDS}.
 */
export function isContractKind(kind: unknown): kind is ContractKind {
  return typeof kind === "string" && Object.hasOwn(ITEM_KINDS, kind);
}

/**
 * The kind module of a kind name.
 *
 * @param kind A registered kind.
 * @returns Its module.
 */
export function itemKind(kind: ContractKind): ItemKind<ContractItem> {
  // The registry pairs each name with the module of that kind, so the item a caller passes with
  // this name is of the module's own item type.
  return ITEM_KINDS[kind] as unknown as ItemKind<ContractItem>;
}

/**
 * Checks one item against a run, with its kind's checker.
 *
 * @param item The validated item.
 * @param input The run, the final text and the installed command.
 * @returns Met or not, and why.
 */
export function checkItem(item: ContractItem, input: CheckInput): Verdict {
  return itemKind(item.kind).check(item, input);
}

/**
 * The fix text of an item: its own `fix`, or its kind's default.
 *
 * @param item The validated item.
 * @returns For example `run the test or repro again after your last edit and show its result`.
 */
export function itemFix(item: ContractItem): string {
  if (item.fix) return item.fix;
  return itemKind(item.kind).fix(item);
}

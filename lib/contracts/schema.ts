/**
 * Skill contract schema, version 1: validation of a SKILL.md frontmatter `contract:` block.
 *
 * The block-level rules (version, items, ids, the common fields `fix` and `summary`, unknown
 * fields) are here; each kind's own fields are validated by its module in `items/`, and the kinds
 * known are those of the registry (`items/mod.ts`).
 *
 * A `match` is a regular expression in RE2 syntax, compiled by the linear-time engine of
 * `user_regex.ts` (loaded only for a contract that has one), so no pattern can stall the Stop hook;
 * a pattern RE2 refuses (lookaround, back-references) makes the contract invalid.
 *
 * @module
 */

import { loadUserRegexEngine, type UserRegexEngine } from "../base/user_regex.ts";
import {
  BASE_KEYS,
  type ItemBase,
  MAX_HOLD,
  optionalText,
  type PatternContext,
  type ValidationScope,
} from "./items/kind.ts";
import { CONTRACT_KINDS, type ContractItem, isContractKind, itemKind } from "./items/mod.ts";

/** The most items one contract may declare. */
export const MAX_CONTRACT_ITEMS = 20;

/** A validated contract. */
export interface Contract {
  /** Always 1. */
  version: 1;
  /** The items, in declared order. */
  items: ContractItem[];
}

/**
 * The result of {@link validateContract}: the contract, or every problem found (`error` is the
 * first, for one-line messages).
 */
export type ContractValidation =
  | { ok: true; contract: Contract; warnings: string[] }
  | { ok: false; error: string; errors: string[]; warnings: string[] };

const ID_RE = /^[a-z0-9._-]{1,64}$/;

/** The most RE2 instructions all `match` patterns of one contract may compile to. */
const MAX_CONTRACT_PROGRAM = 20000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One item's validation: the item, or every problem of it. */
function validateItem(
  raw: unknown,
  index: number,
  warnings: string[],
  patterns: PatternContext,
): { item?: ContractItem; errors: string[] } {
  const at = `item ${index + 1}`;
  if (!isRecord(raw)) return { errors: [`${at} is not a mapping`] };
  const errors: string[] = [];
  const id = raw.id;
  const idOk = typeof id === "string" && ID_RE.test(id);
  if (!idOk) {
    errors.push(
      `${at}: id must be lowercase letters, digits, '.', '_' or '-' (got ${
        typeof id === "string" ? JSON.stringify(id.slice(0, 40)) : typeof id
      })`,
    );
  }
  // Later messages name the item by its id when it has a valid one, else by its position.
  const where = idOk ? `item ${JSON.stringify(id)}` : at;
  const kind = raw.kind;
  const known = isContractKind(kind);
  if (!known) {
    errors.push(
      `${where}: unknown kind ${
        typeof kind === "string" ? JSON.stringify(kind.slice(0, 60)) : String(kind)
      } (known: ${CONTRACT_KINDS.join(", ")})`,
    );
  }
  const fix = optionalText(raw, "fix", where);
  if (fix instanceof Error) errors.push(fix.message);
  const summary = optionalText(raw, "summary", where);
  if (summary instanceof Error) errors.push(summary.message);
  const hold = raw.hold;
  const holdOk = hold === undefined || hold === null ||
    (typeof hold === "number" && Number.isInteger(hold) && hold >= 1 && hold <= MAX_HOLD);
  if (!holdOk) {
    errors.push(`${where}: hold must be a whole number from 1 to ${MAX_HOLD} (blocks per run)`);
  }
  if (!known) return { errors };
  const def = itemKind(kind);
  for (const key of Object.keys(raw)) {
    if (!BASE_KEYS.includes(key) && !def.keys.includes(key)) {
      if (def.refusedKeys && Object.hasOwn(def.refusedKeys, key)) {
        errors.push(`${where}: ${def.refusedKeys[key]}`);
      } else {
        warnings.push(`${where}: unknown field ${JSON.stringify(key.slice(0, 40))} ignored`);
      }
    }
  }
  const base: ItemBase = { id: idOk ? id : "" };
  if (typeof fix === "string") base.fix = fix;
  if (typeof summary === "string") base.summary = summary;
  if (holdOk && typeof hold === "number") base.hold = hold;
  const scope: ValidationScope = { where, patterns };
  // The kind's own fields are checked even when the common ones failed, so one run shows all.
  const item = def.validate(raw, base, scope);
  if (item instanceof Error) errors.push(item.message);
  return errors.length > 0 || item instanceof Error ? { errors } : { item, errors };
}

/** Whether any item of a raw contract has a string `match` (so the regex engine is needed). */
function hasMatch(items: unknown[]): boolean {
  return items.some((i) => isRecord(i) && typeof i.match === "string");
}

/**
 * Validates a frontmatter `contract:` value against schema v1 and compiles its `match` patterns
 * (loading the linear-time regex engine only when an item has one). Every problem is found in one
 * pass (each item's id, kind, common fields and the kind's own fields, duplicate ids); a version
 * other than 1 stops there, since the items of another version mean something else. Never rejects.
 *
 * @param raw The parsed `contract` value.
 * @returns The contract, or every problem found (sentences naming the item and the field).
 */
export async function validateContract(raw: unknown): Promise<ContractValidation> {
  const warnings: string[] = [];
  const errors: string[] = [];
  const failed = (): ContractValidation => ({ ok: false, error: errors[0], errors, warnings });
  if (!isRecord(raw)) {
    errors.push("contract is not a mapping with version and items");
    return failed();
  }
  const version = raw.version;
  if (version === undefined) errors.push("contract has no version");
  else if (version !== 1) {
    errors.push(`unsupported contract version ${JSON.stringify(version)} (supported: 1)`);
    return failed();
  }
  for (const key of Object.keys(raw)) {
    if (key !== "version" && key !== "items") {
      warnings.push(`contract: unknown field ${JSON.stringify(key.slice(0, 40))} ignored`);
    }
  }
  const items = raw.items;
  if (!Array.isArray(items) || items.length === 0) {
    errors.push("contract items must be a non-empty list");
    return failed();
  }
  if (items.length > MAX_CONTRACT_ITEMS) {
    errors.push(`contract has ${items.length} items (at most ${MAX_CONTRACT_ITEMS})`);
  }
  let engine: UserRegexEngine | undefined;
  if (hasMatch(items)) {
    try {
      engine = await loadUserRegexEngine();
    } catch {
      engine = undefined; // Each match then reports that it cannot be compiled.
    }
  }
  const patterns: PatternContext = { engine, budget: { left: MAX_CONTRACT_PROGRAM } };
  const out: ContractItem[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const r = validateItem(items[i], i, warnings, patterns);
    errors.push(...r.errors);
    const id = isRecord(items[i]) ? (items[i] as Record<string, unknown>).id : undefined;
    if (typeof id === "string" && ID_RE.test(id)) {
      if (seen.has(id)) errors.push(`duplicate item id ${JSON.stringify(id)}`);
      seen.add(id);
    }
    if (r.item) out.push(r.item);
  }
  if (errors.length > 0) return failed();
  return { ok: true, contract: { version: 1, items: out }, warnings };
}

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
  optionalString,
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

/** The result of {@link validateContract}. */
export type ContractValidation =
  | { ok: true; contract: Contract; warnings: string[] }
  | { ok: false; error: string; warnings: string[] };

const ID_RE = /^[a-z0-9._-]{1,64}$/;

/** The most RE2 instructions all `match` patterns of one contract may compile to. */
const MAX_CONTRACT_PROGRAM = 20000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function validateItem(
  raw: unknown,
  index: number,
  warnings: string[],
  patterns: PatternContext,
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
  if (!isContractKind(kind)) {
    return new Error(
      `${where}: unknown kind ${
        typeof kind === "string" ? JSON.stringify(kind.slice(0, 60)) : String(kind)
      } (known: ${CONTRACT_KINDS.join(", ")})`,
    );
  }
  const def = itemKind(kind);
  const fix = optionalString(raw, "fix", where);
  if (fix instanceof Error) return fix;
  const summary = optionalString(raw, "summary", where);
  if (summary instanceof Error) return summary;
  for (const key of Object.keys(raw)) {
    if (!BASE_KEYS.includes(key) && !def.keys.includes(key)) {
      if (def.refusedKeys && Object.hasOwn(def.refusedKeys, key)) {
        return new Error(`${where}: ${def.refusedKeys[key]}`);
      }
      warnings.push(`${where}: unknown field ${JSON.stringify(key.slice(0, 40))} ignored`);
    }
  }
  const base: ItemBase = { id };
  if (fix !== undefined) base.fix = fix;
  if (summary !== undefined) base.summary = summary;
  const scope: ValidationScope = { where, patterns };
  return def.validate(raw, base, scope);
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
  const patterns: PatternContext = { engine, budget: { left: MAX_CONTRACT_PROGRAM } };
  const out: ContractItem[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const item = validateItem(items[i], i, warnings, patterns);
    if (item instanceof Error) return { ok: false, error: item.message, warnings };
    if (seen.has(item.id)) {
      return { ok: false, error: `duplicate item id ${JSON.stringify(item.id)}`, warnings };
    }
    seen.add(item.id);
    out.push(item);
  }
  return { ok: true, contract: { version: 1, items: out }, warnings };
}

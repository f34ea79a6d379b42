/**
 * Opt-in contracts for built-in pack skills that state a checkable output: what each skill's own
 * text says a run of it ends with. They apply when the user opts in (config `contract_packs`,
 * e.g. `superpowers`) and only to an installed skill the pack's entry matches by name and text
 * (`pack_match.ts`, as `packs.ts` does for triggers), and only when the skill has no contract of
 * its own or from an overlay file: an overlay's beats the skill's own, which beats the pack's.
 *
 * Each entry repeats its skill's opening words from `pack_data.ts` (a test keeps them equal), so
 * the contract hook asks without loading the pack data.
 *
 * @module
 */

import { type PackCandidate, packEntryApplies } from "./pack_match.ts";

/** A pack skill's contract: pack, skill name, the opening words of its description, contract. */
export interface PackContract {
  /** The pack (`superpowers`). */
  readonly pack: string;
  /** The skill's name, as in `pack_data.ts`. */
  readonly name: string;
  /** The opening words of its description, as in `pack_data.ts`. */
  readonly opening: string;
  /** The contract (schema v1). */
  readonly contract: unknown;
}

const SP = "superpowers";

/** The pack contracts. */
export const PACK_CONTRACTS: readonly PackContract[] = Object.freeze([
  // "Write the test first. Watch it fail. Write minimal code to pass."
  {
    pack: SP,
    name: "test-driven-development",
    opening: "use when implementing any feature or bugfix, before writing implementation code",
    contract: {
      version: 1,
      items: [{
        id: "test-first",
        kind: "test_first",
        summary: "a failing test before the code, and the tests passing at the end",
      }],
    },
  },
  // "NO COMPLETION CLAIMS WITHOUT FRESH VERIFICATION EVIDENCE"
  {
    pack: SP,
    name: "verification-before-completion",
    opening: "use when about to claim work is complete, fixed, or passing, before",
    contract: {
      version: 1,
      items: [{
        id: "checks-passed",
        kind: "check_passed_after_last_edit",
        summary: "a check ran after the last edit and passed",
      }],
    },
  },
  // "Save plans to: docs/superpowers/plans/YYYY-MM-DD-<feature-name>.md"
  {
    pack: SP,
    name: "writing-plans",
    opening: "use when you have a spec or requirements for a multi-step task,",
    contract: {
      version: 1,
      items: [{
        id: "plan-saved",
        kind: "file_written",
        path: "docs/superpowers/plans/*.md",
        summary: "the plan saved under docs/superpowers/plans/",
      }],
    },
  },
  // "Write the validated design (spec) to docs/superpowers/specs/YYYY-MM-DD-<topic>-design.md"
  {
    pack: SP,
    name: "brainstorming",
    opening: "you must use this before any creative work - creating features, building",
    contract: {
      version: 1,
      items: [{
        id: "design-saved",
        kind: "file_written",
        path: "docs/superpowers/specs/*-design.md",
        summary: "the design saved under docs/superpowers/specs/",
      }],
    },
  },
  // Phase 4: "Verify fix: test passes now".
  {
    pack: SP,
    name: "systematic-debugging",
    opening:
      "use when encountering any bug, test failure, or unexpected behavior, before proposing",
    contract: {
      version: 1,
      items: [{
        id: "fix-verified",
        kind: "check_passed_after_last_edit",
        summary: "after the fix, a test or repro ran and passed",
      }],
    },
  },
  // Step 1: "Verify Tests: Run the project's full test suite".
  {
    pack: SP,
    name: "finishing-a-development-branch",
    opening: "use when implementation is complete, all tests pass, and you need to",
    contract: {
      version: 1,
      items: [{
        id: "tests-pass",
        kind: "check_passed_after_last_edit",
        summary: "the test suite passed after the last edit",
      }],
    },
  },
] as PackContract[]);

/** The packs that have contracts. */
export const CONTRACT_PACK_NAMES: readonly string[] = [
  ...new Set(PACK_CONTRACTS.map((c) => c.pack)),
];

/**
 * The pack contract that applies to an installed skill: one of `packs`' entries matches it by name
 * and text.
 *
 * @param skill The installed skill.
 * @param packs The packs to apply (config `contract_packs`).
 * @returns The pack and its contract, or `undefined`.
 */
export function packContractFor(
  skill: PackCandidate,
  packs: readonly string[],
): PackContract | undefined {
  if (packs.length === 0) return undefined;
  return PACK_CONTRACTS.find((c) =>
    packs.includes(c.pack) && packEntryApplies(c.name, c.opening, skill)
  );
}

/**
 * Gives skills a pack's opt-in contract: each that has no contract (its own or an overlay's) and
 * that an entry of one of `packs` matches.
 *
 * @param skills The skills, overlays applied.
 * @param packs The packs.
 * @returns The skills, those given a pack's contract marked with its pack (`contractPack`).
 */
export function withPackContracts<
  T extends PackCandidate & { readonly contract?: unknown; readonly contractPack?: string },
>(skills: readonly T[], packs: readonly string[] = []): T[] {
  if (packs.length === 0) return [...skills];
  return skills.map((s) => {
    const p = s.contract !== undefined && s.contract !== null
      ? undefined
      : packContractFor(s, packs);
    return p ? { ...s, contract: p.contract, contractPack: p.pack } : s;
  });
}

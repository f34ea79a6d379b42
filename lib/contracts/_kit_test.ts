/**
 * Shared helpers of the contract checker's tests (named `_test.ts` so it is never published):
 * validated contracts, runs built from transcript records, and the check of a run.
 *
 * @module
 */

import { checkContract, type CheckOptions, type CheckResult } from "./check.ts";
import { type Contract, validateContract } from "./schema.ts";
import { parseTranscriptText } from "../transcript/read.ts";
import type { TranscriptRun } from "../transcript/model.ts";
import { jsonl, type Rec, SESSION } from "../../fixtures/transcripts/_build.ts";
import { parseFrontmatter } from "../catalog/frontmatter.ts";
import type { StopInput } from "./stop.ts";

/** The transcript fixtures. */
export const FIX: URL = new URL("../../fixtures/transcripts/", import.meta.url);

/** A validated contract (throws on an invalid one). */
export async function contract(raw: unknown): Promise<Contract> {
  const v = await validateContract(raw);
  if (!v.ok) throw new Error(v.error);
  return v.contract;
}

/** The contract of the fixture world's investigate SKILL.md (`fixtures/world/skills`). */
const WORLD_INVESTIGATE: Contract = await contract(
  (await parseFrontmatter(
    Deno.readTextFileSync(
      new URL("../../fixtures/world/skills/investigate/SKILL.md", import.meta.url),
    ),
  )).data.contract,
);

/** The session id the contract tests write records under (the fixture transcripts' own). */
export { SESSION };

/**
 * A Stop's input for a run of the fixture world's investigate skill: interactive, not after a
 * block, in {@link SESSION}; `fields` changes any of it.
 *
 * @param run The run.
 * @param fields Its time, and what differs.
 * @returns The input.
 */
export function investigateStop(
  run: TranscriptRun,
  fields: Pick<StopInput, "now"> & Partial<StopInput>,
): StopInput {
  return {
    run,
    contract: WORLD_INVESTIGATE,
    skill: "investigate",
    stopHookActive: false,
    kind: "interactive",
    sessionId: SESSION,
    command: "skillgate",
    ...fields,
  };
}

/** The seed's investigate contract: a DEBUG REPORT and a repro after the fix. */
export const INVESTIGATE: Contract = await contract({
  version: 1,
  items: [
    {
      id: "debug-report",
      kind: "report_labels",
      heading: "DEBUG REPORT",
      labels: ["Symptom", "Root cause", "Fix", "Evidence"],
    },
    { id: "repro-after-fix", kind: "check_after_last_edit" },
  ],
});

/** The seed's review contract: the selected specialists are dispatched. */
export const REVIEW: Contract = await contract({
  version: 1,
  items: [{ id: "specialists", kind: "selected_specialists_dispatched" }],
});

/** The run of a skill in records or JSONL text (throws when there is none). */
export function runOf(records: Rec[] | string, skill = "investigate"): TranscriptRun {
  const text = typeof records === "string" ? records : jsonl(records);
  const read = parseTranscriptText(text, { skill });
  if (read.kind !== "ok") throw new Error(`No run: ${read.kind}`);
  return read.run;
}

/** Checks records against a contract (investigate by default, review for {@link REVIEW}). */
export function check(
  records: Rec[],
  c: Contract = INVESTIGATE,
  opts: Partial<CheckOptions> = {},
): CheckResult {
  const skill = opts.skill ?? (c === REVIEW ? "review" : "investigate");
  return checkContract(runOf(records, skill), c, { skill, ...opts });
}

/** Each item's status, by id. */
export function statuses(r: CheckResult): Record<string, string> {
  return Object.fromEntries(r.items.map((i) => [i.id, i.status]));
}

/** What `skillgate contract waive repro-after-fix` prints (the checker requires it). */
export const ACK =
  "Waived repro-after-fix for investigate: x. This waiver counts for this session's current run only.";

/** A complete DEBUG REPORT. */
export const REPORT = "DEBUG REPORT\nSymptom: login crashed on a null user\nRoot cause: " +
  "session.user was null\nFix: optional chaining in currentUser\nEvidence: bun test: 2 pass\nStatus: DONE";

/** The problem `validateContract` finds in a contract expected to be invalid. */
export async function validationError(raw: unknown): Promise<string> {
  const v = await validateContract(raw);
  if (v.ok) throw new Error("Expected an invalid contract");
  return v.error;
}

/**
 * Shared helpers of the contract report's tests (named `_test.ts` so it is never published):
 * session records as the Stop hook leaves them, in a temporary state root.
 *
 * @module
 */

import { join } from "node:path";
import { FIXTURES, type TempWorld } from "../../tests/_helpers.ts";
import type { Rechecker } from "./report.ts";
import { type RunRecord, updateSessionRecord, upsertRun } from "./records.ts";
import { decideStop } from "./stop.ts";
import { investigateStop } from "./_kit_test.ts";
import { parseTranscriptText } from "../transcript/read.ts";

/** The time of every record. */
export const NOW: Date = new Date("2026-11-05T10:00:00.000Z");

/** A transcript fixture's text. */
function fixtureText(name: string): string {
  return Deno.readTextFileSync(join(FIXTURES, "transcripts", `${name}.jsonl`));
}

/** The run record the Stop hook would leave after stops on these fixtures, in order. */
export function hookRecord(fixtures: string[], _recordedAs: string): RunRecord {
  let rec: RunRecord | undefined;
  for (const f of fixtures) {
    const r = parseTranscriptText(fixtureText(f), { skill: "investigate" });
    if (r.kind !== "ok") throw new Error(f);
    rec = decideStop(investigateStop(r.run, { now: NOW }), rec).next ?? rec;
  }
  return rec!;
}

/** Writes a session's record with one run. */
export function writeRecord(
  root: string,
  session: string,
  run: RunRecord,
  transcript?: string,
): void {
  updateSessionRecord(root, session, (cur) => ({
    record: upsertRun(cur, session, run, NOW, transcript),
    result: 0,
  }));
}

/** Runs `fn` with a temporary state root. */
export async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-report-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A re-check that never can. */
export const noRecheck: Rechecker = () => Promise.resolve({ note: "transcript is gone" });

/** Copies a transcript fixture under the world's Claude projects directory. */
export function installTranscript(world: TempWorld, fixture: string, session: string): string {
  const dir = join(world.claudeDir, "projects", "-work-project");
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, `${session}.jsonl`);
  Deno.copyFileSync(join(FIXTURES, "transcripts", `${fixture}.jsonl`), path);
  return path;
}

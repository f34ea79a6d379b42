/**
 * Helpers the transcript module tests share (a `_test.ts` name keeps it out of the package).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RunRead, TranscriptRun } from "./model.ts";
import { parseTranscriptText } from "./read.ts";
import { jsonl, type Rec } from "../../fixtures/transcripts/_build.ts";

/** The run of a read that must have found one. */
export function ok(read: RunRead): TranscriptRun {
  assert.equal(read.kind, "ok", `expected a run, got ${JSON.stringify(read).slice(0, 300)}`);
  return (read as { kind: "ok"; run: TranscriptRun }).run;
}

/** Reads records (or JSONL text) as a transcript, for the skill's last run. */
export function parse(records: Rec[] | string, skill = "investigate", extra = {}): RunRead {
  const text = typeof records === "string" ? records : jsonl(records);
  return parseTranscriptText(text, { skill, ...extra });
}

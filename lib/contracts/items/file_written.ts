/**
 * The `file_written` item kind: a file matching the item's `path` glob was created or changed in
 * the run, by an edit tool (Write, Edit, MultiEdit, NotebookEdit; Copilot CLI's `create` and
 * `edit`; Codex CLI's `apply_patch`) or by a plain shell redirect or `tee`
 * (`../commands/redirects.ts` says which). The glob is relative to the session's project
 * directory, or absolute (`./glob.ts`).
 *
 * @module
 */

import { sanitizeLine } from "../../base/sanitize.ts";
import { writtenPaths } from "./edits.ts";
import { globProblem, pathMatches } from "./glob.ts";
import {
  type CheckInput,
  type ItemBase,
  type ItemKind,
  optionalString,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `file_written`: a file matching `path` was written in the run. */
export interface FileWrittenItem extends ItemBase {
  /** The kind. */
  kind: "file_written";
  /** A glob (`*`, `**`, `?`, `{a,b}`), relative to the project directory or absolute. */
  path: string;
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  { where }: ValidationScope,
): FileWrittenItem | Error {
  const path = optionalString(raw, "path", where);
  if (path instanceof Error) return path;
  if (path === undefined) return new Error(`${where}: file_written needs path`);
  const problem = globProblem(path);
  if (problem) return new Error(`${where}: path ${problem}`);
  return { ...base, kind: "file_written", path };
}

function check(item: FileWrittenItem, { run }: CheckInput): Verdict {
  for (const c of run.toolCalls) {
    const hit = writtenPaths(c).find((p) => pathMatches(item.path, p, run.cwd));
    if (hit !== undefined) {
      return { met: true, detail: `${sanitizeLine(hit, 120)} was written` };
    }
  }
  return { met: false, detail: `no file matching ${sanitizeLine(item.path, 120)} was written` };
}

/** The `file_written` kind. */
export const fileWritten: ItemKind<FileWrittenItem> = {
  kind: "file_written",
  keys: ["path"],
  validate,
  check,
  fix: (item) => `write the file to ${sanitizeLine(item.path, 120)}`,
};

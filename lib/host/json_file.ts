/**
 * Reads, transforms and writes a host's JSON hook file (Claude Code's `settings.json`, Copilot
 * CLI's `hooks/skillgate.json`, ...) the careful way (gstack's hardened writer, anchors §B.1): a
 * file that is not valid JSON (with comments, where the host allows them) is refused and left
 * unchanged; a backup before each write; an atomic write under a lock that keeps the file's other
 * keys and its mode; no write at all when nothing changed, so a second run is byte-identical; and a
 * diff for `--dry-run`. What goes into the file is the shared merge's business (`hook_file.ts`).
 *
 * @module
 */

import { pathKey } from "../base/path.ts";
import { exists } from "../base/fs.ts";
import { basename, dirname, join } from "node:path";
import { sanitizeLine } from "../base/sanitize.ts";
import { withLock, writeFileAtomic } from "../base/state_file.ts";
import { isJsonObject, jsonEqual, type JsonObject } from "./json.ts";
import { editJsonText, parseJsonc } from "./json_edit.ts";

/** Thrown when a hook file (a host's settings) cannot be used safely; the file is left unchanged. */
export class SettingsFileError extends Error {
  /** The file that was refused. */
  readonly path: string;
  /**
   * Makes the error.
   *
   * @param path The file.
   * @param message What is wrong.
   */
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
    this.name = "SettingsFileError";
  }
}

/**
 * Parses a settings file's text. Only a JSON object is accepted; anything else is refused so that
 * the file is never overwritten.
 *
 * @param text The file's text.
 * @param path The file, for the message.
 * @param comments Whether the file may hold `//` and `/* *\/` comments (its host strips them:
 *   Gemini CLI's `settings.json`).
 * @returns The object.
 * @throws {SettingsFileError} When the text is not a JSON object.
 */
export function parseJsonObjectText(text: string, path: string, comments = false): JsonObject {
  let value: unknown;
  try {
    const body = text.replace(/^\uFEFF/, "");
    value = comments ? parseJsonc(body) : JSON.parse(body);
  } catch (err) {
    const why = sanitizeLine(err instanceof Error ? err.message : String(err), 160);
    throw new SettingsFileError(
      path,
      `${path} is not valid JSON (${why}); skillgate leaves it unchanged. Fix or move it, then run setup again`,
    );
  }
  if (!isJsonObject(value)) {
    throw new SettingsFileError(
      path,
      `${path} does not hold a JSON object; skillgate leaves it unchanged`,
    );
  }
  return value;
}

/**
 * Renders a JSON object the way the file was written: with a previous text, that text changed by
 * the fewest textual edits in its own formatting (`editJsonText`: the user's key order, spacing
 * and one-line arrays stay); else two-space JSON with a final newline.
 *
 * @param value The object.
 * @param previous The file's previous text, if any.
 * @returns The text.
 */
export function renderJson(value: unknown, previous?: string): string {
  if (previous !== undefined) {
    try {
      return editJsonText(previous, value);
    } catch (err) {
      // Not JSON: written whole below (callers refuse such a file before they get here). An edit
      // that would lose the file's comments is refused.
      if (!(err instanceof SyntaxError)) throw err;
    }
  }
  let indent: string | number = 2;
  const m = previous === undefined ? null : /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(previous);
  if (m) indent = m[1];
  const eol = previous !== undefined && /\r\n/.test(previous) ? "\r\n" : "\n";
  const text = JSON.stringify(value, null, indent) + "\n";
  return eol === "\n" ? text : text.replaceAll("\n", "\r\n");
}

/**
 * A unified diff of two texts, line by line, with three lines of context.
 *
 * @param before The old text.
 * @param after The new text.
 * @param label The file name shown in the header.
 * @returns The diff, or an empty string when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return "";
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (
    suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]
  ) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  // Line ops over the differing middle: an LCS table when small, else a plain replace.
  const ops: Array<[" " | "-" | "+", string]> = [];
  for (let i = 0; i < pre; i++) ops.push([" ", a[i]]);
  if (am.length * bm.length <= 4_000_000) {
    const n = am.length;
    const m = bm.length;
    const lcs = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] = am[i] === bm[j]
          ? lcs[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        ops.push([" ", am[i++]]);
        j++;
      } else if (i < n && (j >= m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) {
        ops.push(["-", am[i++]]);
      } else {
        ops.push(["+", bm[j++]]);
      }
    }
  } else {
    for (const line of am) ops.push(["-", line]);
    for (const line of bm) ops.push(["+", line]);
  }
  for (let i = a.length - suf; i < a.length; i++) ops.push([" ", a[i]]);

  const out = [`--- ${label}`, `+++ ${label} (after skillgate setup)`];
  const context = 3;
  let k = 0;
  while (k < ops.length) {
    if (ops[k][0] === " ") {
      k++;
      continue;
    }
    let start = Math.max(0, k - context);
    let end = k;
    // Extend the hunk while changes are within 2 * context lines of each other.
    while (end < ops.length) {
      let next = end;
      while (next < ops.length && ops[next][0] !== " ") next++;
      let gap = next;
      while (gap < ops.length && ops[gap][0] === " ") gap++;
      if (gap < ops.length && gap - next <= 2 * context) end = gap;
      else {
        end = Math.min(ops.length, next + context);
        break;
      }
    }
    let oldLine = 1;
    let newLine = 1;
    for (let i = 0; i < start; i++) {
      if (ops[i][0] !== "+") oldLine++;
      if (ops[i][0] !== "-") newLine++;
    }
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o[0] !== "+").length;
    const newCount = hunk.filter((o) => o[0] !== "-").length;
    out.push(`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`);
    for (const [op, line] of hunk) out.push(`${op}${line}`);
    k = end;
    start = end;
  }
  return out.join("\n") + "\n";
}

/** Options of {@link updateJsonFile}. */
export interface UpdateOptions {
  /** Compute and return the change without writing anything (no lock, no backup). */
  readonly dryRun?: boolean;
  /** How long to wait for the lock (default 10 s). */
  readonly lockTimeoutMs?: number;
  /** How many skillgate backups of this file to keep (default 5). */
  readonly keepBackups?: number;
  /** Mode of the folder when it must be created (default 0755; the file itself gets 0600). */
  readonly dirMode?: number;
  /**
   * A private folder for the lock and the backups (skillgate's state root). Without it they sit
   * beside the file; with it, a project's `.claude/` gets nothing but its `settings.json`.
   */
  readonly stateDir?: string;
  /**
   * The file may hold `//` and `/* *\/` comments (its host strips them: Gemini CLI's
   * `settings.json`): they are read past and kept, every one, in place.
   */
  readonly comments?: boolean;
}

/** What {@link updateJsonFile} did. */
export interface UpdateResult {
  /** The file actually written (a symlink's target). */
  readonly path: string;
  /** `unchanged`: nothing written; `written`, `created`, `deleted`; `dry-run`: would change. */
  readonly status: "unchanged" | "written" | "created" | "deleted" | "dry-run";
  /** The diff of the change (empty when unchanged). */
  readonly diff: string;
  /** The backup taken before writing, if any. */
  readonly backupPath?: string;
}

function readTextOrUndefined(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) throw new SettingsFileError(path, `${path} is not a regular file`);
    if (info.size > 16 * 1024 * 1024) {
      throw new SettingsFileError(path, `${path} is larger than 16 MiB; skillgate leaves it alone`);
    }
    const bytes = Deno.readFileSync(path);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new SettingsFileError(path, `${path} is not UTF-8 text; skillgate leaves it unchanged`);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** Resolves a symlinked file to its target, so the link itself survives the write. */
function realTarget(path: string): string {
  try {
    if (Deno.lstatSync(path).isSymlink) return Deno.realPathSync(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return path;
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\.(\d+)Z$/, "$1Z");
}

/** Where a file's lock and backups go: beside it, or in the state folder under a key of its path. */
function sidePaths(path: string, stateDir?: string): { lock: string; dir: string; prefix: string } {
  if (stateDir === undefined) {
    return {
      lock: `${path}.lock`,
      dir: dirname(path),
      prefix: `${basename(path)}.skillgate-backup.`,
    };
  }
  const key = `${basename(path).replace(/[^A-Za-z0-9._-]/g, "_")}.${pathKey(path)}`;
  return {
    lock: join(stateDir, "locks", `${key}.lock`),
    dir: join(stateDir, "backups"),
    prefix: `${key}.skillgate-backup.`,
  };
}

/**
 * The backups skillgate took of a file, oldest first.
 *
 * @param path The file (a symlink's target, as {@link UpdateResult.path} gives it).
 * @param stateDir The state folder the update used, if any ({@link UpdateOptions.stateDir}).
 * @returns Backup paths (`<file>.skillgate-backup.<time>.<pid>`, or in `<stateDir>/backups/`
 *   `<name>.<key>.skillgate-backup.<time>.<pid>`).
 */
export function listBackups(path: string, stateDir?: string): string[] {
  const { dir, prefix } = sidePaths(path, stateDir);
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile && entry.name.startsWith(prefix)) names.push(entry.name);
    }
  } catch {
    return [];
  }
  return names.sort().map((n) => join(dir, n));
}

function backup(path: string, bytes: Uint8Array, keep: number, stateDir?: string): string {
  const { dir, prefix } = sidePaths(path, stateDir);
  if (stateDir !== undefined) Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Two backups in one millisecond by one process get a counter, so neither replaces the other.
  const base = join(dir, `${prefix}${timestamp()}.${Deno.pid}`);
  let target = base;
  for (let i = 1; exists(target); i++) target = `${base}.${i}`;
  writeFileAtomic(target, bytes);
  const all = listBackups(path, stateDir);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) {
    try {
      Deno.removeSync(old);
    } catch {
      // A backup someone else removed is fine.
    }
  }
  return target;
}

/**
 * Reads a JSON object file, transforms it and writes the result safely.
 *
 * - A missing file reads as `undefined`; a file that is not a JSON object is refused
 *   ({@link SettingsFileError}) and never overwritten.
 * - When the transform's result equals the current content, nothing is written (no backup, no
 *   temp file), so the file stays byte-identical.
 * - Otherwise, under an exclusive lock on `<file>.lock`: the file is re-read, transformed, backed up
 *   (`<file>.skillgate-backup.<time>.<pid>`, 0600, the last few kept), and replaced atomically with
 *   its previous mode. A symlinked file is written through to its target. With
 *   {@link UpdateOptions.stateDir}, the lock and the backups live in that folder instead.
 * - A transform returning `undefined` deletes the file (after a backup).
 *
 * @param path The file.
 * @param transform Builds the new content from the current one (called again under the lock).
 * @param options Dry run, lock timeout, backups.
 * @returns What was done.
 * @throws {SettingsFileError} When the file cannot be used safely.
 */
export function updateJsonFile(
  path: string,
  transform: (current: JsonObject | undefined) => JsonObject | undefined,
  options: UpdateOptions = {},
): UpdateResult {
  const target = realTarget(path);
  const plan = () => {
    const before = readTextOrUndefined(target);
    const current = before === undefined
      ? undefined
      : parseJsonObjectText(before, path, options.comments);
    const next = transform(current);
    const unchanged = next === undefined ? current === undefined : jsonEqual(current, next);
    let after = "";
    try {
      after = next === undefined ? "" : renderJson(next, before);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new SettingsFileError(path, `${path}: ${why}; skillgate leaves it unchanged`);
    }
    return { before, next, unchanged, after };
  };
  if (options.dryRun) {
    const p = plan();
    return {
      path: target,
      status: p.unchanged ? "unchanged" : "dry-run",
      diff: p.unchanged ? "" : unifiedDiff(p.before ?? "", p.after, path),
    };
  }
  // A cheap look first: an unchanged file is not locked, backed up or touched at all.
  const first = plan();
  if (first.unchanged) return { path: target, status: "unchanged", diff: "" };
  Deno.mkdirSync(dirname(target), { recursive: true, mode: options.dirMode ?? 0o755 });
  const side = sidePaths(target, options.stateDir);
  return withLock(side.lock, () => {
    const p = plan();
    if (p.unchanged) return { path: target, status: "unchanged" as const, diff: "" };
    const diff = unifiedDiff(p.before ?? "", p.after, path);
    let mode = 0o600;
    let backupPath: string | undefined;
    if (p.before !== undefined) {
      mode = (Deno.statSync(target).mode ?? 0o600) & 0o777;
      backupPath = backup(
        target,
        Deno.readFileSync(target),
        options.keepBackups ?? 5,
        options.stateDir,
      );
    }
    if (p.next === undefined) {
      Deno.removeSync(target);
      return { path: target, status: "deleted" as const, diff, backupPath };
    }
    writeFileAtomic(target, p.after);
    if (mode !== 0o600 && Deno.build.os !== "windows") Deno.chmodSync(target, mode);
    return {
      path: target,
      status: p.before === undefined ? "created" as const : "written" as const,
      diff,
      backupPath,
    };
  }, { timeoutMs: options.lockTimeoutMs ?? 10_000 });
}

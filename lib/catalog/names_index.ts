/**
 * The names indexes (`<state root>/catalog/skills.names.json`, `agents.names.json`): per root of
 * the catalog index, the names of its skills or agents with each one's file and mtime, the
 * folders it watches with theirs, and when every file was last found current. They are written
 * with the catalog's own indexes and answer "is this name a skill / an agent" (the redirect's
 * PreToolUse question) for a fraction of the full index's parse.
 *
 * Freshness, the routing index's rule applied to one name (see `lib/routing/route_index.ts`): an
 * answer stands while
 * - every watched folder of every root still has its mtime: a root, the folders on the way to a
 *   skill or agent, an agent's folder (a skill or agent added, removed or renamed, and an agent
 *   file replaced atomically, change one of them), seen at once;
 * - the file of each entry that has the name still has its mtime (any edit of it, seen at once);
 * - and, once a root's last full check is older than {@link NAMES_SWEEP_MS}, every file of the root
 *   still has its mtime. An edit of another file (a skill's folder is not watched, so this covers
 *   a SKILL.md replaced atomically too) is therefore seen within a minute.
 *
 * The time of a root's last full check is the time its index was written, or a later one kept in
 * a sweep file by a reader that may not write the index (the redirect keeps one under its own
 * folder).
 *
 * @module
 */

import { writeFileAtomic } from "../base/state_file.ts";
import { join } from "../base/path.ts";

/** How old a root's last full check may get before a lookup checks every file again. */
export const NAMES_SWEEP_MS = 60_000;

const NAMES_VERSION = 1;

/** What the names index needs of a catalog index's root. */
export interface NamedRoot {
  /** Every watched path (folders, files, symlink keys) and its mtime. */
  readonly mtimes: Readonly<Record<string, number>>;
  /** Its skills or agents: names, file, mtime. */
  readonly entries: readonly {
    readonly name: string;
    readonly altName?: string;
    readonly file: string;
    readonly mtimeMs: number;
  }[];
}

/**
 * One root as the names file keeps it: watched folders (and symlink keys) with their mtimes, every
 * file with its mtime, each entry as [name, file index, alt name], and the last full check.
 */
interface NamesRoot {
  d: Record<string, number>;
  f: string[];
  m: number[];
  n: ([string, number] | [string, number, string])[];
  s: number;
}

interface NamesFile {
  version: number;
  roots: Record<string, NamesRoot>;
}

/** The kinds of names index. */
export type NamesKind = "skills" | "agents";

function namesPath(stateRoot: string, kind: NamesKind): string {
  return join(stateRoot, "catalog", `${kind}.names.json`);
}

/**
 * Whether a watched key is a file (checked for its entry and by the sweep) rather than a folder
 * or a symlink key (checked on every lookup): an entry's file, or a file the scan skipped.
 */
function isFileKey(kind: NamesKind, key: string, files: ReadonlySet<string>): boolean {
  if (files.has(key)) return true;
  if (key.endsWith("\0link")) return false;
  return kind === "skills" ? /[/\\]SKILL\.md$/.test(key) : /\.(?:md|toml)$/i.test(key);
}

/**
 * Writes the names index of a kind from the roots of its catalog index.
 *
 * @param stateRoot The state root.
 * @param kind Skills or agents.
 * @param roots The roots by key, each with the time all its files were last found current (0:
 *   unknown).
 * @throws {Error} When the file cannot be written.
 */
export function writeNamesIndex(
  stateRoot: string,
  kind: NamesKind,
  roots: readonly { key: string; root: NamedRoot; checked: number }[],
): void {
  const out: Record<string, NamesRoot> = {};
  for (const { key, root, checked } of roots) {
    const named = new Set(root.entries.map((e) => e.file));
    const d: Record<string, number> = {};
    const f: string[] = [];
    const m: number[] = [];
    for (const [path, mtime] of Object.entries(root.mtimes)) {
      if (isFileKey(kind, path, named)) {
        f.push(path);
        m.push(mtime);
      } else d[path] = mtime;
    }
    const at = new Map(f.map((p, i) => [p, i]));
    const n = root.entries.map((e): NamesRoot["n"][number] => {
      const i = at.get(e.file) ?? -1;
      return e.altName === undefined ? [e.name, i] : [e.name, i, e.altName];
    });
    out[key] = { d, f, m, n, s: checked };
  }
  writeFileAtomic(
    namesPath(stateRoot, kind),
    JSON.stringify({ version: NAMES_VERSION, roots: out }),
  );
}

/**
 * The last full check of each root, as the names file has it (for a writer that keeps roots of
 * other projects).
 *
 * @param stateRoot The state root.
 * @param kind Skills or agents.
 * @returns The times by root key (none when there is no file).
 */
export function namesChecked(stateRoot: string, kind: NamesKind): Record<string, number> {
  const file = readNames(namesPath(stateRoot, kind));
  const out: Record<string, number> = {};
  for (const [key, r] of Object.entries(file?.roots ?? {})) out[key] = r.s;
  return out;
}

/**
 * Whether the names index of a kind exists.
 *
 * @param stateRoot The state root.
 * @param kind Skills or agents.
 * @returns `true` when the file is there.
 */
export function hasNamesIndex(stateRoot: string, kind: NamesKind): boolean {
  try {
    return Deno.statSync(namesPath(stateRoot, kind)).isFile;
  } catch {
    return false;
  }
}

function readNames(path: string): NamesFile | undefined {
  try {
    const data = JSON.parse(Deno.readTextFileSync(path)) as NamesFile;
    if (data?.version !== NAMES_VERSION || typeof data.roots !== "object") return undefined;
    return data;
  } catch {
    return undefined;
  }
}

function readSweeps(path: string | undefined): Record<string, number> {
  if (!path) return {};
  try {
    const data = JSON.parse(Deno.readTextFileSync(path)) as { roots?: unknown };
    return data.roots && typeof data.roots === "object" ? data.roots as Record<string, number> : {};
  } catch {
    return {};
  }
}

/** The most roots a sweep file keeps. */
const MAX_SWEEP_ROOTS = 64;

/** Options of {@link lookupName}. */
export interface LookupOptions {
  /** The state root holding the names index. */
  readonly stateRoot: string;
  /** Skills or agents. */
  readonly kind: NamesKind;
  /** The root keys to look in. */
  readonly keys: readonly string[];
  /** The mtime of a watched key (the catalog's `watchedMtime`). */
  readonly mtime: (key: string) => number;
  /** Where a reader that may not write the index keeps its own full checks' times. */
  readonly sweepFile?: string;
  /** The clock, in ms since the epoch. */
  readonly now: number;
}

/**
 * Whether a name is in the names index of some roots, by the rule of the module documentation.
 *
 * @param opts Where and what to look in.
 * @param matches Whether an entry's name (or alt name) is the one asked for.
 * @returns `true` or `false`, or `undefined` when the index cannot tell (a root missing from it, a
 *   watched folder or a checked file changed): then the caller loads the roots.
 */
export function lookupName(
  opts: LookupOptions,
  matches: (name: string) => boolean,
): boolean | undefined {
  const file = readNames(namesPath(opts.stateRoot, opts.kind));
  if (!file) return undefined;
  const sweeps = readSweeps(opts.sweepFile);
  const swept: string[] = [];
  let found = false;
  for (const key of opts.keys) {
    const r = Object.hasOwn(file.roots, key) ? file.roots[key] : undefined;
    if (!r) return undefined;
    for (const path in r.d) if (opts.mtime(path) !== r.d[path]) return undefined;
    const last = Math.max(r.s, Object.hasOwn(sweeps, key) ? Number(sweeps[key]) || 0 : 0);
    if (!(opts.now - last < NAMES_SWEEP_MS && last <= opts.now)) {
      for (let i = 0; i < r.f.length; i++) if (opts.mtime(r.f[i]) !== r.m[i]) return undefined;
      swept.push(key);
      continue; // every file is current: the names stand as they are
    }
    for (const [name, i, alt] of r.n) {
      if (!matches(name) && !(alt !== undefined && matches(alt))) continue;
      if (i >= 0 && opts.mtime(r.f[i]) !== r.m[i]) return undefined;
    }
  }
  for (const key of opts.keys) {
    if (
      file.roots[key].n.some(([name, , alt]) =>
        matches(name) || (alt !== undefined && matches(alt))
      )
    ) {
      found = true;
      break;
    }
  }
  if (swept.length && opts.sweepFile) {
    const next = { ...sweeps };
    for (const key of swept) next[key] = opts.now;
    const kept = Object.entries(next).sort((a, b) => b[1] - a[1]).slice(0, MAX_SWEEP_ROOTS);
    try {
      writeFileAtomic(opts.sweepFile, JSON.stringify({ roots: Object.fromEntries(kept) }));
    } catch {
      // A record of work done: a sweep file that cannot be written costs another sweep.
    }
  }
  return found;
}

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
 * The contracts view (`skills.contracts.json`, written with the skills' names index) holds the same
 * folders, files and mtimes and, instead of the names, the whole catalog entry of each skill with
 * a `contract:` ({@link lookupContracts}, the contract Stop's question "which skills have a
 * contract"). It stands by the same rule, the "entries of that name" being every contracted skill:
 * an edit of a contracted skill's SKILL.md is seen at once, a skill added, removed or renamed
 * likewise, and a skill that gains a contract by an in-place edit within a minute. Its entries have
 * the overlay files' fields applied (`overlay_index.ts`), and it records their stamp: a view written
 * with other overlay files (one edited, added or removed, another project's) cannot tell. It also
 * holds every built-in pack's opt-in contracts (`pack_contracts.ts`) on the skills they match,
 * each marked with its pack: the reader keeps those of the packs config `contract_packs` names, so
 * the view does not depend on the config.
 *
 * @module
 */

import { readJsonFile, writeCacheFile } from "../base/state_file.ts";
import { join } from "../base/path.ts";
import { readRegularTextSync } from "../base/fs.ts";

/** How old a root's last full check may get before a lookup checks every file again. */
export const NAMES_SWEEP_MS = 60_000;

const NAMES_VERSION = 3;

/** The largest names file or contracts view read. */
const MAX_VIEW_BYTES = 16 * 1024 * 1024;

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
    /** Its `contract:` block, for a skill (kept whole in the contracts view). */
    readonly contract?: unknown;
  }[];
}

/**
 * One root as the names file keeps it, in strings rather than lists so that a lookup parses almost
 * nothing: the root (`r`), its watched folders and symlink keys with their mtimes (`d`), its files
 * relative to the root, one a line (`f`), their mtimes, comma-separated (`m`), one line per name
 * (`n`: `\n<name>\t<file index>\n`, an alt name on a line of its own; see {@link escapeName}),
 * and when every file was last found current (`s`). The contracts view has, instead of `n`, the
 * entries of its skills with a contract (`c`), whole.
 */
interface NamesRoot {
  r: string;
  d: Record<string, number>;
  f: string;
  m: string;
  n?: string;
  c?: unknown[];
  s: number;
}

interface NamesFile {
  version: number;
  /** The contracts view's overlay stamp (absent: none). */
  overlays?: string;
  roots: Record<string, NamesRoot>;
}

/**
 * A name or key as a line of a tab-separated text holds it: no tab or newline of its own (a
 * backslash escapes them, and itself), so that searching for `\n<escaped>\t` finds exactly it.
 *
 * @param name The name.
 * @returns The escaped name.
 */
export function escapeName(name: string): string {
  return name.replace(/[\\\t\n]/g, (c) => c === "\\" ? "\\\\" : c === "\t" ? "\\t" : "\\n");
}

function toRelative(path: string, dir: string): string {
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : path;
}

function fromRelative(path: string, dir: string): string {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) ? path : `${dir}/${path}`;
}

/** The kinds of names index, and the skills' contracts view. */
export type NamesKind = "skills" | "agents" | "contracts";

function namesPath(stateRoot: string, kind: NamesKind): string {
  const file = kind === "contracts" ? "skills.contracts.json" : `${kind}.names.json`;
  return join(stateRoot, "catalog", file);
}

/**
 * Whether a watched key is a file (checked for its entry and by the sweep) rather than a folder
 * or a symlink key (checked on every lookup): an entry's file, or a file the scan skipped.
 */
function isFileKey(kind: NamesKind, key: string, files: ReadonlySet<string>): boolean {
  if (files.has(key)) return true;
  if (key.endsWith("\0link")) return false;
  return kind !== "agents" ? /[/\\]SKILL\.md$/.test(key) : /\.(?:md|toml)$/i.test(key);
}

/**
 * Writes the names index of a kind, or the contracts view, from the roots of its catalog index.
 *
 * @param stateRoot The state root.
 * @param kind Skills, agents, or the skills' contracts view.
 * @param roots The roots by key, each with the time all its files were last found current (0:
 *   unknown).
 * @param overlays For the contracts view: the stamp of the overlay files applied to its entries
 *   (`overlay_index.ts`; `""`: none).
 * @throws {Error} When the file cannot be written.
 */
export function writeNamesIndex(
  stateRoot: string,
  kind: NamesKind,
  roots: readonly { key: string; dir: string; root: NamedRoot; checked: number }[],
  overlays = "",
): void {
  const out: Record<string, NamesRoot> = {};
  for (const { key, dir, root, checked } of roots) {
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
    let n = "\n";
    for (const e of kind === "contracts" ? [] : root.entries) {
      const i = at.get(e.file) ?? -1;
      n += `${escapeName(e.name)}\t${i}\n`;
      if (e.altName !== undefined) n += `${escapeName(e.altName)}\t${i}\n`;
    }
    out[key] = {
      r: dir,
      d,
      f: f.map((p) => toRelative(p, dir)).join("\n"),
      m: m.join(","),
      ...(kind === "contracts" ? { c: root.entries.filter(hasContract) } : { n }),
      s: checked,
    };
  }
  writeCacheFile(
    namesPath(stateRoot, kind),
    JSON.stringify({ version: NAMES_VERSION, ...(overlays ? { overlays } : {}), roots: out }),
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
 * Whether the names index of a kind exists (for skills, the contracts view too).
 *
 * @param stateRoot The state root.
 * @param kind Skills, agents, or the contracts view alone.
 * @returns `true` when the files are there.
 */
export function hasNamesIndex(stateRoot: string, kind: NamesKind): boolean {
  try {
    if (kind === "skills" && !hasNamesIndex(stateRoot, "contracts")) return false;
    return Deno.statSync(namesPath(stateRoot, kind)).isFile;
  } catch {
    return false;
  }
}

function readNames(path: string, viewed = false): NamesFile | undefined {
  try {
    // The contracts view is read as a state file: never through a symbolic link, and bounded.
    const data = (viewed
      ? readJsonFile(path, MAX_VIEW_BYTES)
      : JSON.parse(readRegularTextSync(path, MAX_VIEW_BYTES))) as
        | NamesFile
        | undefined;
    if (data?.version !== NAMES_VERSION || !data.roots || typeof data.roots !== "object") {
      return undefined;
    }
    return data;
  } catch {
    return undefined;
  }
}

function readSweeps(path: string | undefined): Record<string, number> {
  if (!path) return {};
  try {
    // A state file of the reader's own: never read through a symbolic link (a planted one could
    // put the next sweep off for ever), and bounded.
    const data = readJsonFile(path, 1024 * 1024) as { roots?: unknown } | undefined;
    const roots = data?.roots;
    return roots && typeof roots === "object" ? roots as Record<string, number> : {};
  } catch {
    return {};
  }
}

/** The most roots a sweep file keeps. */
const MAX_SWEEP_ROOTS = 64;

/** Options of {@link lookupName} and {@link lookupContracts}. */
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
  /**
   * For {@link lookupContracts}: the stamp of the overlay files that apply now; a view written
   * with others cannot tell (default `""`, none).
   */
  readonly overlays?: string;
}

/**
 * Checks the roots of a names file by the rule of the module documentation: each root is there,
 * its watched folders have their mtimes and, once its last full check is a minute old, every file
 * has its mtime (that check is then recorded in the sweep file); `own` checks what the root holds
 * for the question asked (told whether every file was just checked).
 *
 * @returns `false` when something is missing or changed.
 */
function checkRoots(
  opts: Omit<LookupOptions, "kind">,
  file: NamesFile,
  own: (r: NamesRoot, swept: boolean) => boolean,
): boolean {
  let sweeps: Record<string, number> | undefined;
  const swept: string[] = [];
  for (const key of opts.keys) {
    const r = Object.hasOwn(file.roots, key) ? file.roots[key] : undefined;
    if (!r || typeof r.f !== "string" || typeof r.m !== "string") return false;
    if (!r.d || typeof r.d !== "object") return false;
    for (const path in r.d) if (opts.mtime(path) !== r.d[path]) return false;
    let last = r.s;
    if (!(opts.now - last < NAMES_SWEEP_MS && last <= opts.now)) {
      sweeps ??= readSweeps(opts.sweepFile);
      last = Math.max(last, Object.hasOwn(sweeps, key) ? Number(sweeps[key]) || 0 : 0);
    }
    const due = !(opts.now - last < NAMES_SWEEP_MS && last <= opts.now);
    if (due) {
      const f = r.f === "" ? [] : r.f.split("\n");
      const m = r.m === "" ? [] : r.m.split(",").map(Number);
      for (let i = 0; i < f.length; i++) {
        if (opts.mtime(fromRelative(f[i], r.r)) !== m[i]) return false;
      }
      swept.push(key);
    }
    if (!own(r, due)) return false;
  }
  if (swept.length && opts.sweepFile) {
    const next = { ...sweeps };
    for (const key of swept) next[key] = opts.now;
    const kept = Object.entries(next).sort((a, b) => b[1] - a[1]).slice(0, MAX_SWEEP_ROOTS);
    try {
      writeCacheFile(opts.sweepFile, JSON.stringify({ roots: Object.fromEntries(kept) }));
    } catch {
      // A record of work done: a sweep file that cannot be written costs another sweep.
    }
  }
  return true;
}

/**
 * Whether a name is in the names index of some roots, by the rule of the module documentation.
 *
 * @param opts Where and what to look in.
 * @param name The name (exact: an entry's name or alt name).
 * @returns `true` or `false`, or `undefined` when the index cannot tell (a root missing from it, a
 *   watched folder or a checked file changed): then the caller loads the roots.
 */
export function lookupName(opts: LookupOptions, name: string): boolean | undefined {
  const file = readNames(namesPath(opts.stateRoot, opts.kind));
  if (!file) return undefined;
  const needle = `\n${escapeName(name)}\t`;
  let found = false;
  const fresh = checkRoots(opts, file, (r, swept) => {
    if (typeof r.n !== "string") return false;
    if (swept) {
      if (r.n.includes(needle)) found = true;
      return true;
    }
    // Every entry of that name: its file still has its mtime.
    for (let at = r.n.indexOf(needle); at >= 0; at = r.n.indexOf(needle, at + 1)) {
      found = true;
      const start = at + needle.length;
      const i = Number(r.n.slice(start, r.n.indexOf("\n", start)));
      if (i < 0) continue;
      const f = r.f === "" ? [] : r.f.split("\n");
      const m = r.m === "" ? [] : r.m.split(",").map(Number);
      if (!(i < f.length) || opts.mtime(fromRelative(f[i], r.r)) !== m[i]) return false;
    }
    return true;
  });
  return fresh ? found : undefined;
}

/** A skill with a contract as the contracts view holds it: its catalog entry. */
export interface ContractedEntry {
  /** The invocable name. */
  readonly name: string;
  /** The frontmatter `name`, where it differs. */
  readonly altName?: string;
  /** Its SKILL.md. */
  readonly file: string;
  /** That file's mtime when it was read. */
  readonly mtimeMs: number;
  /** Its raw `contract:` block. */
  readonly contract: unknown;
}

/**
 * Whether a skill has a contract: a `contract:` block that is neither absent nor null. The
 * contracts view and the catalog's own answer both use it.
 *
 * @param e The skill's entry.
 * @returns `true` when it has one.
 */
export function hasContract(e: { readonly contract?: unknown }): boolean {
  return e.contract !== undefined && e.contract !== null;
}

function isContracted(e: unknown): e is ContractedEntry {
  const x = e as Partial<ContractedEntry> | null;
  return typeof x === "object" && x !== null && typeof x.name === "string" &&
    (x.altName === undefined || typeof x.altName === "string") && typeof x.file === "string" &&
    typeof x.mtimeMs === "number" && hasContract(x);
}

/**
 * The skills with a contract of some roots, from the contracts view, by the rule of the module
 * documentation: every root's watched folders, the SKILL.md of every skill in the view and, once a
 * minute, every SKILL.md still have their mtimes; and the view was written with the overlay files
 * that apply now (`opts.overlays`, their stamp).
 *
 * @param opts Where to look.
 * @returns The entries, roots in the order of `opts.keys`, each root's in its catalog order; or
 *   `undefined` when the view cannot tell (missing, damaged, a root missing from it, a watched
 *   folder or a checked file changed): then the caller loads the roots.
 */
export function lookupContracts(
  opts: Omit<LookupOptions, "kind">,
): ContractedEntry[] | undefined {
  const file = readNames(namesPath(opts.stateRoot, "contracts"), true);
  if (!file || (file.overlays ?? "") !== (opts.overlays ?? "")) return undefined;
  const out: ContractedEntry[] = [];
  // A swept root has had every file's mtime checked already, these SKILL.md files among them.
  const fresh = checkRoots(opts, file, (r, swept) => {
    if (!Array.isArray(r.c)) return false;
    for (const e of r.c) {
      if (!isContracted(e) || (!swept && opts.mtime(e.file) !== e.mtimeMs)) return false;
      out.push(e);
    }
    return true;
  });
  return fresh ? out : undefined;
}

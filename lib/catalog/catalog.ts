/**
 * The catalog of installed skills and agents, in the folders of the host a hook runs for (its
 * layout, `lib/host/folders.ts`: Claude Code's unless {@link CatalogOptions.hostFolders} names
 * another host's, and then never Claude Code's).
 *
 * Skills: personal (`<claude config>/skills/**\/SKILL.md`), the project's (`.claude/skills`;
 * Copilot CLI's `.github/skills`, Codex CLI's `.agents/skills`, …) from the session's directory up
 * to the repository root, Gemini CLI's enabled extensions' `skills` (`extensions.ts`), installed
 * plugins' `skills/**\/SKILL.md` (named `plugin:name`), and config `skill_dirs`. A skill's name is
 * its directory's name; its frontmatter `name`, where it differs, is accepted too. Agents likewise
 * (`agents/**\/*.md`, Codex CLI's `*.toml`, Gemini CLI's project agents once acknowledged:
 * `acknowledged.ts`, config `agent_dirs`): an agent's identity is its frontmatter `name` (or
 * `meta.name`, or a TOML file's `name`), else the file stem (without `.agent.md` or `.md`).
 *
 * Every scan is bounded (`walk.ts`) and fails open. Symlinks are followed as Claude Code follows
 * them, each real directory entered once. Parsed frontmatter is kept in a JSON index (`<state
 * root>/catalog/skills.json`, `agents.json`) checked against directory and file mtimes, so a hook
 * whose skills have not changed never loads the YAML parser.
 *
 * @module
 */

import { tomlAgentName } from "./toml_agent.ts";
import { basename, dirname, join, resolve } from "../base/path.ts";
import { writeCacheFile } from "../base/state_file.ts";
import { sanitizeText } from "../base/sanitize.ts";
import { exists, readRegularTextSync } from "../base/fs.ts";
import type { HostFolders } from "../host/host.ts";
import { readFolders } from "../host/folders.ts";
import {
  hasContract,
  hasNamesIndex,
  lookupContracts,
  lookupName,
  namesChecked,
  type NamesKind,
  writeNamesIndex,
} from "./names_index.ts";

// The YAML reader and the walker are needed only when something changed: loaded on first use, so
// a hook whose skills are all indexed does not load them.
import { asStrings, bodyValues, boundedCopy } from "./frontmatter_values.ts";
import {
  applyOverlays,
  catalogOverlays,
  catalogOverlayState,
  type OverlayOptions,
  type OverlayOrigin,
} from "./overlay_index.ts";
import { projectBases } from "./project_bases.ts";
import { pluginRoots } from "./plugins.ts";
import { layoutRoots } from "./extensions.ts";
import { type Acknowledged, acknowledgedOnly } from "./acknowledged.ts";
import { CONTRACT_PACK_NAMES, withPackContracts } from "../routing/pack_contracts.ts";

const frontmatter = () => import("./frontmatter.ts");
const walker = () => import("./walk.ts");

/** Where a skill or agent was found. */
export type CatalogSource = "personal" | "project" | "extension" | "plugin" | "config";

/** An installed skill. */
export interface SkillEntry {
  /** The invocable name: the directory name (`plugin:dir` for plugin skills). */
  readonly name: string;
  /** The frontmatter `name` where it differs from {@link SkillEntry.name}. */
  readonly altName?: string;
  /** Where it was found. */
  readonly source: CatalogSource;
  /** Its SKILL.md. */
  readonly file: string;
  /** Its directory. */
  readonly dir: string;
  /** Its `triggers:` phrases (a list or a single string in the frontmatter). */
  readonly triggers: readonly string[];
  /** Its `description:`. */
  readonly description?: string;
  /** Its raw `contract:` block, validated by the contract schema when used. */
  readonly contract?: unknown;
  /** The first instruction of its body. */
  readonly firstStep?: string;
  /** The skills its text sends a kind of request to (`sendsTo` in `frontmatter_values.ts`). */
  readonly sendsTo?: readonly string[];
  /** True for `disable-model-invocation: true`: only the user can start it, by typing `/name`. */
  readonly userOnly?: boolean;
  /** Its SKILL.md mtime. */
  readonly mtimeMs: number;
  /** Problems met while parsing its frontmatter. */
  readonly warnings?: readonly string[];
  /** Read with the lenient reader because the YAML parser could not be loaded; never indexed. */
  readonly degraded?: boolean;
  /** Whether it may route, overriding config `route_skills`: set by an overlay file only. */
  readonly route?: boolean;
  /**
   * Where the fields an overlay file gave it came from (`overlay_index.ts`); a field not named
   * here is the SKILL.md's own.
   */
  readonly overlay?: Readonly<Partial<Record<"triggers" | "contract" | "route", OverlayOrigin>>>;
  /**
   * The built-in pack whose opt-in contract it carries (`pack_contracts.ts`): set only when it has
   * no contract of its own or from an overlay file.
   */
  readonly contractPack?: string;
}

/** An installed agent. */
export interface AgentEntry {
  /** Its identity: frontmatter `name` (or `meta.name`), else the file stem; `plugin:name` for plugins. */
  readonly name: string;
  /** Where it was found. */
  readonly source: CatalogSource;
  /** Its file. */
  readonly file: string;
  /** Its mtime. */
  readonly mtimeMs: number;
}

/** The installed skills and agents. */
export interface Catalog {
  /** Skills, in precedence order (personal, project, extension, plugin, config). */
  readonly skills: readonly SkillEntry[];
  /** Agents, in the same order. */
  readonly agents: readonly AgentEntry[];
  /** The directories scanned. */
  readonly dirs: readonly string[];
  /** SKILL.md and agent files looked at. */
  readonly scanned: number;
  /** Entries skipped: unreadable, dangling links, directories entered already, bounds. */
  readonly skipped: number;
  /** Whether the index was used without re-parsing anything. */
  readonly fromIndex: boolean;
}

/** Where to look and what to do with the index. */
export interface CatalogOptions {
  /**
   * The folders of the host whose skills and agents are listed: its config directory, home and
   * layout give the personal and project folders (plugins only when its layout has them):
   * `lib/host/folders.ts`. No other host's folders are read.
   */
  readonly hostFolders: HostFolders;
  /** The session's directory (the payload's `cwd`); project skills are searched from here. */
  readonly cwd?: string;
  /** The project root (the host's project variable), also searched. */
  readonly projectDir?: string;
  /** Extra skill directories (config `skill_dirs`). */
  readonly extraSkillDirs?: readonly string[];
  /** Extra agent directories (config `agent_dirs`). */
  readonly extraAgentDirs?: readonly string[];
  /** Scan skills (default true). */
  readonly skills?: boolean;
  /** Scan agents (default true). */
  readonly agents?: boolean;
  /** The state root holding the index; without it no index is used. */
  readonly stateRoot?: string;
  /** Write the refreshed index back (default true when `stateRoot` is given). */
  readonly writeIndex?: boolean;
  /**
   * Where {@link hasSkill} and {@link hasAgent} keep the time of their last check of every file
   * of a root, for a reader that may not write the index (the redirect's, under its own folder).
   */
  readonly sweepFile?: string;
  /** The clock of {@link hasSkill} and {@link hasAgent}, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * The built-in packs whose opt-in contracts apply (config `contract_packs`; default none): to a
   * skill the pack's entry matches by name and text, with no contract of its own or an overlay's.
   */
  readonly contractPacks?: readonly string[];
}

/** A directory the catalog scans. */
export interface CatalogRoot {
  /** The directory (absolute). */
  readonly dir: string;
  /** What it holds. */
  readonly kind: "skills" | "agents";
  /** Where it was found. */
  readonly source: CatalogSource;
  /** The plugin's name, for a plugin's directory. */
  readonly plugin?: string;
  /** For agents listed only once acknowledged: see `acknowledged.ts` (Gemini CLI's). */
  readonly acknowledged?: Acknowledged;
}

type Root = CatalogRoot;

/** One root as the index keeps it. */
export interface IndexedRoot {
  /**
   * The mtime of every watched directory and file, by key (see {@link watchedMtime}): the root is
   * fresh while all still match.
   */
  mtimes: Record<string, number>;
  /** Its skills. */
  skills: SkillEntry[];
  /** Its agents. */
  agents: AgentEntry[];
  /**
   * Each symlink followed (as found) and the real path it led to: a file under a link that now
   * leads elsewhere is read again, whatever its mtime.
   */
  links?: Record<string, string>;
  /** Files looked at. */
  scanned: number;
  /** Entries skipped. */
  skipped: number;
}

interface IndexFile {
  version: number;
  roots: Record<string, IndexedRoot>;
}

const INDEX_VERSION = 9;
/** The largest `SKILL.md` or agent file read (a larger one is skipped). */
const MAX_FILE_BYTES = 1024 * 1024;
/** The largest index file read (a larger one is built again). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** Whether this process may read a path (asked first: a denied read costs a thrown error). */
function readable(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
}

/** A directory, or a symlink to one, that this process may read. */
function isDir(path: string): boolean {
  try {
    return readable(path) && Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The suffix of a watched key that stands for a symlink itself: `<path>` is watched through the
 * link, `<path>` + this suffix by the link's own mtime (it changes when the link is remade).
 */
export const LINK_KEY = "\0link";

/**
 * The mtime of a watched key of an index (`mtimes` of {@link IndexedRoot}): for a path, the mtime
 * of what it names, symlinks followed; for a path with the link suffix, the link's own mtime.
 * Another module that keeps the same keys checks them with this.
 *
 * @param key A watched key.
 * @returns The mtime in ms, or -1 when it cannot be read.
 */
export function watchedMtime(key: string): number {
  try {
    const info = key.endsWith(LINK_KEY)
      ? Deno.lstatSync(key.slice(0, -LINK_KEY.length))
      : Deno.statSync(key);
    return info.mtime?.getTime() ?? -1;
  } catch {
    return -1;
  }
}

const mtimeOf = watchedMtime;

async function discoverRoots(opts: CatalogOptions): Promise<Root[]> {
  const roots: Root[] = [];
  const wantSkills = opts.skills !== false;
  const wantAgents = opts.agents !== false;
  const add = (dir: string, kind: Root["kind"], source: CatalogSource, more?: Partial<Root>) => {
    if (kind === "skills" && !wantSkills) return;
    if (kind === "agents" && !wantAgents) return;
    const abs = resolve(dir);
    if (roots.some((r) => r.dir === abs && r.kind === kind)) return;
    roots.push({ ...more, dir: abs, kind, source });
  };
  const f = readFolders(opts.hostFolders); // the sending host's, and no other host's
  for (const d of f.skillDirs) add(d, "skills", "personal");
  for (const d of f.agentDirs) add(d, "agents", "personal");
  for (const base of projectBases(opts.cwd, opts.projectDir)) {
    for (const d of f.projectSkills) add(join(base, d), "skills", "project");
    for (const d of f.projectAgents) add(join(base, d), "agents", "project");
  }
  // Gemini CLI's project agents once acknowledged, and its enabled extensions (`extensions.ts`).
  for (const r of layoutRoots(f, opts.projectDir ?? opts.cwd)) add(r.dir, r.kind, r.source, r);
  // Without a (readable) plugins entry (Claude Code's) there is no plugin list nor plugin cache.
  if (f.plugins && exists(f.plugins)) {
    for (const r of await pluginRoots(f.plugins)) add(r.dir, r.kind, r.source, r);
  }
  for (const d of opts.extraSkillDirs ?? []) add(d, "skills", "config");
  for (const d of opts.extraAgentDirs ?? []) add(d, "agents", "config");
  return roots.filter((r) => isDir(r.dir));
}

function rootKey(r: Root): string {
  return `${r.kind}|${r.source}|${r.plugin ?? ""}|${r.dir}`;
}

/** The directory of a {@link rootKey} (the kind, source and plugin hold no `|`). */
function dirOfKey(key: string): string {
  return key.split("|").slice(3).join("|");
}

async function readSkill(root: Root, file: string, mtimeMs: number): Promise<SkillEntry | null> {
  const text = readRegularTextSync(file, MAX_FILE_BYTES);
  const { parseFrontmatter } = await frontmatter();
  const { data, body, warnings, yamlUnavailable } = await parseFrontmatter(text);
  const dir = dirname(file);
  const dirName = dir === root.dir ? undefined : basename(dir);
  const fmName = typeof data.name === "string" && data.name.trim() ? data.name.trim() : undefined;
  const local = (dirName ?? fmName ?? basename(root.dir)).slice(0, 256);
  const prefix = root.plugin ? `${root.plugin}:` : "";
  const name = prefix + local;
  const alt = fmName && fmName !== local ? prefix + fmName.slice(0, 256) : undefined;
  // Text from disk is data: the description reaches the model and the terminal without its
  // control characters.
  const description = typeof data.description === "string"
    ? sanitizeText(data.description)
    : undefined;
  return {
    name,
    ...(alt ? { altName: alt } : {}),
    source: root.source,
    file,
    dir,
    triggers: asStrings(data.triggers),
    ...(description ? { description: description.slice(0, 2000) } : {}),
    ...(data.contract !== undefined ? { contract: boundedCopy(data.contract) } : {}),
    ...bodyValues(body),
    ...(data["disable-model-invocation"] === true ? { userOnly: true } : {}),
    mtimeMs,
    ...(warnings.length ? { warnings } : {}),
    ...(yamlUnavailable ? { degraded: true } : {}),
  };
}

async function readAgent(root: Root, file: string, mtimeMs: number): Promise<AgentEntry | null> {
  const text = readRegularTextSync(file, MAX_FILE_BYTES);
  const toml = /\.toml$/i.test(file) ? tomlAgentName(text, basename(file), root.plugin) : "";
  if (toml) return { name: toml, source: root.source, file, mtimeMs };
  if (!/^\uFEFF?---[ \t]*\r?\n/.test(text)) return null;
  const { parseFrontmatter } = await frontmatter();
  const { data } = await parseFrontmatter(text);
  const meta = data.meta && typeof data.meta === "object"
    ? data.meta as Record<string, unknown>
    : {};
  const fm = typeof data.name === "string" && data.name.trim()
    ? data.name.trim()
    : typeof meta.name === "string" && meta.name.trim()
    ? meta.name.trim()
    : undefined;
  const local = (fm ?? basename(file).replace(/(\.agent)?\.md$/i, "")).slice(0, 256);
  return {
    name: root.plugin ? `${root.plugin}:${local}` : local,
    source: root.source,
    file,
    mtimeMs,
  };
}

async function scanRoot(root: Root, previous: IndexedRoot | undefined): Promise<IndexedRoot> {
  const isSkill = root.kind === "skills";
  const { walkFiles } = await walker();
  const walk = walkFiles(
    root.dir,
    isSkill ? (n) => n === "SKILL.md" : (n) => /\.(?:md|toml)$/i.test(n),
    { followSymlinks: true },
  );
  const mtimes: Record<string, number> = {};
  // A new file shows up as a changed mtime of the directory that gains it. Watched: every
  // directory on the way to a file, and every directory next to those that holds no file yet (an
  // empty skill folder that gets its SKILL.md later). Not watched: a skill's own folder, whose
  // SKILL.md mtime is checked itself, so its scripts and references cost nothing.
  const ancestors = new Set<string>([root.dir]);
  const fileDirs = new Set(walk.files.map((f) => f.dir));
  for (const f of walk.files) {
    for (let d = isSkill ? dirname(f.dir) : f.dir; d.startsWith(root.dir); d = dirname(d)) {
      ancestors.add(d);
      if (d === root.dir) break;
    }
  }
  for (const d of walk.dirs) {
    const watch = ancestors.has(d) || (ancestors.has(dirname(d)) && !fileDirs.has(d));
    if (watch) mtimes[d] = mtimeOf(d);
  }
  // Paths are watched through symlinks (the mtime of what a link points at). A link made again to
  // point elsewhere changes the mtime of the folder that holds it; where that folder is not
  // watched (the folder above a linked root, a skill folder holding a linked SKILL.md), the link's
  // own mtime is, in case the old and the new target have the same mtime.
  for (const link of walk.links) {
    if (!(dirname(link) in mtimes)) mtimes[link + LINK_KEY] = mtimeOf(link + LINK_KEY);
  }
  const links: Record<string, string> = {};
  for (const link of walk.links) {
    try {
      links[link] = Deno.realPathSync(link);
    } catch {
      links[link] = "";
    }
  }
  const before = previous?.links ?? {};
  const moved = [...new Set([...Object.keys(before), ...walk.links])]
    .filter((l) => before[l] !== links[l]);
  const underMoved = (path: string) => moved.some((l) => path === l || path.startsWith(`${l}/`));
  const oldSkills = new Map((previous?.skills ?? []).map((s) => [s.file, s]));
  const oldAgents = new Map((previous?.agents ?? []).map((a) => [a.file, a]));
  const skills: SkillEntry[] = [];
  const agents: AgentEntry[] = [];
  let skipped = walk.skipped;
  for (const f of walk.files) {
    const mtime = mtimeOf(f.path);
    mtimes[f.path] = mtime;
    const same = (old: { mtimeMs: number } | undefined) =>
      old !== undefined && old.mtimeMs === mtime && !underMoved(f.path);
    try {
      if (isSkill) {
        const old = oldSkills.get(f.path);
        const entry = same(old) ? old! : await readSkill(root, f.path, mtime);
        if (entry) skills.push(entry);
        else skipped++;
      } else {
        const old = oldAgents.get(f.path);
        const entry = same(old) ? old! : await readAgent(root, f.path, mtime);
        if (entry) agents.push(entry);
        else skipped++;
      }
    } catch {
      skipped++;
    }
  }
  return {
    mtimes,
    skills,
    agents: root.acknowledged ? await acknowledgedOnly(root.acknowledged, agents, mtimes) : agents,
    ...(walk.links.length ? { links } : {}),
    scanned: walk.files.length,
    skipped,
  };
}

function isFresh(entry: { readonly mtimes: Record<string, number> }): boolean {
  for (const path in entry.mtimes) {
    if (mtimeOf(path) !== entry.mtimes[path]) return false;
  }
  return true;
}

/** The most roots an index keeps (other projects' roots stay until this many are known). */
const MAX_INDEXED_ROOTS = 64;

function indexPath(stateRoot: string, kind: Root["kind"]): string {
  return join(stateRoot, "catalog", `${kind}.json`);
}

function readIndex(stateRoot: string, kind: Root["kind"]): IndexFile | undefined {
  try {
    const data = JSON.parse(
      readRegularTextSync(indexPath(stateRoot, kind), MAX_INDEX_BYTES),
    ) as IndexFile;
    if (data?.version !== INDEX_VERSION || typeof data.roots !== "object") return undefined;
    return data;
  } catch {
    return undefined;
  }
}

/**
 * Writes the names index of a kind (`names_index.ts`), and for skills the contracts view: the
 * roots just loaded had every file checked now; the others keep the time of their last full check.
 */
async function writeNames(
  opts: OverlayOptions & { stateRoot: string },
  kind: NamesKind,
  roots: Record<string, IndexedRoot>,
  now: ReadonlySet<string>,
  time: number,
): Promise<void> {
  const { stateRoot } = opts;
  const before = now.size === Object.keys(roots).length ? {} : namesChecked(stateRoot, kind);
  const list = Object.entries(roots).map(([key, e]) => ({
    key,
    dir: dirOfKey(key),
    root: { mtimes: e.mtimes, entries: kind === "skills" ? e.skills : e.agents },
    checked: now.has(key) ? time : before[key] ?? 0,
  }));
  writeNamesIndex(stateRoot, kind, list);
  if (kind !== "skills") return;
  // The contracts view holds the skills with a contract once overlays are applied, and their
  // stamp; and every pack's opt-in contracts, marked with their pack (a reader keeps those of the
  // packs its config names), so that the view does not depend on the config.
  const overlays = await catalogOverlays(opts);
  const overlaid = list.map((r) => ({
    ...r,
    root: {
      ...r.root,
      entries: withPackContracts(
        applyOverlays(r.root.entries as SkillEntry[], overlays),
        CONTRACT_PACK_NAMES,
      ),
    },
  }));
  writeNamesIndex(stateRoot, "contracts", overlaid, overlays.stamp);
}

/** A root with its skills and agents. */
export interface LoadedRoot {
  /** The directory. */
  readonly root: CatalogRoot;
  /** Its key in the index. */
  readonly key: string;
  /** What it holds. */
  readonly entry: IndexedRoot;
}

/**
 * The directories a catalog with these options scans, in precedence order; only those that are
 * directories this process may read.
 *
 * @param opts Where to look.
 * @returns The directories, each with its key in the index.
 */
export async function catalogRoots(
  opts: CatalogOptions,
): Promise<{ root: CatalogRoot; key: string }[]> {
  return (await discoverRoots(opts)).map((root) => ({ root, key: rootKey(root) }));
}

/**
 * Loads some roots, from the index where every mtime still matches, scanning only what changed,
 * and writes the index back when something changed.
 *
 * @param opts The state root and whether to write the index; the session's folders (the contracts
 *   view is written with the overlays that apply to them).
 * @param roots The roots, from {@link catalogRoots}.
 * @returns Each root's entry (skills roots first, each kind in the order given), and whether all
 *   came from the index.
 */
export function loadRoots(
  opts: Pick<CatalogOptions, "stateRoot" | "writeIndex" | "cwd" | "projectDir">,
  roots: readonly { root: CatalogRoot; key: string }[],
): Promise<{ roots: LoadedRoot[]; fromIndex: boolean }> {
  return loadRootsFrom(opts, roots);
}

/**
 * {@link loadRoots}; `views`: write the names indexes and the contracts view even when nothing
 * changed (a caller found them stale).
 */
async function loadRootsFrom(
  opts: Pick<CatalogOptions, "stateRoot" | "writeIndex" | "cwd" | "projectDir">,
  roots: readonly { root: CatalogRoot; key: string }[],
  views = false,
): Promise<{ roots: LoadedRoot[]; fromIndex: boolean }> {
  // Every file of a root loaded here is checked after this time (the names index's full check).
  const started = Date.now();
  const loaded: LoadedRoot[] = [];
  let fromIndex = true;
  for (const kind of ["skills", "agents"] as const) {
    const mine = roots.filter((r) => r.root.kind === kind);
    if (mine.length === 0) continue;
    const index = opts.stateRoot ? readIndex(opts.stateRoot, kind) : undefined;
    const fresh: Record<string, IndexedRoot> = {};
    let changed = false;
    for (const { root, key } of mine) {
      const old = index?.roots[key];
      let entry: IndexedRoot;
      if (old && isFresh(old)) entry = old;
      else {
        entry = await scanRoot(root, old);
        changed = true;
      }
      fresh[key] = entry;
      loaded.push({ root, key, entry });
    }
    if (changed) fromIndex = false;
    // A skill read without the YAML parser may be missing its contract or triggers: keep it out
    // of the index so that the next run, with the parser, reads it again.
    const degraded = Object.values(fresh).some((e) => e.skills.some((s) => s.degraded));
    // The names index goes with the kind's index; one missing (skillgate upgraded, say) is
    // written from the fresh index.
    const namesMissing = !changed && !!opts.stateRoot &&
      (views || !hasNamesIndex(opts.stateRoot, kind));
    if (opts.stateRoot && (changed || namesMissing) && !degraded && opts.writeIndex !== false) {
      // Roots of other projects stay in the index, the ones just used first, up to a bound.
      const keep = Object.entries(index?.roots ?? {}).filter(([k]) => !(k in fresh));
      const merged = Object.fromEntries(
        [...Object.entries(fresh), ...keep].slice(0, MAX_INDEXED_ROOTS),
      );
      try {
        if (changed) {
          writeCacheFile(
            indexPath(opts.stateRoot, kind),
            JSON.stringify({ version: INDEX_VERSION, roots: merged }),
          );
        }
        const names = { ...opts, stateRoot: opts.stateRoot };
        await writeNames(names, kind, merged, new Set(Object.keys(fresh)), started);
      } catch {
        // The index is a cache: a state root that cannot be written costs speed, not answers.
      }
    }
  }
  return { roots: loaded, fromIndex };
}

/**
 * Loads the catalog, from the index where every mtime still matches, scanning only what changed,
 * with the overlay files that apply (`overlay_index.ts`) over the skills' own fields.
 * Skills and agents have an index each (`<state root>/catalog/skills.json`, `agents.json`), so a
 * hook that needs only one kind reads only that one. Never throws: unreadable directories and
 * files are skipped and counted.
 *
 * @param opts Where to look.
 * @returns The catalog.
 */
export async function loadCatalog(opts: CatalogOptions): Promise<Catalog> {
  const roots = await catalogRoots(opts);
  const { roots: loaded, fromIndex } = await loadRoots(opts, roots);
  const skills = loaded.flatMap((r) => r.entry.skills);
  return {
    skills: opts.skills === false ? skills : withPackContracts(
      applyOverlays(skills, await catalogOverlays(opts)),
      opts.contractPacks,
    ),
    agents: loaded.flatMap((r) => r.entry.agents),
    dirs: roots.map((r) => r.root.dir),
    scanned: loaded.reduce((n, r) => n + r.entry.scanned, 0),
    skipped: loaded.reduce((n, r) => n + r.entry.skipped, 0),
    fromIndex,
  };
}

function normaliseName(name: string): string {
  return name.trim().replace(/^\//, "");
}

/**
 * Finds a skill by its invocable name or its frontmatter name (a leading `/` is dropped; a
 * `plugin:name` is matched exactly). The first match in precedence order wins.
 *
 * @param catalog The catalog.
 * @param name The name, as typed or as a Skill tool input.
 * @returns The skill, or `undefined`.
 */
export function findSkill(catalog: Catalog, name: string): SkillEntry | undefined {
  const n = normaliseName(name);
  return catalog.skills.find((s) => s.name === n) ?? catalog.skills.find((s) => s.altName === n);
}

/** Roots as {@link catalogRoots} gives them. */
export type Found = readonly { root: CatalogRoot; key: string }[];

/**
 * Whether a name is an installed agent (exact, case-sensitive).
 *
 * @param catalog The catalog.
 * @param name The name.
 * @returns `true` when some agent has that identity.
 */
export function isAgent(catalog: Catalog, name: string): boolean {
  const n = normaliseName(name);
  return catalog.agents.some((a) => a.name === n);
}

/**
 * Whether a name is a skill or an agent of some roots: from the names index (`names_index.ts`)
 * while it can tell, else from the roots loaded as {@link loadCatalog} loads them.
 */
async function hasNamed(
  opts: CatalogOptions,
  kind: Root["kind"],
  name: string,
  f: Found | undefined,
  found: (entry: IndexedRoot, name: string) => boolean,
): Promise<boolean> {
  const n = normaliseName(name);
  const roots = f
    ? f.filter((r) => r.root.kind === kind)
    : await catalogRoots({ ...opts, skills: kind === "skills", agents: kind === "agents" });
  if (opts.stateRoot) {
    const known = lookupName({
      stateRoot: opts.stateRoot,
      kind,
      keys: roots.map((r) => r.key),
      mtime: mtimeOf,
      sweepFile: opts.sweepFile,
      now: (opts.now ?? Date.now)(),
    }, n);
    if (known !== undefined) return known;
  }
  const { roots: loaded } = await loadRoots(opts, roots);
  return loaded.some((r) => found(r.entry, n));
}

/**
 * Whether a name is an installed agent (exact, case-sensitive), loading only what decides it.
 * The agents' names index answers while the agents' folders, the file of an agent of that name
 * and, once a minute, every agent file still have their mtimes (`names_index.ts`); otherwise the
 * agent roots are loaded as {@link loadCatalog} does (every mtime checked, what changed scanned
 * again). An in-place edit of another agent file is therefore seen within a minute.
 *
 * @param opts Where to look (`stateRoot` holds the index).
 * @param name The name.
 * @param f The roots of both kinds from {@link catalogRoots}, when the caller has them.
 * @returns `true` when some agent has that identity.
 */
export function hasAgent(opts: CatalogOptions, name: string, f?: Found): Promise<boolean> {
  return hasNamed(opts, "agents", name, f, (e, n) => e.agents.some((a) => a.name === n));
}

/**
 * Whether a name is an installed skill (its invocable name or frontmatter name; a leading `/`
 * dropped), as {@link findSkill} would find it in {@link loadCatalog}'s catalog. The skills'
 * names index answers while the skills roots and the folders that are not skill folders, the
 * SKILL.md of a skill of that name and, once a minute, every SKILL.md still have their mtimes
 * (`names_index.ts`), reading neither the skills index nor any SKILL.md; otherwise it loads the
 * skills roots. A skill added, removed or renamed is seen at once; another skill's edit (a new
 * frontmatter `name`) within a minute.
 *
 * @param opts Where to look (`stateRoot` holds the index).
 * @param name The name.
 * @param f The roots of both kinds from {@link catalogRoots}, when the caller has them.
 * @returns `true` when some skill has that name.
 */
export function hasSkill(opts: CatalogOptions, name: string, f?: Found): Promise<boolean> {
  return hasNamed(
    opts,
    "skills",
    name,
    f,
    (e, n) => e.skills.some((s) => s.name === n || s.altName === n),
  );
}

/**
 * The skills that have a contract, in {@link loadCatalog}'s order, and the skills directories: from
 * the contracts view while it is fresh by the rule of `names_index.ts` (a contracted skill edited,
 * a skill added, removed or renamed, seen at once; a contract gained in place, within a minute)
 * and was written with the overlay files that apply now (their stamp), else loaded as
 * {@link loadCatalog} does (overlays applied), the view written again.
 *
 * @param opts Where to look (`stateRoot` holds the view; `sweepFile`, `now` as for {@link hasSkill}).
 * @returns The skills with a contract, the skills directories, the names of the plugins they
 *   come from, and whether the view answered.
 */
export async function contractSkills(
  opts: CatalogOptions,
): Promise<{ skills: SkillEntry[]; dirs: string[]; plugins: string[]; fromIndex: boolean }> {
  const roots = await catalogRoots({ ...opts, skills: true, agents: false });
  const dirs = roots.map((r) => r.root.dir);
  const plugins = [...new Set(roots.flatMap((r) => r.root.plugin ? [r.root.plugin] : []))];
  const keys = roots.map((r) => r.key);
  const now = (opts.now ?? Date.now)();
  const { stateRoot, sweepFile } = opts;
  const state = catalogOverlayState(opts);
  const known = stateRoot
    ? lookupContracts({ stateRoot, keys, mtime: mtimeOf, sweepFile, now, overlays: state.stamp })
    : undefined;
  const packs = opts.contractPacks ?? [];
  if (known) {
    const skills = (known as SkillEntry[]).filter((s) =>
      s.contractPack === undefined || packs.includes(s.contractPack)
    );
    return { skills, dirs, plugins, fromIndex: true };
  }
  const skills = (await loadRootsFrom(opts, roots, true)).roots.flatMap((r) => r.entry.skills);
  const withContract = withPackContracts(
    applyOverlays(skills, await catalogOverlays(opts, state)),
    packs,
  ).filter(hasContract);
  return { skills: withContract, dirs, plugins, fromIndex: false };
}

/**
 * The de-duplicated, sorted agent names of a catalog.
 *
 * @param catalog The catalog.
 * @returns The names.
 */
export function agentNames(catalog: Catalog): string[] {
  return [...new Set(catalog.agents.map((a) => a.name))].sort();
}

/**
 * The de-duplicated, sorted skill names of a catalog (invocable and frontmatter names).
 *
 * @param catalog The catalog.
 * @returns The names.
 */
export function skillNames(catalog: Catalog): string[] {
  const names = new Set<string>();
  for (const s of catalog.skills) {
    names.add(s.name);
    if (s.altName) names.add(s.altName);
  }
  return [...names].sort();
}

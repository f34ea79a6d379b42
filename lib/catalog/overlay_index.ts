/**
 * Overlays on the hooks' path: which overlay files apply (the user's `<state root>/skills.yaml`
 * and the nearest project's `<dir>/.skillgate/skills.yaml`, from the session's directory up to the
 * repository root, then from the project root), their stamp, their parsed form kept as JSON, and
 * their application to catalog entries.
 *
 * Freshness, the catalog's rule for SKILL.md files: the stamp ({@link overlayStamp}) is each
 * applying file's path, mtime and size. The catalog's views (the routing index, the contracts view)
 * record the stamp they were built with and are built again when it differs. The parsed files are
 * kept in `<state root>/catalog/overlays.json` by path, mtime and size, so a changed stamp costs
 * the YAML parser only for the file that changed (`overlays.ts`, loaded only then).
 *
 * Applying (project over user, per skill and field; an overlay field over the skill's frontmatter):
 * an overlay key names a skill by its invocable name, its frontmatter name, or, for a plugin's
 * skill (`plugin:name`), its name without the plugin.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { readRegularTextSync } from "../base/fs.ts";
import { readJsonFile, writeCacheFile } from "../base/state_file.ts";
import type { OverlayEntry, OverlayProblem } from "./overlays.ts";
import { projectBases } from "./project_bases.ts";

const parser = () => import("./overlays.ts");

/** Which overlay file: the user's or the project's. */
export type OverlayScope = "user" | "project";

/** An overlay file that applies. */
export interface OverlaySource {
  /** The file (absolute). */
  readonly path: string;
  /** Whose. */
  readonly scope: OverlayScope;
  /** Its mtime in ms. */
  readonly mtimeMs: number;
  /** Its size in bytes. */
  readonly size: number;
}

/** The overlay files that apply, and their stamp. */
export interface OverlayState {
  /** The files, the user's first. */
  readonly sources: readonly OverlaySource[];
  /** Their paths, mtimes and sizes in one string (`""` when there is none). */
  readonly stamp: string;
}

/** An overlay file, parsed. */
export interface OverlayFile extends OverlaySource {
  /** Its entries by skill name. */
  readonly entries: Readonly<Record<string, OverlayEntry>>;
  /** How many problems it has (`contract lint` lists them). */
  readonly problems: number;
}

/** Where a skill's trigger, contract or `route` came from, when an overlay gave it. */
export interface OverlayOrigin {
  /** The user's or the project's file. */
  readonly scope: "user" | "project";
  /** The file. */
  readonly file: string;
  /** The line of the field (1-based; 0 when unknown). */
  readonly line: number;
}

/**
 * Where the fields an overlay file gave a skill came from (a field not named: the skill's own).
 */
export type OverlayOrigins = Readonly<
  Partial<Record<"triggers" | "contract" | "route", OverlayOrigin>>
>;

/** What overlays give one skill, each field with its origin. */
export interface SkillOverlay {
  /** Its triggers. */
  readonly triggers?: { readonly value: readonly string[]; readonly from: OverlayOrigin };
  /** Its raw contract. */
  readonly contract?: { readonly value: unknown; readonly from: OverlayOrigin };
  /** Whether it may route. */
  readonly route?: { readonly value: boolean; readonly from: OverlayOrigin };
}

/** The overlays in force: every skill key's merged fields. */
export interface Overlays {
  /** The stamp of the files they came from. */
  readonly stamp: string;
  /** The files. */
  readonly files: readonly OverlayFile[];
  /** By overlay key (a skill name), the project's fields over the user's. */
  readonly bySkill: ReadonlyMap<string, SkillOverlay>;
}

/** The file name of an overlay file. */
export const OVERLAY_FILE = "skills.yaml";

/** The project folder holding a project's overlay file. */
export const PROJECT_OVERLAY_DIR = ".skillgate";

const CACHE_VERSION = 1;
const MAX_CACHED_FILES = 32;

function statOf(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return undefined;
    const info = Deno.statSync(path);
    if (!info.isFile) return undefined;
    return { mtimeMs: info.mtime?.getTime() ?? -1, size: info.size };
  } catch {
    return undefined;
  }
}

/**
 * The overlay files that apply and their stamp: `<state root>/skills.yaml`, and the first
 * `.skillgate/skills.yaml` of the project folders (nearest first) that exists and may be read.
 *
 * @param stateRoot The state root (no user file without it).
 * @param projectBases The folders that may hold the project's `.skillgate`, nearest first (the
 *   catalog's project folders).
 * @returns The files and the stamp.
 */
export function overlayState(
  stateRoot: string | undefined,
  projectBases: readonly string[],
): OverlayState {
  const sources: OverlaySource[] = [];
  if (stateRoot) {
    const path = join(stateRoot, OVERLAY_FILE);
    const s = statOf(path);
    if (s) sources.push({ path, scope: "user", ...s });
  }
  for (const base of projectBases) {
    const path = join(base, PROJECT_OVERLAY_DIR, OVERLAY_FILE);
    // A session in the home folder: `~/.skillgate/skills.yaml` is the user's file, not a project's.
    if (sources.some((s) => s.path === path)) continue;
    const s = statOf(path);
    if (s) {
      sources.push({ path, scope: "project", ...s });
      break;
    }
  }
  return { sources, stamp: overlayStamp(sources) };
}

/** What finds the overlay files: the state root (the user's) and the session's folders. */
export interface OverlayOptions {
  /** The state root. */
  readonly stateRoot?: string;
  /** The session's directory. */
  readonly cwd?: string;
  /** The project root. */
  readonly projectDir?: string;
}

/**
 * The overlay files that apply to a catalog with these options, and their stamp (a few `stat`s).
 *
 * @param opts The state root and the session's folders.
 * @returns The files and their stamp.
 */
export function catalogOverlayState(opts: OverlayOptions): OverlayState {
  return overlayState(opts.stateRoot, projectBases(opts.cwd, opts.projectDir));
}

/**
 * The overlays that apply to a catalog with these options: parsed from the
 * JSON under the state root while the files are unchanged.
 *
 * @param opts The state root and the session's folders.
 * @param state The files, when the caller has them.
 * @returns The overlays.
 */
export function catalogOverlays(
  opts: OverlayOptions,
  state: OverlayState = catalogOverlayState(opts),
): Promise<Overlays> {
  return loadOverlays(state, opts.stateRoot);
}

/**
 * The stamp of some overlay files: scope, path, mtime and size of each.
 *
 * @param sources The files.
 * @returns The stamp (`""` for none).
 */
export function overlayStamp(sources: readonly OverlaySource[]): string {
  return sources.map((s) => `${s.scope}\t${s.path}\t${s.mtimeMs}\t${s.size}`).join("\n");
}

interface CachedFile {
  scope: OverlayScope;
  m: number;
  s: number;
  entries: Record<string, OverlayEntry>;
  problems: number;
}

function cachePath(stateRoot: string): string {
  return join(stateRoot, "catalog", "overlays.json");
}

function readCache(stateRoot: string | undefined): Record<string, CachedFile> {
  if (!stateRoot) return {};
  try {
    const data = readJsonFile(cachePath(stateRoot), 4 * 1024 * 1024) as
      | { version?: unknown; files?: unknown }
      | undefined;
    if (data?.version !== CACHE_VERSION || !data.files || typeof data.files !== "object") return {};
    return data.files as Record<string, CachedFile>;
  } catch {
    return {};
  }
}

/**
 * Parses one overlay file (the YAML parser is loaded here, and only here).
 *
 * @param path The file.
 * @returns Its entries and problems; an unreadable file has one problem and no entry.
 */
export async function readOverlayFile(
  path: string,
): Promise<{ entries: Record<string, OverlayEntry>; problems: readonly OverlayProblem[] }> {
  const { parseOverlayText, MAX_OVERLAY_BYTES } = await parser();
  let text: string;
  try {
    const info = Deno.statSync(path);
    if (info.size > MAX_OVERLAY_BYTES) {
      return {
        entries: Object.create(null),
        problems: [{
          severity: "error",
          message: `The file is ${info.size} bytes, over the ${MAX_OVERLAY_BYTES}-byte limit`,
        }],
      };
    }
    text = readRegularTextSync(path, MAX_OVERLAY_BYTES);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return {
      entries: Object.create(null),
      problems: [{ severity: "error", message: `Cannot read: ${reason}` }],
    };
  }
  return await parseOverlayText(text);
}

/**
 * The overlays of some files: each file's parsed form from `<state root>/catalog/overlays.json`
 * while its mtime and size match, else parsed again (and the JSON written back, when it may be).
 *
 * @param state The files, from {@link overlayState}.
 * @param stateRoot The state root holding the JSON (none: every file is parsed).
 * @returns The overlays.
 */
export async function loadOverlays(
  state: OverlayState,
  stateRoot: string | undefined,
): Promise<Overlays> {
  if (state.sources.length === 0) return { stamp: "", files: [], bySkill: new Map() };
  const cache = readCache(stateRoot);
  const files: OverlayFile[] = [];
  let changed = false;
  let degraded = false;
  for (const src of state.sources) {
    const known = Object.hasOwn(cache, src.path) ? cache[src.path] : undefined;
    if (
      known && known.m === src.mtimeMs && known.s === src.size && known.scope === src.scope &&
      known.entries && typeof known.entries === "object"
    ) {
      const entries = Object.assign(Object.create(null), known.entries);
      files.push({ ...src, entries, problems: Number(known.problems) || 0 });
      continue;
    }
    const parsed = await readOverlayFile(src.path);
    if ("yamlUnavailable" in parsed && parsed.yamlUnavailable) degraded = true;
    files.push({ ...src, entries: parsed.entries, problems: parsed.problems.length });
    cache[src.path] = {
      scope: src.scope,
      m: src.mtimeMs,
      s: src.size,
      entries: parsed.entries,
      problems: parsed.problems.length,
    };
    changed = true;
  }
  if (changed && stateRoot && !degraded) {
    const mine = new Set(state.sources.map((s) => s.path));
    const kept = Object.entries(cache).sort(([a], [b]) => Number(mine.has(b)) - Number(mine.has(a)))
      .slice(0, MAX_CACHED_FILES);
    try {
      writeCacheFile(
        cachePath(stateRoot),
        JSON.stringify({ version: CACHE_VERSION, files: Object.fromEntries(kept) }),
      );
    } catch {
      // A cache: a state root that cannot be written costs a parse, not an answer.
    }
  }
  return { stamp: state.stamp, files, bySkill: mergeOverlays(files) };
}

/**
 * Merges overlay files, later files over earlier ones per skill and field (the project's file comes
 * after the user's).
 *
 * @param files The files, the user's first.
 * @returns Each skill key's fields with their origins.
 */
export function mergeOverlays(files: readonly OverlayFile[]): Map<string, SkillOverlay> {
  const out = new Map<string, SkillOverlay>();
  for (const f of files) {
    for (const [name, e] of Object.entries(f.entries)) {
      const from = (line: number | undefined): OverlayOrigin => ({
        scope: f.scope,
        file: f.path,
        line: line ?? e.lines?.entry ?? 0,
      });
      const prev = out.get(name) ?? {};
      out.set(name, {
        ...prev,
        ...(e.triggers ? { triggers: { value: e.triggers, from: from(e.lines?.triggers) } } : {}),
        ...(e.contract !== undefined
          ? { contract: { value: e.contract, from: from(e.lines?.contract) } }
          : {}),
        ...(typeof e.route === "boolean"
          ? { route: { value: e.route, from: from(e.lines?.route) } }
          : {}),
      });
    }
  }
  return out;
}

/** What overlays read of a skill: its names. */
export interface Named {
  /** The invocable name (`plugin:name` for a plugin's skill). */
  readonly name: string;
  /** The frontmatter name, where it differs. */
  readonly altName?: string;
}

/** A name without its `plugin:` prefix (the name itself when it has none). */
function localName(name: string): string {
  const at = name.indexOf(":");
  return at < 0 ? name : name.slice(at + 1);
}

/**
 * The overlay of one skill: the entry keyed by its invocable name, else its frontmatter name, else
 * its name without the plugin.
 *
 * @param overlays The overlays.
 * @param skill The skill.
 * @returns Its overlay, or `undefined`.
 */
export function overlayOf(overlays: Overlays, skill: Named): SkillOverlay | undefined {
  const m = overlays.bySkill;
  if (m.size === 0) return undefined;
  return m.get(skill.name) ?? (skill.altName !== undefined ? m.get(skill.altName) : undefined) ??
    m.get(localName(skill.name)) ??
    (skill.altName !== undefined ? m.get(localName(skill.altName)) : undefined);
}

/** The fields of a catalog entry that overlays set, and where each came from. */
export interface Overlaid {
  /** Its triggers. */
  readonly triggers: readonly string[];
  /** Its raw contract. */
  readonly contract?: unknown;
  /** Whether it may route (overriding config `route_skills`), when an overlay says. */
  readonly route?: boolean;
  /** Where the fields an overlay gave came from (absent: the skill's own frontmatter). */
  readonly overlay?: OverlayOrigins;
}

/**
 * Applies overlays to catalog entries: each field an overlay gives a skill replaces the skill's own
 * and records its origin. Entries no overlay names are returned as they are.
 *
 * @param skills The entries.
 * @param overlays The overlays.
 * @returns The entries, overlaid.
 */
export function applyOverlays<T extends Named & Overlaid>(
  skills: readonly T[],
  overlays: Overlays,
): T[] {
  if (overlays.bySkill.size === 0) return [...skills];
  return skills.map((s) => {
    const o = overlayOf(overlays, s);
    if (!o) return s;
    return {
      ...s,
      ...(o.triggers ? { triggers: [...o.triggers.value] } : {}),
      ...(o.contract ? { contract: o.contract.value } : {}),
      ...(o.route ? { route: o.route.value } : {}),
      overlay: {
        ...(o.triggers ? { triggers: o.triggers.from } : {}),
        ...(o.contract ? { contract: o.contract.from } : {}),
        ...(o.route ? { route: o.route.from } : {}),
      },
    };
  });
}

/**
 * The overlay keys that name no installed skill (doctor names them).
 *
 * @param skills The installed skills.
 * @param overlays The overlays.
 * @returns Each such key with the file and line of its entry, sorted by key.
 */
export function unmatchedOverlays(
  skills: readonly Named[],
  overlays: Overlays,
): { name: string; from: OverlayOrigin }[] {
  const names = new Set<string>();
  for (const s of skills) {
    for (const n of [s.name, s.altName]) {
      if (n === undefined) continue;
      names.add(n);
      names.add(localName(n));
    }
  }
  const out: { name: string; from: OverlayOrigin }[] = [];
  for (const f of overlays.files) {
    for (const [name, e] of Object.entries(f.entries)) {
      if (!names.has(name)) {
        out.push({ name, from: { scope: f.scope, file: f.path, line: e.lines?.entry ?? 0 } });
      }
    }
  }
  return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

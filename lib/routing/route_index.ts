/**
 * The routing index: what skill routing needs from the catalog, in a file of its own
 * (`<state root>/catalog/routes.idx`), so that a prompt costs one small read, one mtime check per
 * skill folder and the scoring of the few skills that can match.
 *
 * One JSON value per line. The first line names the format and the trigger compiler; then each
 * skills root has a section: its description (`key`, `dir`, counts, the time of its last full
 * sweep), its watched folders and their mtimes, its SKILL.md files and their mtimes, its inverted
 * index (content word key → the skills
 * whose triggers have it, plus the skills with a trigger of stop words only, which can match by
 * their whole phrase), the description tier's terms (`describe.ts`: content word key → the skills
 * whose name or description has it, with its weight; each skill's length), and one line per skill
 * (names, source, triggers and their compiled form, first step, contract summaries, its SKILL.md
 * and that file's mtime, its built-in pack). Only the lines of skills that share a key with the
 * prompt are parsed, and the list of files only at a sweep.
 *
 * A skill without `triggers:` of its own that a built-in pack entry applies to (`packs.ts`: its
 * name and the opening of its description match) gets the entry's triggers and its pack's name.
 *
 * Freshness (the 1,000-skill budget): a section stands while
 * - the mtime of every directory it watches still matches: the root and every folder that is not
 *   itself a skill folder (the category folders of a nested layout, an empty folder that may get
 *   a SKILL.md; a plugin's skills folder is a root of its own). A skill added, removed or renamed
 *   changes one of them, so it is seen at once;
 * - the SKILL.md of every candidate skill (one that shares a word key with the prompt, see
 *   {@link RouteIndexOptions.keys}) still has its mtime: any edit of a skill that can route, in
 *   place or atomic (a new file renamed over the old one), is seen on the next prompt;
 * - and, once its last full sweep is older than {@link SWEEP_MS}, every SKILL.md's mtime still
 *   matches (the sweep's time is then written back). A skill folder itself is not checked on each
 *   prompt: an edit of a skill that is not a candidate, in place or atomic, is seen within a
 *   minute, or at the next change of a watched folder.
 *
 * Without `keys` every SKILL.md is checked, as the sweep does. A root that fails a check, or that
 * is missing, is loaded through the catalog (its own index, scanning what changed) and its section
 * written again.
 *
 * Overlay files (`lib/catalog/overlay_index.ts`) are applied when a section is built (their
 * triggers indexed, their `route` kept on the skill's line), and the file records their stamp: when
 * the overlay files that apply differ (one edited, added or removed, another project's), every
 * section is built again, from the catalog's JSON index.
 *
 * @module
 */

import {
  type CatalogOptions,
  type CatalogRoot,
  catalogRoots,
  type IndexedRoot,
  LINK_KEY,
  loadRoots,
  watchedMtime,
} from "../catalog/catalog.ts";
import { escapeName } from "../catalog/names_index.ts";
import {
  applyOverlays,
  catalogOverlays,
  catalogOverlayState,
  type OverlayOrigins,
} from "../catalog/overlay_index.ts";
import { isAbsolute, join } from "../base/path.ts";
import type { CompiledTrigger } from "./score.ts";
import { writeCacheFile } from "../base/state_file.ts";
import { readRegularTextSync } from "../base/fs.ts";
import { type DescriptionIndex, descriptionTerms } from "./describe.ts";

// The built-in packs are read only when a section is built.
const packs = () => import("./packs.ts");

/** The trigger compiler whose output the index keeps; `version` identifies that output. */
export interface TriggerCompiler {
  /** Changes whenever `compile` would give another result. */
  readonly version: string;
  /** Compiles one trigger. */
  compile(text: string): CompiledTrigger;
}

/** A skill as routing needs it. */
export interface IndexedSkill {
  /** The invocable name. */
  readonly name: string;
  /** The frontmatter `name`, where it differs. */
  readonly altName?: string;
  /** Where it was found. */
  readonly source: string;
  /** Its `triggers:`. */
  readonly triggers: readonly string[];
  /** The first instruction of its body. */
  readonly firstStep?: string;
  /** The skills its text sends a kind of request to ("For report-only mode, use /qa-only"). */
  readonly sendsTo?: readonly string[];
  /** True for `disable-model-invocation: true`. */
  readonly userOnly?: boolean;
  /** Its contract block, reduced to what the hint reads: the first 20 items' `summary`. */
  readonly contract?: { readonly items: readonly { readonly summary: string }[] };
  /** The built-in pack whose reviewed entry applies to it (`packs.ts`). */
  readonly pack?: string;
  /** Whether it may route, overriding config `route_skills` (an overlay file's `route`). */
  readonly route?: boolean;
  /** Where the fields an overlay file gave it came from (see the catalog's `SkillEntry`). */
  readonly overlay?: OverlayOrigins;
}

/** A skill and its compiled triggers (in the order of its `triggers`). */
export interface RouteIndexEntry {
  /** The skill. */
  readonly skill: IndexedSkill;
  /** Its triggers, compiled. */
  readonly compiled: readonly CompiledTrigger[];
}

/** The installed skills as the routing index holds them. */
export interface RouteIndex {
  /** The skills directories found. */
  readonly dirs: readonly string[];
  /** SKILL.md files looked at. */
  readonly scanned: number;
  /** How many skills. */
  readonly count: number;
  /** Whether every root came from the index file. */
  readonly fromIndex: boolean;
  /**
   * Every skill, in precedence order.
   *
   * @returns The skills (the same objects on every call).
   */
  all(): RouteIndexEntry[];
  /**
   * The skills, in precedence order, with a trigger that has one of `keys` among its content
   * word keys, or a trigger without content words. No other skill can score above 0 for a prompt
   * with these keys.
   *
   * @param keys The prompt's word keys.
   * @returns The skills (the same objects as {@link RouteIndex.all}).
   * @throws {SyntaxError} When a line of the file is damaged; the file is removed first.
   */
  select(keys: ReadonlySet<string>): RouteIndexEntry[];
  /**
   * The description tier's terms over every skill, indexed as {@link RouteIndex.all} (`entry`
   * gives a skill by that index without parsing the others).
   *
   * @returns The terms.
   * @throws {SyntaxError} When a line of the file is damaged; the file is removed first.
   */
  descriptions(): DescriptionIndex;
  /**
   * One skill by its index in {@link RouteIndex.all}.
   *
   * @param i The index.
   * @returns The skill (the same object as in {@link RouteIndex.all}).
   */
  entry(i: number): RouteIndexEntry;
}

const FORMAT = "skillgate-routes-9";
const MAX_ROOTS = 64;

/** How old a section's last full per-file sweep may get before the next prompt sweeps again. */
export const SWEEP_MS = 60_000;

/** Where {@link loadRouteIndex} looks, with what, and what it checks. */
export interface RouteIndexOptions extends CatalogOptions {
  /** The trigger compiler. */
  readonly compiler: TriggerCompiler;
  /**
   * The prompt's word keys: only the SKILL.md files of the skills they select (see
   * {@link RouteIndex.select}) are checked, besides every watched directory, until a section's
   * sweep is due. Without them every SKILL.md is checked.
   */
  readonly keys?: ReadonlySet<string>;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** A compiled trigger as stored: phrase (0: the lower-cased text between spaces), keys, partial. */
type StoredTrigger = [phrase: string | 0, keys: string, partial: 0 | 1];

/**
 * A skill line: name, altName, source, triggers, compiled, first step, contract summaries, user
 * only (`disable-model-invocation: true`), its SKILL.md as stored (see {@link toStored}; 0: none),
 * that file's mtime, the skills its text sends a kind of request to (0: none), its built-in pack
 * (0: none) and what overlay files gave it (`route` and the origins; 0: nothing).
 */
type SkillLine = [
  string,
  string | 0,
  string,
  string[],
  StoredTrigger[],
  string | 0,
  string[] | 0,
  0 | 1,
  string | 0,
  number,
  string[] | 0,
  string | 0,
  OverlaidLine | 0,
];

/** What overlay files gave a skill, on its line. */
interface OverlaidLine {
  route?: boolean;
  from: NonNullable<IndexedSkill["overlay"]>;
}

interface SectionMeta {
  key: string;
  dir: string;
  scanned: number;
  count: number;
  /** When every file of the section was last found current (ms since the epoch). */
  swept: number;
}

/** Watched paths (as stored, see {@link toStored}) and their mtimes. */
type Watched = [paths: string[], mtimes: number[]];

/**
 * A section's inverted index, as text so that a prompt parses only its own keys' lines: one line
 * per content word key (`\n<key>\t<skill>,<skill>…\n`, see `escapeName` of the catalog); and the skills of
 * the triggers of stop words only.
 */
type Postings = [text: string, always: number[]];

/**
 * The description tier's terms of a section, as text: one line per word key
 * (`\n<key>\t<skill>:<weight>,…\n`), and each skill's length.
 */
type Descriptions = [text: string, lengths: number[]];

/** Lines of a section before its skill lines: meta, folders, files, postings, descriptions. */
const HEAD = 5;

/**
 * A root's lines: meta, its watched folders (and symlink keys), checked on every load, its files
 * (every SKILL.md the scan looked at), checked by the sweep, [postings, always], then one line per
 * skill. What a load has parsed of it is kept, so nothing is parsed twice.
 */
interface Section {
  readonly meta: SectionMeta;
  readonly lines: readonly string[];
  /** Its postings, once parsed. */
  postings?: Postings;
  /** Its description terms, once parsed. */
  descriptions?: Descriptions;
  /** Its skill lines parsed so far, by skill index. */
  readonly skills: Map<number, SkillLine>;
}

function skillLine(section: Section, i: number): SkillLine {
  let line = section.skills.get(i);
  if (!line) section.skills.set(i, line = JSON.parse(section.lines[HEAD + i]) as SkillLine);
  return line;
}

function postingsOf(section: Section): Postings {
  return section.postings ??= JSON.parse(section.lines[3]) as Postings;
}

function descriptionsOf(section: Section): Descriptions {
  return section.descriptions ??= JSON.parse(section.lines[4]) as Descriptions;
}

/** The largest index file read (a larger one is built again). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

function routesPath(stateRoot: string): string {
  return join(stateRoot, "catalog", "routes.idx");
}

/**
 * The sections of the index file, by root key; none when it is missing, of another compiler, or
 * built with other overlay files (their stamp, `overlays`).
 */
function readSections(stateRoot: string, version: string, overlays: string): Map<string, Section> {
  const sections = new Map<string, Section>();
  try {
    const lines = readRegularTextSync(routesPath(stateRoot), MAX_INDEX_BYTES).split("\n");
    const head = JSON.parse(lines[0]) as {
      format?: unknown;
      compiler?: unknown;
      overlays?: unknown;
    };
    if (head.format !== FORMAT || head.compiler !== version) return sections;
    if ((head.overlays ?? "") !== overlays) return sections;
    for (let i = 1; i < lines.length && lines[i] !== "";) {
      const meta = JSON.parse(lines[i]) as SectionMeta;
      const end = i + HEAD + meta.count;
      if (!(meta.count >= 0) || end > lines.length) break;
      sections.set(meta.key, { meta, lines: lines.slice(i, end), skills: new Map() });
      i = end;
    }
  } catch {
    // No index, or a damaged one: every root is loaded through the catalog.
  }
  return sections;
}

/**
 * A watched path as the file keeps it: relative to the section's directory when under it (`""`
 * for the directory itself), which makes the file about a third smaller for 1,000 skills.
 */
function toStored(path: string, dir: string): string {
  if (path === dir) return "";
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : path;
}

/** The path a {@link toStored} value stands for. */
function fromStored(stored: string, dir: string): string {
  if (stored === "") return dir;
  return isAbsolute(stored) ? stored : `${dir}/${stored}`;
}

function allMatch(paths: readonly string[], mtimes: readonly number[], dir: string): boolean {
  for (let i = 0; i < paths.length; i++) {
    if (watchedMtime(fromStored(paths[i], dir)) !== mtimes[i]) return false;
  }
  return true;
}

/** A section's skills that the keys select (with the skills of stop-word triggers). */
function selected(
  postings: string,
  always: readonly number[],
  keys: ReadonlySet<string>,
): number[] {
  const hits = new Set(always);
  for (const k of keys) {
    const needle = `\n${escapeName(k)}\t`;
    const at = postings.indexOf(needle);
    if (at < 0) continue;
    const start = at + needle.length;
    for (const i of postings.slice(start, postings.indexOf("\n", start)).split(",")) {
      hits.add(Number(i));
    }
  }
  return [...hits].sort((a, b) => a - b);
}

/**
 * How a known section stands: `stale` (load it through the catalog), `fresh`, or `swept` (fresh,
 * and every file checked now: its sweep time is to be written back).
 */
function freshness(
  section: Section,
  keys: ReadonlySet<string> | undefined,
  now: number,
): "stale" | "fresh" | "swept" {
  try {
    const dir = section.meta.dir;
    const [dirs, dirMtimes] = JSON.parse(section.lines[1]) as Watched;
    if (!allMatch(dirs, dirMtimes, dir)) return "stale";
    const due = !(now - section.meta.swept < SWEEP_MS && section.meta.swept <= now);
    if (keys === undefined || due) {
      const [files, fileMtimes] = JSON.parse(section.lines[2]) as Watched;
      if (!allMatch(files, fileMtimes, dir)) return "stale";
      return due ? "swept" : "fresh";
    }
    if (section.meta.count === 0) return "fresh";
    const [postings, always] = postingsOf(section);
    for (const i of selected(postings, always, keys)) {
      const line = skillLine(section, i);
      if (line[8] !== 0 && watchedMtime(fromStored(line[8], dir)) !== line[9]) return "stale";
    }
    return "fresh";
  } catch {
    return "stale";
  }
}

/** The contract summaries the `contract` hint shows (see `contractSummaries` in routing). */
function hintSummaries(contract: unknown): string[] | 0 {
  const items = contract && typeof contract === "object"
    ? (contract as { items?: unknown }).items
    : undefined;
  if (!Array.isArray(items)) return 0;
  const out: string[] = [];
  for (const item of items.slice(0, 20)) {
    const summary = item && typeof item === "object"
      ? (item as { summary?: unknown }).summary
      : undefined;
    if (typeof summary === "string" && summary.trim()) out.push(summary);
  }
  return out.length ? out : 0;
}

function buildSection(
  root: CatalogRoot,
  key: string,
  entry: IndexedRoot,
  compiler: TriggerCompiler,
  now: number,
  packFor: PackLookup,
): Section {
  const postings: Record<string, number[]> = Object.create(null);
  const always: number[] = [];
  const terms: Record<string, string[]> = Object.create(null);
  const lengths: number[] = [];
  // Every SKILL.md the scan looked at is a file, checked by the sweep (and a candidate's on each
  // prompt); every other watched key (the root, the folders on the way to a skill, empty folders,
  // symlinks) is checked on every load. The catalog watches no skill folder.
  const files = Object.keys(entry.mtimes).filter((p) => !p.endsWith(LINK_KEY) && isSkillFile(p));
  const isFile = new Set(files);
  const dirs = Object.keys(entry.mtimes).filter((p) => !isFile.has(p));
  const skillLines = entry.skills.map((s, i) => {
    const pack = packFor(s.name, s.altName, s.description);
    // The skill's own triggers (or an overlay's, even none) win over its pack entry's.
    const triggers = s.overlay?.triggers || s.triggers.length || !pack ? s.triggers : pack.triggers;
    let length = 0;
    for (const [k, w] of descriptionTerms(s.name, s.description)) {
      (Object.hasOwn(terms, k) ? terms[k] : (terms[k] = [])).push(`${i}:${w}`);
      length += w;
    }
    lengths.push(length);
    const stored = triggers.map((text): StoredTrigger => {
      const t = compiler.compile(text);
      if (t.keys.length === 0 && t.phrase) always.push(i);
      for (const k of t.keys) {
        const list = Object.hasOwn(postings, k) ? postings[k] : (postings[k] = []);
        if (list.at(-1) !== i) list.push(i);
      }
      return [
        t.phrase === ` ${text.toLowerCase()} ` ? 0 : t.phrase,
        t.keys.join(" "),
        t.partial ? 1 : 0,
      ];
    });
    const line: SkillLine = [
      s.name,
      s.altName ?? 0,
      s.source,
      [...triggers],
      stored,
      s.firstStep ?? 0,
      hintSummaries(s.contract),
      s.userOnly ? 1 : 0,
      isFile.has(s.file) ? toStored(s.file, root.dir) : 0,
      isFile.has(s.file) ? entry.mtimes[s.file] : -1,
      s.sendsTo?.length ? [...s.sendsTo] : 0,
      pack ? pack.pack : 0,
      s.overlay ? { ...(s.route !== undefined ? { route: s.route } : {}), from: s.overlay } : 0,
    ];
    return JSON.stringify(line);
  });
  const meta: SectionMeta = {
    key,
    dir: root.dir,
    scanned: entry.scanned,
    count: skillLines.length,
    swept: now,
  };
  const stored = (paths: string[]): Watched => [
    paths.map((p) => toStored(p, root.dir)),
    paths.map((p) => entry.mtimes[p]),
  ];
  return {
    meta,
    lines: [
      JSON.stringify(meta),
      JSON.stringify(stored(dirs)),
      JSON.stringify(stored(files)),
      JSON.stringify([postingsText(postings), [...new Set(always)]]),
      JSON.stringify([descriptionsText(terms), lengths]),
      ...skillLines,
    ],
    skills: new Map(),
  };
}

/** The postings as {@link Postings} keeps them. */
function postingsText(postings: Record<string, number[]>): string {
  let text = "\n";
  for (const [k, list] of Object.entries(postings)) text += `${escapeName(k)}\t${list.join(",")}\n`;
  return text;
}

/** The description terms as {@link Descriptions} keeps them. */
function descriptionsText(terms: Record<string, string[]>): string {
  let text = "\n";
  for (const [k, list] of Object.entries(terms)) text += `${escapeName(k)}\t${list.join(",")}\n`;
  return text;
}

/** The pack entry that applies to a skill (`packFor` of `packs.ts`). */
type PackLookup = (
  name: string,
  altName: string | undefined,
  description: string | undefined,
) => { readonly pack: string; readonly triggers: readonly string[] } | undefined;

/** A section whose sweep time is now, its other lines as they were. */
function resweep(section: Section, now: number): Section {
  const meta = { ...section.meta, swept: now };
  return { ...section, meta, lines: [JSON.stringify(meta), ...section.lines.slice(1)] };
}

function isSkillFile(path: string): boolean {
  return path.endsWith("/SKILL.md") || path.endsWith("\\SKILL.md");
}

function toEntry(line: SkillLine): RouteIndexEntry {
  const [
    name,
    alt,
    source,
    triggers,
    stored,
    step,
    summaries,
    userOnly,
    ,
    ,
    sends,
    pack,
    overlaid,
  ] = line;
  const skill: IndexedSkill = {
    name,
    ...(alt !== 0 ? { altName: alt } : {}),
    source,
    triggers,
    ...(step !== 0 ? { firstStep: step } : {}),
    ...(summaries !== 0 ? { contract: { items: summaries.map((summary) => ({ summary })) } } : {}),
    ...(userOnly === 1 ? { userOnly: true } : {}),
    ...(sends ? { sendsTo: sends } : {}),
    ...(pack ? { pack } : {}),
    ...(overlaid && typeof overlaid.route === "boolean" ? { route: overlaid.route } : {}),
    ...(overlaid ? { overlay: overlaid.from } : {}),
  };
  const compiled = stored.map(([phrase, keys, partial], j): CompiledTrigger => ({
    text: triggers[j],
    phrase: phrase === 0 ? ` ${triggers[j].toLowerCase()} ` : phrase,
    keys: keys ? keys.split(" ") : [],
    partial: partial === 1,
  }));
  return { skill, compiled };
}

/**
 * The index over some sections. A line that does not parse (a damaged file whose mtimes still
 * match) throws, after `damaged` has removed the file so that the next load rebuilds it.
 */
function makeIndex(
  sections: readonly Section[],
  dirs: string[],
  fromIndex: boolean,
  damaged: () => void,
): RouteIndex {
  const parsed = new Map<string, RouteIndexEntry>();
  const parse = <T>(read: () => T): T => {
    try {
      return read();
    } catch (err) {
      damaged();
      throw err;
    }
  };
  const entry = (s: number, i: number): RouteIndexEntry => {
    const id = `${s}:${i}`;
    let e = parsed.get(id);
    if (!e) parsed.set(id, e = parse(() => toEntry(skillLine(sections[s], i))));
    return e;
  };
  return {
    dirs,
    scanned: sections.reduce((n, s) => n + s.meta.scanned, 0),
    count: sections.reduce((n, s) => n + s.meta.count, 0),
    fromIndex,
    all() {
      const out: RouteIndexEntry[] = [];
      sections.forEach((s, si) => {
        for (let i = 0; i < s.meta.count; i++) out.push(entry(si, i));
      });
      return out;
    },
    descriptions() {
      const parts = parse(() => sections.map((s) => s.meta.count ? descriptionsOf(s) : undefined));
      const offsets: number[] = [];
      let count = 0, total = 0;
      sections.forEach((s, si) => {
        offsets.push(count);
        count += s.meta.count;
        for (const n of parts[si]?.[1] ?? []) total += n;
      });
      return {
        count,
        totalLength: total,
        postings(k) {
          const out: [number, number][] = [];
          parts.forEach((part, si) => {
            if (!part) return;
            const needle = `\n${escapeName(k)}\t`;
            const at = part[0].indexOf(needle);
            if (at < 0) return;
            const start = at + needle.length;
            for (const pair of part[0].slice(start, part[0].indexOf("\n", start)).split(",")) {
              const colon = pair.indexOf(":");
              out.push([offsets[si] + Number(pair.slice(0, colon)), Number(pair.slice(colon + 1))]);
            }
          });
          return out;
        },
        length(i) {
          for (let si = sections.length - 1; si >= 0; si--) {
            if (i >= offsets[si]) return parts[si]?.[1][i - offsets[si]] ?? 0;
          }
          return 0;
        },
      };
    },
    entry(i) {
      let at = i;
      for (let si = 0; si < sections.length; si++) {
        if (at < sections[si].meta.count) return entry(si, at);
        at -= sections[si].meta.count;
      }
      throw new RangeError(`No skill ${i}`);
    },
    select(keys) {
      const out: RouteIndexEntry[] = [];
      sections.forEach((s, si) => {
        if (s.meta.count === 0) return;
        const [postings, always] = parse(() => postingsOf(s));
        for (const i of selected(postings, always, keys)) out.push(entry(si, i));
      });
      return out;
    },
  };
}

/**
 * Loads the routing index: every root from the index file while it is fresh (see the module
 * documentation), the others through the catalog (which scans only what changed), writing the
 * file again when a root was loaded that way or swept. Never throws (a damaged line of a fresh
 * section throws when it is read, see {@link RouteIndex.select}, and the file is removed).
 *
 * @param opts Where to look (agents are never loaded), the trigger compiler, the prompt's keys.
 * @returns The index.
 */
export async function loadRouteIndex(opts: RouteIndexOptions): Promise<RouteIndex> {
  const now = (opts.now ?? Date.now)();
  const roots = await catalogRoots({ ...opts, agents: false });
  // Overlay files give skills triggers and `route`: sections built with others are built again.
  const overlayState = catalogOverlayState(opts);
  const known = opts.stateRoot
    ? readSections(opts.stateRoot, opts.compiler.version, overlayState.stamp)
    : new Map<string, Section>();
  const sections: Section[] = [];
  const stale: number[] = [];
  let swept = false;
  roots.forEach((r, i) => {
    const s = known.get(r.key);
    const state = s ? freshness(s, opts.keys, now) : "stale";
    if (state === "stale") stale.push(i);
    else if (state === "swept") {
      sections[i] = resweep(s!, now);
      swept = true;
    } else sections[i] = s!;
  });
  let degraded = false;
  if (stale.length) {
    const { roots: loaded } = await loadRoots(opts, stale.map((i) => roots[i]));
    const overlays = await catalogOverlays(opts, overlayState);
    const { packFor } = await packs();
    loaded.forEach((l, j) => {
      const entry = { ...l.entry, skills: applyOverlays(l.entry.skills, overlays) };
      sections[stale[j]] = buildSection(l.root, l.key, entry, opts.compiler, now, packFor);
    });
    // Skills read without the YAML parser are left out of the file, as from the catalog index.
    degraded = loaded.some((l) => l.entry.skills.some((s) => s.degraded));
  }
  if ((stale.length || swept) && opts.stateRoot && opts.writeIndex !== false && !degraded) {
    const mine = new Set(roots.map((r) => r.key));
    const keep = [...known.values()].filter((s) => !mine.has(s.meta.key));
    const lines = [
      JSON.stringify({
        format: FORMAT,
        compiler: opts.compiler.version,
        ...(overlayState.stamp ? { overlays: overlayState.stamp } : {}),
      }),
      ...[...sections, ...keep].slice(0, MAX_ROOTS).flatMap((s) => s.lines),
    ];
    try {
      writeCacheFile(routesPath(opts.stateRoot), lines.join("\n") + "\n");
    } catch {
      // A cache: a state root that cannot be written costs speed, not answers.
    }
  }
  const remove = () => {
    try {
      if (opts.stateRoot) Deno.removeSync(routesPath(opts.stateRoot));
    } catch {
      // Already gone, or not writable: the next load tries again.
    }
  };
  return makeIndex(sections, roots.map((r) => r.root.dir), stale.length === 0, remove);
}

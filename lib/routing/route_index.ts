/**
 * The routing index: what skill routing needs from the catalog, in a file of its own
 * (`<state root>/catalog/routes.idx`), so that a prompt costs one small read, one mtime check per
 * watched file and the scoring of the few skills that can match.
 *
 * One JSON value per line. The first line names the format and the trigger compiler; then each
 * skills root has a section: its description (`key`, `dir`, counts), its watched paths and their
 * keys and mtimes (the same as the catalog index's, see `watchedMtime`), its inverted index (content word key → the skills
 * whose triggers have it, plus the skills with a trigger of stop words only, which can match by
 * their whole phrase), and one line per skill (names, source, triggers and their compiled form,
 * first step, contract summaries). Only the lines of skills that share a key with the prompt are
 * parsed. A root whose mtimes changed, or that is missing, is loaded through the catalog (its
 * own index, scanning what changed) and its section written again.
 *
 * @module
 */

import {
  type CatalogOptions,
  type CatalogRoot,
  catalogRoots,
  type IndexedRoot,
  loadRoots,
  watchedMtime,
} from "../catalog/catalog.ts";
import { join } from "../base/path.ts";
import type { CompiledTrigger } from "./score.ts";
import { writeFileAtomic } from "../base/state_file.ts";

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
  /** True for `disable-model-invocation: true`. */
  readonly userOnly?: boolean;
  /** Its contract block, reduced to what the hint reads: the first 20 items' `summary`. */
  readonly contract?: { readonly items: readonly { readonly summary: string }[] };
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
}

const FORMAT = "skillgate-routes-3";
const MAX_ROOTS = 64;

/** A compiled trigger as stored: phrase (0: the lower-cased text between spaces), keys, partial. */
type StoredTrigger = [phrase: string | 0, keys: string, partial: 0 | 1];

/**
 * A skill line: name, altName, source, triggers, compiled, first step, contract summaries, user
 * only (`disable-model-invocation: true`).
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
];

interface SectionMeta {
  key: string;
  dir: string;
  scanned: number;
  count: number;
}

/** A root's lines: meta, [paths, mtimes], [postings, always], then one line per skill. */
interface Section {
  readonly meta: SectionMeta;
  readonly lines: readonly string[];
}

function routesPath(stateRoot: string): string {
  return join(stateRoot, "catalog", "routes.idx");
}

/** The sections of the index file, by root key; none when it is missing or of another compiler. */
function readSections(stateRoot: string, version: string): Map<string, Section> {
  const sections = new Map<string, Section>();
  try {
    const lines = Deno.readTextFileSync(routesPath(stateRoot)).split("\n");
    const head = JSON.parse(lines[0]) as { format?: unknown; compiler?: unknown };
    if (head.format !== FORMAT || head.compiler !== version) return sections;
    for (let i = 1; i < lines.length && lines[i] !== "";) {
      const meta = JSON.parse(lines[i]) as SectionMeta;
      const end = i + 3 + meta.count;
      if (!(meta.count >= 0) || end > lines.length) break;
      sections.set(meta.key, { meta, lines: lines.slice(i, end) });
      i = end;
    }
  } catch {
    // No index, or a damaged one: every root is loaded through the catalog.
  }
  return sections;
}

function isFresh(section: Section): boolean {
  let paths: string[], mtimes: number[];
  try {
    [paths, mtimes] = JSON.parse(section.lines[1]);
  } catch {
    return false;
  }
  for (let i = 0; i < paths.length; i++) {
    if (watchedMtime(paths[i]) !== mtimes[i]) return false;
  }
  return true;
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
): Section {
  const postings: Record<string, number[]> = Object.create(null);
  const always: number[] = [];
  const skillLines = entry.skills.map((s, i) => {
    const stored = s.triggers.map((text): StoredTrigger => {
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
      [...s.triggers],
      stored,
      s.firstStep ?? 0,
      hintSummaries(s.contract),
      s.userOnly ? 1 : 0,
    ];
    return JSON.stringify(line);
  });
  const paths = Object.keys(entry.mtimes);
  const meta: SectionMeta = {
    key,
    dir: root.dir,
    scanned: entry.scanned,
    count: skillLines.length,
  };
  return {
    meta,
    lines: [
      JSON.stringify(meta),
      JSON.stringify([paths, paths.map((p) => entry.mtimes[p])]),
      JSON.stringify([postings, [...new Set(always)]]),
      ...skillLines,
    ],
  };
}

function parseSkill(line: string): RouteIndexEntry {
  const [name, alt, source, triggers, stored, step, summaries, userOnly] = JSON.parse(
    line,
  ) as SkillLine;
  const skill: IndexedSkill = {
    name,
    ...(alt !== 0 ? { altName: alt } : {}),
    source,
    triggers,
    ...(step !== 0 ? { firstStep: step } : {}),
    ...(summaries !== 0 ? { contract: { items: summaries.map((summary) => ({ summary })) } } : {}),
    ...(userOnly === 1 ? { userOnly: true } : {}),
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
    if (!e) parsed.set(id, e = parse(() => parseSkill(sections[s].lines[3 + i])));
    return e;
  };
  const keyTables: [Record<string, number[]>, number[]][] = [];
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
    select(keys) {
      const out: RouteIndexEntry[] = [];
      sections.forEach((s, si) => {
        if (s.meta.count === 0) return;
        const [postings, always] = keyTables[si] ??= parse(() => JSON.parse(s.lines[2]));
        const hits = new Set(always);
        for (const k of keys) {
          if (Object.hasOwn(postings, k)) { for (const i of postings[k]) hits.add(i); }
        }
        for (const i of [...hits].sort((a, b) => a - b)) out.push(entry(si, i));
      });
      return out;
    },
  };
}

/**
 * Loads the routing index: every root from the index file while its mtimes match, the others
 * through the catalog (which scans only what changed), writing the file again when a root was
 * loaded that way. Never throws (a damaged line of a fresh section throws when it is read, see
 * {@link RouteIndex.select}, and the file is removed).
 *
 * @param opts Where to look (agents are never loaded) and the trigger compiler.
 * @returns The index.
 */
export async function loadRouteIndex(
  opts: CatalogOptions & { readonly compiler: TriggerCompiler },
): Promise<RouteIndex> {
  const roots = await catalogRoots({ ...opts, agents: false });
  const known = opts.stateRoot
    ? readSections(opts.stateRoot, opts.compiler.version)
    : new Map<string, Section>();
  const sections: Section[] = [];
  const stale: number[] = [];
  roots.forEach((r, i) => {
    const s = known.get(r.key);
    if (s && isFresh(s)) sections[i] = s;
    else stale.push(i);
  });
  if (stale.length) {
    const { roots: loaded } = await loadRoots(opts, stale.map((i) => roots[i]));
    loaded.forEach((l, j) => {
      sections[stale[j]] = buildSection(l.root, l.key, l.entry, opts.compiler);
    });
    // Skills read without the YAML parser are left out of the file, as from the catalog index.
    const degraded = loaded.some((l) => l.entry.skills.some((s) => s.degraded));
    if (opts.stateRoot && opts.writeIndex !== false && !degraded) {
      const mine = new Set(roots.map((r) => r.key));
      const keep = [...known.values()].filter((s) => !mine.has(s.meta.key));
      const lines = [
        JSON.stringify({ format: FORMAT, compiler: opts.compiler.version }),
        ...[...sections, ...keep].slice(0, MAX_ROOTS).flatMap((s) => s.lines),
      ];
      try {
        writeFileAtomic(routesPath(opts.stateRoot), lines.join("\n") + "\n");
      } catch {
        // A cache: a state root that cannot be written costs speed, not answers.
      }
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

/**
 * Load detection: which records of a transcript load a skill (a `Skill` tool call, a typed
 * `/name` command, a Read of its SKILL.md, the skill body's "Base directory" line), and whether a
 * load is the one a reader looks for.
 *
 * @module
 */

import type { LoadVia, SkillLoad, SkillSelector } from "./model.ts";
import { isRec, type Rec, str, textOfContent } from "./record.ts";

/** Substrings one of which every line holding a load contains (the backward pre-filter). */
export const LOAD_NEEDLES: readonly string[] = [
  '"Skill"',
  "<command-name>",
  "SKILL.md",
  "Base directory for this skill",
];

/**
 * A skill name as a load names it: a leading `/` dropped, and its name without a `plugin:` prefix.
 *
 * @param raw The name as written.
 * @returns Both names, or undefined for an empty, too long or spaced name.
 */
export function normalizeSkillName(
  raw: string,
): { qualifiedName: string; name: string } | undefined {
  const q = raw.trim().replace(/^\//, "").trim();
  if (q === "" || q.length > 200 || /\s/.test(q)) return undefined;
  const i = q.lastIndexOf(":");
  const name = i >= 0 ? q.slice(i + 1) : q;
  if (name === "") return undefined;
  return { qualifiedName: q, name };
}

const COMMAND_NAME_RE = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const BASE_DIR_RE = /^\s*Base directory for this skill:\s*(\S[^\n]*)/;

function trimSlashes(p: string): string {
  return p.replace(/[\\/]+$/, "");
}

function baseName(p: string): string {
  const t = trimSlashes(p);
  const i = Math.max(t.lastIndexOf("/"), t.lastIndexOf("\\"));
  return i >= 0 ? t.slice(i + 1) : t;
}

const DEFAULT_SKILL_READ_RE =
  /[\\/]\.claude[\\/](?:skills|plugins[\\/](?:.+[\\/])?skills)[\\/]([^\\/]+)[\\/]SKILL\.md$/;

/** The skill name a Read of `file_path` loads, when it is a SKILL.md under a skills directory. */
function skillOfRead(
  filePath: string,
  skillsDirs: readonly string[] | undefined,
): string | undefined {
  if (!filePath.endsWith("SKILL.md")) return undefined;
  if (skillsDirs && skillsDirs.length > 0) {
    const norm = filePath.replace(/\\/g, "/");
    for (const d of skillsDirs) {
      const dir = trimSlashes(d.replace(/\\/g, "/"));
      if (dir === "") continue;
      const prefix = dir + "/";
      if (!norm.startsWith(prefix)) continue;
      const rest = norm.slice(prefix.length).split("/");
      if (rest.length === 2 && rest[1] === "SKILL.md" && rest[0] !== "" && rest[0] !== "..") {
        return rest[0];
      }
    }
    return undefined;
  }
  const m = DEFAULT_SKILL_READ_RE.exec(filePath);
  return m ? m[1] : undefined;
}

/** A load found in a record, before it gets a `seq` and an offset. */
export interface RawLoad {
  /** The name as written (a leading `/` dropped). */
  qualifiedName: string;
  /** The name without a `plugin:` prefix. */
  name: string;
  /** How it was loaded. */
  via: LoadVia;
  /** The `Skill` (or `Read`) tool call's id. */
  toolUseId?: string;
}

/**
 * The main-chain loads in one parsed record, in order. Loads inside a subagent (`progress`,
 * `isSidechain`) are not loads of the main session.
 *
 * @param rec The record.
 * @param skillsDirs Installed skills directories (see `ReadRunOptions.skillsDirs`).
 * @returns The loads (often none).
 */
export function loadsOfRecord(
  rec: Rec,
  skillsDirs: readonly string[] | undefined,
  agentFile = false,
): RawLoad[] {
  const out: RawLoad[] = [];
  const type = rec.type;
  if (rec.isSidechain === true && !agentFile) return out;
  // An `invoked_skills` attachment is no load: Claude Code writes it when it compacts a
  // conversation, to carry skills already loaded into the summary. Counting it would start a new
  // run and block a later, unrelated turn (the seed's loads are a Skill call, a typed /name, a
  // Read of the SKILL.md).
  if (type !== "user" && type !== "assistant") return out;
  const msg = rec.message;
  if (!isRec(msg)) return out;
  const content = msg.content;
  if (type === "assistant") {
    if (!Array.isArray(content)) return out;
    for (const b of content) {
      if (!isRec(b) || b.type !== "tool_use" || !isRec(b.input)) continue;
      const id = str(b.id);
      if (b.name === "Skill") {
        const raw = str(b.input.skill) ?? str(b.input.command);
        const norm = raw ? normalizeSkillName(raw) : undefined;
        if (norm) out.push({ ...norm, via: "skill_tool", toolUseId: id });
      } else if (b.name === "Read") {
        const fp = str(b.input.file_path);
        const n = fp ? skillOfRead(fp, skillsDirs) : undefined;
        const norm = n ? normalizeSkillName(n) : undefined;
        if (norm) out.push({ ...norm, via: "read", toolUseId: id });
      }
    }
    return out;
  }
  // user
  const text = textOfContent(content);
  if (text === "") return out;
  if (rec.isMeta === true) {
    const m = BASE_DIR_RE.exec(text);
    if (m) {
      const norm = normalizeSkillName(baseName(m[1].trim()));
      if (norm) out.push({ ...norm, via: "base_directory" });
    }
    return out;
  }
  if (text.includes("<command-name>")) {
    const m = COMMAND_NAME_RE.exec(text);
    const norm = m ? normalizeSkillName(m[1]) : undefined;
    if (norm) out.push({ ...norm, via: "command" });
  }
  return out;
}

/**
 * Whether a load is one the selector picks. A throwing predicate picks nothing.
 *
 * @param selector A skill name or a predicate.
 * @param load The load.
 * @returns True when selected.
 */
export function selects(selector: SkillSelector, load: SkillLoad): boolean {
  try {
    return typeof selector === "string"
      ? skillNameMatches(load.qualifiedName, selector)
      : selector(load) === true;
  } catch {
    return false;
  }
}

/**
 * Whether a load's name names the wanted skill: a leading `/` is dropped and a `plugin:` prefix is
 * ignored on both sides, so `gstack:investigate` matches `investigate`.
 *
 * @param loaded The loaded name.
 * @param wanted The wanted name.
 * @returns True when they name the same skill.
 */
export function skillNameMatches(loaded: string, wanted: string): boolean {
  const base = (s: string) => {
    const t = s.trim().replace(/^\//, "");
    const i = t.lastIndexOf(":");
    return (i >= 0 ? t.slice(i + 1) : t).toLowerCase();
  };
  const b = base(wanted);
  return b !== "" && base(loaded) === b;
}

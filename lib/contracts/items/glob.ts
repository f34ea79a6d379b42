/**
 * Path globs of contract items (`file_written`'s `path`, `test_first`'s `test_paths`), matched
 * without a regular expression: segment by segment, in time bounded by the product of the glob's
 * and the path's lengths, so no glob can stall the Stop hook.
 *
 * Syntax: `*` any characters but `/`, `?` one character but `/`, `**` as a whole segment any number
 * of segments (none included), `{a,b}` one of the alternatives (not nested). Every other character
 * is itself. A glob is relative to the session's project directory, or absolute; a glob without a
 * `/` (`*.test.*`) matches a file's name in any folder ({@link nameGlob}).
 *
 * @module
 */

import { isAbsolute, isUnder, join, normalize } from "../../base/path.ts";

/** The longest glob an item may declare. */
export const MAX_GLOB_CHARS = 300;

/** The most alternatives the braces of one glob may expand to. */
const MAX_ALTERNATIVES = 32;

/**
 * Checks a glob an item declares.
 *
 * @param glob The glob.
 * @returns Undefined when it is usable, else what is wrong.
 */
export function globProblem(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_CHARS) return `is longer than ${MAX_GLOB_CHARS} characters`;
  if ([...glob].some((c) => c.charCodeAt(0) < 0x20)) return "holds a control character";
  if (/\{[^}]*\{/.test(glob) || /\}[^{]*\}/.test(glob) || /^[^{]*\}/.test(glob)) {
    return "has nested or unbalanced braces";
  }
  if ((glob.match(/\{/g) ?? []).length !== (glob.match(/\}/g) ?? []).length) {
    return "has unbalanced braces";
  }
  if (expand(glob).length > MAX_ALTERNATIVES) {
    return `expands to more than ${MAX_ALTERNATIVES} alternatives`;
  }
  if (glob.startsWith("~")) return "starts with ~ (write the absolute path)";
  return undefined;
}

/** The brace alternatives of a glob, each without braces. */
function expand(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open < 0) return [glob];
  const close = glob.indexOf("}", open);
  if (close < 0) return [glob];
  const head = glob.slice(0, open);
  const out: string[] = [];
  for (const alt of glob.slice(open + 1, close).split(",")) {
    for (const rest of expand(glob.slice(close + 1))) {
      out.push(head + alt + rest);
      if (out.length > MAX_ALTERNATIVES) return out;
    }
  }
  return out;
}

/** Whether one path segment matches one glob segment (`*`, `?`): greedy with one back-track point. */
function segmentMatches(glob: string, seg: string): boolean {
  let g = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < seg.length) {
    if (g < glob.length && (glob[g] === "?" || glob[g] === seg[s])) {
      g++;
      s++;
    } else if (g < glob.length && glob[g] === "*") {
      star = g++;
      mark = s;
    } else if (star >= 0) {
      g = star + 1;
      s = ++mark;
    } else return false;
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}

/** Whether a path's segments match a glob's (no braces), `**` matching any number of segments. */
function segmentsMatch(glob: readonly string[], path: readonly string[]): boolean {
  // reach[j]: the first i glob segments can match the first j path segments.
  let reach = new Array<boolean>(path.length + 1).fill(false);
  reach[0] = true;
  for (const g of glob) {
    const next = new Array<boolean>(path.length + 1).fill(false);
    if (g === "**") {
      let any = false;
      for (let j = 0; j <= path.length; j++) {
        any ||= reach[j];
        next[j] = any;
      }
    } else {
      for (let j = 1; j <= path.length; j++) {
        next[j] = reach[j - 1] && segmentMatches(g, path[j - 1]);
      }
    }
    reach = next;
  }
  return reach[path.length];
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/**
 * Whether a path matches a glob, both taken as they are (no project directory).
 *
 * @param glob The glob.
 * @param path The path.
 * @returns True on a match.
 */
export function globMatches(glob: string, path: string): boolean {
  if (isAbsolute(glob) !== isAbsolute(path)) return false;
  const p = split(normalize(path));
  return expand(glob).some((g) => segmentsMatch(split(g), p));
}

/**
 * A glob without a `/` matches a file's name in any folder: `*.test.*` reads `**∕*.test.*`.
 *
 * @param glob The glob.
 * @returns The glob, made to match in any folder when it names only a file.
 */
export function nameGlob(glob: string): string {
  return glob.includes("/") ? glob : `**/${glob}`;
}

/**
 * A path as an absolute one: a relative path is taken from the project directory.
 *
 * @param path The path as a tool or command wrote it.
 * @param projectDir The session's project directory, when known.
 * @returns The normalised path (still relative when no directory is known).
 */
export function absolutePath(path: string, projectDir: string | undefined): string {
  if (isAbsolute(path) || projectDir === undefined) return normalize(path);
  return join(projectDir, path);
}

/**
 * Whether a file a run wrote matches an item's glob. A relative glob is taken from the project
 * directory; without one, a relative glob matches the end of the path (at a `/`).
 *
 * @param glob The item's glob.
 * @param path The file as the tool or command wrote it (relative to the project directory, or
 * absolute).
 * @param projectDir The session's project directory, when known.
 * @returns True on a match.
 */
export function pathMatches(glob: string, path: string, projectDir: string | undefined): boolean {
  const file = absolutePath(path, projectDir);
  if (isAbsolute(glob)) return globMatches(glob, file);
  if (projectDir !== undefined && isAbsolute(projectDir)) {
    // The file's path inside the project, so that the folder's own name is never read as a glob.
    const dir = normalize(projectDir);
    if (!isUnder(file, dir)) return false;
    return globMatches(glob, file.slice(dir === "/" ? 1 : dir.length + 1));
  }
  return globMatches(isAbsolute(file) ? `/**/${glob}` : glob, file);
}

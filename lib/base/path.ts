/**
 * The few path operations skillgate needs, for POSIX-style paths (Linux and macOS, where the hooks
 * run). Hooks import this instead of `node:path` because the first `node:` import boots Deno's
 * Node compatibility layer, measured at 15 ms or more per hook process (see bench/README.md); the
 * functions behave as `node:path/posix` does for the inputs skillgate passes.
 *
 * @module
 */

/**
 * Joins path segments with `/` and normalises the result.
 *
 * @param parts The segments.
 * @returns The joined path (`.` when empty).
 */
export function join(...parts: string[]): string {
  return normalize(parts.filter((p) => p !== "").join("/"));
}

/**
 * Normalises `.` and `..` segments and repeated slashes.
 *
 * @param path The path.
 * @returns The normalised path.
 */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const body = out.join("/");
  if (absolute) return "/" + body;
  return body === "" ? "." : body;
}

/**
 * Whether a path is absolute.
 *
 * @param path The path.
 * @returns `true` when it starts with `/`.
 */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/**
 * The directory part of a path.
 *
 * @param path The path.
 * @returns Its parent (`/` for a root entry, `.` for a bare name).
 */
export function dirname(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const i = trimmed.lastIndexOf("/");
  if (i < 0) return ".";
  if (i === 0) return "/";
  return trimmed.slice(0, i);
}

/**
 * The last segment of a path.
 *
 * @param path The path.
 * @returns Its name.
 */
export function basename(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * Resolves segments to an absolute path, from the last absolute one, else from `Deno.cwd()`.
 *
 * @param parts The segments.
 * @returns An absolute, normalised path.
 */
export function resolve(...parts: string[]): string {
  let acc = "";
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    if (p === "") continue;
    acc = acc === "" ? p : `${p}/${acc}`;
    if (isAbsolute(p)) return normalize(acc);
  }
  return normalize(`${Deno.cwd()}/${acc}`);
}

/**
 * Whether an absolute path lies below an absolute folder, after both are normalised (`..` cannot
 * climb out). A relative path or folder is never below anything.
 *
 * @param path The path.
 * @param dir The folder.
 * @returns `true` when `path` is inside `dir`.
 */
export function isUnder(path: string, dir: string): boolean {
  if (!isAbsolute(path) || !isAbsolute(dir)) return false;
  const base = resolve(dir);
  return resolve(path).startsWith(base.endsWith("/") ? base : `${base}/`);
}

/**
 * A short stable key of a path (32-bit FNV-1a, hex): names a file's lock, backups or build folder
 * in skillgate's state without the path's characters.
 *
 * @param path The path.
 * @returns Eight hex digits.
 */
export function pathKey(path: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * Installed extensions' skill and agent folders (Gemini CLI's extensions layout, as 0.61.0 loads
 * them): every folder of the extensions folder whose `gemini-extension.json` has a valid `name` and
 * a `version` (an install made with `gemini extensions link` is read at the folder its
 * `.gemini-extension-install.json` names), and only when the extension is enabled for the
 * workspace by `extension-enablement.json` (each extension's `overrides`: path rules, `!` to
 * disable, a trailing `*` for sub-folders, the last matching rule wins, enabled by default).
 * skillgate only reads these files. With them, {@link layoutRoots} gives the catalog a project's
 * agents that the client loads only once acknowledged (`acknowledged.ts`).
 *
 * @module
 */

import { readRegularTextSync } from "../base/fs.ts";
import { isAbsolute, join, resolve } from "../base/path.ts";
import type { ReadFolders } from "../host/folders.ts";
import type { Acknowledged } from "./acknowledged.ts";

/** An extension's skills or agents folder (a catalog root of source `extension`). */
export interface ExtensionRoot {
  /** The directory (absolute). */
  readonly dir: string;
  /** What it holds. */
  readonly kind: "skills" | "agents";
  /** Always `extension`. */
  readonly source: "extension";
}

/** The manifest of an extension. */
const MANIFEST = "gemini-extension.json";
/** How an extension was installed (`type: "link"` names the folder it lives in). */
const INSTALL_METADATA = ".gemini-extension-install.json";
/** Which extensions are enabled where, beside the extensions. */
const ENABLEMENT = "extension-enablement.json";
/** The extensions read, at most. */
const MAX_EXTENSIONS = 256;
/** The largest manifest or enablement file read. */
const MAX_JSON_BYTES = 256 * 1024;

function readJson(path: string): unknown {
  try {
    return JSON.parse(readRegularTextSync(path, MAX_JSON_BYTES));
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** A path as an enablement rule compares it: `/`-separated, with a leading and a trailing `/`. */
function slashed(path: string): string {
  let out = path.replaceAll("\\", "/");
  if (!out.startsWith("/")) out = `/${out}`;
  return out.endsWith("/") ? out : `${out}/`;
}

/** A rule's pattern as Gemini CLI matches it: the literal path, `*` for anything (and its `/`). */
function ruleRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/(\/?)\*/g, "($1.*)?");
  return new RegExp(`^${escaped}$`);
}

/**
 * Whether an extension is enabled for a workspace, as Gemini CLI decides it from its enablement
 * file (without the `--extensions` flag of one run, which no hook can see).
 *
 * @param enablement The parsed `extension-enablement.json` (`undefined`: none, all enabled).
 * @param name The extension's name.
 * @param workspace The workspace folder (absolute).
 * @returns `true` unless the last rule that matches the workspace disables it.
 */
export function extensionEnabled(enablement: unknown, name: string, workspace: string): boolean {
  const overrides = field(field(enablement, name), "overrides");
  if (!Array.isArray(overrides)) return true;
  const path = slashed(workspace);
  let enabled = true;
  for (const rule of overrides) {
    if (typeof rule !== "string") continue;
    const disable = rule.startsWith("!");
    let base = disable ? rule.slice(1) : rule;
    const subdirs = base.endsWith("*");
    if (subdirs) base = base.slice(0, -1);
    let regex: RegExp;
    try {
      regex = ruleRegex(`${base}${subdirs ? "*" : ""}`);
    } catch {
      continue;
    }
    if (regex.test(path)) enabled = !disable;
  }
  return enabled;
}

/**
 * The skill and agent roots of the extensions enabled for a workspace.
 *
 * @param extensionsDir The host's extensions folder.
 * @param workspace The workspace (the project root, else the session's directory), or `undefined`
 *   when unknown (then every extension counts as enabled).
 * @returns Two roots per enabled extension (its `skills` and `agents`), in the order of their
 *   folders' names.
 */
export function extensionRoots(
  extensionsDir: string,
  workspace: string | undefined,
): ExtensionRoot[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync(extensionsDir)]
      .filter((e) => e.isDirectory || e.isSymlink)
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_EXTENSIONS);
  } catch {
    return [];
  }
  const enablement = readJson(join(extensionsDir, ENABLEMENT));
  const roots: ExtensionRoot[] = [];
  for (const folder of names) {
    const installed = join(extensionsDir, folder);
    const metadata = readJson(join(installed, INSTALL_METADATA));
    const linked = field(metadata, "type") === "link" ? field(metadata, "source") : undefined;
    const dir = typeof linked === "string" && isAbsolute(linked) ? resolve(linked) : installed;
    const manifest = readJson(join(dir, MANIFEST));
    const name = field(manifest, "name");
    const version = field(manifest, "version");
    // Gemini CLI skips an extension without both, or whose name is not letters, digits and `-`.
    if (typeof name !== "string" || !/^[a-zA-Z0-9-]+$/.test(name) || !version) continue;
    if (workspace !== undefined && !extensionEnabled(enablement, name, workspace)) continue;
    roots.push({ dir: join(dir, "skills"), kind: "skills", source: "extension" });
    roots.push({ dir: join(dir, "agents"), kind: "agents", source: "extension" });
  }
  return roots;
}

/** A catalog root of a host's extensions or of its acknowledged project agents. */
export interface LayoutRoot {
  /** The directory (absolute). */
  readonly dir: string;
  /** What it holds. */
  readonly kind: "skills" | "agents";
  /** Where it was found. */
  readonly source: "extension" | "project";
  /** For agents listed only once acknowledged: the file and the project root it keys them by. */
  readonly acknowledged?: Acknowledged;
}

/**
 * The roots of a host's layout beyond its plain folders (Gemini CLI's): a project's agents that
 * the client loads only once acknowledged, in the project root only (where it started), then the
 * skills and agents of the extensions enabled for that workspace.
 *
 * @param f The host's folders.
 * @param root The project root (the host's project variable), else the session's directory.
 * @returns The roots.
 */
export function layoutRoots(f: ReadFolders, root: string | undefined): LayoutRoot[] {
  const project = root === undefined ? undefined : resolve(root);
  const out: LayoutRoot[] = [];
  if (f.acknowledgedAgents && project) {
    const { dir, record } = f.acknowledgedAgents;
    out.push({
      dir: join(project, dir),
      kind: "agents",
      source: "project",
      acknowledged: { record, project },
    });
  }
  if (f.extensions) out.push(...extensionRoots(f.extensions, project));
  return out;
}

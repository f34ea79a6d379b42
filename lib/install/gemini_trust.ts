/**
 * Whether Gemini CLI will run a project's hooks (`<project>/.gemini/settings.json`), from its own
 * files, read only: the client runs project hooks only in a trusted folder (`trustedFolders.json`
 * in its folder, or `GEMINI_CLI_TRUSTED_FOLDERS_PATH`: `{"<path>": "TRUST_FOLDER" | "TRUST_PARENT"
 * | "DO_NOT_TRUST"}`, the longest matching path deciding), and the first time it sees a project
 * hook it warns ("project-level hooks have been detected") and records it as trusted in
 * `trusted_hooks.json` (`{"<project root>": ["<name>:<command>", …]}`), so a changed command
 * warns again. Observed with Gemini CLI 0.61.0 (`docs/hosts.md`, "Gemini CLI"). skillgate never
 * writes these files: trusting a folder is the user's decision.
 *
 * @module
 */

import { dirname, join, resolve, sep } from "node:path";
import { readRegularTextSync } from "../base/fs.ts";

/** What Gemini CLI will do with one of skillgate's project hooks. */
export type GeminiProjectHookTrust =
  /** The folder is trusted and the hook is recorded as trusted: it runs without a warning. */
  | "trusted"
  /** The folder is trusted, the hook not yet recorded: it runs, after a warning, once. */
  | "warns-once"
  /** The folder is not trusted (or not known to be): the client skips project hooks. */
  | "folder-untrusted";

/** One hook as a project's settings file registers it. */
export interface GeminiProjectHook {
  /** The item's `name`. */
  readonly name?: string;
  /** The item's `command`. */
  readonly command: string;
}

/** Where the client's files are. */
export interface GeminiTrustPlaces {
  /** The client's folder (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`). */
  readonly configDir: string;
  /** `GEMINI_CLI_TRUSTED_FOLDERS_PATH`, when set. */
  readonly trustedFoldersPath?: string;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readRegularTextSync(path, 4 * 1024 * 1024));
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function within(parent: string, child: string): boolean {
  const p = resolve(parent);
  const c = resolve(child);
  return c === p || c.startsWith(p.endsWith(sep) ? p : p + sep);
}

/**
 * Whether the client trusts a folder, as its `trustedFolders.json` says (the longest matching
 * rule; `TRUST_PARENT` trusts the rule path's parent).
 *
 * @param places The client's files.
 * @param folder The project root.
 * @returns `true` or `false` by a rule, `undefined` when no rule matches.
 */
export function geminiFolderTrusted(
  places: GeminiTrustPlaces,
  folder: string,
): boolean | undefined {
  const rules = readJson(
    places.trustedFoldersPath ?? join(places.configDir, "trustedFolders.json"),
  );
  if (!isObject(rules)) return undefined;
  let best = -1;
  let level: unknown;
  for (const [path, trust] of Object.entries(rules)) {
    const effective = trust === "TRUST_PARENT" ? dirname(path) : path;
    if (within(effective, folder) && path.length > best) {
      best = path.length;
      level = trust;
    }
  }
  if (level === "DO_NOT_TRUST") return false;
  if (level === "TRUST_FOLDER" || level === "TRUST_PARENT") return true;
  return undefined;
}

/**
 * What Gemini CLI will do with each of a project's hooks.
 *
 * @param places The client's files.
 * @param projectRoot The project root (the client's key in `trusted_hooks.json`).
 * @param hooks The hooks, as the project's settings file registers them.
 * @returns One verdict per hook, in order.
 */
export function geminiProjectHookTrust(
  places: GeminiTrustPlaces,
  projectRoot: string,
  hooks: readonly GeminiProjectHook[],
): GeminiProjectHookTrust[] {
  if (geminiFolderTrusted(places, projectRoot) !== true) return hooks.map(() => "folder-untrusted");
  const trusted = readJson(join(places.configDir, "trusted_hooks.json"));
  const keys = isObject(trusted) && Array.isArray(trusted[projectRoot])
    ? new Set((trusted[projectRoot] as unknown[]).filter((k) => typeof k === "string"))
    : new Set<unknown>();
  return hooks.map((h) => keys.has(`${h.name ?? ""}:${h.command}`) ? "trusted" : "warns-once");
}

/**
 * doctor's lines for skillgate's hooks in a project's file: trusted (`ok`), run after one warning
 * (`note`), or skipped because the folder is not trusted (`warn`).
 *
 * @param places The client's files.
 * @param projectRoot The project root.
 * @param client The client's name, for the text.
 * @param hooks skillgate's hooks in the project's file (named `skillgate-<hook id>` there).
 * @returns One line per hook.
 */
export function geminiTrustLines(
  places: GeminiTrustPlaces,
  projectRoot: string,
  client: string,
  hooks: readonly { hookId?: string; event: string; file: string; command: string }[],
): { status: "ok" | "note" | "warn"; text: string }[] {
  const verdicts = geminiProjectHookTrust(
    places,
    projectRoot,
    hooks.map((h) => ({ name: `skillgate-${h.hookId}`, command: h.command })),
  );
  return hooks.map((h, i) => {
    const label = `${h.hookId ?? "a stale skillgate entry"} (${h.event}) in ${h.file}`;
    if (verdicts[i] === "trusted") {
      return { status: "ok", text: `${label}: trusted by ${client} here` };
    }
    if (verdicts[i] === "warns-once") {
      return { status: "note", text: `${label}: ${client} runs it, and warns once that it is new` };
    }
    return {
      status: "warn",
      text: `${label}: ${projectRoot} is not a trusted folder in ${client}, which skips project ` +
        "hooks there (trust the folder in the client)",
    };
  });
}

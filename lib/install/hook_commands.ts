/**
 * The command line each hook is registered with, built from the hook table, and the reverse:
 * recognising a registered command as skillgate's (ownership without tags, because Claude Code
 * drops unknown keys when it rewrites `settings.json`).
 *
 * A command is `<deno> run --no-prompt --no-config <the hook's flags> <module>`, every part an
 * absolute path and shell-quoted, or the path of a compiled binary. The project's folders
 * (`.claude/skills`, `.github/skills`, …) are the exception: granted relative to the hook's
 * working directory and, for Claude Code, under the project root it names when the hook runs, each
 * in a flag of its own that the shell expands without a comma (see {@link SHELL_PROJECT_DIR}); for
 * a host that names no project root, relative to the working directory's parents
 * ({@link PARENT_DIRS}). No command runs another process (`$(…)`) and no environment variable is
 * spliced into a comma list of grants.
 *
 * @module
 */

import { basename, delimiter, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import {
  denoRunArgs,
  type HookRow,
  HOOKS,
  hostRegistration,
  type PermissionPaths,
} from "../hook/table.ts";
import { type HostKind, HOSTS } from "../host/mod.ts";

/** The JSR package name, the prefix of every `jsr:` hook specifier. */
export const JSR_PACKAGE = "@skillgate/skillgate";

/** The file-name prefix of a compiled hook binary (`skillgate-skill-route`). */
export const BINARY_PREFIX = "skillgate-";

/** Where the hook modules come from. */
export type ModuleSource =
  /** A local checkout (or unpacked package): modules are absolute file paths under `root`. */
  | { readonly kind: "local"; readonly root: string }
  /**
   * The published package, run from JSR: each hook runs its bundle from that exact version,
   * `https://jsr.io/@skillgate/skillgate/<version>/hooks/dist/<hook>.js` (the package ships them).
   */
  | { readonly kind: "jsr"; readonly version: string }
  /** The package served over HTTP(S) elsewhere (a mirror, a test's file server): `base` is its root. */
  | { readonly kind: "remote"; readonly base: string }
  /** Compiled binaries in `binDir` (`setup --compile`). */
  | { readonly kind: "compiled"; readonly binDir: string };

/**
 * The placeholder of the project directory Claude Code names when a hook runs
 * (`PermissionPaths.runtimeProjectDir`); {@link hookArgv} gives each grant under it a flag of its
 * own, and {@link hookCommand} writes it as {@link SHELL_PROJECT_DIR}.
 */
export const RUNTIME_PROJECT_DIR = "${CLAUDE_PROJECT_DIR}";

/**
 * The placeholder (`PermissionPaths.runtimeProjectDir`) for a host that names no project root
 * (Copilot CLI, Codex CLI): {@link hookArgv} grants each project folder under it in the working
 * directory's parents instead, `../<folder>` up to {@link PARENT_LEVELS} levels, which Deno
 * resolves when the hook starts (so a session started in a subfolder of the repository still gets
 * the root's folders, with no process run to find the root).
 */
export const PARENT_DIRS = "${SKILLGATE_PARENT_DIRS}";

/** How many parents of the working directory {@link PARENT_DIRS} grants. */
export const PARENT_LEVELS = 3;

/**
 * The expansion a shell-form hook command has for {@link RUNTIME_PROJECT_DIR}: Claude Code's
 * `CLAUDE_PROJECT_DIR` (set for every hook), emptied by the shell when it holds a comma (Deno's
 * list flags cannot hold one, and a comma would add a grant: the flag then names a folder under
 * `/`). A shell expansion only, no process. It is the only expansion {@link shellSplit} accepts
 * (besides {@link LEGACY_SHELL_PROJECT_DIR}, so older installs are still recognised).
 */
export const SHELL_PROJECT_DIR = '"${CLAUDE_PROJECT_DIR##*,*}"';

/** The expansion setup wrote before (it ran git at every hook call); recognised, never written. */
export const LEGACY_SHELL_PROJECT_DIR =
  '"${CLAUDE_PROJECT_DIR:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}"';

/**
 * The placeholders of a portable command (`setup --project` from a published package: a file a
 * team commits), for paths each machine names through its own environment: the home directory,
 * the host's config directory and skillgate's state root. {@link hookArgv} gives each grant under
 * one a flag of its own; {@link hookCommand} writes it as the expansion of
 * {@link portableExpansion} (a shell expansion only, no process).
 */
export const PORTABLE = {
  /** The user's home: `"$HOME"`. */
  home: "@@SKILLGATE_HOME@@",
  /** The host's config directory: `"${CLAUDE_CONFIG_DIR:-$HOME/.claude}"` and the like. */
  configDir: "@@SKILLGATE_CONFIG_DIR@@",
  /** skillgate's state root: `"${SKILLGATE_STATE_ROOT:-$HOME/.skillgate}"`. */
  stateRoot: "@@SKILLGATE_STATE_ROOT@@",
} as const;

/** Every shell expansion a placeholder is written as, in any host's command. */
const PORTABLE_EXPANSIONS: readonly { readonly token: string; readonly expansion: string }[] = [
  { token: PORTABLE.home, expansion: '"${HOME}"' },
  { token: PORTABLE.stateRoot, expansion: '"${SKILLGATE_STATE_ROOT:-$HOME/.skillgate}"' },
  ...HOSTS.filter((h) => h.env.configDir !== undefined).map((h) => ({
    token: `${PORTABLE.configDir}${h.kind}`,
    expansion: `"\${${h.env.configDir}:-${h.configDir({ home: "$HOME", env: () => undefined })}}"`,
  })),
  // A host whose variable moves its home (its config directory under it): that home.
  ...HOSTS.filter((h) => h.env.home !== undefined).map((h) => ({
    token: `${PORTABLE.home}${h.kind}`,
    expansion: `"\${${h.env.home}:-$HOME}"`,
  })),
];

/**
 * The placeholder of a host's config directory in a portable command.
 *
 * @param kind The host.
 * @returns The placeholder, which {@link hookCommand} expands to that host's variable or default.
 */
export function portableConfigDir(kind: HostKind): string {
  const host = HOSTS.find((h) => h.kind === kind);
  // Under the home the host's variable names (Gemini CLI: `"${GEMINI_CLI_HOME:-$HOME}"/.gemini`).
  if (host?.env.home !== undefined) {
    return host.configDir({ home: `${PORTABLE.home}${kind}`, env: () => undefined });
  }
  return `${PORTABLE.configDir}${kind}`;
}

/** What {@link shellSplit} finds after the opening `"` of each accepted expansion. */
const SHELL_EXPANSIONS: readonly { readonly body: string; readonly word: string }[] = [
  { body: SHELL_PROJECT_DIR.slice(1, -1), word: RUNTIME_PROJECT_DIR },
  { body: LEGACY_SHELL_PROJECT_DIR.slice(1, -1), word: RUNTIME_PROJECT_DIR },
  ...PORTABLE_EXPANSIONS.map((p) => ({ body: p.expansion.slice(1, -1), word: p.token })),
];

/** Characters that never need quoting in a POSIX shell word. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one word for a POSIX shell (`sh -c`): safe words stay bare, anything else goes in single
 * quotes with each `'` written as `'\''`.
 *
 * @param word The word.
 * @returns The word as the shell must see it.
 */
export function shellQuote(word: string): string {
  if (word !== "" && SHELL_SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Joins words into one shell command line, each quoted by {@link shellQuote}.
 *
 * @param argv The words.
 * @returns The command line.
 */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}

/**
 * Splits a simple shell command line into words: blanks separate words; single quotes, double
 * quotes (with `\\`, `\"`, `\$` and `` \` `` escapes) and backslashes quote. Any unquoted shell
 * operator or expansion (`| & ; < > ( ) $ \` * ? [ ~ #` and so on) makes the line "not simple",
 * and such a line is never recognised as skillgate's. The one expansion allowed is skillgate's
 * own project directory, {@link SHELL_PROJECT_DIR}, which the word keeps as
 * {@link RUNTIME_PROJECT_DIR}.
 *
 * @param line The command line.
 * @returns The words, or `undefined` when the line is not a simple command.
 */
export function shellSplit(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      let closed = false;
      while (i < line.length) {
        const d = line[i];
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        const known = d === "$"
          ? SHELL_EXPANSIONS.find((e) => line.startsWith(e.body, i))
          : undefined;
        if (known) {
          word += known.word;
          i += known.body.length;
          continue;
        }
        if (d === "$" || d === "`") return undefined;
        if (d === "\\" && i + 1 < line.length && '\\"$`'.includes(line[i + 1])) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      if (!closed) return undefined;
      inWord = true;
    } else if (c === "\\") {
      if (i + 1 >= line.length || line[i + 1] === "\n") return undefined;
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else if (/[|&;<>()$`*?[\]{}~#!\n\r]/.test(c) && !(c === "#" && inWord)) {
      return undefined;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The last part of a hook's export key (`./hooks/skill-route` gives `skill-route`); it names the
 * compiled binary and identifies the module in a `jsr:` specifier.
 *
 * @param row The hook.
 * @returns The key's last path segment.
 */
export function exportName(row: HookRow): string {
  return row.exportKey.split("/").at(-1) ?? row.id;
}

/**
 * The root URL of the package a remote source serves, ending in `/`.
 *
 * @param source A `jsr` or `remote` source.
 * @returns `https://jsr.io/@skillgate/skillgate/<version>/`, or the remote base.
 */
export function packageUrl(
  source: Extract<ModuleSource, { kind: "jsr" } | { kind: "remote" }>,
): string {
  return source.kind === "jsr" ? `https://jsr.io/${JSR_PACKAGE}/${source.version}/` : source.base;
}

/**
 * The module a hook runs from a given source: always its bundle (its front, which imports only
 * its core beside it: nothing to resolve), from the checkout or from the package's URL (Deno runs a `https:` module it has cached
 * with no network permission; `setup` caches it), or the compiled binary.
 *
 * @param row The hook.
 * @param source Where the modules come from.
 * @returns An absolute file path, a pinned package URL, or a binary's absolute path.
 */
export function hookModule(row: HookRow, source: ModuleSource): string {
  switch (source.kind) {
    case "local":
      return join(source.root, row.bundle);
    case "jsr":
    case "remote":
      return new URL(row.bundle, packageUrl(source)).href;
    case "compiled":
      return compiledBinaryPath(row, source.binDir);
  }
}

/**
 * The path of a hook's compiled binary.
 *
 * @param row The hook.
 * @param binDir `<state root>/bin`.
 * @returns `<binDir>/skillgate-<export name>`.
 */
export function compiledBinaryPath(row: HookRow, binDir: string): string {
  const exe = Deno.build.os === "windows" ? ".exe" : "";
  return join(binDir, `${BINARY_PREFIX}${exportName(row)}${exe}`);
}

/** What a hook command is built from. */
export interface CommandInputs {
  /**
   * The absolute path of the Deno executable, or `deno` for a portable command (the shell finds it
   * on `PATH` when the hook runs).
   */
  readonly denoPath: string;
  /** Where the hook modules come from. */
  readonly source: ModuleSource;
  /** The paths the permission flags grant. */
  readonly paths: PermissionPaths;
}

/**
 * The words of a hook's command: `deno run --no-prompt --no-config <flags> <module>`, or the
 * compiled binary alone (its flags are baked in).
 *
 * @param row The hook.
 * @param inputs Deno, module source and granted paths.
 * @returns The argument vector.
 * @throws {Error} When a path is not absolute or cannot be granted (a comma).
 */
export function hookArgv(row: HookRow, inputs: CommandInputs): string[] {
  if (inputs.source.kind === "compiled") return [hookModule(row, inputs.source)];
  // A bare `deno` only in a portable command, which runs the package's modules.
  const portable = inputs.denoPath === "deno" &&
    (inputs.source.kind === "jsr" || inputs.source.kind === "remote");
  if (!isAbsolute(inputs.denoPath) && !portable) {
    throw new Error(`The Deno executable must be an absolute path: ${inputs.denoPath}`);
  }
  const args = denoRunArgs(row, inputs.paths, hookModule(row, inputs.source));
  return [inputs.denoPath, ...args.flatMap(runtimeGrants)];
}

/**
 * A permission flag with its run-time placeholders resolved: grants under
 * {@link RUNTIME_PROJECT_DIR} leave the list, one flag each (the shell expands them, never into a
 * comma list); grants under {@link PARENT_DIRS} become `../<folder>`, `../../<folder>`, … in it.
 *
 * @param word One argument of a hook command.
 * @returns The argument, or the flags it becomes.
 */
export function runtimeGrants(word: string): string[] {
  const m = /^(--allow-(?:read|write)=)(.*)$/s.exec(word);
  const runtimeTokens = [RUNTIME_PROJECT_DIR, ...PORTABLE_EXPANSIONS.map((p) => p.token)];
  if (!m || !(runtimeTokens.some((t) => m[2].includes(t)) || m[2].includes(PARENT_DIRS))) {
    return [word];
  }
  const fixed: string[] = [];
  const runtime: string[] = [];
  for (const path of m[2].split(",")) {
    if (path.startsWith(`${PARENT_DIRS}/`)) {
      const rel = path.slice(PARENT_DIRS.length + 1);
      for (let n = 1; n <= PARENT_LEVELS; n++) fixed.push(`${"../".repeat(n)}${rel}`);
    } else if (runtimeTokens.some((t) => path.startsWith(t))) runtime.push(path);
    else fixed.push(path);
  }
  const list = [...new Set(fixed)];
  return [...(list.length ? [`${m[1]}${list.join(",")}`] : []), ...runtime.map((p) => m[1] + p)];
}

/**
 * Quotes one word of a hook command, writing {@link RUNTIME_PROJECT_DIR} in it as the expansion
 * {@link SHELL_PROJECT_DIR} and quoting the rest with {@link shellQuote}.
 *
 * @param word The word.
 * @returns The word as the shell must see it.
 */
export function hookShellWord(word: string): string {
  const expansions = [
    { token: RUNTIME_PROJECT_DIR, expansion: SHELL_PROJECT_DIR },
    ...PORTABLE_EXPANSIONS,
  ].sort((a, b) => b.token.length - a.token.length);
  const at = expansions.find((e) => word.includes(e.token));
  if (!at) return shellQuote(word);
  return word.split(at.token).map((part) => part === "" ? "" : hookShellWord(part))
    .join(at.expansion);
}

/**
 * A hook's shell command line, as written into the host's settings. A grant under the project
 * directory the host names at run time ({@link RUNTIME_PROJECT_DIR}) is written as the expansion
 * {@link SHELL_PROJECT_DIR}, which the host's shell (`sh -c`, Copilot CLI's `bash`) expands.
 *
 * @param row The hook.
 * @param inputs Deno, module source and granted paths.
 * @returns The quoted command line.
 */
export function hookCommand(row: HookRow, inputs: CommandInputs): string {
  return hookArgv(row, inputs).map(hookShellWord).join(" ");
}

/** What {@link recogniseCommand} found. */
export interface Recognised {
  /** The hook this command registers on this event; `undefined` when it is skillgate's but stale. */
  readonly hookId?: string;
  /** The module identity (the export name, such as `skill-route`). */
  readonly module: string;
}

function moduleOfWord(word: string, rows: readonly HookRow[]): string | undefined {
  const jsr = /^jsr:@skillgate\/skillgate(?:@[^/]+)?\/(.+)$/.exec(word);
  if (jsr) return jsr[1].split("/").at(-1) ?? jsr[1];
  let path = word;
  if (/^https?:\/\//.test(word)) {
    try {
      path = decodeURIComponent(new URL(word).pathname);
    } catch {
      return undefined;
    }
  } else if (word.startsWith("file://")) {
    try {
      path = fromFileUrl(word);
    } catch {
      return undefined;
    }
  }
  if (!isAbsolute(path)) return undefined;
  const normal = path.replaceAll("\\", "/");
  for (const row of rows) {
    if (normal.endsWith(`/${row.entry}`) || normal.endsWith(`/${row.bundle}`)) {
      return exportName(row);
    }
  }
  return undefined;
}

/**
 * Recognises a registered command as skillgate's. A command is skillgate's when it is a simple
 * command (see {@link shellSplit}) and either runs Deno the way skillgate writes it
 * (`<.../deno> run --no-prompt ...`, never `-A` or `--allow-run`) on a skillgate hook
 * module (a `jsr:@skillgate/skillgate...` specifier, or an absolute path ending in a hook table
 * entry such as `/hooks/skill_route.ts`), or runs a compiled `skillgate-<hook>` binary. Anything
 * else, including a user's wrapper around the same module, is foreign and never touched.
 *
 * @param command The registered command line.
 * @param event The host event it is registered on (`Stop`, `agentStop`, ...): the command registers
 *   the hook whose event some host that runs it names so.
 * @param rows The hook table (default {@link HOOKS}).
 * @returns What was recognised, or `null` for a foreign command.
 */
export function recogniseCommand(
  command: string,
  event: string,
  rows: readonly HookRow[] = HOOKS,
): Recognised | null {
  if (typeof command !== "string" || command.length > 64 * 1024) return null;
  const words = shellSplit(command.trim());
  if (!words || words.length === 0) return null;
  let module: string | undefined;
  const exe = basename(words[0].replaceAll("\\", "/")).replace(/\.exe$/i, "");
  // skillgate always writes `run --no-prompt` and never grants everything: a `deno run` without
  // it, or with `-A` (say, a user's own `deno run -A …/hooks/skill_redirect.ts`), is not
  // skillgate's, whatever it runs.
  if (
    exe === "deno" && words[1] === "run" && words.includes("--no-prompt") &&
    !words.some((w) => w === "-A" || w === "--allow-all" || w.startsWith("--allow-run"))
  ) {
    for (const word of words.slice(2)) {
      if (word.startsWith("-")) continue;
      module = moduleOfWord(word, rows);
      break;
    }
  } else if (exe.startsWith(BINARY_PREFIX) && isAbsolute(words[0])) {
    const name = exe.slice(BINARY_PREFIX.length);
    if (rows.some((r) => exportName(r) === name)) module = name;
  }
  if (module === undefined) return null;
  const row = rows.find((r) =>
    exportName(r) === module && HOSTS.some((h) => hostRegistration(h, r)?.event === event)
  );
  return row ? { hookId: row.id, module } : { module };
}

/**
 * Where this copy of skillgate runs from: a local checkout (its files on disk), the published JSR
 * package (its version read from the module URL: `jsr:` specifiers load from
 * `https://jsr.io/@skillgate/skillgate/<version>/`), or the package served over HTTP(S)
 * elsewhere.
 *
 * @param url The URL of this module, `lib/install/hook_commands.ts` (default: its own).
 * @returns The module source.
 * @throws {Error} When the URL is none of these.
 */
export function detectModuleSource(url: string = import.meta.url): ModuleSource {
  if (url.startsWith("file:")) {
    // This module is lib/install/hook_commands.ts: the package root is three folders up.
    return { kind: "local", root: dirname(dirname(dirname(fromFileUrl(url)))) };
  }
  const m = /^https:\/\/jsr\.io\/@skillgate\/skillgate\/([^/]+)\//.exec(url);
  if (m) return { kind: "jsr", version: m[1] };
  const remote = /^(https?:\/\/[^?#]+\/)lib\/install\/hook_commands\.ts$/.exec(url);
  if (remote) return { kind: "remote", base: remote[1] };
  throw new Error(`Cannot tell where skillgate runs from: ${url}`);
}

/** Whether a path looks like a throwaway install (an npx cache) that may vanish. */
export function isEphemeralPath(path: string): boolean {
  const p = path.replaceAll("\\", "/");
  return p.includes("/_npx/") || p.includes("/.npm/") ||
    p.includes("/node_modules/.cache/");
}

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (Deno.build.os === "windows" || ((info.mode ?? 0o111) & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Finds an executable on `PATH`.
 *
 * @param name The executable's name.
 * @param pathVar The `PATH` value (default: this process's).
 * @returns Its absolute path, or `undefined`.
 */
export function findOnPath(name: string, pathVar?: string): string | undefined {
  let value = pathVar;
  if (value === undefined) {
    try {
      value = Deno.env.get("PATH") ?? "";
    } catch {
      value = "";
    }
  }
  const exts = Deno.build.os === "windows" ? [".exe", ""] : [""];
  for (const dir of value.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The environment variable naming the Deno executable `setup` registers, over the running one
 * (for tests and CI, which run Deno from an npx cache; see docs/install.md).
 */
export const DENO_OVERRIDE_ENV = "SKILLGATE_DENO";

/**
 * The command that installs a Deno that stays: the npm package, at the running version.
 *
 * @returns `npm install -g deno@<version>`.
 */
export function permanentDenoCommand(): string {
  return `npm install -g deno@${Deno.version.deno}`;
}

/** The Deno executable to register, or why there is none. */
export type DenoChoice =
  /** The absolute path. */
  | { readonly path: string }
  /** No Deno that lasts: the one-line reason, naming the command that installs one. */
  | { readonly refusal: string };

function realPathOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** Whether a Deno path, or the file it links to, lives in a throwaway cache. */
function isEphemeralDeno(path: string): boolean {
  return isEphemeralPath(path) || isEphemeralPath(realPathOr(path));
}

/**
 * Chooses the Deno executable hooks are registered with. A registration must not point into a
 * cache that gets cleaned (`npx -y deno@...` runs Deno from one), so: the Deno named by
 * {@link DENO_OVERRIDE_ENV} when set; else the running Deno unless it (or the file it links to)
 * lives in an npx cache; else a `deno` on `PATH` that does not; else a refusal naming
 * {@link permanentDenoCommand}.
 *
 * @param execPath The running executable (default `Deno.execPath()`).
 * @param pathVar The `PATH` value (default: this process's).
 * @param override The value of {@link DENO_OVERRIDE_ENV} (default: this process's).
 * @returns The choice.
 */
export function chooseDenoPath(
  execPath: string = Deno.execPath(),
  pathVar?: string,
  override: string | undefined = readEnv(DENO_OVERRIDE_ENV),
): DenoChoice {
  if (override !== undefined) {
    if (!isAbsolute(override) || !isExecutableFile(override)) {
      return { refusal: `${DENO_OVERRIDE_ENV} is not an executable file's absolute path` };
    }
    return { path: override };
  }
  if (!isEphemeralDeno(execPath)) return { path: execPath };
  const onPath = findOnPath("deno", pathVar);
  if (onPath && !isEphemeralDeno(onPath)) return { path: onPath };
  return {
    refusal: `Deno runs from an npx cache (${execPath}) that gets cleaned, and no other deno is ` +
      `on PATH; install one that stays with: ${permanentDenoCommand()}`,
  };
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

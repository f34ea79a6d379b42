/**
 * skillgate's switches and its flat `key: value` config file (`<state root>/config.yaml`).
 *
 * Each switch resolves in this order, the first one set winning: a `setup` flag (saved to the
 * config file, so it shows up there), the environment (`SKILLGATE_SKILL_ROUTING`, ...; not saved),
 * the config file, and the default in {@link SWITCH_DEFAULT}, the only place defaults are written.
 * A config file that exists but cannot be read turns every hook off, because it may hold an `off`.
 *
 * The file's format ({@link parseConfig}): one `key: value` per line; blank lines and lines
 * starting with `#` are skipped; a `#` after white space outside quotes starts a comment; a value
 * that is one `"…"` or `'…'` token loses its quotes; a list (`skill_dirs`, `agent_dirs`,
 * `route_skills`) is comma-separated, a `[a, b]` flow list, or `- item` lines under its key; the
 * last line of a key wins. Every value is validated as `config set` validates it: a value that is
 * not valid is left out (the default applies) and reported, as is an unknown key and a line that
 * is not understood ({@link ConfigState.problems}); `config list` and `doctor` show them.
 *
 * @module
 */

import { basename, dirname, join } from "./path.ts";
import { getEnv } from "./locations.ts";
import { withLock, writeFileAtomic } from "./state_file.ts";

/** The names of skillgate's switches. */
export type SwitchName = "skill_routing" | "skill_contracts" | "skill_redirect";

/** Every switch name, in display order. */
export const SWITCH_NAMES: readonly SwitchName[] = [
  "skill_routing",
  "skill_contracts",
  "skill_redirect",
];

/** The default of each switch: the one place it is written. */
export const SWITCH_DEFAULT: Readonly<Record<SwitchName, boolean>> = Object.freeze({
  skill_routing: false,
  skill_contracts: true,
  skill_redirect: true,
});

/** The environment variable that overrides each switch for one run. */
export const SWITCH_ENV: Readonly<Record<SwitchName, string>> = Object.freeze({
  skill_routing: "SKILLGATE_SKILL_ROUTING",
  skill_contracts: "SKILLGATE_SKILL_CONTRACTS",
  skill_redirect: "SKILLGATE_SKILL_REDIRECT",
});

/** A config key and what values it takes; `config set` accepts only these keys. */
export interface ConfigKeySpec {
  /** What the key does, for `config list` and the README. */
  readonly description: string;
  /** The default, as text; `undefined` when it has none. */
  readonly default?: string;
  /** The kind of value, checked by `config set` and when the file is read. */
  readonly kind: "switch" | "number" | "list" | "text";
  /** For a number: the smallest value (inclusive unless `minExclusive`) and the largest. */
  readonly range?: { readonly min: number; readonly minExclusive?: boolean; readonly max: number };
  /** For a number: whole numbers only. */
  readonly integer?: boolean;
  /** For a list: the items it may hold (any when absent). */
  readonly choices?: readonly string[];
}

/** Every key the config file may hold. */
export const CONFIG_KEYS: Readonly<Record<string, ConfigKeySpec>> = Object.freeze({
  skill_routing: { description: "UserPromptSubmit routing hook", kind: "switch", default: "off" },
  skill_contracts: { description: "Stop contract hook", kind: "switch", default: "on" },
  skill_redirect: { description: "Skill-to-agent redirect hooks", kind: "switch", default: "on" },
  route_threshold: {
    description: "Routing score threshold (greater than 0, at most 1)",
    kind: "number",
    default: "0.66",
    range: { min: 0, minExclusive: true, max: 1 },
  },
  route_skills: {
    description: "Skills that may route (comma list; * for all, +packs for the built-in packs)",
    kind: "list",
    default: "investigate,review,qa,verify,+packs",
  },
  contract_packs: {
    description: "Built-in packs whose opt-in contracts apply (comma list, or none)",
    kind: "list",
    default: "none",
    choices: ["none", "superpowers"],
  },
  hook_deadline_ms: {
    description: "A hook's own deadline in ms (1 to 600000)",
    kind: "number",
    default: "5000",
    range: { min: 1, max: 600_000 },
    integer: true,
  },
  skill_dirs: { description: "Extra skill directories (comma list)", kind: "list", default: "" },
  agent_dirs: { description: "Extra agent directories (comma list)", kind: "list", default: "" },
  skillgate_command: {
    description: "The command that runs skillgate here (written by setup)",
    kind: "text",
  },
});

/** What was read from the config file. */
export interface ConfigState {
  /** The config file's path. */
  readonly path: string;
  /** Whether the file exists. */
  readonly exists: boolean;
  /** False when the file exists but could not be read or parsed. */
  readonly readable: boolean;
  /** The valid values of known keys, last line wins (an invalid value is left out: default). */
  readonly values: Readonly<Record<string, string>>;
  /** Why the file could not be read. */
  readonly error?: string;
  /** Every line not understood, unknown key and invalid value, in the file's order. */
  readonly problems?: readonly ConfigProblem[];
}

/** A line of the config file that was ignored, and why. */
export interface ConfigProblem {
  /** The line (1-based). */
  readonly line: number;
  /** The key, when the line has one. */
  readonly key?: string;
  /** What is wrong and what happens instead (capitalised, no trailing period). */
  readonly message: string;
}

/** How a switch resolved and why. */
export interface SwitchResolution {
  /** Whether the switch is on. */
  readonly on: boolean;
  /** Where the answer came from. */
  readonly source: "flag" | "env" | "config" | "default" | "unreadable-config";
  /** A warning about an invalid value that was ignored. */
  readonly warning?: string;
}

/** The largest config file read; anything larger is treated as unreadable. */
const MAX_CONFIG_BYTES = 64 * 1024;

/**
 * The config file's path.
 *
 * @param root The state root.
 * @returns `<state root>/config.yaml`.
 */
export function configPath(root: string): string {
  return join(root, "config.yaml");
}

/** The keys whose value is a list. */
function isListKey(key: string): boolean {
  return Object.hasOwn(CONFIG_KEYS, key) && CONFIG_KEYS[key].kind === "list";
}

/**
 * A value without its comment: a `#` at the start or after white space, outside quotes (shell
 * quoting: `'…'`, `"…"` and a backslash escape, so a shell-quoted command keeps a quoted ` #`).
 * With an unbalanced quote, quotes are taken as plain characters.
 */
function withoutComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === "\\") i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) return text.slice(0, i);
  }
  if (quote === undefined) return text;
  const m = /(?:^|\s)#/.exec(text);
  return m ? text.slice(0, m.index) : text;
}

/** One value as written: comment and surrounding white space dropped, one quoted token unquoted. */
function readValue(text: string): string {
  const value = withoutComment(text).trim();
  return /^'[^']*'$|^"[^"]*"$/.test(value) ? value.slice(1, -1) : value;
}

/**
 * Parses the config file's text (see the module doc for the format) and validates every value.
 *
 * @param text The file's text.
 * @returns The valid values of known keys, and every problem with its line.
 */
export function parseConfig(
  text: string,
): { values: Record<string, string>; problems: ConfigProblem[] } {
  const values: Record<string, string> = Object.create(null);
  const problems: ConfigProblem[] = [];
  // A list key written with an empty value takes the `- item` lines that follow it.
  let list: { key: string; line: number; items: string[] } | undefined;
  // The last line of a key wins, and so does its problem (or the absence of one).
  const invalid = new Map<string, ConfigProblem>();
  const set = (key: string, value: string, line: number) => {
    const problem = validateConfigValue(key, value);
    invalid.delete(key);
    if (problem) {
      delete values[key];
      const fallback = CONFIG_KEYS[key].default;
      invalid.set(key, {
        line,
        key,
        message: `${problem}; ${
          fallback === undefined || fallback === "" ? "ignored" : `the default ${fallback} is used`
        }`,
      });
    } else values[key] = value;
  };
  const endList = () => {
    if (list) set(list.key, list.items.join(","), list.line);
    list = undefined;
  };
  text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const item = /^\s*-\s+(.*)$|^\s*-$/.exec(raw);
    if (item && list) {
      const value = readValue(item[1] ?? "");
      if (value.includes(",")) {
        problems.push({ line, key: list.key, message: "A list item cannot hold a comma; ignored" });
      } else if (value !== "") list.items.push(value);
      return;
    }
    endList();
    const m = /^([A-Za-z0-9_]+)[ \t]*:(?:[ \t](.*))?$|^([A-Za-z0-9_]+)[ \t]*:$/.exec(
      raw.trimEnd(),
    );
    if (!m) {
      problems.push({
        line,
        message: /^\s/.test(raw) || item
          ? "Not understood: the file holds flat key: value lines (a list goes under its key " +
            "as - item lines); ignored"
          : "Not a key: value line; ignored",
      });
      return;
    }
    const key = m[1] ?? m[3];
    if (!Object.hasOwn(CONFIG_KEYS, key)) {
      problems.push({ line, key, message: `Unknown key ${key}; ignored` });
      return;
    }
    const value = readValue(m[2] ?? "");
    if (isListKey(key) && value === "") {
      list = { key, line, items: [] };
      return;
    }
    if (isListKey(key) && /^\[.*\]$/.test(value)) {
      const items = value.slice(1, -1).split(",").map((v) => readValue(v)).filter((v) => v !== "");
      set(key, items.join(","), line);
      return;
    }
    set(key, value, line);
  });
  endList();
  problems.push(...invalid.values());
  problems.sort((a, b) => a.line - b.line);
  return { values, problems };
}

/**
 * Parses the config file's text: the valid values of known keys (see {@link parseConfig}).
 *
 * @param text The file's text.
 * @returns The values by key.
 */
export function parseConfigText(text: string): Record<string, string> {
  return parseConfig(text).values;
}

/**
 * Reads the config file. A missing file is normal; a file that exists but cannot be read (a
 * permission error, a directory, binary or oversized content) is reported as unreadable.
 *
 * @param root The state root (`stateRoot()` of `lib/host/places.ts`), or a function that gives
 * it (a failure to find it reads as an unreadable file).
 * @returns What was read.
 */
export function readConfig(root: string | (() => string)): ConfigState {
  let path: string;
  try {
    path = configPath(typeof root === "string" ? root : root());
  } catch (err) {
    return { path: "config.yaml", exists: false, readable: false, values: {}, error: String(err) };
  }
  if (!listed(path)) return { path, exists: false, readable: true, values: {} };
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) throw new Error("Not a regular file");
    if (info.size > MAX_CONFIG_BYTES) throw new Error(`Larger than ${MAX_CONFIG_BYTES} bytes`);
    const bytes = Deno.readFileSync(path);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\u0000")) throw new Error("Binary content");
    return { path, exists: true, readable: true, ...parseConfig(text) };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return { path, exists: false, readable: true, values: {} };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { path, exists: true, readable: false, values: {}, error: message };
  }
}

/**
 * Whether a file may exist, by its folder's listing: a missing config file is the usual case, and
 * the listing says so without the `NotFound` a `stat` throws (a process's first thrown error costs
 * a hook 0.3–0.5 ms). When the folder cannot be listed, the file may exist.
 */
function listed(path: string): boolean {
  const name = basename(path);
  try {
    for (const entry of Deno.readDirSync(dirname(path))) if (entry.name === name) return true;
    return false;
  } catch {
    return true;
  }
}

/**
 * Reads an on/off word: `on|yes|true|1` and `off|no|false|0`, any case.
 *
 * @param value The word.
 * @returns `true`, `false`, or `undefined` for any other word.
 */
export function parseSwitchValue(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["on", "yes", "true", "1"].includes(v)) return true;
  if (["off", "no", "false", "0"].includes(v)) return false;
  return undefined;
}

/**
 * Resolves a switch: environment, then config file, then {@link SWITCH_DEFAULT}. An invalid word
 * gives the default with a warning; an unreadable config file turns the switch off.
 *
 * @param name The switch.
 * @param config The config file as read by {@link readConfig}.
 * @returns The resolution and its source.
 */
export function resolveSwitch(name: SwitchName, config: ConfigState): SwitchResolution {
  const envValue = getEnv(SWITCH_ENV[name]);
  if (envValue !== undefined) {
    const on = parseSwitchValue(envValue);
    if (on !== undefined) return { on, source: "env" };
    return {
      on: SWITCH_DEFAULT[name],
      source: "default",
      warning: `Ignoring ${SWITCH_ENV[name]}: expected on or off`,
    };
  }
  if (!config.readable) return { on: false, source: "unreadable-config" };
  const fileValue = config.values[name];
  const on = fileValue === undefined ? undefined : parseSwitchValue(fileValue);
  if (on !== undefined) return { on, source: "config" };
  const problem = config.problems?.find((p) => p.key === name);
  if (problem || fileValue !== undefined) {
    return {
      on: SWITCH_DEFAULT[name],
      source: "default",
      warning: `Ignoring ${name} in ${config.path}${
        problem ? ` (line ${problem.line})` : ""
      }: expected on or off`,
    };
  }
  return { on: SWITCH_DEFAULT[name], source: "default" };
}

/** A hook's switch as a hook process reads it ({@link readSwitch}). */
export interface HookSwitch {
  /** The hook has nothing to do: off by the environment or the config file, and silent. */
  readonly off: boolean;
  /** The switch is on. When neither `on` nor `off`, the config file cannot be read. */
  readonly on: boolean;
  /** The config file; absent when the environment turns the hook off or the process may not read it. */
  readonly config?: ConfigState;
}

/**
 * Reads a hook's switch the way every hook process does: the environment first (an `off` there
 * needs no file), then, where the process may read it, the config file ({@link resolveSwitch}).
 * A config file that cannot be read leaves the hook neither on nor off: its caller reports it.
 *
 * @param name The switch.
 * @param rootOf Gives the state root (`stateRoot` of `lib/host/places.ts`); asked only when the
 * environment does not turn the hook off.
 * @param known The config file, when it was read already.
 * @returns Whether the hook is off, or on, and the config file.
 */
export function readSwitch(
  name: SwitchName,
  rootOf: () => string,
  known?: ConfigState,
): HookSwitch {
  if (parseSwitchValue(getEnv(SWITCH_ENV[name])) === false) return { off: true, on: false };
  const root = rootOf();
  if (Deno.permissions.querySync({ name: "read", path: configPath(root) }).state !== "granted") {
    return { off: false, on: false };
  }
  const config = known ?? readConfig(root);
  const sw = resolveSwitch(name, config);
  return { off: !sw.on && sw.source !== "unreadable-config", on: sw.on, config };
}

/**
 * A text value from the config file.
 *
 * @param config The config file as read.
 * @param key The key.
 * @param fallback The value when the key is absent.
 * @returns The value.
 */
export function configString(config: ConfigState, key: string, fallback: string): string {
  return config.values[key] ?? fallback;
}

/**
 * A numeric value from the config file; a value that is not a finite number gives the fallback.
 *
 * @param config The config file as read.
 * @param key The key.
 * @param fallback The value when the key is absent or invalid.
 * @returns The number.
 */
export function configNumber(config: ConfigState, key: string, fallback: number): number {
  const raw = config.values[key];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) ? n : fallback;
}

/**
 * A comma-separated list from the config file, trimmed, empty items dropped.
 *
 * @param config The config file as read.
 * @param key The key.
 * @param fallback The list when the key is absent.
 * @returns The list.
 */
export function configList(config: ConfigState, key: string, fallback: string[]): string[] {
  const raw = config.values[key];
  if (raw === undefined) return fallback;
  return raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * The built-in packs whose opt-in contracts apply (config `contract_packs`; `none` names none).
 *
 * @param config The config file as read.
 * @returns The pack names.
 */
export function contractPacksOf(config: ConfigState): string[] {
  return configList(config, "contract_packs", []).filter((p) => p !== "none");
}

/**
 * Checks a value for a config key.
 *
 * @param key The key.
 * @param value The value.
 * @returns An error message, or `undefined` when the value is valid.
 */
export function validateConfigValue(key: string, value: string): string | undefined {
  const spec = Object.hasOwn(CONFIG_KEYS, key) ? CONFIG_KEYS[key] : undefined;
  if (!spec) return `Unknown config key: ${key.replace(/[^A-Za-z0-9_]/g, "?")}`;
  if (value.includes("\n") || value.includes("\r") || value.includes("\u0000")) {
    return "A value must be one line";
  }
  if (value.length > 4096) return "A value must be at most 4096 characters";
  switch (spec.kind) {
    case "switch":
      return parseSwitchValue(value) === undefined
        ? `${key} takes on or off (not ${value.trim().slice(0, 40)})`
        : undefined;
    case "number": {
      const n = Number(value);
      const r = spec.range ?? { min: 0, max: Number.MAX_SAFE_INTEGER };
      const low = r.minExclusive ? n <= r.min : n < r.min;
      if (
        value.trim() === "" || !Number.isFinite(n) || low || n > r.max ||
        (spec.integer && !Number.isInteger(n))
      ) {
        const what = spec.integer ? "a whole number" : "a number";
        const from = r.minExclusive ? `greater than ${r.min}` : `from ${r.min}`;
        return `${key} takes ${what} ${from} ${r.minExclusive ? "and at most" : "to"} ${r.max} ` +
          `(not ${value.trim().slice(0, 40)})`;
      }
      return undefined;
    }

    case "list": {
      const bad = spec.choices &&
        value.split(",").map((v) => v.trim()).find((v) => v !== "" && !spec.choices!.includes(v));
      return bad === undefined
        ? undefined
        : `${key} takes ${spec.choices!.join(", ")} (not ${bad.slice(0, 40)})`;
    }
    default:
      return undefined;
  }
}

/**
 * A value as the file must hold it to read back the same: as is, else in double or single quotes
 * (a value with a ` #` that would read as a comment, surrounding white space or quotes of its own).
 *
 * @param key The key.
 * @param value The value.
 * @returns The text after `key: `.
 * @throws {Error} When no form reads back the same.
 */
export function encodeConfigValue(key: string, value: string): string {
  const reads = (text: string) => parseConfig(`${key}: ${text}\n`).values[key] === value;
  for (const text of [value, `"${value}"`, `'${value}'`]) if (reads(text)) return text;
  throw new Error(`${key}: this value cannot be written so that it reads back the same`);
}

/**
 * Sets one key in the config file, keeping every other line (comments included). Written
 * atomically, mode 0600, under a lock. A file that exists but cannot be read is never rewritten.
 *
 * @param key The key (see {@link CONFIG_KEYS}).
 * @param value The value, already validated.
 * @param root The state root (`stateRoot()` of `lib/host/places.ts`).
 * @returns The config file's path.
 * @throws {Error} When the value is invalid or the file cannot be read or written.
 */
export function writeConfigValue(key: string, value: string, root: string): string {
  const problem = validateConfigValue(key, value);
  if (problem) throw new Error(problem);
  const path = configPath(root);
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  withLock(`${path}.lock`, () => {
    let text = "";
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        throw new Error(`Cannot read ${path}: ${err instanceof Error ? err.message : err}`);
      }
      text = "# skillgate config: flat key: value lines (skillgate config list shows them)\n";
    }
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const pattern = new RegExp(`^\\s*${key}\\s*:`);
    // The key's own lines go, and the `- item` lines of a list written under it.
    const kept: string[] = [];
    let dropping = false;
    for (const line of lines) {
      if (pattern.test(line)) dropping = true;
      else if (!(dropping && /^\s*-(\s|$)/.test(line))) {
        dropping = false;
        kept.push(line);
      }
    }
    kept.push(`${key}: ${encodeConfigValue(key, value)}`);
    writeFileAtomic(path, kept.join("\n") + "\n");
  });
  return path;
}

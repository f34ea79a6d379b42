/**
 * skillgate's switches and its flat `key: value` config file (`<state root>/config.yaml`).
 *
 * Each switch resolves in this order, the first one set winning: a `setup` flag (saved to the
 * config file, so it shows up there), the environment (`SKILLGATE_SKILL_ROUTING`, ...; not saved),
 * the config file, and the default in {@link SWITCH_DEFAULT}, the only place defaults are written.
 * A config file that exists but cannot be read turns every hook off, because it may hold an `off`.
 *
 * @module
 */

import { dirname, join } from "./path.ts";
import { getEnv, stateRoot } from "./locations.ts";
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
  /** The kind of value, checked by `config set`. */
  readonly kind: "switch" | "number" | "list" | "text" | "hint";
}

/** Every key the config file may hold. */
export const CONFIG_KEYS: Readonly<Record<string, ConfigKeySpec>> = Object.freeze({
  skill_routing: { description: "UserPromptSubmit routing hook", kind: "switch", default: "off" },
  skill_contracts: { description: "Stop contract hook", kind: "switch", default: "on" },
  skill_redirect: { description: "Skill-to-agent redirect hooks", kind: "switch", default: "on" },
  route_threshold: {
    description: "Routing score threshold (0..1)",
    kind: "number",
    default: "0.66",
  },
  route_skills: {
    description: "Skills that may route (comma list; * for all)",
    kind: "list",
    default: "investigate,review,qa,verify",
  },
  hook_deadline_ms: { description: "A hook's own deadline in ms", kind: "number", default: "5000" },
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
  /** The values, last line wins. */
  readonly values: Readonly<Record<string, string>>;
  /** Why the file could not be read. */
  readonly error?: string;
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
 * @param root The state root (default: {@link stateRoot}).
 * @returns `<state root>/config.yaml`.
 */
export function configPath(root: string = stateRoot()): string {
  return join(root, "config.yaml");
}

/**
 * Parses flat `key: value` lines. Comment lines (`#`) and blank lines are skipped, a value that
 * is one quoted token loses its quotes, and the last line for a key wins.
 *
 * @param text The file's text.
 * @returns The values by key.
 */
export function parseConfigText(text: string): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([A-Za-z0-9_]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    // No inline comments: a value may hold ` #` (a shell-quoted command, say). One quoted token
    // loses its quotes; a value with more quotes inside is kept as written.
    let value = m[2].trim();
    if (/^'[^']*'$|^"[^"]*"$/.test(value)) value = value.slice(1, -1);
    values[m[1]] = value;
  }
  return values;
}

/**
 * Reads the config file. A missing file is normal; a file that exists but cannot be read (a
 * permission error, a directory, binary or oversized content) is reported as unreadable.
 *
 * @param root The state root (default: {@link stateRoot}).
 * @returns What was read.
 */
export function readConfig(root?: string): ConfigState {
  let path: string;
  try {
    path = configPath(root ?? stateRoot());
  } catch (err) {
    return { path: "config.yaml", exists: false, readable: false, values: {}, error: String(err) };
  }
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) throw new Error("Not a regular file");
    if (info.size > MAX_CONFIG_BYTES) throw new Error(`Larger than ${MAX_CONFIG_BYTES} bytes`);
    const bytes = Deno.readFileSync(path);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\u0000")) throw new Error("Binary content");
    return { path, exists: true, readable: true, values: parseConfigText(text) };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return { path, exists: false, readable: true, values: {} };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { path, exists: true, readable: false, values: {}, error: message };
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
  if (fileValue !== undefined) {
    const on = parseSwitchValue(fileValue);
    if (on !== undefined) return { on, source: "config" };
    return {
      on: SWITCH_DEFAULT[name],
      source: "default",
      warning: `Ignoring ${name} in ${config.path}: expected on or off`,
    };
  }
  return { on: SWITCH_DEFAULT[name], source: "default" };
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
      return parseSwitchValue(value) === undefined ? `${key} takes on or off` : undefined;
    case "number": {
      const n = Number(value);
      if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
        return `${key} takes a non-negative number`;
      }
      if (key === "route_threshold" && n > 1) return "route_threshold takes a number from 0 to 1";
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Sets one key in the config file, keeping every other line (comments included). Written
 * atomically, mode 0600, under a lock. A file that exists but cannot be read is never rewritten.
 *
 * @param key The key (see {@link CONFIG_KEYS}).
 * @param value The value, already validated.
 * @param root The state root (default: {@link stateRoot}).
 * @throws {Error} When the value is invalid or the file cannot be read or written.
 */
export function writeConfigValue(key: string, value: string, root?: string): void {
  const problem = validateConfigValue(key, value);
  if (problem) throw new Error(problem);
  const path = configPath(root ?? stateRoot());
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
    const kept = lines.filter((line) => !pattern.test(line));
    kept.push(`${key}: ${value}`);
    writeFileAtomic(path, kept.join("\n") + "\n");
  });
}

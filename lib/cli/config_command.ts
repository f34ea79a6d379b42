/**
 * `skillgate config get|set|list|defaults`: read and change skillgate's switches and settings in
 * `<state root>/config.yaml`. Every value read is validated as `config set` validates it; an
 * invalid value, an unknown key and a line that is not understood are reported (the default
 * applies), never silently used.
 *
 * @module
 */

import {
  CONFIG_KEYS,
  type ConfigProblem,
  type ConfigState,
  readConfig,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_NAMES,
  type SwitchName,
  validateConfigValue,
  writeConfigValue,
} from "../base/config.ts";
import { errorCause } from "../base/errors.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { stateRoot } from "../host/places.ts";
import {
  commandError,
  type CommandSpec,
  parseCommand,
  runGroup,
  STATE_ERROR_EXIT,
  STATE_ERROR_WORD,
  usageError,
} from "./args.ts";

const JSON_OPTION = {
  json: { type: "boolean", description: "Print one JSON object instead of text" },
} as const;

const KEYS_NOTE = `Keys:\n${
  Object.entries(CONFIG_KEYS).map(([k, spec]) =>
    `  ${k.padEnd(18)} ${spec.description}${spec.default ? ` (default ${spec.default})` : ""}`
  ).join("\n")
}`;

const EXIT_NOTE = "Exit codes: 0 done, 2 USAGE (a bad flag, argument, key or value), " +
  "3 STATE_ERROR (the config file cannot be read or written).";

/** `skillgate config`: the group. */
export const CONFIG_SPEC: CommandSpec = {
  name: "config",
  usage: ["<get|set|list|defaults> [options]", "<subcommand> --help"],
  description: "Reads and changes skillgate's switches and settings in <state root>/config.yaml " +
    "(flat key: value lines; see docs/configuration.md for the exact format).",
  subcommands: [
    {
      name: "get <key>",
      description: "Print the value in effect (the default for an invalid one)",
    },
    { name: "set <key> <value>", description: "Validate and save one value" },
    {
      name: "list",
      description: "Every value, where it comes from, and every problem of the file",
    },
    { name: "defaults", description: "The built-in defaults" },
  ],
  notes: `${KEYS_NOTE}\n\n${EXIT_NOTE}`,
};

/** `skillgate config get`. */
export const CONFIG_GET_SPEC: CommandSpec = {
  name: "config get",
  usage: ["<key> [--json]"],
  description: "Prints the value in effect: a switch as on or off (the environment, the file, " +
    "the default), any other key as the file has it, else its default. A value in the file that " +
    "is not valid is reported on stderr and the default is printed.",
  arguments: [{ name: "<key>", description: "The key (config --help lists them)" }],
  options: JSON_OPTION,
  notes: EXIT_NOTE,
};

/** `skillgate config set`. */
export const CONFIG_SET_SPEC: CommandSpec = {
  name: "config set",
  usage: ["<key> <value> [--json]"],
  description: "Validates and saves one value (other lines, comments included, are kept; the " +
    "file is written atomically, mode 0600).",
  arguments: [
    { name: "<key>", description: "The key (config --help lists them)" },
    { name: "<value>", description: "The value: on/off for a switch, a number, a comma list" },
  ],
  options: JSON_OPTION,
  notes: EXIT_NOTE,
};

/** `skillgate config list`. */
export const CONFIG_LIST_SPEC: CommandSpec = {
  name: "config list",
  usage: ["[--json]"],
  description: "Prints every key with the value in effect and where it comes from (env, config " +
    "or default), then every problem of the file with its line: an invalid value (the default " +
    "is used), an unknown key, a line that is not understood.",
  options: JSON_OPTION,
  notes: EXIT_NOTE,
};

/** `skillgate config defaults`. */
export const CONFIG_DEFAULTS_SPEC: CommandSpec = {
  name: "config defaults",
  usage: ["[--json]"],
  description: "Prints the built-in default of every key that has one.",
  options: JSON_OPTION,
  notes: EXIT_NOTE,
};

function isSwitch(key: string): key is SwitchName {
  return (SWITCH_NAMES as readonly string[]).includes(key);
}

/** A problem as one line: `line 3: …`. */
export function problemLine(p: ConfigProblem): string {
  return `line ${p.line}: ${sanitizeLine(p.message, 300)}`;
}

function defaults(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SWITCH_NAMES) out[name] = SWITCH_DEFAULT[name] ? "on" : "off";
  for (const [k, spec] of Object.entries(CONFIG_KEYS)) {
    if (!isSwitch(k) && spec.default !== undefined) out[k] = spec.default;
  }
  return out;
}

/** Every key's value in effect, its source and its problem. */
function effective(config: ConfigState) {
  return Object.keys(CONFIG_KEYS).map((key) => {
    const problem = config.problems?.find((p) => p.key === key);
    if (isSwitch(key)) {
      const r = resolveSwitch(key, config);
      return { key, value: r.on ? "on" : "off", source: r.source, problem, warning: r.warning };
    }
    const set = Object.hasOwn(config.values, key);
    return {
      key,
      value: set ? config.values[key] : CONFIG_KEYS[key].default ?? "",
      source: set ? "config" : "default",
      problem,
      warning: undefined,
    };
  });
}

function unreadable(spec: CommandSpec, config: ConfigState, json: boolean): number {
  return commandError(
    spec,
    STATE_ERROR_EXIT,
    STATE_ERROR_WORD,
    `${config.path}: ${config.error ?? "cannot be read"}; every hook is off until it can be read`,
    json,
  );
}

function get(args: string[]): number {
  const spec = CONFIG_GET_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json, positionals } = parsed.args;
  if (positionals.length !== 1) {
    return usageError(spec, positionals.length ? "Give one key" : "Missing <key>", json);
  }
  const key = positionals[0];
  if (!Object.hasOwn(CONFIG_KEYS, key)) {
    return usageError(spec, `Unknown config key ${sanitizeLine(key, 60)}`, json);
  }
  const config = readConfig(stateRoot);
  if (!config.readable) return unreadable(spec, config, json);
  const row = effective(config).find((r) => r.key === key)!;
  if (row.warning) console.error(`skillgate config get: WARN ${sanitizeLine(row.warning)}`);
  else if (row.problem) console.error(`skillgate config get: WARN ${problemLine(row.problem)}`);
  console.log(
    json ? JSON.stringify({ key, value: row.value, source: row.source }) : sanitizeLine(row.value),
  );
  return 0;
}

function set(args: string[]): number {
  const spec = CONFIG_SET_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json, positionals } = parsed.args;
  if (positionals.length !== 2) {
    return usageError(spec, "Give a key and a value (quote a value with spaces)", json);
  }
  const [key, value] = positionals;
  const problem = validateConfigValue(key, value);
  if (problem) return usageError(spec, problem, json);
  let path: string;
  try {
    path = writeConfigValue(key, value, stateRoot());
  } catch (err) {
    return commandError(spec, STATE_ERROR_EXIT, STATE_ERROR_WORD, errorCause(err), json);
  }
  console.log(json ? JSON.stringify({ key, value, path }) : `${key}: ${sanitizeLine(value)}`);
  if (GRANTED_KEYS.has(key)) {
    // A hook reads only the folders its command grants: setup writes them from this value.
    console.error(
      `skillgate config set: RUN_SETUP the hooks read the folders of ${key} only once their ` +
        "commands grant them: run skillgate setup again (with the flags you installed with; " +
        "the plugin's hooks cannot be granted other folders)",
    );
  }
  return 0;
}

/** Keys whose folders the hook commands grant (written by setup): changing one needs setup. */
const GRANTED_KEYS: ReadonlySet<string> = new Set(["skill_dirs", "agent_dirs"]);

function list(args: string[]): number {
  const spec = CONFIG_LIST_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const config = readConfig(stateRoot);
  const rows = effective(config);
  const problems = config.problems ?? [];
  if (parsed.args.json) {
    console.log(JSON.stringify({
      path: config.path,
      exists: config.exists,
      readable: config.readable,
      ...(config.readable ? {} : { error: config.error ?? "" }),
      values: rows.map((r) => ({
        key: r.key,
        value: r.value,
        source: r.source,
        ...(r.warning ? { warning: r.warning } : {}),
      })),
      problems,
    }));
    return 0;
  }
  console.log(`# ${config.path}${config.exists ? "" : " (not created yet)"}`);
  if (!config.readable) {
    console.log(`# unreadable: ${config.error}; every hook is off until it can be read`);
  }
  for (const r of rows) {
    const note = r.problem
      ? `  # ${problemLine(r.problem)}`
      : r.warning
      ? `  # ${sanitizeLine(r.warning)}`
      : "";
    console.log(
      `${r.key}: ${r.value === "" ? "(none)" : sanitizeLine(r.value)} (${r.source})${note}`,
    );
  }
  for (const p of problems) {
    if (p.key === undefined || !Object.hasOwn(CONFIG_KEYS, p.key)) {
      console.log(`# ${problemLine(p)}`);
    }
  }
  return 0;
}

function showDefaults(args: string[]): number {
  const spec = CONFIG_DEFAULTS_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const d = defaults();
  if (parsed.args.json) console.log(JSON.stringify(d));
  else for (const [k, v] of Object.entries(d)) console.log(`${k}: ${v}`);
  return 0;
}

/**
 * Runs `skillgate config`.
 *
 * @param args The arguments after `config`.
 * @returns 0 on success, 2 for a usage error (an unknown key, an invalid value), 3 when the config
 * file cannot be read or written.
 */
export async function main(args: string[]): Promise<number> {
  return await runGroup(CONFIG_SPEC, { get, set, list, defaults: showDefaults }, args);
}

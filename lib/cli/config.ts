/**
 * `skillgate config get|set|list|defaults`: read and change skillgate's switches and settings in
 * `<state root>/config.yaml`.
 *
 * @module
 */

import {
  CONFIG_KEYS,
  readConfig,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_NAMES,
  type SwitchName,
  validateConfigValue,
  writeConfigValue,
} from "../base/config.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { printUsageError } from "./args.ts";

const USAGE = `Usage: skillgate config get <key>
       skillgate config set <key> <value>
       skillgate config list
       skillgate config defaults`;

function isSwitch(key: string): key is SwitchName {
  return (SWITCH_NAMES as readonly string[]).includes(key);
}

/**
 * Runs `skillgate config`.
 *
 * @param args The arguments after `config`.
 * @returns 0 on success, 1 for an unknown key in `get`, 2 for a usage error, 3 when the config
 * file cannot be read or written.
 */
export function main(args: string[]): Promise<number> {
  return Promise.resolve(run(args));
}

function run(args: string[]): number {
  const [command, key, ...rest] = args;
  switch (command) {
    case "defaults": {
      for (const name of SWITCH_NAMES) {
        console.log(`${name}: ${SWITCH_DEFAULT[name] ? "on" : "off"}`);
      }
      for (const [k, spec] of Object.entries(CONFIG_KEYS)) {
        if (!isSwitch(k) && spec.default !== undefined) console.log(`${k}: ${spec.default}`);
      }
      return 0;
    }
    case "get": {
      if (!key || rest.length) return usage("config get takes one key");
      if (!Object.hasOwn(CONFIG_KEYS, key)) {
        console.error(`skillgate: unknown config key ${sanitizeLine(key, 60)}`);
        return 1;
      }
      const config = readConfig();
      if (!config.readable) {
        console.error(`skillgate: cannot read ${config.path}: ${config.error}`);
        return 3;
      }
      if (isSwitch(key)) {
        const r = resolveSwitch(key, config);
        if (r.warning) console.error(`skillgate: ${r.warning}`);
        console.log(r.on ? "on" : "off");
      } else console.log(config.values[key] ?? CONFIG_KEYS[key].default ?? "");
      return 0;
    }
    case "set": {
      if (!key || rest.length !== 1) return usage("config set takes a key and a value");
      const problem = validateConfigValue(key, rest[0]);
      if (problem) return usage(problem);
      try {
        writeConfigValue(key, rest[0]);
      } catch (err) {
        console.error(`skillgate: ${err instanceof Error ? err.message : err}`);
        return 3;
      }
      console.log(`${key}: ${rest[0]}`);
      return 0;
    }
    case "list": {
      const config = readConfig();
      console.log(`# ${config.path}${config.exists ? "" : " (not created yet)"}`);
      if (!config.readable) {
        console.log(`# unreadable: ${config.error}; every hook is off until it can be read`);
      }
      for (const name of SWITCH_NAMES) {
        const r = resolveSwitch(name, config);
        console.log(
          `${name}: ${r.on ? "on" : "off"} (${r.source})${r.warning ? `  # ${r.warning}` : ""}`,
        );
      }
      for (const [k, spec] of Object.entries(CONFIG_KEYS)) {
        if (isSwitch(k)) continue;
        const set = Object.hasOwn(config.values, k);
        const value = set ? config.values[k] : spec.default ?? "";
        console.log(`${k}: ${sanitizeLine(value)} (${set ? "config" : "default"})`);
      }
      return 0;
    }
    default:
      return usage(
        command ? `unknown config command ${sanitizeLine(command, 40)}` : "missing command",
      );
  }
}

function usage(message: string): number {
  return printUsageError(`skillgate: ${message}`, USAGE);
}

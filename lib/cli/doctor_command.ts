/**
 * `skillgate doctor`: the command-line front of {@link runDoctor}.
 *
 * @module
 */

import { getEnv, homeDir } from "../base/locations.ts";
import { stateRoot } from "../host/places.ts";
import { errorCause } from "../base/errors.ts";
import { hostConfigDirs } from "../host/mod.ts";
import { runDoctor } from "../install/doctor.ts";
import { commandError, type CommandSpec, parseCommand } from "./args.ts";

/** `skillgate doctor`. */
export const DOCTOR_SPEC: CommandSpec = {
  name: "doctor",
  usage: ["[--json]"],
  description: "Runs every registered skillgate hook (Claude Code settings, Copilot CLI hook " +
    "files, user and project, and an installed plugin) with a harmless sample payload, exactly " +
    "as the host runs it, and reports OK, WARN or BROKEN with the reason: Deno missing, a wrong " +
    "path, a missing permission, a crash, a slow start. Shows each switch and where its value " +
    "comes from, and every problem of the config file. The last line is the verdict, which " +
    "follows from the lines: BROKEN, NOT INSTALLED, NOT CHECKED, WARN or OK.",
  options: {
    json: {
      type: "boolean",
      description: "Print one JSON object: result, exit, summary, lines, hooks",
    },
  },
  notes: "Exit codes: 0 OK, WARN or NOT CHECKED (a plugin that has not run yet), 1 BROKEN or " +
    "NOT INSTALLED, 2 USAGE.",
};

/**
 * Runs `skillgate doctor`.
 *
 * @param args The arguments after `doctor`.
 * @returns 0 when every registered hook works, 1 when one is broken or none is registered, 2 for
 * bad usage.
 */
export async function main(args: string[]): Promise<number> {
  const parsed = parseCommand(DOCTOR_SPEC, args);
  if (!parsed.ok) return parsed.exit;
  const json = parsed.args.json;
  try {
    const home = homeDir();
    return await runDoctor({
      stateRoot: stateRoot(),
      claudeConfigDir: hostConfigDirs({ home, env: getEnv }).claude,
      home,
      hostDirs: hostConfigDirs({ home, env: getEnv }),
      cwd: Deno.cwd(),
      print: (line) => console.log(line),
      json,
    });
  } catch (err) {
    return commandError(DOCTOR_SPEC, 1, "BROKEN", errorCause(err), json);
  }
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);

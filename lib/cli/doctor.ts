/**
 * `skillgate doctor`: the command-line front of {@link runDoctor}.
 *
 * @module
 */

import { claudeConfigDir, getEnv, homeDir, stateRoot } from "../base/locations.ts";
import { hostConfigDirs } from "../host/mod.ts";
import { runDoctor } from "../install/doctor.ts";
import { printHelp, printUsageError } from "./args.ts";

/** The usage text of `skillgate doctor`. */
export const DOCTOR_USAGE: string = `Usage: skillgate doctor

Runs every registered skillgate hook (Claude Code settings and Copilot CLI hook files, user and
project) with a harmless sample payload, exactly as the host runs it, and reports OK or what is
wrong: Deno missing, a wrong path, a missing permission, a crash or a slow start. Shows each switch
and where its value comes from. Exits 1 when a registered hook is broken.`;

/**
 * Runs `skillgate doctor`.
 *
 * @param args The arguments after `doctor`.
 * @returns 0 when every registered hook works, 1 when one is broken, 2 for bad usage.
 */
export async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) return printHelp(DOCTOR_USAGE);
  if (args.length > 0) {
    return printUsageError("skillgate doctor: unexpected argument", DOCTOR_USAGE);
  }
  try {
    const home = homeDir();
    return await runDoctor({
      stateRoot: stateRoot(),
      claudeConfigDir: claudeConfigDir(),
      home,
      hostDirs: hostConfigDirs({ home, env: getEnv }),
      cwd: Deno.cwd(),
      print: (line) => console.log(line),
    });
  } catch (err) {
    console.error(`skillgate doctor: ${err instanceof Error ? err.message : err}`);
    return 1;
  }
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);

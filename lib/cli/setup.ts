/**
 * `skillgate setup`: the command-line front of {@link runSetup}.
 *
 * @module
 */

import { claudeConfigDir, getEnv, homeDir, stateRoot } from "../base/locations.ts";
import { hostConfigDirs } from "../host/mod.ts";
import { chooseDenoPath, detectModuleSource, shellJoin } from "../install/hook_commands.ts";
import { parseSetupArgs, runSetup, SETUP_USAGE, type SetupContext } from "../install/setup.ts";
import type { ModuleSource } from "../install/hook_commands.ts";
import { errorCause } from "../base/errors.ts";
import { commandError, type CommandSpec, usageError } from "./args.ts";

/** `skillgate setup`, for its usage errors (its help is {@link SETUP_USAGE}, which names every flag). */
export const SETUP_SPEC: CommandSpec = {
  name: "setup",
  usage: ["[options]"],
  description: SETUP_USAGE,
};

/**
 * The command that runs the skillgate CLI from a module source, for config `skillgate_command`.
 *
 * @param denoPath The Deno executable.
 * @param source Where skillgate runs from.
 * @returns A shell command prefix, or `undefined` for compiled hooks.
 */
export function cliCommandFor(denoPath: string, source: ModuleSource): string | undefined {
  const flags = ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run"];
  if (source.kind === "local") return shellJoin([denoPath, ...flags, `${source.root}/cli.ts`]);
  if (source.kind === "jsr") {
    return shellJoin([denoPath, ...flags, `jsr:@skillgate/skillgate@${source.version}/cli`]);
  }
  return undefined;
}

/**
 * Builds the surroundings of a real run: state root, Claude config dir, home, each host's config
 * directory, the working directory, the Deno executable and where skillgate runs from.
 *
 * @returns The context.
 */
export function realSetupContext(): SetupContext {
  const deno = chooseDenoPath();
  const source = detectModuleSource();
  if (deno.warning) console.error(`skillgate: ${deno.warning}`);
  const home = homeDir();
  return {
    stateRoot: stateRoot(),
    claudeConfigDir: claudeConfigDir(),
    home,
    hostDirs: hostConfigDirs({ home, env: getEnv }),
    cwd: Deno.cwd(),
    denoPath: deno.path,
    source,
    cliCommand: cliCommandFor(deno.path, source),
    precache: true,
    print: (line) => console.log(line),
    warn: (line) => console.error(line),
  };
}

/**
 * Runs `skillgate setup`.
 *
 * @param args The arguments after `setup`.
 * @returns The exit code: 0 done, 1 refused or failed, 2 usage.
 */
export async function main(args: string[]): Promise<number> {
  const parsed = parseSetupArgs(args);
  if ("error" in parsed) return usageError(SETUP_SPEC, parsed.error);
  if (parsed.help) {
    // Help only: no look at this machine, so no warning about where Deno runs from.
    console.log(SETUP_USAGE);
    return 0;
  }
  let ctx: SetupContext;
  try {
    ctx = realSetupContext();
  } catch (err) {
    return commandError(SETUP_SPEC, 1, "FAILED", errorCause(err));
  }
  return await runSetup(parsed, ctx);
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);

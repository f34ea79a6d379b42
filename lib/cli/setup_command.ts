/**
 * `skillgate setup`: the command-line front of {@link runSetup}.
 *
 * @module
 */

import { getEnv, homeDir } from "../base/locations.ts";
import { stateRoot } from "../host/places.ts";
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
  if (source.kind === "remote") return shellJoin([denoPath, ...flags, `${source.base}cli.ts`]);
  return undefined;
}

/** No Deno that lasts to register: setup writes nothing. */
class DenoRefusal extends Error {}

/**
 * Builds the surroundings of a real run: state root, Claude config dir, home, each host's config
 * directory, the working directory, the Deno executable and where skillgate runs from.
 *
 * @param denoPath The Deno to use as is (default: {@link chooseDenoPath}'s choice).
 * @returns The context.
 * @throws {Error} When there is no Deno that lasts to register, or skillgate's location is unknown.
 */
export function realSetupContext(denoPath?: string): SetupContext {
  const deno = denoPath ? { path: denoPath } : chooseDenoPath();
  if ("refusal" in deno) throw new DenoRefusal(deno.refusal);
  const source = detectModuleSource();
  const home = homeDir();
  return {
    stateRoot: stateRoot(),
    claudeConfigDir: hostConfigDirs({ home, env: getEnv }).claude,
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
    // Uninstalling and compiling register no Deno, so an ephemeral one is refused only otherwise.
    const keep = parsed.uninstall || parsed.compile;
    ctx = realSetupContext(keep ? Deno.execPath() : undefined);
  } catch (err) {
    const word = err instanceof DenoRefusal ? "EPHEMERAL_DENO" : "FAILED";
    return commandError(SETUP_SPEC, 1, word, errorCause(err));
  }
  return await runSetup(parsed, ctx);
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);

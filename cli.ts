#!/usr/bin/env -S deno run --allow-read --allow-write --allow-env --allow-run=deno
/**
 * The `skillgate` command line.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run=deno jsr:@skillgate/skillgate/cli route --explain "this test fails, fix it"
 * ```
 *
 * Commands: `route`, `contract check|lint|report|waive`, `config get|set|list|defaults`,
 * `setup`, `doctor`, `session-kind`, `hook <name>`. Each is loaded only when used.
 *
 * @module
 */

import denoConfig from "./deno.json" with { type: "json" };

/** A subcommand's entry: takes the arguments after its name, returns the exit code. */
type CommandMain = (args: string[]) => Promise<number>;

const COMMANDS: Readonly<Record<string, () => Promise<CommandMain>>> = {
  route: async () => (await import("./lib/cli/route.ts")).main,
  contract: async () => (await import("./lib/cli/contract.ts")).main,
  config: async () => (await import("./lib/cli/config.ts")).main,
  setup: async () => (await import("./lib/cli/setup.ts")).main,
  doctor: async () => (await import("./lib/cli/doctor.ts")).main,
  "session-kind": async () => (await import("./lib/cli/session_kind.ts")).main,
  hook: async () => (await import("./lib/cli/hook.ts")).main,
};

const USAGE =
  `skillgate ${denoConfig.version}: skill routing, skill contracts and skill-to-agent redirect hooks

Usage: skillgate <command> [options]

Commands:
  route --explain "<prompt>" [--json] [--threshold n]   show what the routing hook would do
  route eval <file.tsv> [--json]                          precision and recall on labeled prompts
  contract check --transcript <path> --skill <name>       check a skill run's contract
  contract lint <SKILL.md>...                             validate contract blocks
  contract report [--json] [--session <id>]               list contract misses
  contract waive <item> --reason "<why>" [--skill <name>] waive an item that does not apply
  config get|set|list|defaults                            read and change switches and settings
  setup [--skill-routing|--no-skill-routing ...]          install the hooks (see --help)
  doctor                                                  check the installed hooks
  session-kind                                            spawned, headless or interactive
  hook <skill-route|skill-contract|skill-redirect>        run a hook on stdin`;

/**
 * Runs the CLI.
 *
 * @param args The arguments after `skillgate`.
 * @returns The exit code.
 */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(denoConfig.version);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(`skillgate: unknown command ${JSON.stringify(name.slice(0, 40))}\n\n${USAGE}`);
    return 2;
  }
  if (name !== "setup" && name !== "hook") {
    // A plugin install keeps its state in the plugin's data directory: read and change that one.
    const { pluginStateRoot } = await import("./lib/base/locations.ts");
    const root = pluginStateRoot();
    if (root) {
      Deno.env.set("SKILLGATE_STATE_ROOT", root);
      console.error(`skillgate: using the plugin's state root ${root}`);
    }
  }
  return await (await load())(rest);
}

if (import.meta.main) {
  Deno.exitCode = await main(Deno.args);
}

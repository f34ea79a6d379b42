#!/usr/bin/env -S deno run --allow-read --allow-write --allow-env --allow-run=deno
/**
 * The `skillgate` command line.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run=deno jsr:@skillgate/skillgate/cli route --explain "this test fails, fix it"
 * ```
 *
 * Commands: `route`, `contract check|lint|report|waive`, `config get|set|list|defaults`,
 * `report`, `lint`, `setup`, `uninstall`, `doctor`, `session-kind`, `hook <name>`. Each is loaded only when used.
 *
 * @module
 */

import denoConfig from "./deno.json" with { type: "json" };
import type { CommandSpec } from "./lib/cli/args.ts";

/** A subcommand's entry: takes the arguments after its name, returns the exit code. */
type CommandMain = (args: string[]) => Promise<number>;

const COMMANDS: Readonly<Record<string, () => Promise<CommandMain>>> = {
  route: async () => (await import("./lib/cli/route_command.ts")).main,
  contract: async () => (await import("./lib/cli/contract_command.ts")).main,
  config: async () => (await import("./lib/cli/config_command.ts")).main,
  setup: async () => (await import("./lib/cli/setup_command.ts")).main,
  uninstall: async () => (await import("./lib/cli/uninstall_command.ts")).main,
  doctor: async () => (await import("./lib/cli/doctor_command.ts")).main,
  report: async () => (await import("./lib/cli/report_command.ts")).main,
  lint: async () => (await import("./lib/cli/lint_command.ts")).main,
  "session-kind": async () => (await import("./lib/cli/session_kind_command.ts")).main,
  hook: async () => (await import("./lib/cli/hook_command.ts")).main,
};

/** The top-level help: every command and subcommand, each with what it does. */
const SPEC: CommandSpec = {
  name: "",
  usage: ["<command> [options]", "<command> --help"],
  description:
    `skillgate ${denoConfig.version}: skill routing, skill contracts and skill-to-agent redirect hooks. ` +
    "Every command and subcommand takes --help.",
  subcommands: [
    { name: 'route --explain "<prompt>"', description: "Show what the routing hook would do" },
    { name: "route eval <file.tsv>", description: "Precision and recall on labeled prompts" },
    { name: "route --default <switch>", description: "A switch's built-in default" },
    { name: "contract check", description: "Check a skill run's contract in a transcript" },
    { name: "contract lint <SKILL.md>...", description: "Validate contract blocks" },
    { name: "contract report", description: "List contract misses" },
    { name: "contract waive <item>", description: "Waive an item that does not apply" },
    {
      name: "report",
      description: "Per skill: routed, followed, loaded, contract outcomes (--json, --html)",
    },
    { name: "lint", description: "Skills the host's listing drops or cuts, shared triggers" },
    { name: "config get <key>", description: "Print one setting" },
    { name: "config set <key> <value>", description: "Change one setting" },
    { name: "config list", description: "Every setting, where it comes from, and any problem" },
    { name: "config defaults", description: "The built-in defaults" },
    { name: "setup", description: "Install the hooks (or --uninstall them)" },
    {
      name: "uninstall",
      description: "Remove every hook entry, for every host (--purge: and state)",
    },
    { name: "doctor", description: "Run the installed hooks and say whether they work" },
    {
      name: "session-kind",
      description: "Whether this session is spawned, headless or interactive",
    },
    { name: "hook <name>", description: "Run one hook on stdin, as the host does" },
  ],
  options: { version: { type: "boolean", short: "V", description: "Print the version" } },
  notes: "Exit codes: 0 done, 2 usage error, 3 a file or directory cannot be read or written; " +
    "contract commands use 0-6 (skillgate contract --help).",
};

/**
 * Runs the CLI.
 *
 * @param args The arguments after `skillgate`.
 * @returns The exit code.
 */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const { formatHelp } = await import("./lib/cli/args.ts");
    console.log(formatHelp(SPEC));
    return 0;
  }
  if (name === "--version" || name === "-V") {
    console.log(denoConfig.version);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    const { shownArg, usageError } = await import("./lib/cli/args.ts");
    const { didYouMean } = await import("./lib/cli/did_you_mean.ts");
    const known = name.startsWith("-") ? ["--help", "--version"] : Object.keys(COMMANDS);
    return usageError(
      SPEC,
      `Unknown ${name.startsWith("-") ? "option" : "command"} '${shownArg(name)}'${
        didYouMean(name, known)
      } (skillgate --help lists them)`,
    );
  }
  if (name !== "setup" && name !== "hook") {
    // A plugin install whose hooks keep their state in the plugin's data directory (its Claude
    // config folder is not beside ~/.skillgate): read and change that one.
    const { pluginStateRoot } = await import("./lib/host/plugin_state.ts");
    const root = pluginStateRoot();
    if (root) {
      Deno.env.set("SKILLGATE_STATE_ROOT", root);
      console.error(`skillgate ${name}: NOTE Using the plugin's state root ${root}`);
    }
  }
  return await (await load())(rest);
}

if (import.meta.main) {
  Deno.exitCode = await main(Deno.args);
}

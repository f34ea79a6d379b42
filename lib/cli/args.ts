/**
 * What every `skillgate` subcommand does with its arguments: parse them (strict `node:util`
 * `parseArgs`, its throw turned into a result), print the usage text for `--help`, and print a
 * usage error (a message line, then the usage text) with exit code 2.
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";

/** The exit code of a usage error, for every subcommand (`SKILL_CONTRACT_USAGE`, `SKILL_ROUTE_USAGE`). */
export const USAGE_EXIT = 2;

/** Parsed arguments: the values of the options and the positionals. */
export type ParsedArgs<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** What {@link parseCommandArgs} gives: the parsed arguments, or why they do not parse. */
export type ArgsResult<T extends ParseArgsConfig> =
  | { readonly ok: true; readonly parsed: ParsedArgs<T> }
  | { readonly ok: false; readonly message: string };

/**
 * Parses a subcommand's arguments with `node:util` `parseArgs`, never throwing.
 *
 * @param config The `parseArgs` config (`args`, `options`, `strict`, `allowPositionals`).
 * @returns The parsed arguments, or the parser's error message (for a usage error).
 *
 * @example
 * ```ts
 * import { parseCommandArgs } from "./args.ts";
 * const r = parseCommandArgs({ args: ["--json"], options: { json: { type: "boolean" } } });
 * if (r.ok) console.log(r.parsed.values.json); // true
 * ```
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ArgsResult<T> {
  try {
    return { ok: true, parsed: parseArgs(config) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Prints a subcommand's usage text on stdout, for `--help`.
 *
 * @param usage The usage text.
 * @returns 0, the exit code of `--help`.
 */
export function printHelp(usage: string): number {
  console.log(usage);
  return 0;
}

/**
 * Prints a usage error on stderr: the message line, then the usage text.
 *
 * @param message The message line, with the subcommand's prefix (such as `skillgate: `).
 * @param usage The usage text.
 * @returns {@link USAGE_EXIT}.
 */
export function printUsageError(message: string, usage: string): number {
  console.error(`${message}\n${usage}`);
  return USAGE_EXIT;
}

/**
 * An argument as a message may show it: `[A-Za-z0-9:_-]` only, at most 40 characters.
 *
 * @param arg The argument as given.
 * @returns The part that is safe to echo.
 */
export function shownArg(arg: string): string {
  return arg.replace(/[^A-Za-z0-9:_-]/g, "").slice(0, 40);
}

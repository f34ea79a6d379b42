/**
 * The one style of every `skillgate` command and subcommand: a {@link CommandSpec} declares its
 * usage lines, what it does and each flag with its description; {@link parseCommand} parses the
 * arguments (strict `node:util` `parseArgs`), answers `--help` / `-h` with the help text (exit 0),
 * and turns a bad flag or argument into one stderr line (exit 2):
 *
 * ```text
 * skillgate <command>: <WORD> <message>
 * ```
 *
 * `<WORD>` is the seed's word where it defines one (`SKILL_CONTRACT_USAGE`, `SKILL_ROUTE_USAGE`),
 * else `USAGE`. Other failures use the same shape with their own word and code
 * ({@link commandError}); a command given `--json` also prints the failure as one JSON object on
 * stdout. A missing or unreadable input file (or directory) is {@link STATE_ERROR_EXIT} everywhere.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { errorCause } from "../base/errors.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { didYouMean } from "./did_you_mean.ts";

/** The exit code of a usage error, for every command (`SKILL_CONTRACT_USAGE`, `SKILL_ROUTE_USAGE`, `USAGE`). */
export const USAGE_EXIT = 2;

/** The exit code of a file or directory that cannot be read or written, for every command. */
export const STATE_ERROR_EXIT = 3;

/** The word of a usage error where the seed defines none. */
export const USAGE_WORD = "USAGE";

/** The word of a state error where the seed defines none. */
export const STATE_ERROR_WORD = "STATE_ERROR";

/** One flag of a command. */
export interface OptionSpec {
  /** A flag (`boolean`) or a flag with a value (`string`). */
  readonly type: "boolean" | "string";
  /** A one-letter alias. */
  readonly short?: string;
  /** Whether it may be given more than once (its values are collected). */
  readonly multiple?: boolean;
  /** How the help text names its value, such as `<path>`. */
  readonly value?: string;
  /** What it does, for the help text. */
  readonly description: string;
}

/** A command or subcommand, as its help text and its parser see it. */
export interface CommandSpec {
  /** The command after the program's name: `contract check`, `config` (empty for the top level). */
  readonly name: string;
  /** The program's name (default `skillgate`). */
  readonly program?: string;
  /** Each usage line, after `<program> <name> `. */
  readonly usage: readonly string[];
  /** What the command does: a few sentences. */
  readonly description: string;
  /** The word of a usage error (default {@link USAGE_WORD}). */
  readonly usageWord?: string;
  /** The flags (`--help` / `-h` is added to every command). */
  readonly options?: Readonly<Record<string, OptionSpec>>;
  /** The positional arguments, for the help text; without them the command takes none. */
  readonly arguments?: readonly { readonly name: string; readonly description: string }[];
  /** The subcommands of a group, for the help text. */
  readonly subcommands?: readonly { readonly name: string; readonly description: string }[];
  /** More text at the end of the help (exit codes, examples). */
  readonly notes?: string;
}

/** The values and positionals of a parsed command line. */
export class ParsedCommand {
  constructor(
    private readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>,
    /** The positional arguments. */
    readonly positionals: readonly string[],
  ) {}

  /**
   * A flag's value.
   *
   * @param name The flag, without `--`.
   * @returns Whether it was given.
   */
  flag(name: string): boolean {
    return this.values[name] === true;
  }

  /**
   * A string flag's value (the last one when given more than once).
   *
   * @param name The flag, without `--`.
   * @returns The value, or `undefined` when it was not given.
   */
  string(name: string): string | undefined {
    const v = this.values[name];
    if (Array.isArray(v)) return v.at(-1);
    return typeof v === "string" ? v : undefined;
  }

  /**
   * A repeatable string flag's values.
   *
   * @param name The flag, without `--`.
   * @returns The values, in order (empty when it was not given).
   */
  strings(name: string): string[] {
    const v = this.values[name];
    if (Array.isArray(v)) return [...v];
    return typeof v === "string" ? [v] : [];
  }

  /** Whether `--json` was given. */
  get json(): boolean {
    return this.flag("json");
  }
}

/** What {@link parseCommand} gives: the parsed command line, or the exit code it already printed for. */
export type ParseOutcome =
  | { readonly ok: true; readonly args: ParsedCommand }
  | { readonly ok: false; readonly exit: number };

const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", description: "Show this text" };

function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...(spec.options ?? {}), help: HELP_OPTION };
}

function prefix(spec: CommandSpec): string {
  return [spec.program ?? "skillgate", spec.name].filter((s) => s !== "").join(" ");
}

/** The width help text is wrapped to. */
const HELP_WIDTH = 100;

/** Wraps text at word boundaries; every line after the first gets `indent`. */
function wrap(text: string, width: number, indent = ""): string {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    const lead = /^ */.exec(paragraph)![0];
    if (paragraph.length <= width) {
      out.push(paragraph);
      continue;
    }
    let line = lead;
    for (const word of paragraph.slice(lead.length).split(" ")) {
      if (line !== lead && line.length + 1 + word.length > width) {
        out.push(line);
        line = lead + word;
      } else line = line === lead ? lead + word : `${line} ${word}`;
    }
    out.push(line);
  }
  return out.join(`\n${indent}`);
}

/**
 * The help text of a command: its usage lines, what it does, its arguments, subcommands and flags
 * (each with its description), and its notes.
 *
 * @param spec The command.
 * @returns The text.
 */
export function formatHelp(spec: CommandSpec): string {
  const head = prefix(spec);
  const lines = spec.usage.map((u, i) =>
    `${i === 0 ? "Usage: " : "       "}${head} ${u}`.trimEnd()
  );
  lines.push("", wrap(spec.description, HELP_WIDTH));
  const table = (title: string, rows: [string, string][]) => {
    if (rows.length === 0) return;
    const width = Math.min(30, Math.max(...rows.map(([l]) => l.length)));
    const pad = " ".repeat(width + 4);
    lines.push("", `${title}:`);
    for (const [left, right] of rows) {
      const text = wrap(right, HELP_WIDTH - width - 4, pad);
      lines.push(
        left.length > width ? `  ${left}\n${pad}${text}` : `  ${left.padEnd(width)}  ${text}`,
      );
    }
  };
  table("Commands", (spec.subcommands ?? []).map((s) => [s.name, s.description]));
  table("Arguments", (spec.arguments ?? []).map((a) => [a.name, a.description]));
  table(
    "Options",
    Object.entries(optionsOf(spec)).map(([name, o]) => [
      `${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`,
      `${o.description}${o.multiple ? " (repeatable)" : ""}`,
    ]),
  );
  if (spec.notes) lines.push("", wrap(spec.notes, HELP_WIDTH));
  return lines.join("\n");
}

/**
 * The first sentence of a `parseArgs` error, as a message: `Unknown option '--bogus'` (its advice
 * on `--` and anything after the first line are dropped).
 *
 * @param message The parser's message.
 * @returns The message.
 */
export function parserMessage(message: string): string {
  const first = message.split("\n")[0];
  const cut = first.search(/\.\s/);
  return sanitizeLine((cut >= 0 ? first.slice(0, cut) : first).replace(/\.$/, ""), 200);
}

/**
 * Parses a command's arguments. `--help` or `-h` prints the help text (exit 0); a flag the command
 * does not have, a flag without its value, a positional argument where it takes none print one
 * usage error line (exit 2). Never throws.
 *
 * @param spec The command.
 * @param args The arguments after the command's name.
 * @returns The parsed command line, or the exit code.
 *
 * @example
 * ```ts
 * import { parseCommand } from "./args.ts";
 * const spec = {
 *   name: "demo",
 *   usage: ["[--json]"],
 *   description: "A demo",
 *   options: { json: { type: "boolean", description: "Print JSON" } },
 * } as const;
 * const r = parseCommand(spec, ["--json"]);
 * if (r.ok) console.log(r.args.json); // true
 * ```
 */
export function parseCommand(spec: CommandSpec, args: readonly string[]): ParseOutcome {
  const options = Object.fromEntries(
    Object.entries(optionsOf(spec)).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.short ? { short: o.short } : {}),
        ...(o.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: (spec.arguments?.length ?? 0) > 0,
    });
  } catch (err) {
    const message = parserMessage(err instanceof Error ? err.message : String(err));
    const unknown = /^Unknown option '(--?[A-Za-z0-9_-]+)'/.exec(message)?.[1];
    const hint = unknown === undefined
      ? ""
      : didYouMean(unknown, Object.keys(optionsOf(spec)).map((name) => `--${name}`));
    return { ok: false, exit: usageError(spec, message + hint, wantsJson(spec, args)) };
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help === true) {
    console.log(formatHelp(spec));
    return { ok: false, exit: 0 };
  }
  return { ok: true, args: new ParsedCommand(values, parsed.positionals) };
}

/** Whether the command takes `--json` and the arguments ask for it (for a failure's form). */
function wantsJson(spec: CommandSpec, args: readonly string[]): boolean {
  return spec.options?.json !== undefined && args.includes("--json");
}

/**
 * Prints a failure as one stderr line, `<program> <command>: <WORD> <message>`, and, with `json`,
 * as one JSON object on stdout (`{"word","exit","error"}`).
 *
 * @param spec The command.
 * @param exit The exit code.
 * @param word The word (such as `SKILL_CONTRACT_STATE_ERROR`).
 * @param message The message (capitalised, no trailing period).
 * @param json Whether the command was asked for JSON.
 * @returns `exit`.
 */
export function commandError(
  spec: CommandSpec,
  exit: number,
  word: string,
  message: string,
  json = false,
): number {
  const text = sanitizeLine(message, 600);
  console.error(`${prefix(spec)}: ${word} ${text}`);
  if (json) console.log(JSON.stringify({ word, exit, error: text }));
  return exit;
}

/**
 * Prints a usage error (exit 2) with the command's usage word.
 *
 * @param spec The command.
 * @param message The message (capitalised, no trailing period).
 * @param json Whether the command was asked for JSON.
 * @returns {@link USAGE_EXIT}.
 */
export function usageError(spec: CommandSpec, message: string, json = false): number {
  return commandError(spec, USAGE_EXIT, spec.usageWord ?? USAGE_WORD, message, json);
}

/**
 * Runs a group's subcommand (`contract check`, `config list`): `--help`, `-h` or `help` print the
 * group's help; a missing or unknown subcommand is a usage error.
 *
 * @param spec The group.
 * @param subcommands Each subcommand's entry, given the arguments after its name.
 * @param args The arguments after the group's name.
 * @returns The exit code.
 */
export async function runGroup(
  spec: CommandSpec,
  subcommands: Readonly<Record<string, (args: string[]) => Promise<number> | number>>,
  args: readonly string[],
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    console.log(formatHelp(spec));
    return 0;
  }
  if (sub === undefined) {
    return usageError(spec, `Missing subcommand: one of ${Object.keys(subcommands).join(", ")}`);
  }
  if (!Object.hasOwn(subcommands, sub)) {
    return usageError(
      spec,
      `Unknown ${sub.startsWith("-") ? "option" : "subcommand"} '${shownArg(sub)}'${
        didYouMean(sub, Object.keys(subcommands))
      } (one of ${Object.keys(subcommands).join(", ")})`,
    );
  }
  return await subcommands[sub](rest);
}

/**
 * An argument as a message may show it: `[A-Za-z0-9:_.-]` only, at most 40 characters.
 *
 * @param arg The argument as given.
 * @returns The part that is safe to echo.
 */
export function shownArg(arg: string): string {
  return arg.replace(/[^A-Za-z0-9:_.-]/g, "").slice(0, 40);
}

/**
 * Whether an input directory exists, for commands that read one (`--skills-dir`, `--from`).
 *
 * @param path The directory.
 * @returns `undefined` when it is a readable directory, else why not (`No such file or directory`).
 */
export function directoryProblem(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isDirectory) return "Not a directory";
    return undefined;
  } catch (err) {
    return errorCause(err);
  }
}

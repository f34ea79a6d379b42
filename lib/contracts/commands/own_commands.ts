/**
 * Recognition of skillgate's own commands in a command a model wrote: its `contract waive`, say,
 * is never a test or repro run, and the checker finds a waiver by the word that runs skillgate.
 * Every form skillgate prints its command in counts: the `skillgate` executable,
 * `deno run [flags] <path>/cli.ts <command>`, `deno run [flags] jsr:@skillgate/skillgate[/cli]`,
 * and the installed command (config `skillgate_command`, `SKILLGATE_COMMAND`).
 *
 * @module
 */

import { baseName, partWords, removeQuoted, splitCommandParts } from "./shell_words.ts";
import { unwrap } from "./wrappers.ts";

/** The CLI's commands (`cli.ts`): what follows skillgate's own executable or script. */
const SKILLGATE_SUBCOMMANDS = new Set([
  "route",
  "contract",
  "config",
  "setup",
  "doctor",
  "session-kind",
  "hook",
]);

/** `deno run` flags that take their value as the next word. */
const DENO_FLAGS_WITH_VALUE = new Set([
  "-c",
  "--config",
  "--import-map",
  "--cert",
  "--location",
  "--seed",
  "-L",
  "--log-level",
  "--ext",
  "--preload",
]);

const SKILLGATE_EXEC_RE = /^skillgate(?:\.exe|\.cmd)?$/;
const SKILLGATE_JSR_RE = /^jsr:@skillgate\/skillgate(?:@[^/]*)?(?:\/cli)?$/;

/**
 * The words of a command as {@link isSkillgateInvocation} compares them: quoted text kept as one
 * word, split on blanks.
 */
function keptWords(command: string): string[] {
  const parts = splitCommandParts(removeQuoted(command, true));
  return parts.length === 1 ? partWords(parts[0]) : [];
}

/**
 * Whether one command part (its words, wrappers removed) runs skillgate itself, in any form it
 * prints: the `skillgate` executable, `deno run [flags] <path>/cli.ts <command>`,
 * `deno run [flags] jsr:@skillgate/skillgate[/cli]`, or the installed command (config
 * `skillgate_command`, `SKILLGATE_COMMAND`) followed by one of its commands.
 */
function isSkillgateInvocation(tokens: readonly string[], installed: readonly string[]): boolean {
  if (tokens.length === 0) return false;
  if (SKILLGATE_EXEC_RE.test(baseName(tokens[0]))) return true;
  if (
    installed.length > 0 && tokens.length > installed.length &&
    installed.every((w, i) => tokens[i] === w) &&
    SKILLGATE_SUBCOMMANDS.has(tokens[installed.length])
  ) {
    return true;
  }
  if (!/^deno(?:\.exe)?$/.test(baseName(tokens[0])) || tokens[1] !== "run") return false;
  let i = 2;
  while (i < tokens.length && tokens[i].startsWith("-")) {
    i += !tokens[i].includes("=") && DENO_FLAGS_WITH_VALUE.has(tokens[i]) ? 2 : 1;
  }
  const script = tokens[i];
  if (script === undefined) return false;
  if (SKILLGATE_JSR_RE.test(script)) return true;
  return baseName(script) === "cli.ts" && SKILLGATE_SUBCOMMANDS.has(tokens[i + 1] ?? "");
}

/**
 * Which parts of a command run skillgate itself ({@link isSkillgateInvocation}), by index into
 * `splitCommandParts(stripQuoted(command))`; empty when the two splits disagree.
 *
 * @param text The command.
 * @param partCount How many parts `splitCommandParts(stripQuoted(text))` gave.
 * @param installed The installed skillgate command, also recognised.
 * @returns One flag per part: true when that part runs skillgate.
 */
export function skillgateParts(
  text: string,
  partCount: number,
  installed: string | undefined,
): boolean[] {
  const kept = splitCommandParts(removeQuoted(text, true));
  if (kept.length !== partCount) return [];
  const prefix = installed === undefined ? [] : unwrap(keptWords(installed));
  return kept.map((part) => isSkillgateInvocation(unwrap(partWords(part)), prefix));
}

/** The word before `contract waive` of a waive call: skillgate, a path ending in it, or `cli.ts`. */
const WAIVE_EXEC_RE = /(?:^|[\\/])skillgate(?:\.exe|\.cmd|\.ts|\.js)?$|(?:^|[\\/])cli\.ts$/;

/** The last path segment of a word (separated by `/` or `\`). */
function lastSegment(word: string): string {
  return word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
}

/**
 * Whether a word (the one before `contract waive`, quotes removed) runs skillgate: `skillgate`
 * (with `.exe`, `.cmd`, `.ts` or `.js`), a path ending in it or in `cli.ts`, or a word whose last
 * path segment is that of the installed command's last word.
 *
 * @param word The word.
 * @param installed The installed skillgate command.
 * @returns True when it names skillgate.
 */
export function isSkillgateExecutable(word: string, installed?: string): boolean {
  if (WAIVE_EXEC_RE.test(word)) return true;
  const installedExec = installed?.trim().split(/\s+/).pop();
  return installedExec !== undefined && lastSegment(word) === lastSegment(installedExec);
}

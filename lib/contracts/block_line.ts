/**
 * The block line: the exact text the Stop hook blocks with (and `contract check` prints first
 * when unmet), naming each missing item's fix and the `skillgate contract waive` escape.
 *
 * @module
 */

import { sanitizeName } from "../base/sanitize.ts";
import { blockLimit, type CheckResult } from "./check.ts";
import { EXIT_CODES, EXIT_WORDS } from "./exit_codes.ts";

/**
 * What every block line starts with: the seed's word for an unmet contract and a space. Routing
 * knows the line by it when a host sends the line back as a prompt.
 */
export const BLOCK_LINE_MARK: string = `${EXIT_WORDS[EXIT_CODES.UNMET]} `;

/** Options of {@link renderBlockLine}. */
export interface RenderOptions {
  /**
   * The command that runs skillgate on this machine (`skillgateCommand()`, `lib/host/places.ts`),
   * default `skillgate`. A single word is single-quoted as the seed shows its path; a command of
   * several words (`deno run … /abs/cli.ts`) is taken as already shell-ready.
   */
  command?: string;
  /** Which block of the run this is (default 1); said only when a held item may block again. */
  block?: number;
}

/**
 * The exact line the Stop hook blocks with (and `check` prints first when unmet):
 * `SKILL_CONTRACT_UNMET <skill> (contract v1): missing <ids>. Fix: <id>: <fix>; …. If an item truly
 * does not apply, run '<skillgate>' contract waive <item> --reason "<why>" (this session only;
 * counted as a miss for follow). This blocks once.` (with a held item: `This blocks up to N times
 * (block k of N).`)
 *
 * @param result An unmet check result.
 * @param options The installed skillgate command.
 * @returns The one-line block text.
 */
export function renderBlockLine(result: CheckResult, options?: RenderOptions): string {
  const missing = result.items.filter((i) => i.status === "missing");
  const skill = sanitizeName(result.skill, 64);
  const fixes = missing.map((i) => `${i.id}: ${i.fix}`).join("; ");
  return `${BLOCK_LINE_MARK}${skill} (contract v${result.version}): missing ${
    missing.map((i) => i.id).join(", ")
  }. Fix: ${fixes}. If an item truly does not apply, run ${
    waiveCommandPrefix(options?.command)
  } waive <item> --reason "<why>" (this session only; counted as a miss for follow). ${
    blocksText(blockLimit(result), options?.block ?? 1)
  }`;
}

/** How often the stop may still be blocked, as the block line ends. */
function blocksText(limit: number, block: number): string {
  if (limit <= 1) return "This blocks once.";
  return `This blocks up to ${limit} times (block ${Math.min(block, limit)} of ${limit}).`;
}

/**
 * The shell prefix that runs `skillgate contract`: a one-word command single-quoted as the seed
 * shows it (`'skillgate' contract`), a command of several words as given.
 *
 * @param command The command that runs skillgate (default `skillgate`).
 * @returns For example `'skillgate' contract`.
 */
export function waiveCommandPrefix(command?: string): string {
  const cmd = (command ?? "").trim() === "" ? "skillgate" : command!.trim();
  const head = /\s/.test(cmd) ? cmd : `'${cmd.replace(/'/g, `'\\''`)}'`;
  return `${head} contract`;
}

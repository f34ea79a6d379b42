/**
 * `skillgate contract waive <item> --reason "<why>" [--skill <name>] [--json]`: the command line
 * of {@link waiveItem} (lib/contracts/waive.ts), which checks the item against the installed
 * contracts. The acknowledgement goes to stdout (the checker reads it in the transcript); a
 * problem is one line on stderr.
 *
 * @module
 */

import { EXIT_WORDS } from "../contracts/exit_codes.ts";
import { CONTRACT_EXIT_NOTES } from "./contract_exits.ts";
import { waiveItem, type WaiveSkill } from "../contracts/waive.ts";
import { commandError, type CommandSpec, parseCommand, usageError } from "./args.ts";

/** `skillgate contract waive`. */
export const CONTRACT_WAIVE_SPEC: CommandSpec = {
  name: "contract waive",
  usageWord: "SKILL_CONTRACT_USAGE",
  usage: ['<item> --reason "<why>" [--skill <name>] [--json]'],
  description: "The escape for a contract item that truly does not apply (a docs-only change has " +
    "nothing to test). It is stateless: it checks the item against the installed contracts and " +
    "prints an acknowledgement, which the Stop hook finds in this session's transcript. A waived " +
    "item still counts as a miss for follow-up.",
  arguments: [{ name: "<item>", description: "The item id, as the block line names it" }],
  options: {
    reason: {
      type: "string",
      value: '"<why>"',
      description: "Why the item does not apply (required)",
    },
    skill: {
      type: "string",
      value: "<name>",
      description: "The skill whose item it is (default: any installed contract that has it)",
    },
    json: { type: "boolean", description: "Print one JSON object instead of text" },
  },
  notes: CONTRACT_EXIT_NOTES,
};

/**
 * Runs `skillgate contract waive`.
 *
 * @param args The arguments after `waive`.
 * @param skills The installed skills (default: the catalog; tests replace it).
 * @returns The exit code.
 */
export async function main(
  args: string[],
  skills?: () => Promise<WaiveSkill[]>,
): Promise<number> {
  const spec = CONTRACT_WAIVE_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const a = parsed.args;
  if (a.positionals.length > 1) {
    return usageError(
      spec,
      "Too many arguments: waive takes one item id; quote the reason",
      a.json,
    );
  }
  const r = await waiveItem(
    { item: a.positionals[0], reason: a.string("reason"), skill: a.string("skill") },
    skills,
  );
  if (r.exit !== 0) return commandError(spec, r.exit, EXIT_WORDS[r.exit], r.message, a.json);
  if (a.json) {
    console.log(
      JSON.stringify({ word: EXIT_WORDS[0], exit: 0, message: r.message, ...r.waived }),
    );
  } else console.log(r.message);
  return 0;
}

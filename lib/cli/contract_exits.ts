/**
 * The exit codes and words of `skillgate contract`, as every contract subcommand's help states
 * them (the codes and words themselves are `lib/contracts/exit_codes.ts`).
 *
 * @module
 */

/** The help text's exit-code table of every `contract` subcommand. */
export const CONTRACT_EXIT_NOTES: string = `Exit codes:
  0 SKILL_CONTRACT_MET            check: every item met or waived; report, waive, lint: done
  1 SKILL_CONTRACT_UNMET          an item is missing (the first line is the Stop hook's block line)
  2 SKILL_CONTRACT_USAGE          a missing or malformed argument
  3 SKILL_CONTRACT_STATE_ERROR    a file could not be read or written
  4 SKILL_CONTRACT_UNKNOWN_SHAPE  not a Claude Code transcript this checker understands
  5 SKILL_CONTRACT_NO_CONTRACT    no such skill, no contract, or an invalid contract block
  6 SKILL_CONTRACT_NOT_LOADED     the transcript never loads the skill`;

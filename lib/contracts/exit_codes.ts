/**
 * The stable exit codes of `skillgate contract` and the word printed with each
 * (`SKILL_CONTRACT_MET` … `SKILL_CONTRACT_NOT_LOADED`); the Stop hook's block line starts with the
 * word of {@link EXIT_CODES.UNMET}.
 *
 * @module
 */

/** Stable exit codes of `skillgate contract`. */
export const EXIT_CODES: {
  readonly MET: 0;
  readonly UNMET: 1;
  readonly USAGE: 2;
  readonly STATE_ERROR: 3;
  readonly UNKNOWN_SHAPE: 4;
  readonly NO_CONTRACT: 5;
  readonly NOT_LOADED: 6;
} = {
  MET: 0,
  UNMET: 1,
  USAGE: 2,
  STATE_ERROR: 3,
  UNKNOWN_SHAPE: 4,
  NO_CONTRACT: 5,
  NOT_LOADED: 6,
};

/** The word printed with each exit code (index = exit code). */
export const EXIT_WORDS: readonly string[] = [
  "SKILL_CONTRACT_MET",
  "SKILL_CONTRACT_UNMET",
  "SKILL_CONTRACT_USAGE",
  "SKILL_CONTRACT_STATE_ERROR",
  "SKILL_CONTRACT_UNKNOWN_SHAPE",
  "SKILL_CONTRACT_NO_CONTRACT",
  "SKILL_CONTRACT_NOT_LOADED",
];

/**
 * The contract state error: the one stderr line of a Stop hook that cannot read or write what it
 * needs (`skillgate: SKILL_CONTRACT_STATE_ERROR <path>: <cause>; stop allowed, miss not recorded
 * (see README#state-error)`), and the cause text of a failed file operation, shared by the hook,
 * `contract check` and `contract report`.
 *
 * @module
 */

export { errorCause } from "../base/errors.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { EXIT_CODES, EXIT_WORDS } from "./exit_codes.ts";

/** The stderr code of every contract state problem. */
export const STATE_ERROR_CODE: string = EXIT_WORDS[EXIT_CODES.STATE_ERROR];

/** The README anchor the state-error line points at. */
export const STATE_ERROR_ANCHOR = "README#state-error";

/**
 * The detail of a state problem: `<path>: <cause>`, each on one line and bounded.
 *
 * @param path The file or directory that failed.
 * @param cause What failed.
 * @returns The detail.
 */
export function stateErrorDetail(path: string, cause: string): string {
  return `${sanitizeLine(path, 500)}: ${sanitizeLine(cause, 300)}`;
}

/**
 * The one stderr line of a state problem.
 *
 * @param path The file or directory that failed.
 * @param cause What failed.
 * @returns `skillgate: SKILL_CONTRACT_STATE_ERROR <path>: <cause>; stop allowed, miss not recorded (see README#state-error)`.
 */
export function stateErrorLine(path: string, cause: string): string {
  return stateLine(stateErrorDetail(path, cause));
}

function stateLine(detail: string): string {
  return `skillgate: ${STATE_ERROR_CODE} ${detail}; stop allowed, miss not recorded (see ${STATE_ERROR_ANCHOR})`;
}

/**
 * The stderr line of a Stop hook failure: state problems (and the deadline, an unreadable config,
 * an unexpected error) as {@link stateErrorLine}; a missing permission or a bad payload as
 * `skillgate: <code> <detail>`.
 *
 * @param failure The failure's code and detail (a `HookFailure`).
 * @param workingPath What the hook was working on when the failure came (the deadline or an
 *   unexpected error names it; `<state root>` when unknown).
 * @returns The line.
 */
export function formatContractFailure(
  failure: { readonly code: string; readonly detail: string },
  workingPath?: string,
): string {
  // `STATE`: the runner refused the hook's log (a symbolic link).
  if (failure.code === STATE_ERROR_CODE || failure.code === "STATE") {
    return stateLine(failure.detail);
  }
  if (failure.code === "CONFIG_UNREADABLE") {
    return stateLine(failure.detail.replace(/; hook off$/, ""));
  }
  if (failure.code === "DEADLINE" || failure.code === "ERROR") {
    return stateErrorLine(workingPath ?? "<state root>", failure.detail);
  }
  return `skillgate: ${failure.code} ${failure.detail}`;
}

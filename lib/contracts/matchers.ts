/**
 * The one table of the contract checker's default marker strings ({@link DEFAULT_MATCHERS}) and
 * the compilation of a selection marker ({@link compileMarker}). A skill's own `marker`,
 * `empty_marker` or `match` overrides a default.
 *
 * @module
 */

/**
 * Every default marker string of the checker. A skill's own `marker`, `empty_marker` or `match`
 * overrides the matching entry.
 */
export const DEFAULT_MATCHERS: {
  /** Selection line of `selected_specialists_dispatched`; a whole-word `N` stands for a number. */
  readonly specialistsMarker: string;
  /** A line containing this (case-insensitive) means no specialist was selected. */
  readonly specialistsEmptyMarker: string;
  /** Early end of a run: a final STATUS of this value (`STATUS: BLOCKED`, `Status: BLOCKED`). */
  readonly blockedStatus: string;
  /** Early end of a run: a final-message line starting with this (review's early exit). */
  readonly nothingToReview: string;
  /** The STATUS words a final message may carry. */
  readonly statusWords: readonly string[];
  /** A final STATUS with this value means the model is waiting on the user. */
  readonly needsContextStatus: string;
  /** Placeholder values a `report_labels` label may not have (whole value, case-insensitive). */
  readonly placeholderWords: readonly string[];
  /** Opening tag of a background agent's completion notice. */
  readonly taskNotificationTag: string;
  /** Text of the `isMeta` record that carries a loaded skill's body. */
  readonly baseDirectoryPrefix: string;
} = {
  specialistsMarker: "Dispatching N specialists:",
  specialistsEmptyMarker: "specialists skipped",
  blockedStatus: "BLOCKED",
  nothingToReview: "Nothing to review",
  statusWords: ["DONE_WITH_CONCERNS", "DONE", "BLOCKED", "NEEDS_CONTEXT"],
  needsContextStatus: "NEEDS_CONTEXT",
  placeholderWords: ["TBD", "TODO", "...", "…"],
  taskNotificationTag: "<task-notification>",
  baseDirectoryPrefix: "Base directory for this skill:",
};

/**
 * Compiles a selection marker into a regular expression: the text is literal except that a
 * whole-word `N` becomes a captured number.
 *
 * @param marker The marker, for example `Dispatching N specialists:`.
 * @returns A regular expression whose group 1 (when the marker has an `N`) is the count.
 */
export function compileMarker(marker: string): RegExp {
  const parts = marker.split(/\bN\b/);
  const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(escaped.join("(\\d+)"));
}

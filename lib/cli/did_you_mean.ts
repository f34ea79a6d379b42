/**
 * "Did you mean" for a mistyped command, subcommand or flag: the closest known name by edit
 * distance, when it is close enough to be a typo.
 *
 * The distance is computed here, not by an npm package such as `fastest-levenshtein`: the flag
 * parser that needs it is synchronous, so the package would be a static import of every command,
 * and an npm import costs each `skillgate` start about 0.15 s (Deno's npm resolution; measured:
 * 0.54 against 0.38 s median for a one-line script, 6 runs each). The names compared are a few
 * dozen characters, where the textbook algorithm is instant.
 *
 * @module
 */

/** The Levenshtein distance of two short strings (insertions, deletions, substitutions). */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * The known name a mistyped one most likely meant: the one at the smallest edit distance, if that
 * distance is at most a third of the longer name (at least 1), or a name the typed one is a
 * prefix of.
 *
 * @param typed What was typed (`doctr`, `--jsn`).
 * @param known The names it could have meant, written as typed (`doctor`, `--json`).
 * @returns The name, or `undefined` when none is close.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(typed.length, best.length) / 3));
  if (bestDistance <= limit) return best;
  const prefixed = known.filter((n) => typed.length >= 3 && n.startsWith(typed));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * The "did you mean" part of an error message.
 *
 * @param typed What was typed.
 * @param known The names it could have meant.
 * @returns `; did you mean 'doctor'?`, or an empty string.
 */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = closestName(typed, known);
  return name === undefined ? "" : `; did you mean '${name}'?`;
}

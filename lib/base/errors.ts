/**
 * The one short wording of an error for a message line: the OS error's words for the common file
 * errors, else the first line of the message, bounded.
 *
 * @module
 */

/**
 * The cause of a failed file operation, in a few words: the OS's words for the common errors,
 * else the first line of the message (at most 200 characters).
 *
 * @param e What was thrown.
 * @returns For example `No such file or directory`.
 */
export function errorCause(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "No such file or directory";
  if (e instanceof Deno.errors.PermissionDenied) return "Permission denied";
  if (e instanceof Deno.errors.NotADirectory) return "Not a directory";
  if (e instanceof Deno.errors.IsADirectory) return "Is a directory";
  if (e instanceof Deno.errors.AlreadyExists) return "Already exists";
  if (e instanceof Error) return e.message.split("\n")[0].slice(0, 200);
  return String(e).slice(0, 200);
}

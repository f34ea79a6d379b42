/**
 * Sanitisers for text that came from disk or stdin and is about to be echoed.
 *
 * A name from a SKILL.md, an agent file or a hook payload is data: it is reduced to a safe
 * alphabet before it appears in any answer, log line or terminal output.
 *
 * @module
 */

/** The characters a sanitised name keeps. */
const NAME_UNSAFE = /[^A-Za-z0-9:_-]/g;

/**
 * Reduces a name to `[A-Za-z0-9:_-]`, bounded in length.
 *
 * @param name The untrusted name.
 * @param max The longest result kept (default 64).
 * @returns The sanitised name; an empty string when nothing safe is left.
 */
export function sanitizeName(name: string, max = 64): string {
  return String(name).replace(NAME_UNSAFE, "").slice(0, max);
}

/** Control characters, including ANSI escape introducers, and whitespace that breaks a log line. */
// deno-lint-ignore no-control-regex
const LOG_UNSAFE = /[\s\u0000-\u0020\u007f-\u009f"=\\]/g;

/**
 * Makes a value safe for one `key=value` field of a log line: no whitespace, control characters,
 * quotes, `=` or backslashes, at most 200 characters.
 *
 * @param value The value to write.
 * @returns The value with unsafe characters replaced by `_`.
 */
export function sanitizeLogValue(value: string | number | boolean): string {
  return String(value).replace(LOG_UNSAFE, "_").slice(0, 200);
}

/**
 * Makes free text safe to print on one terminal line: control characters and line breaks become
 * spaces, and the text is bounded.
 *
 * @param text The text to print.
 * @param max The longest result kept (default 300).
 * @returns The text on one line.
 */
export function sanitizeLine(text: string, max = 300): string {
  // deno-lint-ignore no-control-regex
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").slice(0, max);
}

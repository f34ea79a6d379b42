/**
 * Sanitisers for text that came from disk or stdin and is about to be echoed.
 *
 * A name from a SKILL.md, an agent file or a hook payload is data: it is reduced to a safe
 * alphabet before it appears in any answer, log line or terminal output ({@link sanitizeName}),
 * or echoed exactly only when every character is printable and cannot break a message
 * ({@link exactName}). A text from disk (a contract's fix, heading, summary or marker, a skill's
 * description) loses its control characters and terminal escape sequences ({@link sanitizeText})
 * before it reaches the model, a log or the terminal; {@link sanitizeLine} is the same on one line.
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

/** The characters of a name echoed as it is: letters, digits, space, `.`, `_`, `:`, `@`, `/`, `-`. */
const EXACT_NAME = /^[\p{L}\p{N}._:@/-](?:[\p{L}\p{N} ._:@/-]{0,126}[\p{L}\p{N}._:@/-])?$/u;

/**
 * A name as it is, when it is 1 to 128 printable characters that cannot break a message (letters,
 * digits, space, `.`, `_`, `:`, `@`, `/`, `-`; no space at either end): an agent named
 * `dotnet-framework-4.8-expert` or `Python Security Expert` is named exactly as the host knows it.
 *
 * @param name The untrusted name.
 * @returns The name, or `undefined` when it holds any other character (say "that agent" instead).
 */
export function exactName(name: unknown): string | undefined {
  return typeof name === "string" && EXACT_NAME.test(name) ? name : undefined;
}

/** Terminal escape sequences (CSI, OSC, and any other ESC pair), removed whole. */
const ESCAPES =
  // deno-lint-ignore no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[\s\S]?|\u009b[0-?]*[ -/]*[@-~]?/g;

/** Control characters but tab and line feed, DEL, C1 controls, and the Unicode line separators. */
// deno-lint-ignore no-control-regex
const TEXT_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * The one sanitiser of texts from disk or stdin: terminal escape sequences are removed whole and
 * every other control character (but tab and line feed) is removed, so the text can change no
 * terminal and hide nothing from its reader.
 *
 * @param text The untrusted text.
 * @param max The longest result kept (default: no bound).
 * @returns The text without control characters.
 */
export function sanitizeText(text: string, max = Infinity): string {
  const out = String(text).replace(ESCAPES, "").replace(TEXT_UNSAFE, "");
  return out.length > max ? out.slice(0, max) : out;
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
 * Makes free text safe to print on one terminal line: {@link sanitizeText}, with tabs and line
 * breaks as spaces, bounded.
 *
 * @param text The text to print.
 * @param max The longest result kept (default 300).
 * @returns The text on one line.
 */
export function sanitizeLine(text: string, max = 300): string {
  return sanitizeText(String(text).replace(/[\t\n\r\u2028\u2029]/g, " "), max);
}

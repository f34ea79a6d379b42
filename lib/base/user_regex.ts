/**
 * Regular expressions that users write (`skill-rules.json` intent patterns, a contract's `match`),
 * matched by RE2 (`npm:re2js`) in time linear in the text: no pattern, however written, can
 * backtrack without bound, so no project file can stall a hook. JavaScript's own `RegExp`
 * backtracks, and the hook's deadline cannot fire while a match runs (matching is synchronous).
 *
 * Patterns use RE2 syntax: the usual JavaScript syntax minus lookaround and back-references
 * (`(?=`, `(?!`, `(?<=`, `(?<!`, `\1`, `\k<name>`), which cannot be matched in linear time; such a
 * pattern is reported as invalid. Repeat counts go up to 1,000.
 *
 * The engine (about 150 KB of code) is imported lazily, on the first pattern to compile: a hook
 * run with no user pattern never evaluates it.
 *
 * Linear is not free: the work of a match is the text length times the size of the pattern's
 * compiled program, and compiling costs about the program's size too. So one pattern may compile to
 * at most {@link MAX_REGEX_PROGRAM} instructions, and a caller compiling many patterns passes a
 * {@link RegexBudget} that bounds the instructions of all of them.
 *
 * @module
 */

/** The most RE2 program instructions one user pattern may compile to. */
export const MAX_REGEX_PROGRAM = 2000;

/** A compiled user pattern. */
export interface UserRegex {
  /** The pattern as written. */
  readonly source: string;
  /** The engine that matches it: always the linear-time RE2 port. */
  readonly engine: "re2js";
  /** Whether it ignores case. */
  readonly ignoreCase: boolean;
  /** The size of its compiled program, in instructions (the work per character of text). */
  readonly size: number;
  /**
   * Whether the pattern matches anywhere in the text (unanchored, like `RegExp.prototype.test`).
   *
   * @param text The text.
   * @returns True on a match.
   */
  test(text: string): boolean;
}

/** How the instructions of many patterns are bounded: `left` goes down by each program's size. */
export interface RegexBudget {
  /** Instructions left; a pattern met when none are left is not compiled. */
  left: number;
}

/** Options of {@link UserRegexEngine.compile}. */
export interface UserRegexOptions {
  /** Match regardless of case (RE2's Unicode case folding). */
  readonly ignoreCase?: boolean;
  /** The budget to charge; a pattern is skipped when it is spent. */
  readonly budget?: RegexBudget;
}

/** Why a pattern was not compiled: a sentence fragment that never repeats the pattern. */
export interface UserRegexError {
  /** What is wrong, for example `not a valid RE2 regular expression (missing closing ))`. */
  readonly error: string;
}

/** The loaded engine. */
export interface UserRegexEngine {
  /**
   * Compiles one pattern. Never throws.
   *
   * @param source The pattern as written (RE2 syntax).
   * @param options Case and budget.
   * @returns The compiled pattern, or why it was not compiled.
   */
  compile(source: string, options?: UserRegexOptions): UserRegex | UserRegexError;
}

interface Re2Pattern {
  programSize(): number;
  test(input: string): boolean;
}

interface Re2Module {
  RE2JS: {
    CASE_INSENSITIVE: number;
    compile(regex: string, flags?: number): Re2Pattern;
  };
}

/** RE2's messages for patterns it refuses; these two cover lookaround and back-references. */
const UNSUPPORTED = new Set(["invalid or unsupported Perl syntax", "invalid escape sequence"]);

let loading: Promise<UserRegexEngine> | undefined;

/**
 * The engine, imported on first use (once per process).
 *
 * @returns The engine.
 * @throws {Error} When the module cannot be loaded (the promise rejects).
 */
export function loadUserRegexEngine(): Promise<UserRegexEngine> {
  // re2js bundled by `deno task gen` (tools/gen.ts ENGINES): nothing is fetched at first use.
  loading ??= import("./vendor/re2js.js").then((m) => makeEngine(m as unknown as Re2Module));
  return loading;
}

/**
 * Whether a value is a {@link UserRegexError}.
 *
 * @param v A result of {@link UserRegexEngine.compile}.
 * @returns True when it is an error.
 */
export function isRegexError(v: UserRegex | UserRegexError): v is UserRegexError {
  return "error" in v;
}

function syntaxProblem(e: unknown): string {
  const code = e && typeof e === "object" && typeof (e as { error?: unknown }).error === "string"
    ? (e as { error: string }).error
    : undefined;
  if (code === undefined) return "not a valid RE2 regular expression";
  const hint = UNSUPPORTED.has(code)
    ? "; lookaround and back-references are not supported, they cannot run in linear time"
    : "";
  return `not a valid RE2 regular expression (${code}${hint})`;
}

function makeEngine(m: Re2Module): UserRegexEngine {
  const { RE2JS } = m;
  return {
    compile(source, options = {}) {
      const { budget } = options;
      if (budget && budget.left <= 0) {
        return { error: "over the instruction budget of all patterns (too many patterns)" };
      }
      const ignoreCase = options.ignoreCase === true;
      let re: Re2Pattern;
      try {
        re = RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
      } catch (e) {
        return { error: syntaxProblem(e) };
      }
      const size = re.programSize();
      if (budget) budget.left -= size;
      if (size > MAX_REGEX_PROGRAM) {
        return {
          error: `too complex (${size} RE2 instructions, at most ${MAX_REGEX_PROGRAM})`,
        };
      }
      return {
        source,
        engine: "re2js",
        ignoreCase,
        size,
        test: (text: string) => re.test(text),
      };
    },
  };
}

/**
 * Whether this process has loaded the engine (for the test that a hook run without user patterns
 * never does).
 *
 * @returns True once {@link loadUserRegexEngine} was called.
 */
export function isUserRegexEngineLoaded(): boolean {
  return loading !== undefined;
}

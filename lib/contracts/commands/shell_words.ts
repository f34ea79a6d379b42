/**
 * Lenient shell parsing of commands a model wrote (a Bash tool call's `command`): never throws,
 * never refuses, and reads any text as some list of parts and words.
 *
 * Two readings, for two jobs:
 *
 * - classification ({@link stripQuoted} or {@link removeQuoted}, then {@link splitCommandParts},
 *   then {@link partWords}): quoted text is hidden first, so `echo "npm test"` is an `echo`, and
 *   the command splits into parts on the shell's list and pipe operators;
 * - arguments ({@link shellWords}): quoted text is kept (without its quotes) as the word it is, so
 *   `--reason "docs only"` reads `docs only`; operators are words of their own.
 *
 * The strict splitter of `lib/install/hook_commands.ts` (`shellSplit`) is a different job: it
 * recognises skillgate's own hook command lines in a host's settings and refuses any line that is
 * not a simple command.
 *
 * @module
 */

/**
 * Removes quoted text (single, double, `$'…'`) and heredoc bodies; a quoted URL becomes `__URL__`,
 * other quoted text `__Q__`. Backslash escapes outside quotes are kept as written.
 *
 * @param command A shell command.
 * @returns The command without quoted text.
 */
export function stripQuoted(command: string): string {
  return removeQuoted(command, false);
}

/**
 * {@link stripQuoted}, or with `keepWords` each quoted text other than a URL kept as one word: its
 * characters outside `[A-Za-z0-9_./:@+=,~%-]` become `_`, so `'/my dir/cli.ts'` reads
 * `/my_dir/cli.ts`. A kept word holds no blank or shell operator, so both forms split into the
 * same parts.
 *
 * @param command A shell command.
 * @param keepWords Whether quoted text stays as one word.
 * @returns The command without quoted text (or with it reduced to plain words).
 */
export function removeQuoted(command: string, keepWords: boolean): string {
  let s = dropHeredocs(command);
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\" && i + 1 < s.length) {
      out += s[i + 1] === "\n" ? " " : "_";
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let inner = "";
      while (j < s.length && s[j] !== c) {
        if (c === '"' && s[j] === "\\" && j + 1 < s.length) {
          inner += s[j + 1];
          j += 2;
          continue;
        }
        inner += s[j];
        j++;
      }
      out += /^\s*https?:\/\//i.test(inner)
        ? "__URL__"
        : keepWords && inner !== ""
        ? inner.replace(/[^A-Za-z0-9_.\/:@+=,~%-]/g, "_")
        : "__Q__";
      i = j + 1;
      continue;
    }
    out += c;
    i++;
  }
  s = out;
  return s;
}

/**
 * Removes heredoc bodies (`<<EOF … EOF`, `<<-'EOF' … EOF`), keeping each heredoc's first line.
 *
 * @param command A shell command.
 * @returns The command without its heredoc bodies.
 */
export function dropHeredocs(command: string): string {
  return command.replace(
    /<<-?[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$)/g,
    (m) => m.slice(0, m.indexOf("\n")),
  );
}

/** One part of a command and the operator that follows it (`""` after the last). */
export interface CommandPart {
  /** The part, trimmed. */
  readonly part: string;
  /** `&&`, `||`, `;`, `|`, `&` or `""`; a newline reads as `;`, `|&` as `|`. */
  readonly then: string;
}

/**
 * {@link splitCommandParts}, with the operator that follows each part.
 *
 * @param command A shell command without quoted text.
 * @returns The non-empty parts, trimmed, each with its operator.
 */
export function splitCommandPartsWithOps(command: string): CommandPart[] {
  const s = command
    .replace(/(^|\s)#[^\n]*/g, "$1")
    .replace(/\d*[<>]&\d*-?/g, " ")
    .replace(/&>>?/g, " >")
    .replace(/\$\(|`/g, " ; ")
    .replace(/[()]/g, " ; ");
  const out: { part: string; then: string }[] = [];
  const re = /&&|\|\||\|&|[;|&\n]/g;
  let at = 0;
  for (let m = re.exec(s);; m = re.exec(s)) {
    const part = s.slice(at, m ? m.index : s.length).trim();
    const op = m ? (m[0] === "\n" ? ";" : m[0] === "|&" ? "|" : m[0]) : "";
    // An empty part (`a &&\n b`) keeps the operator its previous part already has.
    if (part !== "") out.push({ part, then: op });
    if (!m) break;
    at = m.index + m[0].length;
  }
  return out;
}

/**
 * Splits a command (quoted text already removed) into parts on `&&`, `||`, `;`, `|`, `&` and
 * newlines; shell comments and redirections are dropped.
 *
 * @param command A shell command without quoted text.
 * @returns The non-empty parts, trimmed.
 */
export function splitCommandParts(command: string): string[] {
  return splitCommandPartsWithOps(command).map((p) => p.part);
}

/**
 * The words of one part (from {@link splitCommandParts}): split on blanks, with redirections
 * (and their targets) and the shell's `{ } then do else` dropped.
 *
 * @param part One command part.
 * @returns Its words.
 */
export function partWords(part: string): string[] {
  const raw = part.split(/\s+/).filter((t) => t !== "");
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    if (/^\d*(?:>>?|<<?<?)$/.test(t)) {
      i++; // the redirection's target
      continue;
    }
    if (/^\d*(?:>>?|<)\S/.test(t)) continue;
    if (t === "{" || t === "}" || t === "then" || t === "do" || t === "else") continue;
    out.push(t);
  }
  return out;
}

/**
 * The last path segment of a word (`/usr/bin/pytest` → `pytest`).
 *
 * @param token A word.
 * @returns The text after its last `/`.
 */
export function baseName(token: string): string {
  const i = token.lastIndexOf("/");
  return i >= 0 ? token.slice(i + 1) : token;
}

/**
 * Whether a word is a variable assignment (`FOO=1`).
 *
 * @param t A word.
 * @returns True for `NAME=…`.
 */
export function isAssignment(t: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(t);
}

/**
 * Shell-like word split of a command that keeps what it quotes: quotes grouped and removed (an
 * unclosed quote runs to the end), a backslash quotes the next character, and each `;`, `&` and
 * `|` is a word of its own.
 *
 * @param command A shell command.
 * @returns Its words and operators.
 */
export function shellWords(command: string): string[] {
  const out: string[] = [];
  let cur = "";
  let has = false;
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end < 0 ? command.length : end;
      cur += command.slice(i + 1, stop);
      has = true;
      i = stop + 1;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      cur += command[i + 1];
      has = true;
      i += 2;
      continue;
    }
    if (/[\s;&|]/.test(c)) {
      if (has) out.push(cur);
      if (/[;&|]/.test(c)) out.push(c);
      cur = "";
      has = false;
      i++;
      continue;
    }
    cur += c;
    has = true;
    i++;
  }
  if (has) out.push(cur);
  return out;
}

/**
 * The files a shell command writes, where the command says so plainly enough to be sure: an
 * output redirect (`>`, `>>`, `>|`, `&>`, `2>`…) or `tee` to a literal path. Heredoc bodies are
 * not read as commands, and quoted text is a word, never an operator (`echo "a > b"` writes
 * nothing).
 *
 * Not read (the path is not known from the command's text): a target with a variable, a command
 * substitution, a glob or a leading `~`; `/dev/…`; a relative target after a `cd` or `pushd` in
 * the same command (the directory changed); files written by `cp`, `mv`, `sed -i`, `dd`, an
 * editor or a script.
 *
 * @module
 */

import { dropHeredocs } from "./shell_words.ts";

interface Token {
  /** The word without its quotes, or the operator. */
  text: string;
  /**
   * `word`, a command separator `sep`, an output redirect `out`, an input redirect `in` (both
   * followed by their target), a descriptor copy `dup` (`2>&1`, no target).
   */
  type: "word" | "sep" | "out" | "in" | "dup";
  /** A word with an unquoted `$`, backtick, glob character, or a leading `~`. */
  dynamic: boolean;
}

/** Splits a command into words and operators (quotes removed from words). */
function tokens(command: string): Token[] {
  const out: Token[] = [];
  let cur = "";
  let has = false;
  let dynamic = false;
  const flush = () => {
    if (has) out.push({ text: cur, type: "word", dynamic });
    cur = "";
    has = false;
    dynamic = false;
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end < 0 ? command.length : end;
      const inner = command.slice(i + 1, stop);
      if (c === '"' && /[$`]/.test(inner)) dynamic = true;
      cur += inner;
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
    if (/\s/.test(c) && c !== "\n") {
      flush();
      i++;
      continue;
    }
    const op =
      /^(?:&>>|&>|\d*>>|\d*>\||\d*>&\d*-?|\d*>|\d*<<<|\d*<<-?|\d*<&\d*-?|\d*<>|\d*<|&&|\|\||\|&|[;&|\n()])/
        .exec(command.slice(i, i + 6));
    // A digit run only starts a redirect when it begins a word (`2>x`, not `a2>x`).
    if (op && !(has && /^\d/.test(op[0]))) {
      flush();
      const t = op[0];
      const type = /^\d*[<>]&/.test(t)
        ? "dup"
        : /^\d*</.test(t)
        ? "in"
        : />/.test(t)
        ? "out"
        : "sep";
      out.push({ text: t, type, dynamic: false });
      i += t.length;
      continue;
    }
    if (/[$`*?[{]/.test(c) || (c === "~" && !has)) dynamic = true;
    cur += c;
    has = true;
    i++;
  }
  flush();
  return out;
}

/**
 * The literal paths a shell command writes through redirects and `tee` (see the module doc), in
 * the order written. Never throws.
 *
 * @param command The shell command as the model wrote it.
 * @returns The paths as written (relative to the shell's directory, or absolute).
 */
export function shellWrittenPaths(command: string): string[] {
  try {
    if (typeof command !== "string" || command === "") return [];
    const list = tokens(dropHeredocs(command.slice(0, 20000)));
    const paths: string[] = [];
    let moved = false;
    let first: string | undefined;
    let tee = false;
    const keep = (t: Token) => {
      if (t.dynamic || t.text === "" || t.text.startsWith("/dev/")) return;
      if (moved && !t.text.startsWith("/")) return;
      paths.push(t.text);
    };
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      if (t.type === "sep") {
        first = undefined;
        tee = false;
        continue;
      }
      if (t.type === "dup") continue;
      if (t.type === "out" || t.type === "in") {
        const target = list[i + 1];
        if (target?.type === "word") {
          if (t.type === "out") keep(target);
          i++;
        }
        continue;
      }
      if (first === undefined) {
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t.text)) continue;
        first = t.text.slice(t.text.lastIndexOf("/") + 1);
        if (first === "cd" || first === "pushd" || first === "popd") moved = true;
        tee = first === "tee";
        continue;
      }
      if (tee && !t.text.startsWith("-")) keep(t);
    }
    return paths;
  } catch {
    return [];
  }
}

/**
 * The test-or-repro command classifier of `check_after_last_edit`: does a shell command run a test,
 * a check or the code itself (so it shows whether the last edit works)?
 *
 * Quoted text is removed first (so `echo "npm test"` is not a test run), then the command is split
 * into parts on `&&`, `||`, `;`, `|` (and `&`, newlines), and a part counts when, behind any number
 * of wrappers (`bundle exec`, `uv run`, `docker compose run app`, `xvfb-run`, `env`, `timeout`, …)
 * it runs a test runner, a test or check verb of a tool, code through an interpreter, `curl`
 * against a URL, or a script whose name says test, spec, repro, check, verify or lint. Installs,
 * builds, cleans, version probes, git, file viewers, the shell's `test` builtin and skillgate's
 * own commands never count.
 *
 * Also here: {@link printsFileOrPage}, whether a command's output may come from a file or a page
 * (`selected_specialists_dispatched` does not read such output).
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import {
  baseName,
  isAssignment,
  partWords,
  splitCommandParts,
  splitCommandPartsWithOps,
  stripQuoted,
} from "./shell_words.ts";
import {
  ALWAYS_READERS,
  BUILDISH_FILE_RE,
  CODE_INTERPRETERS,
  FILE_FILTERS,
  FILE_PRINTERS,
  nameSaysCheck,
  NEVER,
  NEVER_PY_MODULES,
  PACKAGE_MANAGERS,
  PM_NEVER,
  RUNNER_SUBCOMMANDS,
  RUNNERS,
  SHELLS,
  TARGET_TOOLS,
  VERB_TOOLS,
  VERSION_FLAGS,
} from "./programs.ts";
import { skipFlags, unwrap } from "./wrappers.ts";
import { skillgateParts } from "./own_commands.ts";

/** The classifier's answer for one command. */
export interface CommandVerdict {
  /** True when the command runs a test, check or repro. */
  counts: boolean;
  /** Which rule decided (for `--json` and tests), for example `runner pytest` or `install`. */
  reason: string;
  /** The part that counted, with quoted text removed. */
  part?: string;
}

function isUrl(t: string): boolean {
  return t === "__URL__" || /^https?:\/\//i.test(t) ||
    /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?(?:\/|$)/i.test(t) ||
    /^[\w.-]+:\d{2,5}(?:\/|$)/.test(t);
}

/** Classifies one part (tokens already unwrapped). */
function classifyTokens(tokens: string[], depth = 0): CommandVerdict {
  if (tokens.length === 0 || depth > 8) return { counts: false, reason: "empty" };
  const first = tokens[0];
  const cmd = baseName(first);
  const args = tokens.slice(1);
  const nonFlag = args.filter((a) => !a.startsWith("-"));

  // A project script whose name says check (from `hatch run test` and the like, see unwrap).
  const script = /^(hatch|pdm|rye|pipenv)-script:(.+)$/.exec(first);
  if (script) return { counts: true, reason: `${script[1]} run ${script[2]}` };
  // `test -f x` is the shell's test; `./test` or `scripts/test` is a script named test.
  if (NEVER.has(cmd) && !(cmd === "test" && first.includes("/"))) {
    return {
      counts: false,
      reason: cmd === "test" || cmd === "[" ? "shell test" : `viewer ${cmd}`,
    };
  }
  // Node's own test runner.
  if (cmd === "node" && args.some((a) => a === "--test" || a.startsWith("--test="))) {
    return { counts: true, reason: "node --test" };
  }
  if (args.length > 0 && args.every((a) => VERSION_FLAGS.has(a))) {
    return { counts: false, reason: "version probe" };
  }
  if (args.includes("--version")) return { counts: false, reason: "version probe" };

  if (RUNNERS.has(cmd)) {
    const subs = RUNNER_SUBCOMMANDS[cmd];
    if (subs) {
      if (nonFlag[0] !== undefined && subs.has(nonFlag[0])) {
        return { counts: true, reason: `runner ${cmd}` };
      }
      if (cmd === "ruff" && nonFlag[0] === undefined) {
        return { counts: true, reason: "runner ruff" };
      }
      return { counts: false, reason: `${cmd} ${nonFlag[0] ?? ""}`.trim() };
    }
    if (cmd === "tsc" && (args.includes("--init") || args.includes("-v"))) {
      return { counts: false, reason: "version probe" };
    }
    return { counts: true, reason: `runner ${cmd}` };
  }

  if (PACKAGE_MANAGERS.has(cmd)) return classifyPackageManager(cmd, args, depth);

  const verbs = VERB_TOOLS[cmd];
  if (verbs !== undefined) {
    const verb = nonFlag[0];
    if (cmd === "deno" && verb === "task") {
      const task = nonFlag[1];
      return task && nameSaysCheck(task)
        ? { counts: true, reason: `deno task ${task}` }
        : { counts: false, reason: `deno task ${task ?? ""}`.trim() };
    }
    if (verb !== undefined && verbs.has(verb)) return { counts: true, reason: `${cmd} ${verb}` };
    if (cmd === "composer" && verb !== undefined && nameSaysCheck(verb)) {
      return { counts: true, reason: `composer ${verb}` };
    }
    if (cmd === "elm-test") return { counts: true, reason: "runner elm-test" };
    if (cmd === "nx" || cmd === "turbo") {
      const target = verb === "run" ? nonFlag[1] : verb;
      if (target && nameSaysCheck(target)) return { counts: true, reason: `${cmd} ${target}` };
    }
    return { counts: false, reason: `${cmd} ${verb ?? ""}`.trim() };
  }

  if (TARGET_TOOLS.has(cmd)) {
    const targets = nonFlag.filter((a) => !isAssignment(a));
    const hit = targets.find((t) => nameSaysCheck(t.replace(/^:/, "")));
    if (hit) return { counts: true, reason: `${cmd} ${hit}` };
    return { counts: false, reason: targets.length ? `${cmd} ${targets[0]}` : `build ${cmd}` };
  }

  if (cmd === "curl" || cmd === "http" || cmd === "https" || cmd === "xh") {
    if (args.some(isUrl)) return { counts: true, reason: `${cmd} URL` };
    return { counts: false, reason: `${cmd} without a URL` };
  }

  if (CODE_INTERPRETERS.has(cmd) || /^python\d(?:\.\d+)?$/.test(cmd)) {
    return classifyInterpreter(cmd, args, depth);
  }
  if (SHELLS.has(cmd)) {
    let j = 0;
    while (j < args.length && args[j].startsWith("-")) {
      if (args[j] === "-c" || /^-[a-z]*c$/.test(args[j])) {
        return { counts: false, reason: `${cmd} -c (quoted text removed)` };
      }
      j++;
    }
    const script = args[j];
    if (script === undefined) return { counts: false, reason: `${cmd} without a script` };
    if (nameSaysCheck(baseName(script))) {
      return { counts: true, reason: `script ${baseName(script)}` };
    }
    return { counts: false, reason: `script ${baseName(script)}` };
  }
  if (cmd === "source" || cmd === ".") {
    const script = args[0];
    if (script && nameSaysCheck(baseName(script))) {
      return { counts: true, reason: `script ${script}` };
    }
    return { counts: false, reason: "source" };
  }

  // A script run by path or name.
  if (cmd !== "" && nameSaysCheck(cmd.replace(/\.[A-Za-z0-9]+$/, ""))) {
    const looksLikeScript = first.includes("/") ||
      /\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl)$/.test(cmd) ||
      /[-_.]/.test(cmd);
    if (looksLikeScript) return { counts: true, reason: `script ${cmd}` };
  }
  return { counts: false, reason: `other ${cmd}`.slice(0, 80) };
}

function classifyPackageManager(cmd: string, args: string[], depth: number): CommandVerdict {
  let j = skipFlags(args, 0);
  const sub = args[j];
  if (sub === undefined) return { counts: false, reason: `${cmd} install` };
  if (sub === "test" || sub === "t" || sub === "tst" || sub === "it" || sub === "cit") {
    return { counts: true, reason: `${cmd} test` };
  }
  if (sub === "run" || sub === "run-script" || sub === "rum" || sub === "urn") {
    j = skipFlags(args, j + 1);
    const script = args[j];
    if (script === undefined) return { counts: false, reason: `${cmd} run` };
    if (nameSaysCheck(script)) return { counts: true, reason: `${cmd} run ${script}` };
    if (cmd === "bun" || cmd === "deno") {
      if (/\.(?:[cm]?[jt]sx?)$/.test(script) || script.includes("/")) {
        return BUILDISH_FILE_RE.test(baseName(script))
          ? { counts: false, reason: `build script ${baseName(script)}` }
          : { counts: true, reason: `${cmd} ${script}` };
      }
    }
    return { counts: false, reason: `${cmd} run ${script}` };
  }
  if (PM_NEVER.has(sub)) return { counts: false, reason: `${cmd} ${sub}` };
  if (cmd === "npm") return { counts: false, reason: `npm ${sub}` };
  // bun <file>, yarn <script>, pnpm <script>, yarn jest …
  if (cmd === "bun" && (/\.(?:[cm]?[jt]sx?)$/.test(sub) || sub.includes("/"))) {
    return BUILDISH_FILE_RE.test(baseName(sub))
      ? { counts: false, reason: `build script ${baseName(sub)}` }
      : { counts: true, reason: `bun ${sub}` };
  }
  if (nameSaysCheck(sub)) return { counts: true, reason: `${cmd} ${sub}` };
  const inner = classifyTokens(args.slice(j), depth + 1);
  if (inner.counts) return { counts: true, reason: `${cmd} ${inner.reason}` };
  return { counts: false, reason: `${cmd} ${sub}` };
}

function classifyInterpreter(cmd: string, args: string[], depth: number): CommandVerdict {
  for (let j = 0; j < args.length; j++) {
    const a = args[j];
    if (a === "-c" || a === "-e" || a === "--eval" || a === "-p" || a === "--print" || a === "-r") {
      if (cmd === "node" && a === "-r") {
        j++;
        continue;
      }
      return { counts: true, reason: `${cmd} ${a}` };
    }
    if (a === "-m" && /^python|^pypy/.test(cmd)) {
      const mod = args[j + 1];
      if (mod === undefined) return { counts: false, reason: `${cmd} -m` };
      if (NEVER_PY_MODULES.has(mod)) return { counts: false, reason: `${cmd} -m ${mod}` };
      const inner = classifyTokens([mod, ...args.slice(j + 2)], depth + 1);
      if (inner.counts) return { counts: true, reason: `${cmd} -m ${mod}` };
      if (inner.reason === "version probe") return inner;
      return { counts: true, reason: `${cmd} -m ${mod}` };
    }
    if (a.startsWith("-")) {
      if (a === "--require" || a === "--import" || a === "--loader" || a === "-W" || a === "-X") {
        j++;
      }
      continue;
    }
    // First non-flag argument: the file (or a subcommand).
    if (cmd === "bun") return classifyPackageManager("bun", args.slice(j), depth);
    const file = baseName(a);
    if (file === "artisan") {
      return args.slice(j + 1).some((t) => nameSaysCheck(t))
        ? { counts: true, reason: "artisan test" }
        : { counts: false, reason: "artisan" };
    }
    if (cmd === "kotlin") {
      return /\.kts?$/.test(file)
        ? { counts: true, reason: `${cmd} ${file}` }
        : { counts: false, reason: `${cmd} ${file}` };
    }
    if (/^setup\.py$/.test(file)) {
      const rest = args.slice(j + 1);
      return rest.includes("test")
        ? { counts: true, reason: "setup.py test" }
        : { counts: false, reason: "setup.py build" };
    }
    if (file === "manage.py") {
      return args.slice(j + 1).some((t) => nameSaysCheck(t))
        ? { counts: true, reason: "manage.py test" }
        : { counts: false, reason: "manage.py" };
    }
    if (BUILDISH_FILE_RE.test(file)) return { counts: false, reason: `build script ${file}` };
    return { counts: true, reason: `${cmd} ${file}` };
  }
  return { counts: false, reason: `${cmd} without code` };
}

/**
 * Classifies a shell command: does any part of it run a test, check or repro? A part that runs
 * skillgate itself (its `contract waive`, say) never counts, in any form skillgate prints its
 * command. Never throws.
 *
 * @param command The shell command as the model wrote it.
 * @param installed The installed skillgate command (`skillgateCommand()`), also recognised.
 * @returns The verdict, with the rule that decided.
 */
export function classifyCommand(command: string, installed?: string): CommandVerdict {
  try {
    if (typeof command !== "string" || command.trim() === "") {
      return { counts: false, reason: "empty" };
    }
    const text = command.length > 20000 ? command.slice(0, 20000) : command;
    const parts = splitCommandParts(stripQuoted(text)).slice(0, 200);
    const own = skillgateParts(text, parts.length, installed);
    let last: CommandVerdict = { counts: false, reason: "empty" };
    for (const [i, part] of parts.entries()) {
      if (own[i]) {
        last = { counts: false, reason: "skillgate" };
        continue;
      }
      const verdict = classifyTokens(unwrap(partWords(part)));
      if (verdict.counts) return { ...verdict, part };
      last = verdict;
    }
    return last;
  } catch {
    return { counts: false, reason: "unclassifiable" };
  }
}

/**
 * Whether a shell command counts as a test or repro run: the contract's `match` regular expression
 * when given (tested against the whole command), else {@link classifyCommand}. A command made of
 * skillgate's own commands (and viewers such as `cd` or `echo`) never counts. Never throws.
 *
 * @param command The shell command.
 * @param match The item's `match`, compiled by the linear-time engine (`validateContract` does
 *   it); it overrides the classifier.
 * @param installed The installed skillgate command (`skillgateCommand()`), also recognised.
 * @returns True when it counts.
 */
export function isCheckCommand(
  command: string,
  match?: UserRegex,
  installed?: string,
): boolean {
  if (match !== undefined) {
    try {
      const text = command.slice(0, 20000);
      const parts = splitCommandParts(stripQuoted(text)).slice(0, 200);
      const own = skillgateParts(text, parts.length, installed);
      const idle = (part: string) => NEVER.has(baseName(unwrap(partWords(part))[0] ?? ""));
      if (own.some((o) => o) && parts.every((part, i) => own[i] || idle(part))) return false;
      return match.test(text);
    } catch {
      return false;
    }
  }
  return classifyCommand(command, installed).counts;
}

/**
 * Whether a command's exit status is its check's: the last part that counts as a check
 * (by the item's `match`, else {@link classifyCommand}'s rules) is followed only by `&&` parts.
 * After a `|`, `||`, `;` or `&` the status is another command's (`npm test | tail -5` exits as
 * `tail` does, `pytest || true` always passes), so it says nothing of the check. A command
 * whose `match` matched only its quoted text is read as a whole. Never throws.
 *
 * @param command A shell command that counts as a check ({@link isCheckCommand}).
 * @param match The item's `match`, when it has one.
 * @param installed The installed skillgate command.
 * @returns True when a pass or fail of the command is the check's.
 */
export function statusIsCheck(command: string, match?: UserRegex, installed?: string): boolean {
  try {
    const text = command.length > 20000 ? command.slice(0, 20000) : command;
    const parts = splitCommandPartsWithOps(stripQuoted(text)).slice(0, 200);
    if (parts.length === 0) return false;
    const own = skillgateParts(text, parts.length, installed);
    let last = -1;
    for (const [i, { part }] of parts.entries()) {
      if (own[i]) continue;
      const counts = match ? match.test(part) : classifyTokens(unwrap(partWords(part))).counts;
      if (counts) last = i;
    }
    if (last < 0) {
      if (!match) return false;
      last = parts.length - 1;
    }
    return parts.slice(last).every((p) => p.then === "" || p.then === "&&");
  } catch {
    return false;
  }
}

/**
 * Whether a shell command's output may come from a file or a fetched page (`cat notes.md`,
 * `grep x log.txt`, `curl URL`), rather than be printed by the command itself. A `cat` of a
 * heredoc, or `echo`, prints the model's own text. Never throws.
 *
 * @param command The shell command as the model wrote it.
 * @returns True when some part of it prints a file or a page.
 */
export function printsFileOrPage(command: string): boolean {
  try {
    if (typeof command !== "string") return false;
    const text = command.length > 20000 ? command.slice(0, 20000) : command;
    for (const part of splitCommandParts(stripQuoted(text)).slice(0, 200)) {
      const tokens = unwrap(partWords(part));
      if (tokens.length === 0) continue;
      const cmd = baseName(tokens[0]);
      const operands = tokens.slice(1).filter((t) => !t.startsWith("-"));
      const redirectedIn = /(?:^|[^<])<(?!<)/.test(part);
      if (ALWAYS_READERS.has(cmd)) return true;
      if (FILE_PRINTERS.has(cmd) && (operands.length > 0 || redirectedIn)) return true;
      if (FILE_FILTERS.has(cmd)) {
        const recursive = tokens.some((t) => /^-[A-Za-z]*[rR]/.test(t) || t === "--recursive");
        if (operands.length >= 2 || redirectedIn || recursive) return true;
      }
    }
    return false;
  } catch {
    return true;
  }
}

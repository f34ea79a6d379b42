/**
 * The test-or-repro command classifier of `check_after_last_edit`: does a shell command run a test,
 * a check or the code itself (so it shows whether the last edit works)?
 *
 * Quoted text is removed first (so `echo "npm test"` is not a test run), then the command is split
 * into parts on `&&`, `||`, `;`, `|` (and `&`, newlines), and a part counts when, behind any number
 * of wrappers (`bundle exec`, `uv run`, `docker compose run app`, `xvfb-run`, `env`, `timeout`, …)
 * it runs a test runner, a test or check verb of a tool, code through an interpreter, `curl`
 * against a URL, or a script whose name says test, spec, repro, check, verify or lint. Installs,
 * builds, cleans, version probes, git, file viewers and the shell's `test` builtin never count.
 *
 * @module
 */

import type { UserRegex } from "../base/user_regex.ts";

/** The classifier's answer for one command. */
export interface CommandVerdict {
  /** True when the command runs a test, check or repro. */
  counts: boolean;
  /** Which rule decided (for `--json` and tests), for example `runner pytest` or `install`. */
  reason: string;
  /** The part that counted, with quoted text removed. */
  part?: string;
}

const SCRIPT_WORDS = [
  "test",
  "tests",
  "spec",
  "specs",
  "repro",
  "check",
  "checks",
  "verify",
  "lint",
];
const SCRIPT_WORD_RE = new RegExp(
  `(?:^|[^a-z0-9])(?:${SCRIPT_WORDS.join("|")}|e2e|typecheck|unittest|integration)(?:[^a-z]|$)`,
);

/** Direct test runners, type checkers and linters. */
const RUNNERS = new Set([
  "pytest",
  "py.test",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "jasmine",
  "karma",
  "tap",
  "rspec",
  "minitest",
  "phpunit",
  "pest",
  "tsc",
  "vue-tsc",
  "mypy",
  "pyright",
  "flake8",
  "pylint",
  "eslint",
  "ruff",
  "biome",
  "tox",
  "nox",
  "ctest",
  "bats",
  "shellcheck",
  "behave",
  "cucumber",
  "cucumber-js",
  "nosetests",
  "trial",
  "gotestsum",
  "ginkgo",
  "golangci-lint",
  "rubocop",
  "stylelint",
  "swiftlint",
  "ktlint",
  "detekt",
  "playwright",
  "cypress",
  "newman",
  "hurl",
  "k6",
]);

/** Runners whose subcommand decides (`playwright test`, `cypress run`). */
const RUNNER_SUBCOMMANDS: Record<string, Set<string>> = {
  playwright: new Set(["test"]),
  cypress: new Set(["run"]),
  ruff: new Set(["check"]),
  biome: new Set(["check", "lint", "ci"]),
};

/** Interpreters that run code from a file, `-c` / `-e` text or a module. */
const CODE_INTERPRETERS = new Set([
  "node",
  "nodejs",
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "ruby",
  "perl",
  "php",
  "bun",
  "ts-node",
  "tsx",
  "esno",
  "Rscript",
  "julia",
  "lua",
  "elixir",
  "iex",
  "kotlin",
  "groovy",
  "dotnet-script",
]);

/** Shell interpreters: they count only for `-c` text or a script whose name says test etc. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "fish"]);

/** Commands that only look at or move files, or manage git: never a test run. */
const NEVER = new Set([
  "cat",
  "bat",
  "less",
  "more",
  "head",
  "tail",
  "grep",
  "egrep",
  "rg",
  "ag",
  "ack",
  "ls",
  "ll",
  "find",
  "fd",
  "echo",
  "printf",
  "sed",
  "awk",
  "wc",
  "sort",
  "uniq",
  "cut",
  "tr",
  "vim",
  "vi",
  "nano",
  "emacs",
  "code",
  "open",
  "git",
  "gh",
  "touch",
  "mkdir",
  "rm",
  "rmdir",
  "cp",
  "mv",
  "ln",
  "chmod",
  "chown",
  "cd",
  "pushd",
  "popd",
  "pwd",
  "which",
  "type",
  "whereis",
  "export",
  "unset",
  "alias",
  "test",
  "[",
  "[[",
  "diff",
  "cmp",
  "jq",
  "yq",
  "tree",
  "stat",
  "file",
  "du",
  "df",
  "ps",
  "kill",
  "pkill",
  "tee",
  "true",
  "false",
  "sleep",
  "date",
  "history",
  "read",
  "wait",
  "exit",
  "return",
  "set",
  "shopt",
  "trap",
  "tar",
  "zip",
  "unzip",
  "gzip",
  "apt",
  "apt-get",
  "brew",
  "pip",
  "pip3",
  "pipx",
  "gem",
  "yum",
  "dnf",
  "apk",
  "tsc-watch",
  "wget",
  "ssh",
  "scp",
  "rsync",
  "base64",
  "md5sum",
  "sha256sum",
  "xxd",
  "hexdump",
  "strings",
  "realpath",
  "dirname",
  "basename",
  "readlink",
  "env-cmd",
]);

/** Package-manager subcommands that install, build, clean or probe. */
const PM_NEVER = new Set([
  "install",
  "i",
  "ci",
  "add",
  "remove",
  "rm",
  "uninstall",
  "un",
  "update",
  "up",
  "upgrade",
  "outdated",
  "audit",
  "link",
  "unlink",
  "init",
  "create",
  "build",
  "pack",
  "publish",
  "login",
  "logout",
  "cache",
  "config",
  "set",
  "get",
  "info",
  "view",
  "why",
  "list",
  "ls",
  "clean",
  "dedupe",
  "prune",
  "version",
  "help",
  "start",
  "dev",
  "serve",
  "preview",
  "format",
  "fmt",
  "setup",
  "bootstrap",
  "rebuild",
  "import",
  "patch",
  "exec",
  "x",
  "dlx",
  "whoami",
  "doctor",
]);

/** Tool verbs that run tests, checks or the code: `go test`, `cargo run`, `dotnet test`, … */
const VERB_TOOLS: Record<string, Set<string>> = {
  go: new Set(["test", "vet", "run"]),
  cargo: new Set(["test", "t", "run", "r", "check", "c", "clippy", "nextest", "bench", "miri"]),
  dotnet: new Set(["test", "run"]),
  swift: new Set(["test", "run"]),
  mix: new Set(["test", "run", "credo", "dialyzer"]),
  deno: new Set(["test", "check", "lint", "bench", "run", "eval"]),
  flutter: new Set(["test", "analyze", "run"]),
  dart: new Set(["test", "analyze", "run"]),
  zig: new Set(["test", "run"]),
  bazel: new Set(["test", "run", "coverage"]),
  bazelisk: new Set(["test", "run", "coverage"]),
  stack: new Set(["test", "run"]),
  cabal: new Set(["test", "run"]),
  sbt: new Set(["test", "run", "testOnly", "it:test"]),
  lein: new Set(["test", "run", "check"]),
  elm: new Set(["test"]),
  "elm-test": new Set([]),
  composer: new Set(["test"]),
  hatch: new Set(["test"]),
  nx: new Set(["test", "lint", "e2e", "affected"]),
  turbo: new Set(["test", "lint", "check", "typecheck"]),
};

/** Build tools whose targets decide (`make test`, `rake spec`, `./gradlew check`, `just lint`). */
const TARGET_TOOLS = new Set([
  "make",
  "gmake",
  "just",
  "task",
  "mage",
  "rake",
  "invoke",
  "gradle",
  "gradlew",
  "mvn",
  "mvnw",
  "ant",
  "ninja",
  "meson",
  "artisan",
  "manage.py",
  "grunt",
  "gulp",
]);

/** Package managers with scripts. */
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);

/** Python project tools whose `run` takes a script named in the project file as well as a command. */
const SCRIPT_TOOLS = new Set(["hatch", "pdm", "rye", "pipenv"]);

/** Plain prefix wrappers: drop them (and their flags) and classify the rest. */
const PREFIX_WRAPPERS = new Set([
  "sudo",
  "env",
  "time",
  "nice",
  "nohup",
  "timeout",
  "gtimeout",
  "stdbuf",
  "exec",
  "command",
  "builtin",
  "xvfb-run",
  "caffeinate",
  "chronic",
  "unbuffer",
  "dotenv",
  "xargs",
  "watch",
  "flock",
  "ionice",
  "taskset",
  "script",
  "strace",
  "valgrind",
  "catchsegv",
  "!",
  "coverage",
  "c8",
  "nyc",
]);

/** Wrapper flags that take a separate value. */
const FLAGS_WITH_VALUE = new Set([
  "-u",
  "--user",
  "-e",
  "--env",
  "-v",
  "--volume",
  "-w",
  "--workdir",
  "--name",
  "-p",
  "--publish",
  "--entrypoint",
  "--env-file",
  "--network",
  "--net",
  "-l",
  "--label",
  "--platform",
  "--mount",
  "-s",
  "--server-args",
  "-n",
  "-k",
  "--kill-after",
  "--signal",
  "-o",
  "--with",
  "--python",
  "--project",
  "--directory",
  "--package",
  "-f",
  "--file",
  "-c",
  "--config",
  "--profile",
  "--cwd",
  "--filter",
  "-F",
  "-C",
  "--prefix",
  "--reporter",
  "-r",
  "--require",
  "-I",
  "-L",
  "-P",
  "--group",
  "-g",
]);

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
 */
function removeQuoted(command: string, keepWords: boolean): string {
  // Heredoc bodies: `<<EOF … EOF`, `<<-'EOF' … EOF`.
  let s = command.replace(
    /<<-?[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$)/g,
    (m) => m.slice(0, m.indexOf("\n")),
  );
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
 * Splits a command (quoted text already removed) into parts on `&&`, `||`, `;`, `|`, `&` and
 * newlines; shell comments and redirections are dropped.
 *
 * @param command A shell command without quoted text.
 * @returns The non-empty parts, trimmed.
 */
export function splitCommandParts(command: string): string[] {
  const s = command
    .replace(/(^|\s)#[^\n]*/g, "$1")
    .replace(/\d*[<>]&\d*-?/g, " ")
    .replace(/&>>?/g, " >")
    .replace(/\$\(|`/g, " ; ")
    .replace(/[()]/g, " ; ");
  return s.split(/&&|\|\||\|&|[;|&\n]/).map((p) => p.trim()).filter((p) => p !== "");
}

function tokenize(part: string): string[] {
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

function base(token: string): string {
  const i = token.lastIndexOf("/");
  return i >= 0 ? token.slice(i + 1) : token;
}

/** Splits camelCase so `runTests` reads as `run tests`. */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

function nameSaysCheck(name: string): boolean {
  return SCRIPT_WORD_RE.test(words(name));
}

function isAssignment(t: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(t);
}

function skipFlags(tokens: string[], i: number): number {
  while (i < tokens.length) {
    const t = tokens[i];
    if (t === "--") return i + 1;
    if (!t.startsWith("-") || t === "-") break;
    if (!t.includes("=") && FLAGS_WITH_VALUE.has(t)) i += 2;
    else i += 1;
  }
  return i;
}

function isUrl(t: string): boolean {
  return t === "__URL__" || /^https?:\/\//i.test(t) ||
    /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?(?:\/|$)/i.test(t) ||
    /^[\w.-]+:\d{2,5}(?:\/|$)/.test(t);
}

const VERSION_FLAGS = new Set(["--version", "-V", "version", "--help", "-h", "help", "-help"]);

const BUILDISH_FILE_RE =
  /^(?:build|install|setup|clean|bundle|webpack|rollup|esbuild|vite|deploy|publish|release|format|fmt)(?:[._-]|$)/i;

const NEVER_PY_MODULES = new Set(["pip", "venv", "virtualenv", "ensurepip", "build", "pipx"]);

/** Strips leading assignments and wrappers; returns the index of the real command word. */
function unwrap(tokens: string[], depth = 0): string[] {
  let i = 0;
  while (i < tokens.length && (isAssignment(tokens[i]) || tokens[i] === "!")) i++;
  if (i >= tokens.length || depth > 12) return tokens.slice(i);
  const cmd = base(tokens[i]);
  const rest = tokens.slice(i + 1);
  const next = (j: number) => unwrap(rest.slice(j), depth + 1);
  if (PREFIX_WRAPPERS.has(cmd)) {
    let j = skipFlags(rest, 0);
    if (cmd === "env") { while (j < rest.length && isAssignment(rest[j])) j++; }
    if ((cmd === "timeout" || cmd === "gtimeout") && j < rest.length && /^\d/.test(rest[j])) j++;
    if ((cmd === "coverage") && rest[j] === "run") j = skipFlags(rest, j + 1);
    if (cmd === "flock" && j < rest.length) j++;
    if (cmd === "watch" || cmd === "dotenv") j = skipFlags(rest, j);
    return next(j);
  }
  const sub = rest[0];
  if (cmd === "bundle" && sub === "exec") return next(skipFlags(rest, 1));
  // `hatch run test` names a project script (here one called test), not the shell's `test`.
  if (SCRIPT_TOOLS.has(cmd) && sub === "run") {
    const script = rest[skipFlags(rest, 1)];
    if (
      script !== undefined && !script.includes("/") && nameSaysCheck(script.replace(/^.*:/, ""))
    ) {
      return [`${cmd}-script:${script}`];
    }
  }
  // `ssh [options] host command …` runs the command on the host.
  if (cmd === "ssh") {
    let j = 0;
    while (j < rest.length && rest[j].startsWith("-")) {
      j += /^-[BbcDEeFIiJLlmOoPpQRSWw]$/.test(rest[j]) ? 2 : 1;
    }
    return j + 1 < rest.length ? next(j + 1) : tokens.slice(i);
  }
  if (
    ["uv", "poetry", "pipenv", "pdm", "rye", "hatch", "conda", "micromamba", "mamba"].includes(
      cmd,
    ) && sub === "run"
  ) {
    let j = skipFlags(rest, 1);
    if ((cmd === "conda" || cmd === "mamba" || cmd === "micromamba") && rest[j]) {
      j = skipFlags(rest, j);
    }
    return next(j);
  }
  if (cmd === "uvx" || cmd === "pipx" && sub === "run") {
    return next(skipFlags(rest, cmd === "uvx" ? 0 : 1));
  }
  if (cmd === "npx" || cmd === "bunx" || cmd === "pnpx") return next(skipFlags(rest, 0));
  if ((cmd === "pnpm" || cmd === "yarn" || cmd === "npm") && (sub === "exec" || sub === "dlx")) {
    return next(skipFlags(rest, 1));
  }
  if (cmd === "bun" && sub === "x") return next(skipFlags(rest, 1));
  if ((cmd === "mise" || cmd === "rtx") && (sub === "exec" || sub === "x")) {
    return next(skipFlags(rest, 1));
  }
  if (cmd === "asdf" && sub === "exec") return next(1);
  if (cmd === "direnv" && sub === "exec") return next(2);
  if (cmd === "nix" && (sub === "develop" || sub === "shell")) {
    const k = rest.indexOf("-c") >= 0 ? rest.indexOf("-c") : rest.indexOf("--command");
    return k >= 0 ? next(k + 1) : [];
  }
  if ((cmd === "docker" || cmd === "podman") && (sub === "compose" || sub === "container")) {
    const op = rest[1];
    if (op === "run" || op === "exec") {
      const j = skipFlags(rest, 2);
      return next(j + 1); // the service/container name
    }
    return tokens.slice(i);
  }
  if (cmd === "docker-compose" || cmd === "podman-compose") {
    if (sub === "run" || sub === "exec") return next(skipFlags(rest, 1) + 1);
    return tokens.slice(i);
  }
  if ((cmd === "docker" || cmd === "podman") && (sub === "run" || sub === "exec")) {
    return next(skipFlags(rest, 1) + 1);
  }
  if (cmd === "kubectl" && sub === "exec") {
    const k = rest.indexOf("--");
    return k >= 0 ? next(k + 1) : [];
  }
  if (cmd === "ddev" && sub === "exec") return next(1);
  return tokens.slice(i);
}

/** Classifies one part (tokens already unwrapped). */
function classifyTokens(tokens: string[], depth = 0): CommandVerdict {
  if (tokens.length === 0 || depth > 8) return { counts: false, reason: "empty" };
  const first = tokens[0];
  const cmd = base(first);
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
    if (nameSaysCheck(base(script))) return { counts: true, reason: `script ${base(script)}` };
    return { counts: false, reason: `script ${base(script)}` };
  }
  if (cmd === "source" || cmd === ".") {
    const script = args[0];
    if (script && nameSaysCheck(base(script))) return { counts: true, reason: `script ${script}` };
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
        return BUILDISH_FILE_RE.test(base(script))
          ? { counts: false, reason: `build script ${base(script)}` }
          : { counts: true, reason: `${cmd} ${script}` };
      }
    }
    return { counts: false, reason: `${cmd} run ${script}` };
  }
  if (PM_NEVER.has(sub)) return { counts: false, reason: `${cmd} ${sub}` };
  if (cmd === "npm") return { counts: false, reason: `npm ${sub}` };
  // bun <file>, yarn <script>, pnpm <script>, yarn jest …
  if (cmd === "bun" && (/\.(?:[cm]?[jt]sx?)$/.test(sub) || sub.includes("/"))) {
    return BUILDISH_FILE_RE.test(base(sub))
      ? { counts: false, reason: `build script ${base(sub)}` }
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
    const file = base(a);
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

/** The CLI's commands (`cli.ts`): what follows skillgate's own executable or script. */
const SKILLGATE_SUBCOMMANDS = new Set([
  "route",
  "contract",
  "config",
  "setup",
  "doctor",
  "session-kind",
  "hook",
]);

/** `deno run` flags that take their value as the next word. */
const DENO_FLAGS_WITH_VALUE = new Set([
  "-c",
  "--config",
  "--import-map",
  "--cert",
  "--location",
  "--seed",
  "-L",
  "--log-level",
  "--ext",
  "--preload",
]);

const SKILLGATE_EXEC_RE = /^skillgate(?:\.exe|\.cmd)?$/;
const SKILLGATE_JSR_RE = /^jsr:@skillgate\/skillgate(?:@[^/]*)?(?:\/cli)?$/;

/**
 * The words of a command as {@link isSkillgateInvocation} compares them: quoted text kept as one
 * word, split on blanks.
 */
function keptWords(command: string): string[] {
  const parts = splitCommandParts(removeQuoted(command, true));
  return parts.length === 1 ? tokenize(parts[0]) : [];
}

/**
 * Whether one command part (its words, wrappers removed) runs skillgate itself, in any form it
 * prints: the `skillgate` executable, `deno run [flags] <path>/cli.ts <command>`,
 * `deno run [flags] jsr:@skillgate/skillgate[/cli]`, or the installed command (config
 * `skillgate_command`, `SKILLGATE_COMMAND`) followed by one of its commands.
 */
function isSkillgateInvocation(tokens: readonly string[], installed: readonly string[]): boolean {
  if (tokens.length === 0) return false;
  if (SKILLGATE_EXEC_RE.test(base(tokens[0]))) return true;
  if (
    installed.length > 0 && tokens.length > installed.length &&
    installed.every((w, i) => tokens[i] === w) &&
    SKILLGATE_SUBCOMMANDS.has(tokens[installed.length])
  ) {
    return true;
  }
  if (!/^deno(?:\.exe)?$/.test(base(tokens[0])) || tokens[1] !== "run") return false;
  let i = 2;
  while (i < tokens.length && tokens[i].startsWith("-")) {
    i += !tokens[i].includes("=") && DENO_FLAGS_WITH_VALUE.has(tokens[i]) ? 2 : 1;
  }
  const script = tokens[i];
  if (script === undefined) return false;
  if (SKILLGATE_JSR_RE.test(script)) return true;
  return base(script) === "cli.ts" && SKILLGATE_SUBCOMMANDS.has(tokens[i + 1] ?? "");
}

/**
 * Which parts of a command run skillgate itself ({@link isSkillgateInvocation}), by index into
 * `splitCommandParts(stripQuoted(command))`; empty when the two splits disagree.
 */
function skillgateParts(text: string, partCount: number, installed: string | undefined): boolean[] {
  const kept = splitCommandParts(removeQuoted(text, true));
  if (kept.length !== partCount) return [];
  const prefix = installed === undefined ? [] : unwrap(keptWords(installed));
  return kept.map((part) => isSkillgateInvocation(unwrap(tokenize(part)), prefix));
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
      const verdict = classifyTokens(unwrap(tokenize(part)));
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
      const idle = (part: string) => NEVER.has(base(unwrap(tokenize(part))[0] ?? ""));
      if (own.some((o) => o) && parts.every((part, i) => own[i] || idle(part))) return false;
      return match.test(text);
    } catch {
      return false;
    }
  }
  return classifyCommand(command, installed).counts;
}

/** Commands that print a file's content (given a file operand or an input redirection). */
const FILE_PRINTERS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "bat",
  "batcat",
  "tac",
  "nl",
  "xxd",
  "od",
  "strings",
  "view",
]);

/** Commands whose first operand is a pattern or program and whose later operands are files. */
const FILE_FILTERS = new Set(["grep", "egrep", "fgrep", "sed", "awk", "gawk", "jq", "yq"]);

/** Commands that print files they find themselves, or a fetched page. */
const ALWAYS_READERS = new Set([
  "rg",
  "ag",
  "ack",
  "curl",
  "wget",
  "http",
  "https",
  "xh",
  "lynx",
  "w3m",
  "links",
  "elinks",
]);

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
      const tokens = unwrap(tokenize(part));
      if (tokens.length === 0) continue;
      const cmd = base(tokens[0]);
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

/**
 * The program tables of the test-or-repro classifier: which programs are test runners, which
 * tools run a test or check by a verb or a target, which run code, which only look at files, and
 * which print a file or a page. Data only, plus {@link nameSaysCheck}, the one rule for names
 * (scripts, targets, tasks) that say test, spec, repro, check, verify or lint.
 *
 * @module
 */

/** The words a script, target or task name says when it runs a test or check. */
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

/** Splits camelCase so `runTests` reads as `run tests`. */
function camelWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/**
 * Whether a name (a script, a build target, a task) says test, spec, repro, check, verify or lint
 * (also `e2e`, `typecheck`, `unittest`, `integration`), as a whole word or camelCase part.
 *
 * @param name The name.
 * @returns True when it says so.
 */
export function nameSaysCheck(name: string): boolean {
  return SCRIPT_WORD_RE.test(camelWords(name));
}

/** Direct test runners, type checkers and linters. */
export const RUNNERS: ReadonlySet<string> = new Set([
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
export const RUNNER_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  playwright: new Set(["test"]),
  cypress: new Set(["run"]),
  ruff: new Set(["check"]),
  biome: new Set(["check", "lint", "ci"]),
};

/** Interpreters that run code from a file, `-c` / `-e` text or a module. */
export const CODE_INTERPRETERS: ReadonlySet<string> = new Set([
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
export const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh", "fish"]);

/** Commands that only look at or move files, or manage git: never a test run. */
export const NEVER: ReadonlySet<string> = new Set([
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
export const PM_NEVER: ReadonlySet<string> = new Set([
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
export const VERB_TOOLS: Readonly<Record<string, ReadonlySet<string>>> = {
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
export const TARGET_TOOLS: ReadonlySet<string> = new Set([
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
export const PACKAGE_MANAGERS: ReadonlySet<string> = new Set(["npm", "pnpm", "yarn", "bun"]);

/** Python project tools whose `run` takes a script named in the project file as well as a command. */
export const SCRIPT_TOOLS: ReadonlySet<string> = new Set(["hatch", "pdm", "rye", "pipenv"]);

/** Arguments that only ask a program for its version or help. */
export const VERSION_FLAGS: ReadonlySet<string> = new Set([
  "--version",
  "-V",
  "version",
  "--help",
  "-h",
  "help",
  "-help",
]);

/** A script file name that builds, installs, cleans or ships: running it is no test. */
export const BUILDISH_FILE_RE: RegExp =
  /^(?:build|install|setup|clean|bundle|webpack|rollup|esbuild|vite|deploy|publish|release|format|fmt)(?:[._-]|$)/i;

/** `python -m` modules that install or build: never a test run. */
export const NEVER_PY_MODULES: ReadonlySet<string> = new Set([
  "pip",
  "venv",
  "virtualenv",
  "ensurepip",
  "build",
  "pipx",
]);

/** Commands that print a file's content (given a file operand or an input redirection). */
export const FILE_PRINTERS: ReadonlySet<string> = new Set([
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
export const FILE_FILTERS: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "sed",
  "awk",
  "gawk",
  "jq",
  "yq",
]);

/** Commands that print files they find themselves, or a fetched page. */
export const ALWAYS_READERS: ReadonlySet<string> = new Set([
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

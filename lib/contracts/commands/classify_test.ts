import assert from "node:assert/strict";
import { counts, match, never } from "./_kit_test.ts";
import fc from "fast-check";
import { classifyCommand, isCheckCommand, printsFileOrPage } from "./classify.ts";
import { stripQuoted } from "./shell_words.ts";

Deno.test("classifyCommand() counts the seed's test runners", () => {
  for (
    const c of [
      "pytest",
      "pytest -x tests/test_auth.py",
      "jest",
      "vitest",
      "vitest run src/",
      "rspec",
      "rspec spec/models/user_spec.rb",
      "tsc",
      "tsc --noEmit",
      "mocha",
      "phpunit",
      "mypy src",
      "eslint .",
      "tox -e py311",
      "ctest --output-on-failure",
      "npx playwright test",
      "pytest -v",
    ]
  ) counts(c);
});

Deno.test("classifyCommand() counts the seed's test and check verbs", () => {
  for (
    const c of [
      "npm test",
      "npm run test",
      "npm run test:unit",
      "pnpm test",
      "yarn test",
      "yarn lint",
      "bun test",
      "bun run lint",
      "bun run typecheck",
      "go test ./...",
      "go vet ./...",
      "cargo test",
      "cargo run",
      "cargo check",
      "cargo clippy",
      "make check",
      "make test",
      "make lint",
      "rake spec",
      "./gradlew test",
      "mvn verify",
      "dotnet test",
      "deno test -A",
      "deno task test",
      "mix test",
      "swift test",
    ]
  ) counts(c);
});

Deno.test("classifyCommand() counts code run through an interpreter", () => {
  for (
    const c of [
      "node repro.js",
      "python -c 'import auth; print(auth.current_user(None))'",
      'python3 -c "print(1)"',
      "bun scripts/repro.ts",
      "bun run scripts/repro.ts",
      "python repro.py",
      "ruby -e 'puts 1'",
      "node -e \"require('./x')\"",
      "python -m pytest -q",
      "python3 -m unittest discover",
      "deno run -A repro.ts",
      "tsx repro.ts",
    ]
  ) counts(c);
});

Deno.test("classifyCommand() counts curl against a URL", () => {
  counts("curl http://localhost:3000/api/login");
  counts("curl -s 'https://example.com/health'");
  counts('curl -X POST -d "{}" localhost:8080/users');
  never("curl --version");
});

Deno.test("classifyCommand() counts a script whose name says test, spec, repro, check, verify or lint", () => {
  for (
    const c of [
      "./scripts/test.sh",
      "./run_tests.sh",
      "scripts/repro.py",
      "./check",
      "./scripts/verify-build.sh",
      "./lint.sh",
      "./bin/check-types",
      "bin/runTests",
    ]
  ) counts(c);
  never("./scripts/deploy.sh");
  never("./latest.sh");
});

Deno.test("classifyCommand() counts a check behind the seed's wrappers", () => {
  for (
    const c of [
      "bundle exec rspec",
      "uv run pytest",
      "docker compose run app pytest",
      "docker compose run --rm -e CI=1 app pytest -x",
      "docker-compose exec web bundle exec rspec",
      "xvfb-run npm test",
      "xvfb-run -a npm test",
      "bash scripts/test.sh",
      "sh ./scripts/check.sh",
      "poetry run pytest",
      "npx jest",
      "CI=1 timeout 120 npm test",
      "env NODE_ENV=test npm test",
      "sudo -u app make test",
      "time cargo test",
      "docker run --rm -v $PWD:/src img pytest",
    ]
  ) counts(c);
});

Deno.test("classifyCommand() splits parts on &&, ||, ; and |", () => {
  counts("cd web && npm test");
  counts("npm install || npm test");
  counts("git status; pytest");
  counts("pytest 2>&1 | tail -20");
  counts("npm run build && node dist/repro.js");
  never("cd web && npm install");
});

Deno.test("classifyCommand() does not count installs, builds, cleans or version probes", () => {
  for (
    const c of [
      "bun install",
      "npm install",
      "npm ci",
      "pnpm add -D vitest",
      "pip install pytest",
      "go build ./...",
      "cargo build --release",
      "make",
      "make build",
      "make clean",
      "cargo clean",
      "npm run build",
      "node --version",
      "node -v",
      "python --version",
      "go version",
      "bun --version",
      "pytest --version",
      "python -m pip install -r requirements.txt",
      "python setup.py build",
    ]
  ) never(c);
});

Deno.test("classifyCommand() does not count git commit --no-verify, cat of a test file or the shell's test", () => {
  never("git commit --no-verify -m 'fix tests'");
  never("git commit -am wip");
  never("cat test/a.test.ts");
  never("head -50 spec/models/user_spec.rb");
  never("test -f package.json");
  never("[ -f package.json ] && echo yes");
  never("ls tests/");
  never("grep -r pytest .");
});

Deno.test("classifyCommand() ignores quoted text", () => {
  never("echo 'npm test'");
  never('echo "run pytest now; npm test"');
  never("git commit -m 'npm test && pytest'");
  never("bash -c 'npm test'");
  assert.equal(stripQuoted(`echo "a;b" 'c|d'`), "echo __Q__ __Q__");
  assert.equal(stripQuoted(`curl "https://x.test/a"`), "curl __URL__");
});

Deno.test("classifyCommand() ignores heredoc bodies and comments", () => {
  never("cat > t.py <<'EOF'\npytest\nnpm test\nEOF");
  never("ls # then npm test");
  counts("cat > t.py <<'EOF'\nprint(1)\nEOF\npython t.py");
});

Deno.test("isCheckCommand() uses a contract's match instead of the classifier", async () => {
  const e2e = await match("e2e-suite");
  assert.equal(isCheckCommand("./bin/e2e-suite", e2e), true);
  assert.equal(isCheckCommand("npm test", e2e), false);
  assert.equal(isCheckCommand("npm test"), true);
  assert.equal(isCheckCommand("./bin/E2E-SUITE", e2e), false, "case-sensitive, as before");
});

Deno.test("isCheckCommand() answers for a backtracking-prone match on a long command (RE2)", async () => {
  // Each of these takes a backtracking engine (JavaScript's RegExp) longer than any hook deadline
  // on this input; RE2 answers in time linear in the command.
  const nested = await match("(a+)+$");
  assert.equal(nested.engine, "re2js");
  assert.equal(isCheckCommand("a".repeat(19000) + "!", nested), false);
  const hostile = await match("[^!]{0,99}".repeat(5) + "!");
  assert.equal(isCheckCommand("x".repeat(115), hostile), false);
  assert.equal(isCheckCommand("x".repeat(115) + "!", hostile), true);
  const words = await match("^(\\w+\\s?)*$");
  assert.equal(isCheckCommand("run tests ".repeat(1900) + "!", words), false);
});

Deno.test("classifyCommand() never throws (property)", () => {
  const pieces = fc.constantFrom(
    "npm",
    "test",
    "&&",
    "||",
    ";",
    "|",
    "'",
    '"',
    "\\",
    "<<EOF",
    "EOF",
    "\n",
    "docker",
    "compose",
    "run",
    "-e",
    "bundle",
    "exec",
    "python",
    "-m",
    "-c",
    "curl",
    "$(",
    ")",
    "`",
    "#",
    "2>&1",
    ">",
    "env",
    "timeout",
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.array(pieces, { maxLength: 30 }).map((a) => a.join(" ")),
      ),
      (cmd) => {
        const v = classifyCommand(cmd);
        assert.equal(typeof v.counts, "boolean");
        assert.equal(typeof v.reason, "string");
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("classifyCommand() counts a script named test by its path, and node's test runner", () => {
  // Found in review: `./test` is a script, not the shell's `test`; `node --test` runs tests.
  counts("./test");
  counts("./scripts/test --watch=false");
  counts("node --test");
  counts("node --test=only test/");
  never("test -d ./test");
  never("node --version");
});

Deno.test("classifyCommand() counts project scripts of hatch, pdm, rye and pipenv, and ssh'd checks", () => {
  for (
    const c of [
      "hatch run test",
      "hatch run dev:test",
      "hatch run -e py311 test",
      "pdm run test",
      "rye run test",
      "pipenv run tests",
      "hatch run pytest -x",
      "ssh ci-box pytest -x",
      "ssh -p 2222 -i key.pem deploy@host go test ./...",
      "ssh -o BatchMode=yes host npm test",
    ]
  ) counts(c);
  for (
    const c of [
      "hatch run build",
      "hatch run docs:serve",
      "pdm run start",
      "ssh host ls -la",
      "ssh host",
      "ssh -p 2222 host tail -f /var/log/app.log",
    ]
  ) never(c);
});

Deno.test("printsFileOrPage() tells a file or page printed from text the command prints itself", () => {
  for (
    const c of [
      "cat notes.md",
      "sudo cat /etc/hosts",
      "head -n 5 plan.txt",
      "cat < notes.md",
      "grep Dispatching notes.md",
      "grep -r Dispatching .",
      "rg Dispatching",
      "curl -s https://example.com/x",
      "wget -qO- example.com",
      "echo start && cat notes.md | tee copy.txt",
      "jq .items data.json",
    ]
  ) assert.equal(printsFileOrPage(c), true, c);
  for (
    const c of [
      'echo "Dispatching 1 specialists: Security"',
      "printf 'Dispatching 0 specialists: (none)\\n'",
      "cat <<'EOF'\nDispatching 1 specialists: Security\nEOF",
      "./bin/select-specialists | tee out.txt",
      "python select.py | grep Dispatching",
      "git diff --stat | sed -n 1p",
    ]
  ) assert.equal(printsFileOrPage(c), false, c);
});

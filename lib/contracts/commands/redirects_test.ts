import assert from "node:assert/strict";
import fc from "fast-check";
import { shellWrittenPaths } from "./redirects.ts";

/** A literal path: segments of safe characters, relative or absolute. */
const path = fc.tuple(
  fc.boolean(),
  fc.array(
    fc.stringMatching(/^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,11}$/).filter((s) => s !== "." && s !== ".."),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
).map(([abs, segs]) => (abs ? "/" : "") + segs.join("/")).filter((p) => !p.startsWith("/dev/"));

/** Text without the heredoc's end word on a line of its own, nor a quote. */
const body = fc.string({ maxLength: 200 }).filter((s) => !/(^|\n)\s*EOF\s*(\n|$)/.test(s));

Deno.test("shellWrittenPaths(): a heredoc to a literal path is read, its body never (property)", () => {
  fc.assert(
    fc.property(path, body, (p, b) => {
      assert.deepEqual(shellWrittenPaths(`cat > ${p} <<'EOF'\n${b}\nEOF`), [p]);
      assert.deepEqual(shellWrittenPaths(`cat <<EOF > ${p}\n${b}\nEOF`), [p]);
    }),
  );
});

Deno.test("shellWrittenPaths(): > >> &> 2> and tee to a literal path; quoted text is no operator (property)", () => {
  const word = fc.string({ maxLength: 40 }).filter((s) => !s.includes("'"));
  fc.assert(
    fc.property(path, word, (p, w) => {
      assert.deepEqual(shellWrittenPaths(`echo '${w}' > ${p}`), [p]);
      assert.deepEqual(shellWrittenPaths(`printf '%s' '${w}' >> "${p}"`), [p]);
      assert.deepEqual(shellWrittenPaths(`npm test &> ${p}`), [p]);
      assert.deepEqual(shellWrittenPaths(`echo '${w}' | tee -a ${p}`), [p]);
      assert.deepEqual(shellWrittenPaths(`echo '${w} > ${p}'`), [], "quoted > is text");
    }),
  );
});

Deno.test("shellWrittenPaths(): variables, globs, ~, /dev and relative paths after cd are not read", () => {
  for (
    const c of [
      "echo x > $OUT",
      'echo x > "$HOME/plan.md"',
      "echo x > docs/*.md",
      "echo x > ~/plan.md",
      "echo x > $(date).md",
      "npm test 2>/dev/null",
      "npm test > /dev/stderr 2>&1",
      "cd docs && echo x > plan.md",
      "cp a.md docs/plan.md",
      "sed -i s/a/b/ docs/plan.md",
      "cat docs/plan.md",
      "npm test 2>&1 | tail -5",
    ]
  ) {
    assert.deepEqual(shellWrittenPaths(c), [], c);
  }
  assert.deepEqual(shellWrittenPaths("cd docs && echo x > /abs/plan.md"), ["/abs/plan.md"]);
  assert.deepEqual(shellWrittenPaths("mkdir -p docs && cat > docs/a.md <<'EOF'\n# a\nEOF"), [
    "docs/a.md",
  ]);
});

Deno.test("shellWrittenPaths() never throws and gives strings (property)", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (s) => {
      const out = shellWrittenPaths(s);
      assert.ok(Array.isArray(out) && out.every((p) => typeof p === "string" && p !== ""));
    }),
    { numRuns: 500 },
  );
});

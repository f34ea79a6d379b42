import assert from "node:assert/strict";
import fc from "fast-check";
import { globMatches, globProblem, nameGlob, pathMatches } from "./glob.ts";

const seg = fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/).filter((s) => s !== "." && s !== "..");
const segs = fc.array(seg, { minLength: 1, maxLength: 5 });

Deno.test("globMatches(): *, ?, ** and braces", () => {
  assert.ok(globMatches("docs/plans/*.md", "docs/plans/a.md"));
  assert.ok(!globMatches("docs/plans/*.md", "docs/plans/sub/a.md"));
  assert.ok(globMatches("docs/**/*.md", "docs/plans/sub/a.md"));
  assert.ok(globMatches("docs/**/*.md", "docs/a.md"), "** matches no folder too");
  assert.ok(globMatches("docs/?.md", "docs/a.md"));
  assert.ok(!globMatches("docs/?.md", "docs/ab.md"));
  assert.ok(globMatches("docs/*.{md,txt}", "docs/a.txt"));
  assert.ok(!globMatches("docs/*.{md,txt}", "docs/a.rst"));
  assert.ok(globMatches("/abs/**", "/abs/x/y"));
  assert.ok(!globMatches("/abs/**", "abs/x"), "absolute and relative never match");
});

Deno.test("globMatches(): a literal path matches itself, and * stands for any one segment (property)", () => {
  fc.assert(
    fc.property(segs, fc.nat(), (s, k) => {
      const p = s.join("/");
      assert.ok(globMatches(p, p));
      const i = k % s.length;
      const star = s.map((x, j) => (j === i ? "*" : x)).join("/");
      assert.ok(globMatches(star, p));
      assert.ok(globMatches(`**/${s[s.length - 1]}`, p));
      assert.ok(!globMatches(p + "/x", p));
    }),
  );
});

Deno.test("globMatches() is quick on the worst globs (bounded, no backtracking blow-up)", () => {
  const glob = "*a".repeat(60) + "*b";
  const path = "a".repeat(4000);
  assert.ok(!globMatches(glob, path));
  assert.ok(!globMatches("**/".repeat(40) + "x", "a/".repeat(500) + "y"));
});

Deno.test("pathMatches(): a relative glob is the project's; an absolute glob is itself", () => {
  const dir = "/home/dev/shop";
  assert.ok(pathMatches("docs/plans/*.md", "docs/plans/a.md", dir));
  assert.ok(pathMatches("docs/plans/*.md", "/home/dev/shop/docs/plans/a.md", dir));
  assert.ok(!pathMatches("docs/plans/*.md", "/home/dev/other/docs/plans/a.md", dir));
  assert.ok(!pathMatches("docs/plans/*.md", "/tmp/docs/plans/a.md", dir));
  assert.ok(pathMatches("/tmp/plans/*.md", "/tmp/plans/a.md", dir));
  assert.ok(pathMatches("docs/*.md", "./docs/../docs/a.md", dir), "normalised");
  // A project folder whose name looks like a glob is a folder, not a glob.
  assert.ok(pathMatches("a.md", "/w/{x,y}/a.md", "/w/{x,y}"));
  assert.ok(!pathMatches("a.md", "/w/x/a.md", "/w/{x,y}"));
  // Without a project folder, a relative glob matches the end of the path.
  assert.ok(pathMatches("docs/*.md", "/any/where/docs/a.md", undefined));
  assert.ok(pathMatches(nameGlob("*.test.*"), "src/deep/a.test.ts", dir));
});

Deno.test("globProblem() refuses nested braces, ~ and long globs", () => {
  assert.equal(globProblem("docs/*.md"), undefined);
  assert.match(globProblem("{a,{b,c}}") ?? "", /braces/);
  assert.match(globProblem("a}") ?? "", /braces/);
  assert.match(globProblem("~/x") ?? "", /~/);
  assert.match(globProblem("x".repeat(301)) ?? "", /longer/);
  assert.match(globProblem("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}") ?? "", /alternatives/);
});

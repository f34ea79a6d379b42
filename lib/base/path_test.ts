import assert from "node:assert/strict";
import fc from "fast-check";
import * as posix from "node:path/posix";
import { basename, dirname, isAbsolute, join, normalize, pathKey, resolve } from "./path.ts";

Deno.test("lib/base/path.ts agrees with node:path/posix on examples", () => {
  const cases = [
    "/a/b/c",
    "a/b/",
    "/",
    "a",
    "",
    "/a//b/../c/./d",
    "../x/..",
    "a/../..",
    "/..",
    "x/",
  ];
  for (const p of cases) {
    assert.equal(
      normalize(p),
      posix.normalize(p).replace(/\/$/, "") || (p.startsWith("/") ? "/" : "."),
      `normalize ${p}`,
    );
    if (p !== "") {
      assert.equal(dirname(p), posix.dirname(p), `dirname ${p}`);
      assert.equal(basename(p), posix.basename(p), `basename ${p}`);
    }
    assert.equal(isAbsolute(p), posix.isAbsolute(p));
  }
  assert.equal(join("/a", "b", "../c", "SKILL.md"), "/a/c/SKILL.md");
  assert.equal(resolve("/a", "b", "/c", "d"), "/c/d");
  assert.equal(resolve("x"), posix.resolve("x"));
});

Deno.test("lib/base/path.ts join and dirname agree with node:path/posix (property)", () => {
  const seg = fc.stringMatching(/^[a-z.]{0,4}$/);
  fc.assert(fc.property(fc.array(seg, { maxLength: 6 }), fc.boolean(), (segs, abs) => {
    const parts = abs ? ["/", ...segs] : segs;
    const ours = join(...parts);
    const theirs = posix.join(...parts);
    assert.equal(ours, theirs.length > 1 ? theirs.replace(/\/$/, "") : theirs);
    if (ours !== "." && ours !== "/") assert.equal(dirname(ours), posix.dirname(ours));
  }));
});

Deno.test("pathKey() is eight hex digits, stable, and differs between paths", () => {
  assert.equal(pathKey("/home/u/.claude/settings.json"), pathKey("/home/u/.claude/settings.json"));
  assert.match(pathKey(""), /^[0-9a-f]{8}$/);
  assert.equal(pathKey(""), "811c9dc5");
  assert.notEqual(pathKey("/a/settings.json"), pathKey("/b/settings.json"));
});

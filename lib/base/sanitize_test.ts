import assert from "node:assert/strict";
import fc from "fast-check";
import {
  exactName,
  sanitizeLine,
  sanitizeLogValue,
  sanitizeName,
  sanitizeText,
} from "./sanitize.ts";

Deno.test("sanitizeName() keeps only [A-Za-z0-9:_-], bounded", () => {
  assert.equal(sanitizeName("prompt-writer"), "prompt-writer");
  assert.equal(sanitizeName("plugin:name_1"), "plugin:name_1");
  assert.equal(sanitizeName("$(rm -rf ~); `x`\n\u001b[31mred"), "rm-rfx31mred");
  assert.equal(sanitizeName("a".repeat(10_000)).length, 64);
  assert.equal(sanitizeName("a".repeat(100), 10), "a".repeat(10));
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (s) => /^[A-Za-z0-9:_-]*$/.test(sanitizeName(s))),
  );
});

Deno.test("sanitizeLogValue() keeps one field on one line", () => {
  assert.equal(sanitizeLogValue('a b\nc=d"e\u001b'), "a_b_c_d_e_");
  // Unicode spaces too (fast-check found U+3000 and others passing through).
  assert.equal(sanitizeLogValue("a\u00a0b\u1680c\u2003d\u3000e\ufeff"), "a_b_c_d_e_");
  fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => {
    const v = sanitizeLogValue(s);
    return !/[\s"=\\]/.test(v) && !v.includes("\u001b") && v.length <= 200;
  }));
});

Deno.test("sanitizeLine() removes control characters and line breaks", () => {
  assert.equal(sanitizeLine("a\nb\u001b[2Jc"), "a bc");
  assert.equal(sanitizeLine("a\r\nb\u0007"), "a  b");
  assert.equal(sanitizeLine("x".repeat(500)).length, 300);
});

Deno.test("sanitizeText() removes escape sequences whole and every control character but tab and line feed", () => {
  assert.equal(sanitizeText("DEBUG\u001b]0;owned\u0007 REPORT"), "DEBUG REPORT");
  assert.equal(sanitizeText("a\u001b[2J\u001b[Hb\u009b31mc"), "abc");
  assert.equal(sanitizeText("one\n\ttwo\r\u0000\u007f\u2028"), "one\n\ttwo");
  assert.equal(sanitizeText("x".repeat(50), 10), "x".repeat(10));
  fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => {
    // deno-lint-ignore no-control-regex
    return !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(sanitizeText(s));
  }));
});

Deno.test("exactName() keeps a printable name as it is and refuses any other", () => {
  for (
    const ok of ["dotnet-framework-4.8-expert", "Python Security Expert", "team@org/a_b:c", "é"]
  ) {
    assert.equal(exactName(ok), ok);
  }
  for (const bad of ['a"b', "a\tb", "a\nb", "a\u0007", " lead", "trail ", "", "a`b", "$(x)", 3]) {
    assert.equal(exactName(bad), undefined, JSON.stringify(bad));
  }
  assert.equal(exactName("a".repeat(128)), "a".repeat(128));
  assert.equal(exactName("a".repeat(129)), undefined);
});

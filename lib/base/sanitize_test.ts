import assert from "node:assert/strict";
import fc from "fast-check";
import { sanitizeLine, sanitizeLogValue, sanitizeName } from "./sanitize.ts";

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
  assert.equal(sanitizeLine("a\nb\u001b[2Jc"), "a b [2Jc");
  assert.equal(sanitizeLine("x".repeat(500)).length, 300);
});

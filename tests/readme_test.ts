/**
 * The README as users meet it (here and as the JSR landing page): at most 20,000 bytes, its
 * sections in the order a user needs them, and every relative link pointing at a file that exists.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

const README = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));

Deno.test("README: at most 20,000 bytes", () => {
  const bytes = new TextEncoder().encode(README).length;
  assert.ok(bytes <= 20_000, `README.md is ${bytes} bytes`);
});

Deno.test("README: sections in order: quick start, features, configuration, CLI, hosts, troubleshooting, uninstall", () => {
  const headings = README.split("\n").filter((l) => l.startsWith("## ")).map((l) => l.slice(3));
  const want = [
    "Quick start",
    "Features",
    "Configuration",
    "CLI reference",
    "Host support",
    "Troubleshooting",
    "Uninstall",
    "More documentation",
  ];
  assert.deepEqual(headings.filter((h) => want.includes(h)), want);
});

Deno.test("README: every relative link names a file of the repository", () => {
  const missing: string[] = [];
  for (const m of README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/.test(target)) continue;
    if (!existsSync(join(REPO_ROOT, target))) missing.push(target);
  }
  assert.deepEqual(missing, []);
});

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

Deno.test("docs: benchmarks.md holds at most 40,000 characters (current figures; history is in git)", () => {
  const text = Deno.readTextFileSync(join(REPO_ROOT, "docs", "benchmarks.md"));
  assert.ok(text.length <= 40_000, `docs/benchmarks.md is ${text.length} characters`);
});

Deno.test("docs: index.md links every page of docs/, and the README links the index", () => {
  const index = Deno.readTextFileSync(join(REPO_ROOT, "docs", "index.md"));
  const pages = [...Deno.readDirSync(join(REPO_ROOT, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md") && e.name !== "index.md")
    .map((e) => e.name).sort();
  assert.deepEqual(pages.filter((p) => !index.includes(`](${p})`)), []);
  assert.ok(README.includes("](docs/index.md)"));
});

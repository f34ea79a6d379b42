import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function* tsFiles(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* tsFiles(p);
    else if (e.isFile && e.name.endsWith(".ts")) yield p;
  }
}

Deno.test("lib/ never imports hooks/ (hook specs live in their feature folders)", () => {
  const offenders: string[] = [];
  const spec = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
  for (const file of tsFiles(join(ROOT, "lib"))) {
    for (const m of Deno.readTextFileSync(file).matchAll(spec)) {
      if (!m[1].startsWith(".")) continue;
      const target = relative(ROOT, join(file, "..", m[1]));
      if (target.startsWith("hooks/")) offenders.push(`${relative(ROOT, file)} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

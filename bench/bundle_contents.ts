/**
 * What each hook bundle (each hook's front and its core) holds: the modules `deno bundle` put in
 * it (from an unminified build with the same externals as `deno task gen`), each with its size
 * there, and the size of the committed minified bundle. A module that only a dynamic `import()` reaches is initialised on first use, but
 * its code is in the file and costs every start about 5 µs per KB to load (V8 code cache on).
 *
 * Run: `deno run -A bench/bundle_contents.ts` (prints Markdown).
 *
 * @module
 */

import { join } from "node:path";
import { BUNDLES, denoBundle, ENGINES, externalsOf, REPO_ROOT } from "../tools/gen.ts";

/** One module of a bundle. */
export interface BundledModule {
  /** Its path (relative to the repository, or the npm package and file). */
  readonly module: string;
  /** Its unminified size in the bundle, in bytes. */
  readonly bytes: number;
}

/**
 * Splits an unminified bundle at esbuild's `// <path>` module markers.
 *
 * @param code The bundle.
 * @returns Each module and its size, in bundle order (a module split in parts summed once).
 */
export function modulesOf(code: string): BundledModule[] {
  const sizes = new Map<string, number>();
  let current = "(runtime)";
  for (const line of code.split("\n")) {
    const m = /^\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(line);
    if (m) current = m[1].replace(/^.*\/registry\.npmjs\.org\//, "npm:");
    sizes.set(current, (sizes.get(current) ?? 0) + line.length + 1);
  }
  return [...sizes].map(([module, bytes]) => ({ module, bytes }));
}

function unminified(entry: string): Promise<string> {
  return denoBundle(entry, externalsOf(entry).external);
}

if (import.meta.main) {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines: string[] = [];
  for (const { path: bundle, source: entry } of BUNDLES) {
    const size = Deno.statSync(join(REPO_ROOT, bundle)).size;
    const mods = modulesOf(await unminified(entry)).filter((m) => m.module !== "(runtime)");
    lines.push(
      `- \`${bundle}\` (${kb(size)} minified): ` +
        mods.map((m) => `\`${m.module}\` ${kb(m.bytes)}`).join(", "),
    );
  }
  for (const e of ENGINES) {
    const size = Deno.statSync(join(REPO_ROOT, e.file)).size;
    lines.push(`- \`${e.file}\` (${kb(size)} minified): \`${e.npm}\``);
  }
  console.log(lines.join("\n"));
}

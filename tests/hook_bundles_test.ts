/**
 * The bundled hook files (`hooks/dist/*.js`, what setup and the plugin run) are built from the
 * current sources: a bundle left behind after a change of `lib/` fails here. Rebuild them with
 * `deno task bundle`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HOOKS } from "../lib/hook/table.ts";
import { REPO_ROOT } from "./_helpers.ts";

const rows = [...new Map(HOOKS.map((h) => [h.bundle, h])).values()];

for (const row of rows) {
  Deno.test(`${row.bundle} is the current bundle of ${row.entry} (deno task bundle)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "skillgate-bundle-" });
    try {
      const out = join(dir, "bundle.js");
      const built = await new Deno.Command(Deno.execPath(), {
        args: [
          "bundle",
          "--quiet",
          "--no-config",
          "--minify",
          "-o",
          out,
          join(REPO_ROOT, row.entry),
        ],
        cwd: REPO_ROOT,
      }).output();
      assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
      const fresh = Deno.readTextFileSync(out);
      const committed = Deno.readTextFileSync(join(REPO_ROOT, row.bundle));
      assert.ok(
        fresh === committed,
        `${row.bundle} is stale: run deno task bundle (${fresh.length} vs ${committed.length} bytes)`,
      );
      assert.ok(!/\/(?:root|home|tmp|work)\//.test(committed), "no machine path in the bundle");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

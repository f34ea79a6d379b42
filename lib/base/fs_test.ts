import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, NotRegularFileError, openRegularFile } from "./fs.ts";

Deno.test("exists() sees files, directories and links, and a dangling link only unfollowed", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skillgate-fs-" });
  try {
    const file = join(dir, "f");
    Deno.writeTextFileSync(file, "x");
    Deno.symlinkSync(file, join(dir, "good"));
    Deno.symlinkSync(join(dir, "gone"), join(dir, "dangling"));
    for (const follow of [false, true]) {
      const opts = { followSymlinks: follow };
      assert.equal(exists(dir, opts), true);
      assert.equal(exists(file, opts), true);
      assert.equal(exists(join(dir, "good"), opts), true);
      assert.equal(exists(join(dir, "missing"), opts), false);
      assert.equal(exists(join(file, "under-a-file"), opts), false);
    }
    assert.equal(exists(join(dir, "dangling")), true);
    assert.equal(exists(join(dir, "dangling"), { followSymlinks: true }), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("openRegularFile() refuses a FIFO, a folder and a device at once, and opens a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/fifo`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const cases: [string, RegExp][] = [[dir, /a folder/], ["/dev/null", /a device/]];
    if (made.success) cases.push([fifo, /a FIFO/]);
    for (const [path, what] of cases) {
      await assert.rejects(
        openRegularFile(path),
        (e) => e instanceof NotRegularFileError && what.test(e.message),
      );
    }
    Deno.writeTextFileSync(`${dir}/f`, "x");
    const file = await openRegularFile(`${dir}/f`);
    file.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

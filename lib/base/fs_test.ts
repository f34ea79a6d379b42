import assert from "node:assert/strict";
import { join } from "node:path";
import {
  exists,
  FileTooLargeError,
  NotRegularFileError,
  openRegularFile,
  readRegularFileSync,
  readRegularTextSync,
} from "./fs.ts";

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

Deno.test("readRegularTextSync() refuses a FIFO with no writer, a link to /dev/zero and a file over its cap, unread", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skillgate-fs-" });
  try {
    const fifo = join(dir, "fifo");
    assert.ok(new Deno.Command("mkfifo", { args: [fifo] }).outputSync().success, "mkfifo");
    Deno.symlinkSync("/dev/zero", join(dir, "zero"));
    const big = join(dir, "big");
    Deno.writeTextFileSync(big, "");
    Deno.truncateSync(big, 64 * 1024 * 1024 + 1);
    const cases: [string, (e: unknown) => boolean][] = [
      [fifo, (e) => e instanceof NotRegularFileError && /a FIFO/.test(e.message)],
      [join(dir, "zero"), (e) => e instanceof NotRegularFileError && /a device/.test(e.message)],
      [dir, (e) => e instanceof NotRegularFileError && /a folder/.test(e.message)],
      [big, (e) => e instanceof FileTooLargeError && e.message === "Larger than 1048576 bytes"],
    ];
    for (const [path, refused] of cases) {
      assert.throws(() => readRegularTextSync(path, 1024 * 1024), refused);
    }
    assert.throws(() => readRegularTextSync(join(dir, "gone"), 10), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readRegularTextSync() reads a file up to its cap, through a link, as readTextFileSync decodes it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skillgate-fs-" });
  try {
    const file = join(dir, "f");
    Deno.writeFileSync(file, new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69, 0xff]));
    Deno.symlinkSync(file, join(dir, "link"));
    for (const path of [file, join(dir, "link")]) {
      assert.equal(readRegularTextSync(path, 6), Deno.readTextFileSync(file));
    }
    assert.deepEqual(readRegularFileSync(file, 6), Deno.readFileSync(file));
    assert.throws(() => readRegularFileSync(file, 5), FileTooLargeError);
    Deno.writeTextFileSync(join(dir, "empty"), "");
    assert.equal(readRegularTextSync(join(dir, "empty"), 0), "");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

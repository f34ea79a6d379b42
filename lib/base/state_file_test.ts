import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CorruptFileError,
  isSafeFileStem,
  LockTimeoutError,
  markStateRoot,
  openStateFile,
  readJsonFile,
  StateFileRefusedError,
  withLock,
  writeCacheFile,
  writeFileAtomic,
} from "./state_file.ts";

Deno.test("writeFileAtomic() writes private files and leaves no temp file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "a", "b", "record.json");
    writeFileAtomic(path, '{"x":1}');
    writeFileAtomic(path, '{"x":2}');
    assert.equal(Deno.readTextFileSync(path), '{"x":2}');
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    assert.equal(Deno.statSync(join(dir, "a")).mode! & 0o777, 0o700);
    assert.deepEqual([...Deno.readDirSync(join(dir, "a", "b"))].map((e) => e.name), [
      "record.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() leaves the old file intact when the write fails", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "record.json");
    writeFileAtomic(path, "old");
    Deno.chmodSync(dir, 0o500);
    if (Deno.uid() === 0) {
      // root ignores directory modes: make the rename fail instead by turning the target into a dir.
      Deno.chmodSync(dir, 0o700);
      const target = join(dir, "as-dir");
      Deno.mkdirSync(join(target, "child"), { recursive: true });
      assert.throws(() => writeFileAtomic(target, "new"));
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
        "as-dir",
        "record.json",
      ]);
    } else {
      assert.throws(() => writeFileAtomic(path, "new"));
    }
    assert.equal(Deno.readTextFileSync(path), "old");
  } finally {
    Deno.chmodSync(dir, 0o700);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLock() serialises processes that race on one file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const counter = join(dir, "counter.txt");
    Deno.writeTextFileSync(counter, "0");
    const script = join(dir, "inc.ts");
    const lib = new URL("./state_file.ts", import.meta.url).href;
    Deno.writeTextFileSync(
      script,
      `import { withLock, writeFileAtomic } from "${lib}";
for (let i = 0; i < 20; i++) {
  withLock(${JSON.stringify(counter + ".lock")}, () => {
    const n = Number(Deno.readTextFileSync(${JSON.stringify(counter)}));
    writeFileAtomic(${JSON.stringify(counter)}, String(n + 1));
  }, { timeoutMs: 20000 });
}`,
    );
    const procs = Array.from(
      { length: 4 },
      () =>
        new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--no-config", script] }).output(),
    );
    const results = await Promise.all(procs);
    for (const r of results) assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
    assert.equal(Deno.readTextFileSync(counter), "80");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLock() times out while another holder keeps the lock", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lock = join(dir, "x.lock");
    const holder = Deno.openSync(lock, { read: true, write: true, create: true });
    // Locks are per open file description: a second description conflicts even in one process.
    holder.lockSync(true);
    assert.throws(() => withLock(lock, () => 1, { timeoutMs: 50 }), LockTimeoutError);
    holder.unlockSync();
    holder.close();
    assert.equal(withLock(lock, () => 7), 7);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonFile() reports corrupt and oversized files, undefined for missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(readJsonFile(join(dir, "none.json")), undefined);
    Deno.writeTextFileSync(join(dir, "bad.json"), '{"truncated":');
    assert.throws(() => readJsonFile(join(dir, "bad.json")), CorruptFileError);
    Deno.writeTextFileSync(join(dir, "big.json"), "[" + "1,".repeat(100) + "1]");
    assert.throws(() => readJsonFile(join(dir, "big.json"), 10), /larger than 10 bytes/);
    Deno.writeTextFileSync(join(dir, "ok.json"), '{"a":[1]}');
    assert.deepEqual(readJsonFile(join(dir, "ok.json")), { a: [1] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isSafeFileStem() accepts session ids and refuses path tricks", () => {
  assert.ok(isSafeFileStem("3f2a6c1e-9b7d-4c2a-8f1e-0a1b2c3d4e5f"));
  assert.ok(isSafeFileStem("abc_DEF-123"));
  for (
    const bad of [
      "",
      "..",
      "../x",
      "a/b",
      "a\\b",
      "-rf",
      ".hidden",
      "a b",
      "x".repeat(129),
      5,
      null,
    ]
  ) {
    assert.equal(isSafeFileStem(bad), false, String(bad));
  }
});

Deno.test("state files planted as symbolic links are refused: the file outside is neither read nor changed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const state = join(dir, "state");
    Deno.mkdirSync(state);
    const outside = join(dir, "outside.json");
    const secret = '{"count":41,"blocked":["toolu_x"],"secret":"outside"}\n';
    Deno.writeTextFileSync(outside, secret);
    const link = (name: string) => {
      const path = join(state, name);
      Deno.symlinkSync(outside, path);
      return path;
    };
    // Reads.
    const record = link("record.json");
    assert.throws(() => readJsonFile(record), StateFileRefusedError);
    assert.throws(() => openStateFile(record, { read: true }), /symbolic link/);
    // Appends and locks (create: true would otherwise open, or make, the file it points at).
    assert.throws(
      () => openStateFile(record, { append: true, create: true, mode: 0o600 }),
      StateFileRefusedError,
    );
    let ran = false;
    assert.throws(() => withLock(link("record.json.lock"), () => (ran = true)), (err) => {
      assert.ok(err instanceof StateFileRefusedError);
      assert.equal(err.path, join(state, "record.json.lock"));
      return true;
    });
    assert.equal(ran, false);
    // A dangling link is refused too: nothing is made where it points.
    const nowhere = join(dir, "made-by-the-link");
    Deno.symlinkSync(nowhere, join(state, "dangling.lock"));
    assert.throws(() => withLock(join(state, "dangling.lock"), () => 1), StateFileRefusedError);
    assert.throws(() => Deno.lstatSync(nowhere), Deno.errors.NotFound);
    // An atomic write replaces the link itself, never the file it points at.
    writeFileAtomic(record, '{"x":1}');
    assert.equal(Deno.lstatSync(record).isSymlink, false);
    assert.equal(Deno.readTextFileSync(outside), secret);
    // A regular file, and a missing one, are fine.
    assert.deepEqual(readJsonFile(record), { x: 1 });
    assert.equal(readJsonFile(join(state, "missing.json")), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs `fn` with `root` marked as a state root. */
function underRoot<T>(root: string, fn: () => T): T {
  markStateRoot(root);
  return fn();
}

Deno.test("a state folder that is a symbolic link is refused by every write, lock and read, its target untouched", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const root = join(dir, "state");
    const outside = join(dir, "outside");
    Deno.mkdirSync(join(root, "catalog"), { recursive: true });
    Deno.mkdirSync(join(outside, "deep"), { recursive: true });
    Deno.writeTextFileSync(join(outside, "skills.json"), "mine");
    Deno.symlinkSync(outside, join(root, "linked"));
    Deno.symlinkSync(join(outside, "deep"), join(root, "catalog", "deep"));
    underRoot(root, () => {
      const refused = (e: unknown) =>
        e instanceof StateFileRefusedError &&
        /state folder that is a symbolic link/.test(e.message);
      for (
        const path of [join(root, "linked", "skills.json"), join(root, "catalog", "deep", "x")]
      ) {
        assert.throws(() => writeFileAtomic(path, "theirs"), refused);
        assert.throws(() => withLock(`${path}.lock`, () => 1), refused);
        assert.throws(() => readJsonFile(path), refused);
        assert.throws(() => openStateFile(path, { append: true, create: true }), refused);
      }
      // Real folders are made as needed, 0700.
      writeFileAtomic(join(root, "new", "sub", "f.json"), "{}");
      assert.equal(Deno.statSync(join(root, "new", "sub")).mode! & 0o777, 0o700);
    });
    assert.equal(Deno.readTextFileSync(join(outside, "skills.json")), "mine");
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), [
      "deep",
      "skills.json",
    ]);
    assert.deepEqual([...Deno.readDirSync(join(outside, "deep"))], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an orphan temp file of a locked write (its writer killed before the rename) is removed by the next writer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "record.json");
    const orphan = join(dir, ".record.json.tmp");
    Deno.writeTextFileSync(orphan, '{"half":');
    withLock(`${path}.lock`, () => writeFileAtomic(path, '{"x":1}'));
    assert.equal(Deno.readTextFileSync(path), '{"x":1}');
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "record.json",
      "record.json.lock",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeCacheFile(): a temp file left by a writer killed before its rename is removed by the next writer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "routes.idx");
    Deno.writeTextFileSync(join(dir, ".routes.idx.tmp"), "half a");
    writeCacheFile(path, "whole\n");
    assert.equal(Deno.readTextFileSync(path), "whole\n");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "routes.idx",
      "routes.idx.lock",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeCacheFile(): writers killed mid-write leave no temp file behind the next write, and readers see whole files only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "skills.json");
    // Two contents a reader tells apart, large enough that a kill often lands mid-write.
    const big = (c: string) => c.repeat(2 * 1024 * 1024);
    const script = join(dir, "writer.ts");
    Deno.writeTextFileSync(
      script,
      `import { writeCacheFile } from ${
        JSON.stringify(new URL("./state_file.ts", import.meta.url).href)
      };\n` +
        `const a = "a".repeat(2 * 1024 * 1024), b = "b".repeat(2 * 1024 * 1024);\n` +
        `const nap = new Int32Array(new SharedArrayBuffer(4));\n` +
        `for (let i = 0, done = 0; ; i++) {\n` +
        `  try { writeCacheFile(${
          JSON.stringify(path)
        }, i % 2 ? a : b, 5000); done++; } catch { /* busy */ }\n` +
        `  if (done === 2) console.log("writing");\n` +
        `  Atomics.wait(nap, 0, 0, 1);\n` +
        `}\n`,
    );
    const whole = new Set([big("a"), big("b")]);
    let leftovers = 0;
    for (let round = 0; round < 3; round++) {
      // Two writers race on the file, as two hooks of one prompt do.
      const writers = [0, 1].map(() =>
        new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--no-prompt", script],
          stdout: "piped",
          stderr: "null",
        }).spawn()
      );
      // Once both are at work (each has written twice), the reader reads until the kills.
      for (const w of writers) await w.stdout.getReader().read();
      const until = Date.now() + 100 + 50 * round;
      let reads = 0;
      while (Date.now() < until) {
        let text: string;
        try {
          text = Deno.readTextFileSync(path);
        } catch {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        assert.ok(whole.has(text), `a reader saw a partial file (${text.length} bytes)`);
        reads++;
        await new Promise((r) => setTimeout(r, 1));
      }
      for (const w of writers) w.kill("SIGKILL");
      await Promise.all(writers.map((w) => w.status));
      assert.ok(reads > 0);
      const names = () =>
        [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".tmp"));
      leftovers += names().length;
      writeCacheFile(path, big("a"));
      assert.deepEqual(names(), [], "the next writer removed what the killed ones left");
      assert.equal(Deno.readTextFileSync(path), big("a"));
    }
    // Not asserted (it depends on where the kills land), said when the test is run verbosely.
    console.log(`temp files left by the kills and then removed: ${leftovers}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CLAIM_WINDOW_MS,
  claimEvent,
  eventKey,
  SIBLING_MS,
  transcriptStamp,
} from "./event_claim.ts";

const KEY = "0123456789abcdef0123456789abcdef";
/** Keys of winners that never look for a sweep (only keys starting with 0 do). */
const NO_SWEEP = "1123456789abcdef0123456789abcdef";

Deno.test("claimEvent: the first claim of an event answers, the next one of the same event is silent", () => {
  const dir = join(Deno.makeTempDirSync(), "claims");
  assert.deepEqual(claimEvent(dir, KEY), { first: true });
  assert.deepEqual(claimEvent(dir, KEY), { first: false });
  assert.deepEqual(claimEvent(dir, KEY.replace("0", "1")), { first: true });
  assert.equal((Deno.statSync(dir).mode ?? 0) & 0o777, 0o700);
  assert.equal((Deno.statSync(join(dir, KEY)).mode ?? 0) & 0o777, 0o600);
});

Deno.test("claimEvent: a claim past the window is a new event, claimed once again", () => {
  const dir = Deno.makeTempDirSync();
  assert.equal(claimEvent(dir, KEY).first, true);
  const old = (Date.now() - CLAIM_WINDOW_MS - 5_000) / 1000;
  Deno.utimeSync(join(dir, KEY), old, old);
  assert.equal(claimEvent(dir, KEY).first, true);
  assert.equal(claimEvent(dir, KEY).first, false);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n !== ".swept"), [
    KEY,
  ]);
});

Deno.test("claimEvent: the winner sweeps claims past the window, once per window", () => {
  const dir = Deno.makeTempDirSync();
  const now = Date.now();
  const old = (now - 3 * CLAIM_WINDOW_MS) / 1000;
  for (const k of ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]) {
    Deno.writeTextFileSync(join(dir, k), "");
    Deno.utimeSync(join(dir, k), old, old);
  }
  Deno.writeTextFileSync(join(dir, "user-file"), "");
  Deno.utimeSync(join(dir, "user-file"), old, old);
  assert.equal(claimEvent(dir, KEY, now).first, true);
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(left, [".swept", KEY, "user-file"]);
  // Within the window no sweep runs: an old claim planted now stays until the next one.
  Deno.writeTextFileSync(join(dir, "cccccccccccccccc"), "");
  Deno.utimeSync(join(dir, "cccccccccccccccc"), old, old);
  assert.equal(claimEvent(dir, "0" + "2".repeat(31), now).first, true);
  assert.ok(Deno.statSync(join(dir, "cccccccccccccccc")).isFile);
  // Past the window a winner whose key starts with 0 sweeps; the others never look.
  assert.equal(claimEvent(dir, NO_SWEEP, now + 2 * CLAIM_WINDOW_MS).first, true);
  assert.ok(Deno.statSync(join(dir, "cccccccccccccccc")).isFile);
  assert.equal(claimEvent(dir, "0" + "3".repeat(31), now + 2 * CLAIM_WINDOW_MS).first, true);
  assert.throws(() => Deno.statSync(join(dir, "cccccccccccccccc")), Deno.errors.NotFound);
});

Deno.test("claimEvent: a linked claims folder or claim, or a bad key, answers (fails open) with the reason", () => {
  const root = Deno.makeTempDirSync();
  const elsewhere = join(root, "elsewhere");
  Deno.mkdirSync(elsewhere);
  Deno.symlinkSync(elsewhere, join(root, "claims"));
  const linked = claimEvent(join(root, "claims"), KEY);
  assert.equal(linked.first, true);
  assert.match(linked.error ?? "", /symbolic link/);
  assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
  const dir = join(root, "real");
  Deno.mkdirSync(dir);
  Deno.symlinkSync(join(root, "target"), join(dir, KEY));
  const planted = claimEvent(dir, KEY);
  assert.equal(planted.first, true);
  assert.match(planted.error ?? "", /not a file/);
  assert.equal(claimEvent(dir, "../x").first, true);
});

Deno.test("eventKey: the same hook and payload give the same key; another hook, id or text another", () => {
  const payload = { session_id: "s", prompt_id: "p", prompt: "fix it" };
  const text = JSON.stringify(payload);
  const a = eventKey("skill-route", text, payload);
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.equal(eventKey("skill-route", text, JSON.parse(text)), a);
  assert.notEqual(eventKey("skill-contract", text, payload), a);
  const q = { ...payload, prompt_id: "q" };
  assert.notEqual(eventKey("skill-route", JSON.stringify(q), q), a);
  // An id in the middle of a long payload still tells two events apart.
  const long = (id: string) => ({
    last_assistant_message: "x".repeat(50_000),
    prompt_id: id,
    z: "y".repeat(5_000),
  });
  const l1 = long("1");
  const l2 = long("2");
  assert.notEqual(
    eventKey("skill-contract", JSON.stringify(l1), l1),
    eventKey("skill-contract", JSON.stringify(l2), l2),
  );
  const m1 = { m: "a" + "x".repeat(5_000) + "b" };
  const m2 = { m: "a" + "x".repeat(4_999) + "bb" };
  assert.notEqual(eventKey("h", JSON.stringify(m1), m1), eventKey("h", JSON.stringify(m2), m2));
});

Deno.test("claimEvent: of 8 processes claiming one event at once, exactly one answers", async () => {
  const dir = Deno.makeTempDirSync();
  const script = join(dir, "claim.ts");
  Deno.writeTextFileSync(
    script,
    `import { claimEvent } from ${
      JSON.stringify(new URL("./event_claim.ts", import.meta.url).href)
    };
const start = Number(Deno.args[1]);
while (Date.now() < start) { /* start together */ }
console.log(claimEvent(Deno.args[0], ${JSON.stringify(KEY)}).first ? "first" : "silent");`,
  );
  for (let round = 0; round < 3; round++) {
    const claims = join(dir, `claims${round}`);
    const start = String(Date.now() + 1500);
    const runs = await Promise.all(
      Array.from({ length: 8 }, () =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--no-prompt",
            `--allow-read=${dir}`,
            `--allow-write=${dir}`,
            script,
            claims,
            start,
          ],
          stdout: "piped",
        }).output()),
    );
    const said = runs.map((r) => new TextDecoder().decode(r.stdout).trim()).sort();
    assert.deepEqual(said, ["first", ...Array(7).fill("silent")]);
  }
});

Deno.test("claimEvent: a stop's claim of another transcript stamp is another stop past SIBLING_MS, the same stop within it", () => {
  const dir = Deno.makeTempDirSync();
  const now = Date.now();
  assert.equal(claimEvent(dir, NO_SWEEP, now, CLAIM_WINDOW_MS, "10:1").first, true);
  assert.equal(Deno.readTextFileSync(join(dir, NO_SWEEP)), "10:1");
  // A registration of the same stop that saw the transcript grow under it: still the same stop.
  // The claim's age is read from its file's mtime, which the file system may set a few ms before
  // `now` (a coarse clock): count from it.
  const made = Deno.statSync(join(dir, NO_SWEEP)).mtime!.getTime();
  assert.equal(
    claimEvent(dir, NO_SWEEP, made + SIBLING_MS - 1, CLAIM_WINDOW_MS, "20:2").first,
    false,
  );
  // Without a stamp (no read grant), or with the same one: the same stop.
  assert.equal(claimEvent(dir, NO_SWEEP, now + 5_000).first, false);
  assert.equal(claimEvent(dir, NO_SWEEP, now + 5_000, CLAIM_WINDOW_MS, "10:1").first, false);
  // Past it, another stamp: another stop, claimed once.
  assert.equal(claimEvent(dir, NO_SWEEP, now + 5_000, CLAIM_WINDOW_MS, "20:2").first, true);
  assert.equal(Deno.readTextFileSync(join(dir, NO_SWEEP)), "20:2");
  assert.equal(claimEvent(dir, NO_SWEEP, now + 5_000, CLAIM_WINDOW_MS, "20:2").first, false);
  // A claim made without a stamp is never taken for another stop's.
  const other = "2" + NO_SWEEP.slice(1);
  assert.equal(claimEvent(dir, other, now).first, true);
  assert.equal(claimEvent(dir, other, now + 5_000, CLAIM_WINDOW_MS, "30:3").first, false);
});

Deno.test("transcriptStamp: size and mtime of a file; nothing for a folder, a missing path or none", () => {
  const dir = Deno.makeTempDirSync();
  const file = join(dir, "t.jsonl");
  Deno.writeTextFileSync(file, "abc\n");
  Deno.utimeSync(file, 1_000, 1_000);
  assert.equal(transcriptStamp(file), "4:1000000");
  assert.equal(transcriptStamp(dir), undefined);
  assert.equal(transcriptStamp(join(dir, "missing")), undefined);
  assert.equal(transcriptStamp(undefined), undefined);
});

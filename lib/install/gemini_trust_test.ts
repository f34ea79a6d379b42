import assert from "node:assert/strict";
import { join } from "node:path";
import { geminiFolderTrusted, geminiProjectHookTrust, geminiTrustLines } from "./gemini_trust.ts";

async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-gemini-trust-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("geminiFolderTrusted(): the longest matching rule decides; TRUST_PARENT trusts the parent", async () => {
  await withDir((dir) => {
    const places = { configDir: dir };
    assert.equal(geminiFolderTrusted(places, "/work/p"), undefined, "no file");
    Deno.writeTextFileSync(
      join(dir, "trustedFolders.json"),
      JSON.stringify({
        "/work": "TRUST_FOLDER",
        "/work/secret": "DO_NOT_TRUST",
        "/other/repo/x": "TRUST_PARENT",
      }),
    );
    assert.equal(geminiFolderTrusted(places, "/work/p"), true);
    assert.equal(geminiFolderTrusted(places, "/work/secret/p"), false);
    assert.equal(geminiFolderTrusted(places, "/other/repo/y"), true);
    assert.equal(geminiFolderTrusted(places, "/elsewhere"), undefined);
    assert.equal(geminiFolderTrusted(places, "/workshop"), undefined, "a prefix is no parent");
  });
});

Deno.test("geminiProjectHookTrust(): trusted, warns once, or skipped in an untrusted folder", async () => {
  await withDir((dir) => {
    const places = { configDir: dir };
    const hooks = [{ name: "skillgate-skill-route", command: "deno run a" }, {
      name: "skillgate-skill-contract",
      command: "deno run b",
    }];
    assert.deepEqual(geminiProjectHookTrust(places, "/work/p", hooks), [
      "folder-untrusted",
      "folder-untrusted",
    ]);
    Deno.writeTextFileSync(
      join(dir, "trustedFolders.json"),
      JSON.stringify({ "/work/p": "TRUST_FOLDER" }),
    );
    Deno.writeTextFileSync(
      join(dir, "trusted_hooks.json"),
      JSON.stringify({ "/work/p": ["skillgate-skill-route:deno run a", "other:x"] }),
    );
    assert.deepEqual(geminiProjectHookTrust(places, "/work/p", hooks), [
      "trusted",
      "warns-once",
    ]);
    const moved = { ...places, trustedFoldersPath: join(dir, "none.json") };
    assert.deepEqual(geminiProjectHookTrust(moved, "/work/p", hooks.slice(0, 1)), [
      "folder-untrusted",
    ]);
  });
});

Deno.test("geminiTrustLines(): doctor's line per hook", async () => {
  await withDir((dir) => {
    const hook = { hookId: "skill-route", event: "BeforeAgent", file: "/p/.gemini/settings.json" };
    const lines = geminiTrustLines({ configDir: dir }, "/p", "Gemini CLI", [
      { ...hook, command: "deno run a" },
    ]);
    assert.equal(lines[0].status, "warn");
    assert.match(lines[0].text, /\/p is not a trusted folder in Gemini CLI/);
    Deno.writeTextFileSync(
      join(dir, "trustedFolders.json"),
      JSON.stringify({ "/p": "TRUST_FOLDER" }),
    );
    assert.equal(
      geminiTrustLines({ configDir: dir }, "/p", "Gemini CLI", [{ ...hook, command: "x" }])[0]
        .status,
      "note",
    );
  });
});

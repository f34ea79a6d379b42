import assert from "node:assert/strict";
import { denoRunArgs, hookRow, HOOKS, hostRegistration, permissionFlags } from "./table.ts";
import { TURN_READERS } from "../transcript/turn_readers.ts";
import { HOSTS } from "../host/mod.ts";
import { claudeFolders } from "../host/_kit_test.ts";

const PATHS = { stateRoot: "/h/.skillgate", hostFolders: claudeFolders("/h/.claude") };

Deno.test("every hook row has an entry file that exists and an export in deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  for (const row of HOOKS) {
    assert.ok(Deno.statSync(new URL(`../../${row.entry}`, import.meta.url)).isFile, row.entry);
    assert.equal(config.exports[row.exportKey], `./${row.entry}`, row.exportKey);
    assert.ok(Deno.statSync(new URL(`../../${row.bundle}`, import.meta.url)).isFile, row.bundle);
  }
});

Deno.test("no hook is granted run, net, ffi or all permissions", () => {
  for (const row of HOOKS) {
    const args = denoRunArgs(row, PATHS, `/repo/${row.entry}`);
    assert.deepEqual(args.slice(0, 4), ["run", "--quiet", "--no-prompt", "--no-config"]);
    for (const a of args) {
      assert.ok(!/^(-A|--allow-all|--allow-run|--allow-net|--allow-ffi|--allow-sys)/.test(a), a);
    }
  }
});

Deno.test("routing and contracts write the state root only; redirect only its logs, markers and the event claims", () => {
  const write = (id: Parameters<typeof hookRow>[0]) =>
    permissionFlags(hookRow(id), PATHS).find((f) => f.startsWith("--allow-write="));
  assert.equal(write("skill-route"), "--allow-write=/h/.skillgate");
  assert.equal(write("skill-contract"), "--allow-write=/h/.skillgate");
  assert.equal(
    write("skill-redirect"),
    "--allow-write=/h/.skillgate/hooks,/h/.skillgate/skill-redirect,/h/.skillgate/claims",
  );
  const read = (id: Parameters<typeof hookRow>[0]) =>
    permissionFlags(hookRow(id), PATHS).find((f) => f.startsWith("--allow-read="))!;
  assert.ok(!read("skill-route").includes("/h/.claude/projects"), "routing reads no transcripts");
  assert.ok(read("skill-contract").includes("/h/.claude/projects"));
  assert.ok(read("skill-redirect-stop").includes("/h/.claude/agents"));
  assert.ok(!read("skill-route").includes("/h/.claude/agents"));
});

Deno.test("permissionFlags() refuses a path with a comma", () => {
  assert.throws(
    () => permissionFlags(hookRow("skill-route"), { ...PATHS, stateRoot: "/a,b" }),
    /comma/,
  );
});

Deno.test("the redirect's Stop row reads exactly the formats that have a turn reader", () => {
  assert.deepEqual(
    [...(hookRow("skill-redirect-stop").transcripts ?? [])].sort(),
    Object.keys(TURN_READERS).sort(),
  );
  // A host gets it only when it declares its unknown-skill error.
  for (const host of HOSTS) {
    const reg = hostRegistration(host, hookRow("skill-redirect-stop"));
    if (host.unknownSkill === undefined) assert.equal(reg, undefined, host.kind);
  }
});

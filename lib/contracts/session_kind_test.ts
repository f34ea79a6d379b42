import assert from "node:assert/strict";
import { detectSessionKind, isUnattended, sessionKind } from "./session_kind.ts";
import { HOOK_ENV } from "../hook/table.ts";
import { SESSION_KIND_ENV } from "./session_kind.ts";
import { main } from "../cli/session_kind_command.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("sessionKind() is interactive with no markers", () => {
  assert.equal(sessionKind(env({})), "interactive");
  assert.deepEqual(detectSessionKind(env({})), { kind: "interactive", marker: "default" });
});

Deno.test("sessionKind() reads CLAUDE_CODE_ENTRYPOINT: cli interactive, sdk-cli headless, sdk-ts/py spawned", () => {
  assert.equal(sessionKind(env({ CLAUDE_CODE_ENTRYPOINT: "cli" })), "interactive");
  assert.equal(sessionKind(env({ CLAUDE_CODE_ENTRYPOINT: "sdk-cli" })), "headless");
  assert.equal(sessionKind(env({ CLAUDE_CODE_ENTRYPOINT: "sdk-ts" })), "spawned");
  assert.equal(sessionKind(env({ CLAUDE_CODE_ENTRYPOINT: "sdk-py" })), "spawned");
});

Deno.test("sessionKind() is interactive on any doubt (unknown entrypoints and words)", () => {
  for (const v of ["claude-vscode", "claude-desktop", "something-new", "sdk-", "sdk-a b"]) {
    assert.equal(sessionKind(env({ CLAUDE_CODE_ENTRYPOINT: v })), "interactive", v);
  }
  assert.equal(sessionKind(env({ SKILLGATE_HEADLESS: "maybe" })), "interactive");
  assert.equal(sessionKind(env({ CI: "false" })), "interactive");
  assert.equal(sessionKind(env({ CI: "0" })), "interactive");
  assert.equal(sessionKind(env({ GITHUB_ACTIONS: "false" })), "interactive");
  assert.equal(
    sessionKind(() => {
      throw new Error("no env");
    }),
    "interactive",
  );
});

Deno.test("sessionKind() treats CI and GITHUB_ACTIONS as headless", () => {
  assert.equal(sessionKind(env({ CI: "true" })), "headless");
  assert.equal(sessionKind(env({ CI: "1" })), "headless");
  assert.equal(sessionKind(env({ GITHUB_ACTIONS: "true" })), "headless");
  assert.equal(detectSessionKind(env({ GITHUB_ACTIONS: "true" })).marker, "GITHUB_ACTIONS=true");
});

Deno.test("sessionKind() lets SKILLGATE_HEADLESS decide first", () => {
  assert.equal(sessionKind(env({ SKILLGATE_HEADLESS: "1" })), "headless");
  assert.equal(sessionKind(env({ SKILLGATE_HEADLESS: "spawned" })), "spawned");
  assert.equal(sessionKind(env({ SKILLGATE_HEADLESS: "0", CI: "true" })), "interactive");
  assert.equal(
    sessionKind(env({ SKILLGATE_HEADLESS: "off", CLAUDE_CODE_ENTRYPOINT: "sdk-ts" })),
    "interactive",
  );
  assert.equal(
    sessionKind(env({ SKILLGATE_HEADLESS: "yes", CLAUDE_CODE_ENTRYPOINT: "cli" })),
    "headless",
  );
});

Deno.test("isUnattended() is true for spawned and headless only", () => {
  assert.equal(isUnattended("spawned"), true);
  assert.equal(isUnattended("headless"), true);
  assert.equal(isUnattended("interactive"), false);
});

Deno.test("session kind reads only environment names the hooks may read", () => {
  for (const name of SESSION_KIND_ENV) assert.ok(HOOK_ENV.includes(name), name);
});

async function runCli(args: string[], vars: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--no-config",
      `--allow-env=${SESSION_KIND_ENV.join(",")}`,
      "--allow-read",
      new URL("../../cli.ts", import.meta.url).pathname,
      "session-kind",
      ...args,
    ],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", ...vars },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout).trim() };
}

Deno.test("skillgate session-kind prints the kind from the environment", async () => {
  assert.deepEqual(await runCli([], {}), { code: 0, stdout: "interactive" });
  assert.deepEqual(await runCli([], { CLAUDE_CODE_ENTRYPOINT: "sdk-cli" }), {
    code: 0,
    stdout: "headless",
  });
  assert.deepEqual(await runCli([], { CLAUDE_CODE_ENTRYPOINT: "sdk-ts" }), {
    code: 0,
    stdout: "spawned",
  });
  const j = await runCli(["--json"], { CI: "true" });
  assert.deepEqual(JSON.parse(j.stdout), { kind: "headless", marker: "CI" });
});

Deno.test("skillgate session-kind exits 2 on an unknown argument", async () => {
  const saved = console.error;
  console.error = () => {};
  try {
    assert.equal(await main(["--bogus"]), 2);
  } finally {
    console.error = saved;
  }
});

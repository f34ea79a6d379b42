import assert from "node:assert/strict";
import { join } from "node:path";
import { parseSetupArgs, runSetup, type SetupContext, skillgateOwner } from "./setup.ts";
import { runUninstall } from "./uninstall.ts";
import { findRegistrations, registrationFiles } from "./registrations.ts";
import { listOwnedHooks } from "../host/hook_file.ts";
import { GEMINI } from "../host/gemini.ts";
import { parseJsonc } from "../host/json_edit.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/**
 * A Gemini CLI settings.json as a person keeps it: line and block comments before, after and
 * beside keys, on the last key's line, inside the hooks, a URL with `//` in a string.
 */
const COMMENTED = `// Gemini CLI settings, kept by hand
{
  /* auth: the API key is in the environment */
  "security": { "auth": { "selectedType": "gemini-api-key" } }, // not OAuth
  "general": {
    "disableAutoUpdate": true // pinned
  },
  // my own hook
  "hooks": {
    "SessionStart": [
      { "hooks": [{ "type": "command", "name": "mine", "command": "true", "timeout": 5000 }] } // start
    ]
    /* more hooks later */
  },
  "mcpServers": { "docs": { "httpUrl": "https://example.com//mcp" } } // the last key
}
`;

/** Strips comments as Gemini CLI does (`strip-json-comments`, then `JSON.parse`). */
function asGeminiReads(text: string): unknown {
  return parseJsonc(text);
}

async function world(): Promise<{ dir: string; ctx: SetupContext; out: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-gemini-settings-" });
  for (const d of ["home", "state", "gemini", "project/.git"]) {
    await Deno.mkdir(join(dir, d), { recursive: true });
  }
  const out: string[] = [];
  const ctx: SetupContext = {
    stateRoot: join(dir, "state"),
    claudeConfigDir: join(dir, "claude"),
    home: join(dir, "home"),
    hostDirs: {
      claude: join(dir, "claude"),
      copilot: join(dir, "copilot"),
      codex: join(dir, "codex"),
      gemini: join(dir, "gemini"),
    },
    cwd: join(dir, "project"),
    denoPath: "/usr/local/bin/deno",
    source: { kind: "local", root: ROOT },
    print: (l) => out.push(l),
    warn: (l) => out.push(l),
  };
  return { dir, ctx, out };
}

function setupArgs(list: string[]) {
  const parsed = parseSetupArgs(list);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

Deno.test("setup --gemini edits a settings.json with comments, keeping every comment; --uninstall gives back the same bytes", async () => {
  const { dir, ctx, out } = await world();
  try {
    const file = join(ctx.hostDirs.gemini, "settings.json");
    await Deno.writeTextFile(file, COMMENTED);
    assert.equal(await runSetup(setupArgs(["--gemini"]), ctx), 0, out.join("\n"));
    const text = await Deno.readTextFile(file);
    // Every comment is still there, and every line of the user's file, in order (a line may gain
    // a comma before its comment).
    const comments = COMMENTED.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)!;
    for (const c of comments.filter((c) => !c.includes("example.com"))) {
      assert.ok(text.includes(c), `kept: ${c}\n${text}`);
    }
    let at = 0;
    for (const line of COMMENTED.split("\n")) {
      const bare = line.replace(/ \/\/.*$/, "");
      const found = text.split("\n").findIndex((l, i) =>
        i >= at && (l === line || l.startsWith(`${bare},`) || l.startsWith(bare))
      );
      assert.ok(found >= 0, `line kept: ${JSON.stringify(line)}\n${text}`);
      at = found + 1;
    }
    // Gemini CLI reads it: the user's settings and hook, and skillgate's hooks.
    const doc = asGeminiReads(text) as Record<string, unknown>;
    const before = asGeminiReads(COMMENTED) as Record<string, unknown>;
    for (const key of ["security", "general", "mcpServers"]) {
      assert.deepEqual(doc[key], before[key], key);
    }
    const owned = listOwnedHooks(GEMINI.hookFile.format, doc, skillgateOwner);
    assert.deepEqual(owned.map((h) => h.event).sort(), ["AfterAgent", "AfterAgent", "BeforeTool"]);
    assert.deepEqual(
      (doc.hooks as Record<string, unknown>).SessionStart,
      (before.hooks as Record<string, unknown>).SessionStart,
    );
    // doctor's reading of the registrations takes the file as Gemini CLI does.
    const regs = findRegistrations(registrationFiles(ctx));
    assert.equal(regs.problems.length, 0, regs.problems.join("\n"));
    assert.equal(regs.hooks.filter((h) => h.host === "gemini").length, 3);
    // A second setup changes nothing.
    assert.equal(await runSetup(setupArgs(["--gemini"]), ctx), 0);
    assert.equal(await Deno.readTextFile(file), text);
    // --uninstall: byte for byte the user's file again.
    assert.equal(await runSetup(setupArgs(["--gemini", "--uninstall"]), ctx), 0, out.join("\n"));
    assert.equal(await Deno.readTextFile(file), COMMENTED);
    // And so does `skillgate uninstall` after another setup.
    assert.equal(await runSetup(setupArgs(["--gemini", "--skill-routing"]), ctx), 0);
    const report = runUninstall({ purge: false, dryRun: false }, {
      stateRoot: ctx.stateRoot,
      hostDirs: ctx.hostDirs,
      cwd: ctx.cwd,
    });
    assert.deepEqual(report.failed, []);
    assert.equal(await Deno.readTextFile(file), COMMENTED);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setup for a host whose file allows no comments still refuses one that has them", async () => {
  const { dir, ctx, out } = await world();
  try {
    await Deno.mkdir(ctx.hostDirs.claude, { recursive: true });
    const file = join(ctx.hostDirs.claude, "settings.json");
    await Deno.writeTextFile(file, `{ // mine\n  "theme": "dark"\n}\n`);
    assert.equal(await runSetup(setupArgs([]), ctx), 1);
    assert.match(out.join("\n"), /SETTINGS_INVALID .* is not valid JSON/);
    assert.equal(await Deno.readTextFile(file), `{ // mine\n  "theme": "dark"\n}\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

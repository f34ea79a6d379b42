import assert from "node:assert/strict";
import { join } from "../base/path.ts";
import { extensionEnabled, extensionRoots } from "./extensions.ts";
import { hasAgent, hasSkill, loadCatalog } from "./catalog.ts";
import { GEMINI } from "../host/gemini.ts";
import { hostFolders } from "../host/folders.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

/** An extension folder with a manifest, one skill and one agent. */
function extension(dir: string, name: string, manifest?: Record<string, unknown>): void {
  write(
    join(dir, "gemini-extension.json"),
    JSON.stringify(manifest ?? { name, version: "1.0.0" }),
  );
  write(
    join(dir, "skills", `${name}-skill`, "SKILL.md"),
    `---\nname: ${name}-skill\ndescription: d\n---\nbody\n`,
  );
  write(join(dir, "agents", `${name}-agent.md`), `---\nname: ${name}-agent\n---\nprompt\n`);
}

Deno.test("extensionEnabled(): Gemini CLI's rules, the last matching one wins, enabled by default", () => {
  assert.equal(extensionEnabled(undefined, "x", "/w"), true);
  assert.equal(extensionEnabled({ y: { overrides: ["!/w/"] } }, "x", "/w"), true);
  assert.equal(extensionEnabled({ x: { overrides: ["!/w/"] } }, "x", "/w"), false);
  // Without `*`, a rule is for that folder only; with it, for its sub-folders too.
  assert.equal(extensionEnabled({ x: { overrides: ["!/w/"] } }, "x", "/w/sub"), true);
  assert.equal(extensionEnabled({ x: { overrides: ["!/w/*"] } }, "x", "/w/sub"), false);
  assert.equal(extensionEnabled({ x: { overrides: ["!/*", "/w/"] } }, "x", "/w"), true);
  assert.equal(extensionEnabled({ x: { overrides: ["/w/", "!/*"] } }, "x", "/w"), false);
  // A malformed file or rule is no rule.
  assert.equal(extensionEnabled({ x: { overrides: "!/w/" } }, "x", "/w"), true);
  assert.equal(extensionEnabled({ x: { overrides: [7, null] } }, "x", "/w"), true);
});

Deno.test("extensionRoots(): enabled extensions with a valid manifest, a linked one at its source", () => {
  const home = Deno.makeTempDirSync();
  try {
    const exts = join(home, ".gemini", "extensions");
    extension(join(exts, "alpha"), "alpha");
    extension(join(exts, "beta"), "beta");
    extension(join(exts, "nover"), "nover", { name: "nover" });
    extension(join(exts, "badname"), "badname", { name: "bad name", version: "1" });
    write(join(exts, "nomanifest", "skills", "s", "SKILL.md"), "---\nname: s\n---\n");
    // `gemini extensions link`: the install folder holds only where the extension lives.
    const linked = join(home, "src", "gamma");
    extension(linked, "gamma");
    write(
      join(exts, "gamma", ".gemini-extension-install.json"),
      JSON.stringify({ source: linked, type: "link" }),
    );
    write(
      join(exts, "extension-enablement.json"),
      JSON.stringify({ beta: { overrides: [`!${home}/w/*`] } }),
    );
    const dirs = (ws: string | undefined) => extensionRoots(exts, ws).map((r) => r.dir);
    assert.deepEqual(dirs(join(home, "w")), [
      join(exts, "alpha", "skills"),
      join(exts, "alpha", "agents"),
      join(linked, "skills"),
      join(linked, "agents"),
    ]);
    // Elsewhere beta is enabled.
    assert.ok(dirs(join(home, "other")).includes(join(exts, "beta", "skills")));
    assert.deepEqual(extensionRoots(join(home, "missing"), "/w"), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("loadCatalog() for Gemini CLI lists an enabled extension's skills and agents, not a disabled one's", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const exts = join(home, ".gemini", "extensions");
    extension(join(exts, "alpha"), "alpha");
    extension(join(exts, "beta"), "beta");
    const project = join(home, "proj");
    Deno.mkdirSync(project);
    write(
      join(exts, "extension-enablement.json"),
      JSON.stringify({ beta: { overrides: [`!${project}/`] } }),
    );
    const folders = hostFolders(GEMINI, { home, env: () => undefined });
    const state = join(home, "state");
    const opts = { hostFolders: folders, cwd: project, stateRoot: state };
    const c = await loadCatalog(opts);
    assert.deepEqual(c.skills.map((s) => [s.name, s.source]), [["alpha-skill", "extension"]]);
    assert.deepEqual(c.agents.map((a) => [a.name, a.source]), [["alpha-agent", "extension"]]);
    assert.equal(await hasSkill(opts, "alpha-skill"), true);
    assert.equal(await hasAgent(opts, "alpha-agent"), true);
    assert.equal(await hasAgent(opts, "beta-agent"), false);
    // Enabled again for this folder: seen at the next run.
    write(join(exts, "extension-enablement.json"), "{}");
    assert.equal(await hasAgent(opts, "beta-agent"), true);
    const again = await loadCatalog(opts);
    assert.ok(again.skills.some((s) => s.name === "beta-skill"));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

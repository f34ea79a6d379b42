import assert from "node:assert/strict";
import { join } from "../base/path.ts";
import { hasAgent, loadCatalog } from "./catalog.ts";
import { GEMINI } from "../host/gemini.ts";
import { hostFolders } from "../host/folders.ts";

function write(path: string, text: string): void {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

Deno.test("loadCatalog() for Gemini CLI lists a project's .gemini/agents only once acknowledged with the file's SHA-256", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const project = join(home, "proj");
    const agents = join(project, ".gemini", "agents");
    write(join(agents, "acked.md"), "---\nname: acked\n---\nprompt\n");
    write(join(agents, "fresh.md"), "---\nname: fresh\n---\nprompt\n");
    const sha = async (file: string) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", Deno.readFileSync(file)))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
    const record = join(home, ".gemini", "acknowledgments", "agents.json");
    const ack = async (names: string[], root = project) => {
      // A new mtime for each write (mtimes are compared to the millisecond).
      await new Promise((r) => setTimeout(r, 5));
      const mine: Record<string, string> = {};
      for (const n of names) mine[n] = await sha(join(agents, `${n}.md`));
      write(record, JSON.stringify({ [root]: mine }, null, 2));
    };
    const folders = hostFolders(GEMINI, { home, env: () => undefined });
    const opts = { hostFolders: folders, cwd: project, stateRoot: join(home, "state") };
    const names = async () => (await loadCatalog(opts)).agents.map((a) => a.name).sort();
    // None acknowledged: none listed (the client loads none).
    assert.deepEqual(await names(), []);
    assert.equal(await hasAgent(opts, "acked"), false);
    await ack(["acked"]);
    assert.deepEqual(await names(), ["acked"]);
    assert.equal(await hasAgent(opts, "acked"), true);
    assert.equal(await hasAgent(opts, "fresh"), false);
    // Acknowledged for another project: not this one's.
    await ack(["acked", "fresh"], join(home, "elsewhere"));
    assert.deepEqual(await names(), []);
    await ack(["acked", "fresh"]);
    assert.equal(await hasAgent(opts, "fresh"), true);
    // An edit after the acknowledgement: the client asks again, so the agent is not listed.
    await new Promise((r) => setTimeout(r, 20));
    write(join(agents, "acked.md"), "---\nname: acked\n---\nanother prompt\n");
    assert.deepEqual(await names(), ["fresh"]);
    assert.equal(await hasAgent(opts, "acked"), false);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

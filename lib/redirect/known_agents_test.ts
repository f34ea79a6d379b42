import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCount, isKnownAgent, KNOWN_AGENTS } from "./known_agents.ts";
import { collectAgentNames, KEBAB_CASE, main, renderKnownAgents } from "../install/gen_agents.ts";

const AGENTS_DIR = "fixtures/world/agents";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const REGISTRY_FILE = join(ROOT, "lib", "redirect", "known_agents.ts");

Deno.test("isKnownAgent() finds the fixture bundle's agents", () => {
  for (const name of ["prompt-writer", "guide", "architect", "security"]) {
    assert.equal(isKnownAgent(name), true, name);
  }
  for (const name of ["gherkin-expert", "tla-plus-expert", "verus-expert"]) {
    assert.equal(isKnownAgent(name), true, `${name} (agent and skill)`);
  }
});

Deno.test("isKnownAgent() is exact and case-sensitive", () => {
  for (
    const name of [
      "",
      "PROMPT-WRITER",
      "specialized/prompt-writer",
      "prompt-writer ",
      "nonexistent-agent",
      "default-workflow",
    ]
  ) {
    assert.equal(isKnownAgent(name), false, JSON.stringify(name));
  }
});

Deno.test("isKnownAgent() agrees with a linear search for every name and its neighbours", () => {
  const probes = KNOWN_AGENTS.flatMap((n) => [n, `${n}-`, n.slice(0, -1), `a${n}`, `${n}z`]);
  for (const p of [...probes, "", "0", "zzzz", "\uffff"]) {
    assert.equal(isKnownAgent(p), KNOWN_AGENTS.includes(p), JSON.stringify(p));
  }
});

Deno.test("KNOWN_AGENTS is sorted, unique and kebab-case", () => {
  for (let i = 1; i < KNOWN_AGENTS.length; i++) {
    assert.ok(KNOWN_AGENTS[i - 1] < KNOWN_AGENTS[i], `${KNOWN_AGENTS[i - 1]} < ${KNOWN_AGENTS[i]}`);
  }
  for (const name of KNOWN_AGENTS) assert.match(name, KEBAB_CASE);
  assert.ok(Object.isFrozen(KNOWN_AGENTS));
});

Deno.test("agentCount() is 7: 8 fixture agent files, guide twice (once under meta:)", () => {
  assert.equal(agentCount(), 7);
  assert.equal(agentCount(), KNOWN_AGENTS.length);
});

Deno.test("known_agents.ts does not drift from the fixture agent files it was generated from", async () => {
  const scan = await collectAgentNames(join(ROOT, AGENTS_DIR));
  assert.deepEqual(scan.names, [...KNOWN_AGENTS]);
  assert.equal(scan.files, 8);
  assert.deepEqual(scan.rejected, []);
  const expected = renderKnownAgents(scan.names, AGENTS_DIR);
  assert.equal(
    await Deno.readTextFile(REGISTRY_FILE),
    expected,
    "lib/redirect/known_agents.ts is stale: run deno task gen",
  );
});

async function withTempAgents(
  files: Record<string, string>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-agents-" });
  try {
    for (const [rel, text] of Object.entries(files)) {
      const path = join(dir, rel);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("collectAgentNames() takes name, else meta.name, else the file stem; skips files without frontmatter", async () => {
  await withTempAgents({
    "a.md": "---\nname: zeta\n---\n",
    "sub/b.md": "---\nmeta:\n  name: alpha\n---\n",
    "sub/deep/stem-only.md": "---\ndescription: no name\n---\n",
    "no-frontmatter.md": "# just text\n",
    "dup/zeta.md": "---\nname: zeta\n---\n",
    "notes.txt": "---\nname: not-an-agent\n---\n",
  }, async (dir) => {
    const scan = await collectAgentNames(dir);
    assert.deepEqual(scan.names, ["alpha", "stem-only", "zeta"]);
    assert.equal(scan.files, 5);
  });
});

Deno.test("collectAgentNames() leaves out names that are not kebab-case, sanitised", async () => {
  await withTempAgents({
    "a.md": '---\nname: "Bad Name\\u001b[31m; rm -rf /"\n---\n',
    "b.md": "---\nname: good-one\n---\n",
    "c.md": "---\nname: plugin:scoped\n---\n",
  }, async (dir) => {
    const scan = await collectAgentNames(dir);
    assert.deepEqual(scan.names, ["good-one"]);
    for (const r of scan.rejected) assert.match(r, /^[A-Za-z0-9:_-]+$/);
    assert.equal(scan.rejected.length, 2);
  });
});

Deno.test("collectAgentNames() follows no symlink", async () => {
  await withTempAgents({ "real/a.md": "---\nname: inside\n---\n" }, async (dir) => {
    const outside = await Deno.makeTempDir({ prefix: "skillgate-outside-" });
    try {
      await Deno.writeTextFile(join(outside, "x.md"), "---\nname: outside\n---\n");
      await Deno.symlink(outside, join(dir, "linked"));
      await Deno.symlink(join(outside, "x.md"), join(dir, "file-link.md"));
      const scan = await collectAgentNames(dir);
      assert.deepEqual(scan.names, ["inside"]);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

Deno.test("main() writes a module that works and is sorted", async () => {
  await withTempAgents({
    "b.md": "---\nname: beta\n---\n",
    "a.md": "---\nname: alpha\n---\n",
  }, async (dir) => {
    const out = join(dir, "known.ts");
    assert.equal(await main(["--from", dir, "--out", out]), 0);
    const mod = await import(`file://${out}`);
    assert.deepEqual([...mod.KNOWN_AGENTS], ["alpha", "beta"]);
    assert.equal(mod.isKnownAgent("beta"), true);
    assert.equal(mod.isKnownAgent("gamma"), false);
    assert.equal(mod.agentCount(), 2);
  });
});

Deno.test("main() is a usage error without --from or with an unknown flag", async () => {
  assert.equal(await main([]), 2);
  assert.equal(await main(["--bogus"]), 2);
});

Deno.test("main() fails with 3 when the directory holds no agents", async () => {
  await withTempAgents({}, async (dir) => {
    assert.equal(await main(["--from", dir, "--out", join(dir, "k.ts")]), 3);
  });
});

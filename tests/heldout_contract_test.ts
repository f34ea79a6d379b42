/**
 * The held-out Claude Code transcripts of the check, test-first and file kinds
 * (`fixtures/transcripts/heldout/`, written before the kinds and not tuned to): `skillgate
 * contract check --skill-file` on each, as a user runs it, gives the expected exit and, on exit 1,
 * names the expected item.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES } from "./_helpers.ts";
import { runCli } from "../lib/cli/_kit_test.ts";

const DIR = join(FIXTURES, "transcripts", "heldout");

interface Case {
  file: string;
  skill: string;
  exit: number;
  item?: string;
}

const CASES: Case[] = JSON.parse(Deno.readTextFileSync(join(DIR, "expected.json"))).cases;

Deno.test("contract check --skill-file decides each held-out transcript of the new kinds right", async () => {
  const home = await Deno.makeTempDir({ prefix: "skillgate-heldout-" });
  try {
    const wrong: string[] = [];
    // Two at a time: the machines have two cores.
    for (let i = 0; i < CASES.length; i += 2) {
      await Promise.all(
        CASES.slice(i, i + 2).map(async (c) => {
          const r = await runCli([
            "contract",
            "check",
            "--transcript",
            join(DIR, c.file),
            "--skill",
            c.skill,
            "--skill-file",
            join(DIR, "skills", c.skill, "SKILL.md"),
          ], { home });
          const first = r.out.split("\n")[0];
          const named = c.item === undefined ||
            new RegExp(`^SKILL_CONTRACT_UNMET ${c.skill} \\(contract v1\\): missing ${c.item}\\.`)
              .test(first);
          if (r.code !== c.exit || !named) {
            wrong.push(`${c.file}: exit ${r.code} (expected ${c.exit}): ${first} ${r.err}`);
          }
        }),
      );
    }
    assert.deepEqual(wrong, [], wrong.join("\n"));
    assert.equal(CASES.length, 12);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

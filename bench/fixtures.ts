/**
 * Synthetic installations for benchmarks: N skills with gstack-like frontmatter (triggers, a
 * description, a body) and N agents, written to a temporary Claude config directory.
 *
 * @module
 */

import { join } from "node:path";
import { CLAUDE } from "../lib/host/claude.ts";
import type { HostFolders } from "../lib/host/host.ts";

const WORDS = [
  "deploy",
  "release",
  "schema",
  "migration",
  "cache",
  "layout",
  "invoice",
  "report",
  "search",
  "upload",
  "billing",
  "theme",
  "locale",
  "queue",
  "webhook",
  "session",
  "export",
  "import",
];

/** The contract block of a synthetic skill with a contract (the seed's investigate contract). */
const CONTRACT = "contract:\n  version: 1\n  items:\n    - id: debug-report\n" +
  "      kind: report_labels\n      heading: DEBUG REPORT\n" +
  "      labels: [Symptom, Root cause, Fix, Evidence]\n" +
  "    - id: repro-after-fix\n      kind: check_after_last_edit\n";

/**
 * Writes `skills` SKILL.md files and `agents` agent files under `<claudeDir>/skills` and
 * `<claudeDir>/agents`. Names are `bench-skill-<i>` and `bench-agent-<i>`.
 *
 * @param claudeDir The Claude config directory to fill.
 * @param skills How many skills.
 * @param agents How many agents.
 * @param contracts How many skills, spread evenly over them, have a `contract:` block.
 */
export function writeSyntheticInstall(
  claudeDir: string,
  skills: number,
  agents = 0,
  contracts = 0,
): void {
  const step = contracts > 0 ? Math.floor(skills / contracts) : 0;
  for (let i = 0; i < skills; i++) {
    const dir = join(claudeDir, "skills", `bench-skill-${i}`);
    Deno.mkdirSync(dir, { recursive: true });
    const a = WORDS[i % WORDS.length];
    const b = WORDS[(i * 7 + 3) % WORDS.length];
    Deno.writeTextFileSync(
      join(dir, "SKILL.md"),
      `---\nname: bench-skill-${i}\ndescription: Handles ${a} and ${b} work for project ${i}.\n` +
        `allowed-tools:\n  - Bash\n  - Read\ntriggers:\n  - ${a} the ${b}\n  - fix ${a} ${b} ${i}\n` +
        `  - plan the ${b} rollout\n` +
        (step > 0 && i % step === 0 && i / step < contracts ? CONTRACT : "") +
        `---\n# Skill ${i}\n\n1. Read the ${a} code.\n2. Change it.\n` +
        "Some body text.\n".repeat(40),
    );
  }
  for (let i = 0; i < agents; i++) {
    Deno.mkdirSync(join(claudeDir, "agents"), { recursive: true });
    Deno.writeTextFileSync(
      join(claudeDir, "agents", `bench-agent-${i}.md`),
      `---\nname: bench-agent-${i}\ndescription: Agent ${i}.\nmodel: inherit\n---\nYou are agent ${i}.\n`,
    );
  }
}

/** The final text of a fixture transcript (its last assistant text block). */
export function finalTextOf(fixture: string): string {
  const lines = Deno.readTextFileSync(
    join(import.meta.dirname!, "..", "fixtures", "transcripts", `${fixture}.jsonl`),
  )
    .trimEnd().split("\n").reverse();
  for (const line of lines) {
    const rec = JSON.parse(line);
    if (rec.type !== "assistant") continue;
    const text = (rec.message.content as { type: string; text?: string }[])
      .filter((b) => b.type === "text").at(-1)?.text;
    if (text !== undefined) return text;
  }
  throw new Error(`No final text in ${fixture}`);
}

/**
 * Claude Code's folders under a benchmark world's config directory (home is not read).
 *
 * @param configDir The config directory.
 * @returns The folders.
 */
export function claudeFolders(configDir: string): HostFolders {
  return { configDir, home: "", layout: CLAUDE.layout };
}

/**
 * Benchmark of the skill routing hook: whole-process time of `hooks/skill_route.ts`, run with its
 * production flags from the hook table, with 60 and with 1,000 installed skills, with 1,000 skills
 * that have descriptions and a prompt that only the description tier routes (to a built-in pack
 * skill, `pdf`, among 1,000 descriptions, none with a trigger that fits), and with 60 skills
 * plus a `skill-rules.json` of 150 intent patterns (30 skills, 5 each, shaped like those of real
 * rules files; none matches the prompt, so all are compiled and tried), and with 60 and 1,000 skills
 * plus a user overlay file (`skills.yaml`: triggers for 50 skills, `route` for 10, contracts for 5;
 * see {@link overlayFile}), and with 1,000 described skills, that overlay file and the description
 * tier's prompt together, as a ratio to an empty `deno run` measured in the same run, in interleaved rounds; peak RSS from `/usr/bin/time`.
 *
 * Run: `deno run -A bench/route_bench.ts [runs]` (default 15 runs per case). Temp files only.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchCase, benchRounds, emptyDenoRunCase, formatReport, runOnce } from "./harness.ts";
import { denoRunArgs, hookRow } from "../lib/hook/table.ts";
import { claudeFolders } from "./fixtures.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE_SKILLS = join(REPO, "fixtures", "routing", "skills");
const WORDS = (
  "alpha build cache deploy export format graph index journal kernel layout metric network " +
  "option parser query render schema token upload vector widget yaml zone archive bundle cluster"
).split(" ");

/** The Deno cache of this process, so the hook's modules come compiled from the same cache. */
function denoDir(): string {
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return fromEnv;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return join(xdg ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

function copyDir(src: string, dest: string): void {
  Deno.mkdirSync(dest, { recursive: true });
  for (const e of Deno.readDirSync(src)) {
    if (e.isDirectory) copyDir(join(src, e.name), join(dest, e.name));
    else if (e.isFile) Deno.copyFileSync(join(src, e.name), join(dest, e.name));
  }
}

/**
 * A `skill-rules.json` for the first `skills` generated skills, `per` intent patterns each, in the
 * shape real rules files use (`(create|add|build).*?(route|endpoint)`), of words no prompt here has.
 *
 * @param skills How many skills get rules.
 * @param per Patterns per skill.
 * @returns The file's text.
 */
export function rulesFile(skills: number, per: number): string {
  const rules: Record<string, unknown> = {};
  for (let i = 0; i < skills; i++) {
    const w = (k: number) => WORDS[(i * 5 + k * 3) % WORDS.length];
    const patterns = Array.from(
      { length: per },
      (_, j) => `(${w(j)}|${w(j + 1)}|${w(j + 2)}).*?(${w(j + 3)}|${w(j + 4)})`,
    );
    rules[`gen-${String(i).padStart(4, "0")}`] = {
      type: "domain",
      promptTriggers: { keywords: [`${w(0)} ${w(5)}`], intentPatterns: patterns },
    };
  }
  return JSON.stringify({ version: "1.0", skills: rules }, null, 2);
}

/**
 * A user overlay file (`<state root>/skills.yaml`) for the first `skills` generated skills: two
 * triggers each (words no prompt here has), `route: true` for every fifth, a contract for every
 * tenth.
 *
 * @param skills How many skills it names.
 * @returns The file's text.
 */
export function overlayFile(skills: number): string {
  const out: string[] = [];
  for (let i = 0; i < skills; i++) {
    const w = (k: number) => WORDS[(i * 11 + k * 5) % WORDS.length];
    out.push(`gen-${String(i).padStart(4, "0")}:`);
    out.push(`  triggers: [${w(0)} ${w(1)} overlay, ${w(2)} the ${w(3)}]`);
    if (i % 5 === 0) out.push("  route: true");
    if (i % 10 === 0) {
      out.push("  contract:", "    version: 1", "    items:");
      out.push(`      - {id: r${i}, kind: report_labels, heading: REPORT, labels: [Result]}`);
    }
  }
  return out.join("\n") + "\n";
}

/** A world with the routing fixtures plus generated skills up to `total`. */
function makeWorld(
  root: string,
  total: number,
  name = `home-${total}`,
  described = false,
): { home: string; claude: string; state: string } {
  const home = join(root, name);
  const claude = join(home, ".claude");
  const skills = join(claude, "skills");
  copyDir(FIXTURE_SKILLS, skills);
  const have = [...Deno.readDirSync(skills)].length;
  for (let i = 0; i < total - have; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    const name = `gen-${String(i).padStart(4, "0")}`;
    Deno.mkdirSync(join(skills, name));
    const description = described
      ? `Use when working on the ${w(0)} ${w(1)} and the ${w(2)} of a ${w(3)} ${w(4)}: ${w(5)}, ` +
        `${w(6)} and ${w(7)} files.`
      : `Generated skill ${i}.`;
    Deno.writeTextFileSync(
      join(skills, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\ntriggers:\n` +
        `  - ${w(0)} the ${w(1)}\n  - ${w(2)} ${w(3)} ${w(4)}\n  - check ${w(5)}\n---\n\n` +
        `Do the ${w(0)} step first.\n`,
    );
  }
  if (described) {
    // A built-in pack skill (its name and the opening of its description match the pack entry).
    Deno.mkdirSync(join(skills, "pdf"));
    Deno.writeTextFileSync(
      join(skills, "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: Use this skill whenever the user wants to do anything with " +
        "PDF files: merging, splitting, filling forms, extracting tables.\n---\n\nRead the file.\n",
    );
  }
  return { home, claude, state: join(home, ".skillgate") };
}

/** Options of {@link routeCase}. */
export interface RouteCaseOptions {
  /** A `skill-rules.json` text to install beside the skills. */
  readonly rules?: string;
  /** A user overlay file's text (`<state root>/skills.yaml`). */
  readonly overlay?: string;
  /** The hook bundle to run (default: this checkout's `hooks/dist/skill_route.js`). */
  readonly bundle?: string;
  /**
   * Give the generated skills descriptions, add a pack skill without triggers and send a prompt
   * only the description tier routes (to it).
   */
  readonly described?: boolean;
}

/**
 * A routing case: a world with `total` skills, its index built, checked to route.
 *
 * @param label The case's label (also names its world's directory).
 * @param root The temp directory for worlds.
 * @param total How many skills are installed.
 * @param opts A rules file, another bundle.
 * @returns The case.
 */
export async function routeCase(
  label: string,
  root: string,
  total: number,
  opts: RouteCaseOptions = {},
): Promise<BenchCase> {
  const world = makeWorld(
    root,
    total,
    `home-${label.replace(/[^A-Za-z0-9]+/g, "-")}`,
    opts.described,
  );
  if (opts.rules !== undefined) {
    Deno.writeTextFileSync(join(world.claude, "skills", "skill-rules.json"), opts.rules);
  }
  if (opts.overlay !== undefined) {
    Deno.mkdirSync(world.state, { recursive: true });
    Deno.writeTextFileSync(join(world.state, "skills.yaml"), opts.overlay);
  }
  const row = hookRow("skill-route");
  const args = denoRunArgs(
    row,
    { stateRoot: world.state, hostFolders: claudeFolders(world.claude) },
    opts.bundle ?? join(REPO, row.bundle),
  );
  const env = {
    HOME: world.home,
    DENO_DIR: denoDir(),
    SKILLGATE_STATE_ROOT: world.state,
    CLAUDE_CONFIG_DIR: world.claude,
    SKILLGATE_SKILL_ROUTING: "on",
  };
  const stdin = JSON.stringify({
    session_id: "bench",
    hook_event_name: "UserPromptSubmit",
    cwd: root,
    prompt: opts.described
      ? "merge the scanned pdf forms and extract the tables"
      : "this test fails, fix it",
  });
  // One run to build the catalog index and to check that the hook really routes.
  const out = await runOnce(Deno.execPath(), args, stdin, { env, cwd: root });
  if (!out.stdout.includes(opts.described ? "/pdf" : "/investigate")) {
    throw new Error(`Hook did not route with ${total} skills: ${out.stderr}`);
  }
  return { label, cmd: Deno.execPath(), args, opts: { stdin, env, cwd: root } };
}

if (import.meta.main) {
  const n = Math.max(3, Math.min(50, Number(Deno.args[0] ?? 15) || 15));
  const root = await Deno.makeTempDir({ prefix: "skillgate-route-bench-" });
  const empty = await emptyDenoRunCase();
  try {
    // Interleaved rounds (empty run, 60, 1,000, then again): a change in the machine's load hits
    // the baseline and the hook alike, so the ratios stay comparable.
    const [baseline, ...rows] = await benchRounds([
      empty.case,
      await routeCase("skill-route, 60 skills", root, 60),
      await routeCase("skill-route, 1000 skills", root, 1000),
      await routeCase("skill-route, 1000 skills, description tier", root, 1000, {
        described: true,
      }),
      await routeCase("skill-route, 60 skills + 150 intent patterns", root, 60, {
        rules: rulesFile(30, 5),
      }),
      await routeCase("skill-route, 60 skills + overlays", root, 60, { overlay: overlayFile(50) }),
      await routeCase("skill-route, 1000 skills + overlays", root, 1000, {
        overlay: overlayFile(50),
      }),
      await routeCase("skill-route, 1000 skills + overlays, description tier", root, 1000, {
        overlay: overlayFile(50),
        described: true,
      }),
    ], n);
    console.log(formatReport("skill routing hook (UserPromptSubmit)", baseline, rows, {
      "skill-route, 60 skills": 1.25,
      "skill-route, 1000 skills": 1.4,
      "skill-route, 1000 skills, description tier": 1.8,
      "skill-route, 60 skills + overlays": 1.65,
      "skill-route, 1000 skills + overlays": 1.8,
      "skill-route, 1000 skills + overlays, description tier": 1.8,
    }));
    console.log(`\n${n} interleaved rounds with the empty run.`);
  } finally {
    await empty.cleanup();
    await Deno.remove(root, { recursive: true });
  }
}

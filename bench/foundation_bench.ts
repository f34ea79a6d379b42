/**
 * Foundation benchmarks: every hook's pass-through answer under its production flags (switch off,
 * and an event the hook does not act on), and the catalog's scan time for 60 and 1,000 skills,
 * cold (parsing YAML) and from the index, and the contract Stop's lookup of the skills with a
 * contract (from the contracts view). Whole-process figures are ratios to an empty `deno run`
 * measured in the same run.
 *
 * @module
 */

import { join } from "../lib/base/path.ts";
import { contractSkills, loadCatalog } from "../lib/catalog/catalog.ts";
import { denoRunArgs, HOOKS } from "../lib/hook/table.ts";
import {
  type BenchCase,
  benchRounds,
  emptyDenoRunCase,
  formatReport,
  machineNote,
} from "./harness.ts";
import { claudeFolders, writeSyntheticInstall } from "./fixtures.ts";

const REPO = new URL("..", import.meta.url).pathname;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** How many of the synthetic skills have a contract, in the catalog figures. */
const CONTRACTS = 5;

async function catalogTimes(
  skills: number,
  runs: number,
): Promise<{ cold: number; index: number; contracts: number; swept: number }> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-bench-catalog-" });
  try {
    const claude = join(root, "claude");
    writeSyntheticInstall(claude, skills, 0, CONTRACTS);
    const cold: number[] = [];
    const warm: number[] = [];
    const view: number[] = [];
    const sweep: number[] = [];
    for (let i = 0; i < runs; i++) {
      const state = join(root, `state-${i}`);
      let t = performance.now();
      const c = await loadCatalog({ hostFolders: claudeFolders(claude), stateRoot: state });
      cold.push(performance.now() - t);
      if (c.skills.length !== skills) {
        throw new Error(`Expected ${skills} skills, got ${c.skills.length}`);
      }
      t = performance.now();
      const again = await loadCatalog({ hostFolders: claudeFolders(claude), stateRoot: state });
      warm.push(performance.now() - t);
      if (!again.fromIndex) throw new Error("Second load did not come from the index");
      // The contract Stop's lookup, as the hook makes it (its sweep file, the clock now), then
      // once more a minute later, when it checks every SKILL.md.
      const opts = {
        hostFolders: claudeFolders(claude),
        stateRoot: state,
        sweepFile: join(state, "skill-contracts", ".catalog-sweep.json"),
      };
      for (const [times, later] of [[view, 0], [sweep, 61_000]] as const) {
        t = performance.now();
        const k = await contractSkills({ ...opts, now: () => Date.now() + later });
        times.push(performance.now() - t);
        if (!k.fromIndex || k.skills.length !== CONTRACTS) {
          throw new Error(`Expected ${CONTRACTS} skills from the contracts view`);
        }
      }
    }
    return {
      cold: median(cold),
      index: median(warm),
      contracts: median(view),
      swept: median(sweep),
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/**
 * Runs the foundation benchmarks and prints a report.
 *
 * @param n Runs per whole-process case.
 * @returns The report text.
 */
export async function main(n = 15): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-bench-hooks-" });
  const home = join(root, "home");
  const claude = join(home, ".claude");
  const state = join(home, ".skillgate");
  writeSyntheticInstall(claude, 60, 20);
  // The state root as after a first session (the Stop hooks log every stop), without a config file.
  Deno.mkdirSync(join(state, "hooks"), { recursive: true, mode: 0o700 });
  const empty = await emptyDenoRunCase();
  const cases: BenchCase[] = [empty.case];
  const targets: Record<string, number> = {};
  const env = { HOME: home, PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" };
  try {
    for (const row of HOOKS) {
      const args = denoRunArgs(
        row,
        { stateRoot: state, hostFolders: claudeFolders(claude) },
        join(REPO, row.bundle),
      );
      const payload = {
        session_id: "bench",
        cwd: root,
        hook_event_name: row.event,
        prompt: "rename this variable",
        tool_name: row.event === "PreToolUse" ? "Bash" : undefined,
        tool_input: { command: "ls" },
        stop_hook_active: false,
        last_assistant_message: "ok",
      };
      const off = `${row.id}: switch off`;
      cases.push({
        label: off,
        cmd: Deno.execPath(),
        args,
        opts: {
          stdin: JSON.stringify(payload),
          env: { ...env, [`SKILLGATE_${row.switchName.toUpperCase()}`]: "off" },
        },
      });
      targets[off] = 1.1;
      if (row.id === "skill-route") {
        // Most installs: routing off by default, no variable and no config file.
        const byDefault = `${row.id}: off by default (no config file)`;
        cases.push({
          label: byDefault,
          cmd: Deno.execPath(),
          args,
          opts: { stdin: JSON.stringify(payload), env },
        });
        targets[byDefault] = 1.1;
      }
    }
    const [baseline, ...rows] = await benchRounds(cases, n);
    await empty.cleanup();
    const report = formatReport("Hook pass-through (production flags)", baseline, rows, targets);
    const lines = [
      report,
      "",
      "## Catalog scan (in process, median of 7)",
      `machine: ${machineNote()}`,
      "",
      `${CONTRACTS} of the skills have a contract. \`loadCatalog\` from its index is what`,
      "`skillgate contract check`, `report` and `waive` use; the contract Stop looks up only the",
      "skills with a contract (`contractSkills`, from the contracts view), and once a minute checks",
      "every SKILL.md (the sweep).",
      "",
      "| skills | cold scan ms | `loadCatalog` from index ms | contract Stop lookup ms | target (lookup) | lookup at the sweep ms |",
      "|---|---|---|---|---|---|",
    ];
    for (const count of [60, 1000]) {
      const t = await catalogTimes(count, 7);
      const target = `≤ 2 ms ${t.contracts <= 2 ? "met" : "MISSED"}`;
      lines.push(
        `| ${count} | ${t.cold.toFixed(1)} | ${t.index.toFixed(2)} | ${t.contracts.toFixed(2)} | ` +
          `${target} | ${t.swept.toFixed(2)} |`,
      );
    }
    const text = lines.join("\n");
    console.log(text);
    return text;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main(Math.max(3, Number(Deno.args[0] ?? 15) || 15));

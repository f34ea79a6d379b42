/**
 * Whole-process benchmark of `skillgate report --json` over 1,000 synthetic Claude Code sessions
 * (target: under 2 s on this machine), beside an empty `deno run` measured in the same rounds.
 *
 * Each session has a transcript of about 40 KiB (three ordinary turns, then a prompt routed to a
 * skill, its load, a command and an answer), a `routed` line in the routing log, a contract log
 * line, and every other session a contract record; 60 skills are installed. The report reads all
 * of them: the logs, the records, and every transcript they name.
 *
 * Run: `deno run -A --no-prompt bench/report_bench.ts [runs]`
 *
 * @module
 */

import { join } from "node:path";
import { benchRounds, emptyDenoRunCase, formatReport, runOnce } from "./harness.ts";
import { writeSyntheticInstall } from "./fixtures.ts";
import { bash, fillerTurn, jsonl, say, skillLoad, user } from "../fixtures/transcripts/_build.ts";
import { formatLogLine } from "../lib/hook/log.ts";

const REPO = join(import.meta.dirname!, "..");
const SESSIONS = 1000;
const SKILLS = 60;

/** Writes the sessions; returns the environment the report runs in. */
export function buildWorld(root: string): Record<string, string> {
  const home = join(root, "home");
  const claudeDir = join(home, ".claude");
  const state = join(home, ".skillgate");
  writeSyntheticInstall(claudeDir, SKILLS);
  const projects = join(claudeDir, "projects", "-bench-project");
  Deno.mkdirSync(projects, { recursive: true });
  Deno.mkdirSync(join(state, "hooks"), { recursive: true });
  Deno.mkdirSync(join(state, "skill-contracts"), { recursive: true });
  const start = Date.parse("2026-11-20T09:00:00.000Z");
  const filler = fillerTurn(1) + fillerTurn(2) + fillerTurn(3);
  const route: string[] = [];
  const contract: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const session = `bench-${String(i).padStart(4, "0")}`;
    const skill = `bench-skill-${i % 40}`;
    const at = start + i * 60_000;
    const stamp = (k: number) => new Date(at + k * 1000).toISOString();
    const path = join(projects, `${session}.jsonl`);
    const turn = [
      { ...user("please fix the failing build"), timestamp: stamp(0) },
      ...skillLoad(`toolu_s${i}`, skill).map((r) => ({ ...r, timestamp: stamp(2) })),
      ...bash(`toolu_b${i}`, "deno task test").map((r) => ({ ...r, timestamp: stamp(3) })),
      { ...say("Fixed."), timestamp: stamp(4) },
    ];
    Deno.writeTextFileSync(path, filler + jsonl(turn));
    const base = { session, hook: "h", event: "e" };
    route.push(formatLogLine(
      { ...base, outcome: "routed", skill, skills: SKILLS, transcript_path: path },
      new Date(at),
    ));
    contract.push(formatLogLine({ ...base, outcome: "allow" }, new Date(at + 5000)));
    if (i % 2 === 0) {
      const run = {
        key: `${skill}@1`,
        skill,
        loadOffset: 1,
        loadVia: "skill_tool",
        outcome: i % 6 === 0 ? "miss" : "met",
        missing: i % 6 === 0 ? ["report"] : [],
        waived: [],
        blocks: i % 6 === 0 ? 1 : 0,
        stops: 1,
        first: stamp(5),
        updated: stamp(5),
      };
      Deno.writeTextFileSync(
        join(state, "skill-contracts", `${session}.json`),
        JSON.stringify({ version: 1, session, transcript: path, updated: stamp(5), runs: [run] }),
      );
    }
  }
  Deno.writeTextFileSync(join(state, "hooks", "skill-route.log"), route.join("\n") + "\n");
  Deno.writeTextFileSync(join(state, "hooks", "skill-contract.log"), contract.join("\n") + "\n");
  return {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  };
}

if (import.meta.main) {
  const n = Math.max(3, Math.min(50, Number(Deno.args[0] ?? 15) || 15));
  const root = await Deno.makeTempDir({ prefix: "skillgate-bench-report-" });
  const empty = await emptyDenoRunCase();
  try {
    const env = buildWorld(root);
    const args = [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run=deno",
      join(REPO, "cli.ts"),
      "report",
      "--json",
    ];
    // The case does what it claims: every session read, every skill counted.
    const once = await runOnce(Deno.execPath(), args, "", { env, cwd: root });
    const got = JSON.parse(once.stdout) as { sessions: number; transcripts: number };
    if (once.code !== 0 || got.sessions !== SESSIONS || got.transcripts !== SESSIONS) {
      throw new Error(
        `report over ${SESSIONS} sessions: ${once.stdout.slice(0, 300)} ${once.stderr}`,
      );
    }
    const label = `report --json, ${SESSIONS} sessions`;
    const [base, report] = await benchRounds([
      empty.case,
      { label, cmd: Deno.execPath(), args, opts: { env, cwd: root } },
    ], n);
    console.log(formatReport(`skillgate report over ${SESSIONS} sessions`, base, [report]));
    if (report.n > 0) {
      console.log(
        `\nTarget: under 2000 ms: median ${report.medianMs.toFixed(0)} ms, ` +
          `${report.medianMs < 2000 ? "met" : "MISSED"}.`,
      );
    }
  } finally {
    await empty.cleanup();
    await Deno.remove(root, { recursive: true });
  }
}

/**
 * Benchmark of the skill contract Stop hook, spawned with its production flags: a session whose
 * transcript is 32 MiB with the investigate run in its last megabyte, and the small fixture
 * session for comparison, also in an install of 1,000 skills (5 with a contract); and the two
 * usual stops, which check nothing: a 32 MiB session that loaded no skill with a contract (the
 * search bounded by the session's scan memo), and an install with no skill that has a contract;
 * and Gemini CLI's AfterAgent over its chat (read whole): the fixture chat, and an 8 MiB one; and a
 * run of a superpowers skill checked by its built-in pack contract (config `contract_packs`), among
 * 1,000 skills and the six pack skills.
 * Whole-process wall time and peak RSS, as ratios to an empty `deno run` measured in the same run.
 * Targets (issue 18): the 32 MiB cases ≤ 1.5× (768 KiB run) and ≤ 1.4× (10 KiB run).
 *
 * Run: `deno run -A bench/contract_stop_bench.ts [runs]` (default 15 runs per case). The world
 * (home, skills, transcripts, state root) is a temp directory removed at the end.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoRunArgs, hookRow } from "../lib/hook/table.ts";
import {
  type BenchCase,
  benchRounds,
  type BenchStats,
  emptyDenoRunCase,
  formatReport,
  runOnce,
} from "./harness.ts";
import {
  assistant,
  fillerTurn,
  jsonl,
  say,
  skillLoad,
  user,
  writeLongSession,
} from "../fixtures/transcripts/_build.ts";
import { PACK_CONTRACTS } from "../lib/routing/pack_contracts.ts";
import { claudeFolders, finalTextOf, writeSyntheticInstall } from "./fixtures.ts";
import { GEMINI } from "../lib/host/gemini.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1024 * 1024;
const SESSION = "5b0c2f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const LARGE_LABEL = "Stop hook, 32 MiB transcript, 768 KiB run at its end";
const LARGE_SMALL_RUN_LABEL = "Stop hook, 32 MiB transcript, 10 KiB run at its end";
const SMALL_LABEL = "Stop hook, 10 KiB fixture transcript (met, recorded once)";
const MANY_LABEL = "Stop hook, the same with 1,000 skills installed (5 with a contract)";
const NONE_LABEL = "Stop hook, 32 MiB transcript, no skill with a contract loaded (scan memo)";
const PLAIN_LABEL = "Stop hook, no skill with a contract installed";
const GEMINI_LABEL = "Stop hook, Gemini CLI AfterAgent, 10 KiB chat (met after block)";
const GEMINI_LARGE_LABEL = "Stop hook, Gemini CLI AfterAgent, 8 MiB chat, run at its end";
const PACKS_LABEL =
  "Stop hook, contract_packs superpowers, a pack skill's run (1,000 skills + 6 pack skills)";
const PACKS_FINAL = "Here is the plan: add the flag, then the exporter.";

/**
 * Writes a Gemini CLI chat of about `totalBytes`: the fixture chat's header, ordinary turns (each
 * gemini record written twice, as the client does), then the fixture's messages.
 *
 * @param path The file to write.
 * @param totalBytes Its size, about.
 */
function writeGeminiChat(path: string, totalBytes: number): void {
  const lines = Deno.readTextFileSync(
    join(REPO, "fixtures", "transcripts", "gemini", "contract_met_after_block.jsonl"),
  ).trimEnd().split("\n");
  const out = [lines[0]];
  let size = lines.join("\n").length;
  for (let i = 0; size < totalBytes; i++) {
    const text = `Turn ${i}: the parser reads one record a line. `.repeat(20);
    const turn = [
      { id: `u${i}`, timestamp: "2026-12-02T00:00:00.000Z", type: "user", content: [{ text }] },
      { id: `g${i}`, timestamp: "2026-12-02T00:00:00.000Z", type: "gemini", content: "" },
      { id: `g${i}`, timestamp: "2026-12-02T00:00:00.000Z", type: "gemini", content: text },
      { $set: { lastUpdated: "2026-12-02T00:00:00.000Z" } },
    ].map((r) => JSON.stringify(r));
    out.push(...turn);
    size += turn.join("\n").length;
  }
  out.push(...lines.slice(1));
  Deno.writeTextFileSync(path, out.join("\n") + "\n");
}
/** The final text of the last turn of the session that loads no skill. */
const NONE_FINAL = "The parser reads one record a line.";

/**
 * Writes a transcript of `totalBytes` whose skill run (the met fixture, padded with ordinary turns
 * to about `runBytes`) is at the end.
 *
 * @param path The file to write.
 * @param totalBytes The transcript's size.
 * @param runBytes The size of the skill run at its end.
 * @param fixture The fixture transcript whose run goes at the end (default `stop_met`).
 */
export function writeTranscript(
  path: string,
  totalBytes: number,
  runBytes: number,
  fixture = "stop_met",
): void {
  const run = Deno.readTextFileSync(join(REPO, "fixtures", "transcripts", `${fixture}.jsonl`));
  // Split the fixture right after the skill's load so the padding sits inside the run.
  const lines = run.trimEnd().split("\n");
  const headLen = lines.findIndex((l) => l.includes("Base directory for this skill")) + 1;
  const head = lines.slice(0, headLen).join("\n") + "\n";
  const tail = lines.slice(headLen).join("\n") + "\n";
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  try {
    let written = 0;
    let i = 0;
    const fillerTarget = totalBytes - runBytes;
    while (written < fillerTarget) {
      const b = enc.encode(fillerTurn(i++));
      f.writeSync(b);
      written += b.length;
    }
    f.writeSync(enc.encode(head));
    written += head.length;
    let inRun = head.length;
    while (inRun < runBytes - tail.length - 12 * 1024) {
      const b = enc.encode(fillerTurn(i++));
      f.writeSync(b);
      written += b.length;
      inRun += b.length;
    }
    f.writeSync(enc.encode(tail));
  } finally {
    f.close();
  }
}

/**
 * Runs the benchmark and prints the report.
 *
 * @param n Runs per case.
 * @returns The report text.
 */
export async function main(n = 15): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-bench-stop-" });
  try {
    const home = join(root, "home");
    const claude = join(home, ".claude");
    const state = join(home, ".skillgate");
    const projects = join(claude, "projects", "-home-dev-app");
    Deno.mkdirSync(projects, { recursive: true });
    Deno.mkdirSync(join(claude, "skills", "investigate"), { recursive: true });
    Deno.copyFileSync(
      join(REPO, "fixtures", "world", "skills", "investigate", "SKILL.md"),
      join(claude, "skills", "investigate", "SKILL.md"),
    );
    const large = join(projects, `${SESSION}.jsonl`);
    // The run is unmet and every stop says stop_hook_active: each run reads, checks and allows
    // without recording, so every measured stop does the whole check.
    writeTranscript(large, 32 * MiB, 768 * 1024, "stop_unmet");
    const largeSmallRun = join(projects, "large-small-run.jsonl");
    writeTranscript(largeSmallRun, 32 * MiB, 10 * 1024, "stop_unmet");
    const small = join(projects, "small.jsonl");
    Deno.copyFileSync(join(REPO, "fixtures", "transcripts", "stop_met.jsonl"), small);
    const size = Deno.statSync(large).size;
    // The small session again, in an install of 1,000 skills of which 5 have a contract (the
    // investigate skill and 4 synthetic ones): what the catalog lookup adds to a stop.
    const manyHome = join(root, "home-1000");
    const manyClaude = join(manyHome, ".claude");
    const manyState = join(manyHome, ".skillgate");
    writeSyntheticInstall(manyClaude, 1000, 0, 4);
    Deno.mkdirSync(join(manyClaude, "skills", "investigate"));
    Deno.copyFileSync(
      join(claude, "skills", "investigate", "SKILL.md"),
      join(manyClaude, "skills", "investigate", "SKILL.md"),
    );
    const manyProjects = join(manyClaude, "projects", "-home-dev-app");
    Deno.mkdirSync(manyProjects, { recursive: true });
    const manySmall = join(manyProjects, "small.jsonl");
    Deno.copyFileSync(small, manySmall);
    // The usual stops. A long session that never loaded a skill with a contract: the first stop
    // searches it all and keeps a scan memo, each later one searches what was appended since (here
    // nothing, so the last 64 KiB the memo re-reads).
    const none = join(projects, "none.jsonl");
    writeLongSession(
      none,
      32 * MiB,
      jsonl([
        user("how does the parser read the file?"),
        assistant([{ type: "text", text: NONE_FINAL }], "msg_none_final"),
      ]),
    );
    // An install whose only skill has no contract: the stop ends at the catalog's contracts view.
    const plainHome = join(root, "home-plain");
    const plainClaude = join(plainHome, ".claude");
    const plainState = join(plainHome, ".skillgate");
    Deno.mkdirSync(join(plainClaude, "skills", "plain"), { recursive: true });
    Deno.writeTextFileSync(
      join(plainClaude, "skills", "plain", "SKILL.md"),
      "---\nname: plain\ndescription: A skill without a contract.\n---\nSay what the code does.\n",
    );
    const plainProjects = join(plainClaude, "projects", "-home-dev-app");
    Deno.mkdirSync(plainProjects, { recursive: true });
    const plainSmall = join(plainProjects, "small.jsonl");
    Deno.copyFileSync(small, plainSmall);

    // contract_packs: the 1,000 skills again, plus the six superpowers skills with a pack contract
    // (their descriptions open with their entries' words); writing-plans ran and saved no plan.
    const packHome = join(root, "home-packs");
    const packClaude = join(packHome, ".claude");
    const packState = join(packHome, ".skillgate");
    writeSyntheticInstall(packClaude, 1000, 0, 4);
    for (const c of PACK_CONTRACTS) {
      Deno.mkdirSync(join(packClaude, "skills", c.name));
      Deno.writeTextFileSync(
        join(packClaude, "skills", c.name, "SKILL.md"),
        `---\nname: ${c.name}\ndescription: ${c.opening} the rest\n---\nDo it.\n`,
      );
    }
    Deno.mkdirSync(packState, { recursive: true });
    Deno.writeTextFileSync(join(packState, "config.yaml"), "contract_packs: superpowers\n");
    const packProjects = join(packClaude, "projects", "-home-dev-app");
    Deno.mkdirSync(packProjects, { recursive: true });
    const packRun = join(packProjects, "packs.jsonl");
    Deno.writeTextFileSync(
      packRun,
      jsonl([
        user("plan the export feature"),
        ...skillLoad("toolu_wp", "writing-plans", join(packClaude, "skills", "writing-plans")),
        say(PACKS_FINAL),
      ]),
    );

    // Gemini CLI: its own folders (`~/.gemini/skills`, chats under `~/.gemini/tmp`).
    const gemHome = join(root, "home-gemini");
    const gemDir = join(gemHome, ".gemini");
    const gemState = join(gemHome, ".skillgate");
    const gemChats = join(gemDir, "tmp", "app", "chats");
    Deno.mkdirSync(join(gemDir, "skills", "investigate"), { recursive: true });
    Deno.mkdirSync(gemChats, { recursive: true });
    Deno.copyFileSync(
      join(claude, "skills", "investigate", "SKILL.md"),
      join(gemDir, "skills", "investigate", "SKILL.md"),
    );
    const gemSmall = join(gemChats, "session-2026-12-02T00-36-small.jsonl");
    Deno.copyFileSync(
      join(REPO, "fixtures", "transcripts", "gemini", "contract_met_after_block.jsonl"),
      gemSmall,
    );
    const gemLarge = join(gemChats, "session-2026-12-02T00-36-large.jsonl");
    writeGeminiChat(gemLarge, 8 * MiB);

    const row = hookRow("skill-contract");
    const args = denoRunArgs(
      row,
      { stateRoot: state, hostFolders: claudeFolders(claude) },
      join(REPO, row.bundle),
    );
    const manyArgs = denoRunArgs(
      row,
      { stateRoot: manyState, hostFolders: claudeFolders(manyClaude) },
      join(REPO, row.bundle),
    );
    const packArgs = denoRunArgs(
      row,
      { stateRoot: packState, hostFolders: claudeFolders(packClaude) },
      join(REPO, row.bundle),
    );
    const plainArgs = denoRunArgs(
      row,
      { stateRoot: plainState, hostFolders: claudeFolders(plainClaude) },
      join(REPO, row.bundle),
    );
    const env = {
      HOME: home,
      SKILLGATE_STATE_ROOT: state,
      CLAUDE_CONFIG_DIR: claude,
      PATH: Deno.env.get("PATH") ?? "",
      NO_COLOR: "1",
      // The hook's npm cache stays the user's, not the temp home's.
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(
          Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"),
          "deno",
        ),
    };
    const manyEnv = {
      ...env,
      HOME: manyHome,
      SKILLGATE_STATE_ROOT: manyState,
      CLAUDE_CONFIG_DIR: manyClaude,
    };
    const packEnv = {
      ...env,
      HOME: packHome,
      SKILLGATE_STATE_ROOT: packState,
      CLAUDE_CONFIG_DIR: packClaude,
    };
    const gemArgs = denoRunArgs(
      row,
      {
        stateRoot: gemState,
        hostFolders: { configDir: gemDir, home: gemHome, layout: GEMINI.layout },
      },
      join(REPO, row.bundle),
    );
    const gemEnv = { ...env, HOME: gemHome, SKILLGATE_STATE_ROOT: gemState, CLAUDE_CONFIG_DIR: "" };
    // AfterAgent with the text the fixture's session ended on, after its one block.
    const gemStop = (transcript: string, session: string) =>
      JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: "/home/dev/app",
        hook_event_name: "AfterAgent",
        timestamp: "2026-12-02T00:36:15.909Z",
        prompt: "the login test fails, fix it",
        prompt_response: "Fixed: the null check was missing.\n" +
          "DEBUG REPORT\nSymptom: x\nRoot cause: y\nFix: z\nEvidence: PASS",
        stop_hook_active: true,
      });
    const plainEnv = {
      ...env,
      HOME: plainHome,
      SKILLGATE_STATE_ROOT: plainState,
      CLAUDE_CONFIG_DIR: plainClaude,
    };
    // The payload carries the turn's final text, as Claude Code sends it: the hook checks that the
    // file holds it (here it always does at once) before reading the run.
    const stop = (transcript: string, session: string, final: string, active = false) =>
      JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: "/home/dev/app",
        hook_event_name: "Stop",
        stop_hook_active: active,
        last_assistant_message: final,
      });
    const unmet = finalTextOf("stop_unmet");
    const met = finalTextOf("stop_met");
    const hook = (label: string, stdin: string, a = args, e = env): BenchCase => ({
      label,
      cmd: Deno.execPath(),
      args: a,
      opts: { stdin, env: e },
    });
    // The unmet runs stop with stop_hook_active: every measured stop reads, checks and allows
    // without recording.
    const large0 = hook(LARGE_LABEL, stop(large, "bench-large", unmet, true));
    const many = hook(MANY_LABEL, stop(manySmall, "bench-many", met), manyArgs, manyEnv);
    const noneLoaded = hook(NONE_LABEL, stop(none, "bench-none", NONE_FINAL));
    const plain = hook(PLAIN_LABEL, stop(plainSmall, "bench-plain", met), plainArgs, plainEnv);
    const gemini = hook(GEMINI_LABEL, gemStop(gemSmall, "bench-gemini"), gemArgs, gemEnv);
    // A new session each run: the hook reads the run every time (the session's record would
    // otherwise answer `already-met` after the first).
    const geminiLarge: BenchCase = {
      ...hook(GEMINI_LARGE_LABEL, gemStop(gemLarge, "bench-gemini-large"), gemArgs, gemEnv),
      opts: { stdin: gemStop(gemLarge, "bench-gemini-large"), env: gemEnv, newSession: true },
    };
    // Unmet, with stop_hook_active: every measured stop reads, checks and allows.
    const packs = hook(
      PACKS_LABEL,
      stop(packRun, "bench-packs", PACKS_FINAL, true),
      packArgs,
      packEnv,
    );

    // One run first, to see the answer, warm the catalog index and write the scan memo.
    for (const c of [large0, many, noneLoaded, plain, gemini, geminiLarge, packs]) {
      const err = (await runOnce(c.cmd, c.args, c.opts!.stdin!, { env: c.opts!.env })).stderr
        .trim();
      if (err !== "") throw new Error(`The hook failed: ${err}`);
    }

    // Interleaved rounds with the empty run, so a change in the machine's load hits both alike.
    const empty = await emptyDenoRunCase();
    let baseline: BenchStats;
    let rows: BenchStats[];
    try {
      [baseline, ...rows] = await benchRounds([
        empty.case,
        large0,
        hook(LARGE_SMALL_RUN_LABEL, stop(largeSmallRun, "bench-large-small-run", unmet, true)),
        hook(SMALL_LABEL, stop(small, "bench-small", met)),
        many,
        noneLoaded,
        plain,
        gemini,
        geminiLarge,
        packs,
      ], n);
    } finally {
      await empty.cleanup();
    }
    // The hook's last decision for a session, from its log (without the time).
    const lastDecision = (stateRoot: string, session: string) =>
      Deno.readTextFileSync(join(stateRoot, "hooks", "skill-contract.log")).trimEnd().split("\n")
        .filter((l) => l.includes(`session=${session} `)).at(-1)?.replace(/^time=\S+ /, "") ??
        "none";
    const report = [
      formatReport("skill contract Stop hook", baseline, rows, {
        [LARGE_LABEL]: 1.5,
        [LARGE_SMALL_RUN_LABEL]: 1.4,
      }),
      "",
      `large transcript: ${(size / MiB).toFixed(1)} MiB; the hook's last decision on it: ${
        lastDecision(state, "bench-large")
      }`,
      `1,000 skills: the hook's last decision: ${lastDecision(manyState, "bench-many")}`,
      `no skill with a contract loaded: the hook's last decision: ${
        lastDecision(state, "bench-none")
      }`,
      `no skill with a contract installed: the hook's last decision: ${
        lastDecision(plainState, "bench-plain")
      }`,
      `Gemini CLI: the hook's last decisions: ${lastDecision(gemState, "bench-gemini")}; ${
        lastDecision(gemState, "bench-gemini-large")
      }`,
      `contract_packs: the hook's last decision: ${lastDecision(packState, "bench-packs")}`,
    ].join("\n");
    console.log(report);
    return report;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 15);
  await main(Number.isFinite(n) && n > 0 ? n : 15);
}

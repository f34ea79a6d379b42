/**
 * Whole-process benchmark of the skill-to-agent redirect hook, run exactly as the hook table
 * registers it, as ratios to an empty `deno run` measured in the same run:
 *
 * - a non-Skill tool call (target ≤ 1.1×);
 * - a Skill call naming an agent, with 500 agents and 500 skills installed, with the catalog index
 *   warm (written earlier by another hook or the CLI; the redirect itself may not write it) and
 *   cold (no index, every file parsed) (target ≤ 1.5× for the warm case);
 * - a Skill call for an unknown name (no skill scan at all);
 * - the Stop path over a turn with an `Unknown skill` failure;
 * - the Stop path at the end of a 32 MiB session, with no failed Skill call in its last turn (the
 *   hook's front settles it) and with one (the path reads the last turn only, whatever the
 *   session's size), beside a stop with `stop_hook_active` over that last turn (the floor of a
 *   stop the front cannot settle: the front's read, then the core, which passes at once).
 *
 * Run: `deno run --allow-read --allow-write --allow-env --allow-run --no-prompt bench/redirect_bench.ts [--n 15]`
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchProcess, type BenchStats, formatReport, wantedCase } from "./harness.ts";
import { denoRunArgs, hookRow } from "../lib/hook/table.ts";
import { loadCatalog } from "../lib/catalog/catalog.ts";
import { claudeFolders, finalTextOf, writeSyntheticInstall } from "./fixtures.ts";
import { assistant, fillerTurn, jsonl, writeLongSession } from "../fixtures/transcripts/_build.ts";

const REPO = join(import.meta.dirname!, "..");
const COUNT = 500;
const MiB = 1024 * 1024;
/** The final text of the large session's last turn when it has no failed Skill call. */
const CLEAN_FINAL = "Module 9999 computes values; nothing else to change.";

function pad(i: number): string {
  return String(i).padStart(3, "0");
}

/** Builds a world with `COUNT` agents and `COUNT` skills; returns its paths. */
function buildWorld(root: string) {
  const home = join(root, "home");
  const claudeDir = join(home, ".claude");
  const stateRoot = join(home, ".skillgate");
  const project = join(root, "project");
  Deno.mkdirSync(join(project, ".git"), { recursive: true });
  const desc = "Handles one narrow kind of task in this generated bundle; used to measure the " +
    "redirect with a realistically sized catalog of agents and skills.";
  for (let i = 0; i < COUNT; i++) {
    const group = join(claudeDir, "agents", `group-${i % 10}`);
    Deno.mkdirSync(group, { recursive: true });
    Deno.writeTextFileSync(
      join(group, `agent-${pad(i)}.md`),
      `---\nname: agent-${
        pad(i)
      }\ndescription: ${desc}\nmodel: inherit\n---\n\n# Agent ${i}\n\nDo the task.\n`,
    );
    const skill = join(claudeDir, "skills", `skill-${pad(i)}`);
    Deno.mkdirSync(skill, { recursive: true });
    Deno.writeTextFileSync(
      join(skill, "SKILL.md"),
      `---\nname: skill-${
        pad(i)
      }\ndescription: ${desc}\ntriggers:\n  - run task ${i}\n---\n\n1. Do step one.\n`,
    );
  }
  const transcriptDir = join(claudeDir, "projects", "-bench-project");
  Deno.mkdirSync(transcriptDir, { recursive: true });
  const transcript = join(transcriptDir, "bench-session.jsonl");
  const turn = Deno.readTextFileSync(
    join(REPO, "fixtures", "transcripts", "redirect_unknown_skill.jsonl"),
  );
  Deno.writeTextFileSync(transcript, turn.replaceAll("prompt-writer", "agent-123"));
  // 32 MiB sessions: the last turn an ordinary one, or the Unknown skill turn above.
  const largeClean = join(transcriptDir, "bench-large-clean.jsonl");
  writeLongSession(
    largeClean,
    32 * MiB,
    fillerTurn(9999) + jsonl([assistant([{ type: "text", text: CLEAN_FINAL }], "msg_final")]),
  );
  const largeFailed = join(transcriptDir, "bench-large-failed.jsonl");
  writeLongSession(largeFailed, 32 * MiB, turn.replaceAll("prompt-writer", "agent-123"));
  return { home, claudeDir, stateRoot, project, transcript, largeClean, largeFailed };
}

/** One case of the benchmark. */
interface Case {
  readonly label: string;
  readonly args: string[];
  readonly stdin: string;
  readonly env: Record<string, string>;
}

/** The Deno cache of this process, so the hook's modules come compiled from the same cache. */
function denoDir(): string {
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return fromEnv;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return join(xdg ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

/** The 1, 5 and 15 minute load averages (read by `cat`: Deno reads `/proc` only with `-A`). */
function loadAverage(): string {
  try {
    const out = new Deno.Command("cat", { args: ["/proc/loadavg"], stderr: "null" }).outputSync();
    const text = new TextDecoder().decode(out.stdout).trim();
    return out.success && text ? text.split(" ").slice(0, 3).join(" ") : "unknown";
  } catch {
    return "unknown";
  }
}

function stats(label: string, runs: BenchStats[]): BenchStats {
  const times = runs.map((r) => r.medianMs).sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {
    label,
    n: times.length,
    medianMs: at(0.5),
    p90Ms: at(0.9),
    peakRssKiB: Math.max(...runs.map((r) => r.peakRssKiB)),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { n: { type: "string" } } });
  const n = Math.max(3, Math.min(50, Number(values.n ?? 15) || 15));
  const root = await Deno.makeTempDir({ prefix: "skillgate-bench-redirect-" });
  try {
    const w = buildWorld(root);
    const coldRoot = join(root, "state-cold");
    const env = (stateRoot: string) => ({
      HOME: w.home,
      CLAUDE_CONFIG_DIR: w.claudeDir,
      // Set, not inherited: the hook passes it to the catalog as a project root.
      CLAUDE_PROJECT_DIR: w.project,
      SKILLGATE_STATE_ROOT: stateRoot,
      NO_COLOR: "1",
      // The temp HOME would otherwise give the hook a cold module cache of its own.
      DENO_DIR: denoDir(),
    });
    const entry = join(REPO, "hooks", "dist", "skill_redirect.js");
    const args = (id: "skill-redirect" | "skill-redirect-stop", stateRoot: string) =>
      denoRunArgs(hookRow(id), { stateRoot, hostFolders: claudeFolders(w.claudeDir) }, entry);
    const stopPayload = (session: string, transcript: string, finalText: string) =>
      JSON.stringify({
        session_id: session,
        hook_event_name: "Stop",
        transcript_path: transcript,
        cwd: w.project,
        stop_hook_active: false,
        last_assistant_message: finalText,
      });
    const payload = (toolName: string, toolInput: unknown) =>
      JSON.stringify({
        session_id: "bench-session",
        hook_event_name: "PreToolUse",
        cwd: w.project,
        tool_name: toolName,
        tool_input: toolInput,
        tool_use_id: "toolu_bench",
      });
    // Warm both indexes (skills and agents) the way another hook or `skillgate setup` does; the
    // redirect may not write them. Then check that each one, loaded alone with the options the
    // hook uses, is read from the index without re-parsing, so "warm" means what the hook sees.
    const hookView = {
      hostFolders: claudeFolders(w.claudeDir),
      cwd: w.project,
      projectDir: w.project,
      extraSkillDirs: [],
      extraAgentDirs: [],
      stateRoot: w.stateRoot,
    };
    await loadCatalog(hookView);
    // A typical install: 39 agents and 59 skills (the gstack count), its index warm too.
    const small = join(root, "small");
    const smallClaude = join(small, ".claude");
    const smallState = join(small, ".skillgate");
    writeSyntheticInstall(smallClaude, 59, 39);
    await loadCatalog({
      ...hookView,
      hostFolders: claudeFolders(smallClaude),
      stateRoot: smallState,
    });
    const smallEnv = { ...env(smallState), HOME: small, CLAUDE_CONFIG_DIR: smallClaude };
    for (const kind of ["agents", "skills"] as const) {
      const view = await loadCatalog({
        ...hookView,
        writeIndex: false,
        skills: kind === "skills",
        agents: kind === "agents",
      });
      if (!view.fromIndex || view[kind].length !== COUNT) {
        throw new Error(`The ${kind} index is not warm for the hook's view of the catalog`);
      }
    }
    const empty = join(root, "empty.ts");
    Deno.writeTextFileSync(empty, "");
    const all: Case[] = [
      {
        label: "empty deno run",
        args: ["run", "--no-prompt", "--no-config", empty],
        stdin: "",
        env: env(w.stateRoot),
      },
      {
        label: "non-Skill tool call (Bash)",
        args: args("skill-redirect", w.stateRoot),
        stdin: payload("Bash", { command: "ls" }),
        env: env(w.stateRoot),
      },
      {
        label: "Skill(agent-123), 500+500, warm index",
        args: args("skill-redirect", w.stateRoot),
        stdin: payload("Skill", { skill: "agent-123" }),
        env: env(w.stateRoot),
      },
      {
        label: "Skill(<agent>), 39 agents + 59 skills, warm index",
        args: denoRunArgs(hookRow("skill-redirect"), {
          stateRoot: smallState,
          hostFolders: claudeFolders(smallClaude),
        }, entry),
        stdin: payload("Skill", { skill: "bench-agent-7" }),
        env: smallEnv,
      },
      {
        label: "Skill(agent-123), 500+500, cold (no index)",
        args: args("skill-redirect", coldRoot),
        stdin: payload("Skill", { skill: "agent-123" }),
        env: env(coldRoot),
      },
      {
        label: "Skill(unknown name), 500+500, warm index",
        args: args("skill-redirect", w.stateRoot),
        stdin: payload("Skill", { skill: "no-such-thing" }),
        env: env(w.stateRoot),
      },
      {
        label: "Stop, Unknown skill in turn, 500+500, warm index",
        args: args("skill-redirect-stop", w.stateRoot),
        stdin: JSON.stringify({
          session_id: "bench-session",
          hook_event_name: "Stop",
          transcript_path: w.transcript,
          cwd: w.project,
          stop_hook_active: false,
          last_assistant_message: finalTextOf("redirect_unknown_skill"),
        }),
        env: env(w.stateRoot),
      },
      {
        // The floor of a Stop the front cannot settle (its turn has an Unknown skill): the front's
        // turn read, then the runner, the redirect module and the log line, no second read.
        label: "Stop with stop_hook_active, Unknown skill in turn (the core's floor)",
        args: args("skill-redirect-stop", w.stateRoot),
        stdin: stopPayload(
          "bench-large-failed",
          w.largeFailed,
          finalTextOf("redirect_unknown_skill"),
        ).replace('"stop_hook_active":false', '"stop_hook_active":true'),
        env: env(w.stateRoot),
      },
      {
        label: "Stop, 32 MiB session, 500+500, no failed Skill call",
        args: args("skill-redirect-stop", w.stateRoot),
        stdin: stopPayload("bench-large-clean", w.largeClean, CLEAN_FINAL),
        env: env(w.stateRoot),
      },
      {
        label: "Stop, 32 MiB session, 500+500, Unknown skill in last turn",
        args: args("skill-redirect-stop", w.stateRoot),
        stdin: stopPayload(
          "bench-large-failed",
          w.largeFailed,
          finalTextOf("redirect_unknown_skill"),
        ),
        env: env(w.stateRoot),
      },
    ];
    const cases = all.filter((c) => wantedCase(c.label));
    // Interleaved rounds: every case runs once per round, so load from other processes on a
    // shared machine falls on all cases alike.
    const loadBefore = loadAverage();
    const runs = new Map<string, BenchStats[]>(cases.map((c) => [c.label, []]));
    for (let round = -1; round < n; round++) {
      for (const c of cases) {
        const r = await benchProcess(c.label, Deno.execPath(), c.args, {
          stdin: c.stdin,
          env: c.env,
          cwd: w.project,
          n: 1,
          warmup: 0,
        });
        if (round >= 0) runs.get(c.label)!.push(r);
      }
    }
    const [baseline, ...rows] = cases.map((c) => stats(c.label, runs.get(c.label)!));
    console.log(formatReport("skill-to-agent redirect hook", baseline, rows, {
      "non-Skill tool call (Bash)": 1.1,
      "Skill(<agent>), 39 agents + 59 skills, warm index": 1.25,
      "Skill(agent-123), 500+500, warm index": 1.3,
      "Stop, 32 MiB session, 500+500, no failed Skill call": 1.2,
    }));
    console.log(
      `\n${n} interleaved rounds after one unmeasured round (load average ${loadBefore} before, ` +
        `${loadAverage()} after). ` +
        "The Stop cases with an Unknown skill block on their first run only; later runs find the " +
        "marker and pass after the same transcript read.",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

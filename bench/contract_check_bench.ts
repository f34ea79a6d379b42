/**
 * Benchmark of `skillgate contract check`: whole-process wall time and peak RSS on generated
 * transcripts of 1, 32 and 300 MiB whose last skill load is near the end, and of 32 MiB whose load
 * is at the start (so all 32 MiB are parsed). Targets (issue 4): the near-end cases within 1.5× of
 * the 1 MiB case; peak RSS ≤ 100 MiB for every case.
 *
 * Run: `deno run -A bench/contract_check_bench.ts [runs]` (default 5 runs per case). The
 * transcripts are written to a temp directory and deleted at the end.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchProcess, type BenchStats, emptyDenoRun, formatReport } from "./harness.ts";
import {
  assistant,
  fillerTurn,
  jsonl,
  user as userRecord,
} from "../fixtures/transcripts/_build.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const SKILL_FILE = join(REPO, "fixtures", "world", "skills", "investigate", "SKILL.md");
const MiB = 1024 * 1024;

const asst = (id: string, content: unknown[]) => jsonl([assistant(content, id)]);
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  jsonl([userRecord(content, extra)]);

/** The investigate run of the seed's worked example (load, edit, final answer). */
function investigateRun(): string {
  return user("the login page crashes, fix this bug") +
    asst("msg_s1", [{
      type: "tool_use",
      id: "toolu_skill",
      name: "Skill",
      input: { skill: "investigate" },
    }]) +
    user([{
      type: "tool_result",
      tool_use_id: "toolu_skill",
      content: "Launching skill: investigate",
    }]) +
    user([{
      type: "text",
      text: "Base directory for this skill: /home/dev/.claude/skills/investigate\n\n# /investigate",
    }], { isMeta: true, sourceToolUseID: "toolu_skill" }) +
    asst("msg_s2", [{
      type: "tool_use",
      id: "toolu_edit",
      name: "Edit",
      input: { file_path: "/home/dev/app/src/auth.ts", old_string: "a", new_string: "b" },
    }]) +
    user([{ type: "tool_result", tool_use_id: "toolu_edit", content: "The file was updated." }]) +
    asst("msg_s3", [{ type: "text", text: "Fixed: the null check was missing." }]);
}

/** Writes a transcript: filler up to `before` bytes, the run, then filler up to `total` bytes. */
async function writeTranscript(path: string, total: number, loadAt: "start" | "end") {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let size = 0;
  let i = 0;
  const write = async (s: string) => {
    const b = enc.encode(s);
    await file.write(b);
    size += b.length;
  };
  try {
    const run = investigateRun();
    if (loadAt === "start") await write(run);
    const tail = loadAt === "end" ? 64 * 1024 : 0;
    let batch = "";
    while (
      size + batch.length <
        total - tail - enc.encode(loadAt === "end" ? run : "").length - 16 * 1024
    ) {
      batch += fillerTurn(i++);
      if (batch.length > MiB) {
        await write(batch);
        batch = "";
      }
    }
    await write(batch);
    if (loadAt === "end") {
      await write(run);
      while (size < total - 16 * 1024) await write(fillerTurn(i++));
    }
    // The final answer last, so the run ends on it.
    await write(asst("msg_end", [{ type: "text", text: "Fixed: the null check was missing." }]));
  } finally {
    file.close();
  }
  return size;
}

const runs = Number(Deno.args[0] ?? 5);
const dir = await Deno.makeTempDir({ prefix: "skillgate-contract-bench-" });
const state = join(dir, "state");
const cases: { label: string; mib: number; loadAt: "start" | "end" }[] = [
  { label: "1 MiB, load near end", mib: 1, loadAt: "end" },
  { label: "32 MiB, load near end", mib: 32, loadAt: "end" },
  { label: "300 MiB, load near end", mib: 300, loadAt: "end" },
  { label: "32 MiB, load at start", mib: 32, loadAt: "start" },
];
try {
  const rows: BenchStats[] = [];
  const baseline = await emptyDenoRun(runs);
  for (const c of cases) {
    const path = join(dir, `t-${c.mib}-${c.loadAt}.jsonl`);
    // "32 MiB at start" must stay inside the 32 MiB parse limit: all of it is the run.
    const total = c.loadAt === "start" ? c.mib * MiB - 4096 : c.mib * MiB;
    const size = await writeTranscript(path, total, c.loadAt);
    const args = [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      join(REPO, "cli.ts"),
      "contract",
      "check",
      "--transcript",
      path,
      "--skill",
      "investigate",
      "--skill-file",
      SKILL_FILE,
    ];
    // Sanity: the check must give the worked example's exit 1 on every case.
    const probe = await new Deno.Command(Deno.execPath(), {
      args,
      env: { SKILLGATE_STATE_ROOT: state },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (probe.code !== 1) {
      throw new Error(
        `${c.label}: exit ${probe.code}: ${new TextDecoder().decode(probe.stderr).slice(0, 300)}`,
      );
    }
    const stats = await benchProcess(
      `${c.label} (${(size / MiB).toFixed(1)} MiB)`,
      Deno.execPath(),
      args,
      {
        n: runs,
        warmup: 1,
        env: { SKILLGATE_STATE_ROOT: state },
      },
    );
    rows.push(stats);
    await Deno.remove(path);
  }
  console.log(formatReport("skillgate contract check", baseline, rows));
  const base = rows[0].medianMs;
  console.log("");
  for (const r of rows) {
    const rss = r.peakRssKiB / 1024;
    console.log(
      `${r.label}: ${(r.medianMs / base).toFixed(2)}× the 1 MiB case; peak RSS ${
        Number.isFinite(rss) ? rss.toFixed(1) + " MiB" : "n/a"
      } (${Number.isFinite(rss) ? (rss <= 100 ? "≤ 100 MiB met" : "> 100 MiB MISSED") : "n/a"})`,
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}

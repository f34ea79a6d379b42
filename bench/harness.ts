/**
 * Whole-process benchmark harness: runs a command N times, reports the median and p90 wall time
 * and the peak RSS (via `/usr/bin/time` when present), and states every figure as a ratio to an
 * empty `deno run` script measured in the same run. The machine is noted with each report.
 *
 * @module
 */

import { join } from "../lib/base/path.ts";

/** One measured command. */
export interface BenchStats {
  /** What was measured. */
  readonly label: string;
  /** Runs. */
  readonly n: number;
  /** Median wall time, ms. */
  readonly medianMs: number;
  /** 90th percentile wall time, ms. */
  readonly p90Ms: number;
  /** Peak resident set size over the runs, KiB (`NaN` when `/usr/bin/time` is absent). */
  readonly peakRssKiB: number;
}

const TIME = "/usr/bin/time";

function hasTime(): boolean {
  try {
    return Deno.statSync(TIME).isFile;
  } catch {
    return false;
  }
}

/**
 * Whether a case is to be measured: every case, unless `SKILLGATE_BENCH_CASE` names part of the
 * labels wanted (case-insensitive; `deno task bench --case <text>` sets it). The empty run, every
 * ratio's baseline, is always measured.
 *
 * @param label The case's label.
 * @returns `true` to measure it.
 */
export function wantedCase(label: string): boolean {
  const only = Deno.env.get("SKILLGATE_BENCH_CASE")?.toLowerCase();
  return !only || label === "empty deno run" || label.toLowerCase().includes(only);
}

/** Options of {@link benchProcess}. */
export interface BenchOptions {
  /** Text written to stdin. */
  readonly stdin?: string;
  /** Runs (default 15). */
  readonly n?: number;
  /** Unmeasured runs first (default 2). */
  readonly warmup?: number;
  /** Environment (merged over the current one). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory. */
  readonly cwd?: string;
  /**
   * Each run a new session (the payload's `session_id` gets the run's number): a hook has no
   * record of it, so it decides afresh (a contract Stop reads the run, not its record's answer).
   */
  readonly newSession?: boolean;
}

/**
 * Runs a command once with a text on its stdin, for a benchmark's check that a case does what it
 * claims (and to warm what it caches) before it is timed.
 *
 * @param cmd The executable.
 * @param args Its arguments.
 * @param stdin The text written to its stdin.
 * @param opts Its environment and working directory.
 * @returns Its exit code and what it printed.
 */
export async function runOnce(
  cmd: string,
  args: readonly string[],
  stdin: string,
  opts: { readonly env?: Record<string, string>; readonly cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(cmd, {
    args: [...args],
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(newEvent(stdin)));
  await w.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

let events = 0;

/**
 * A payload as a host sends it for a new event: the hooks answer one event once, however often
 * skillgate is registered (`lib/hook/event_claim.ts`), and a host's payloads tell events apart
 * (`prompt_id`, `tool_use_id`, …). A benchmark sends one payload many times, so each run gets a
 * field that makes it a new event, and every run measures an answered event, not a silent one
 * (with `newSession`, a new session's too). Text that is not a JSON object is sent as it is.
 */
function newEvent(stdin: string, newSession = false): string {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch {
    return stdin;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return stdin;
  const event = ++events;
  const session = newSession && typeof (value as Record<string, unknown>).session_id === "string"
    ? { session_id: `${(value as Record<string, unknown>).session_id}-${event}` }
    : {};
  return JSON.stringify({ ...value, ...session, skillgate_bench_event: event });
}

/**
 * Measures a command.
 *
 * @param label What it is.
 * @param cmd The executable.
 * @param args Its arguments.
 * @param opts Input, runs, environment.
 * @returns The figures.
 */
export async function benchProcess(
  label: string,
  cmd: string,
  args: readonly string[],
  opts: BenchOptions = {},
): Promise<BenchStats> {
  const n = opts.n ?? 15;
  const warmup = opts.warmup ?? 2;
  if (!wantedCase(label)) return { label, n: 0, medianMs: NaN, p90Ms: NaN, peakRssKiB: NaN };
  const withTime = hasTime();
  const rssFile = await Deno.makeTempFile({ prefix: "skillgate-bench-rss-" });
  const times: number[] = [];
  let peak = 0;
  try {
    for (let i = 0; i < warmup + n; i++) {
      const full = withTime ? ["-f", "%M", "-o", rssFile, cmd, ...args] : [...args];
      const child = new Deno.Command(withTime ? TIME : cmd, {
        args: full,
        stdin: "piped",
        stdout: "null",
        stderr: "null",
        env: opts.env ? { ...opts.env } : undefined,
        cwd: opts.cwd,
      });
      const start = performance.now();
      const proc = child.spawn();
      const w = proc.stdin.getWriter();
      if (opts.stdin) {
        await w.write(new TextEncoder().encode(newEvent(opts.stdin, opts.newSession)));
      }
      await w.close();
      await proc.status;
      const ms = performance.now() - start;
      if (i < warmup) continue;
      times.push(ms);
      if (withTime) {
        const kib = Number(Deno.readTextFileSync(rssFile).trim().split("\n").at(-1));
        if (Number.isFinite(kib)) peak = Math.max(peak, kib);
      }
    }
  } finally {
    await Deno.remove(rssFile).catch(() => {});
  }
  times.sort((a, b) => a - b);
  return {
    label,
    n,
    medianMs: times[Math.floor(times.length / 2)],
    p90Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.9))],
    peakRssKiB: withTime ? peak : NaN,
  };
}

/** One command of {@link benchRounds}. */
export interface BenchCase {
  /** What it is. */
  readonly label: string;
  /** The executable. */
  readonly cmd: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Input and environment (its `n` and `warmup` are ignored). */
  readonly opts?: BenchOptions;
}

/**
 * Measures several commands in interleaved rounds (case 1, case 2, …, then again), so that a
 * change in the machine's load during the run affects every case alike. Use it to compare a hook
 * with the empty baseline on a shared machine.
 *
 * @param cases The commands.
 * @param n Rounds (default 15).
 * @param warmup Unmeasured rounds first (default 2).
 * @returns The figures, in the order of `cases` (`n` 0 for a case {@link wantedCase} leaves out).
 */
export async function benchRounds(
  cases: readonly BenchCase[],
  n = 15,
  warmup = 2,
): Promise<BenchStats[]> {
  const times: number[][] = cases.map(() => []);
  const peaks: number[] = cases.map(() => 0);
  for (let round = 0; round < warmup + n; round++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i];
      if (!wantedCase(c.label)) continue;
      const one = await benchProcess(c.label, c.cmd, c.args, { ...c.opts, n: 1, warmup: 0 });
      if (round < warmup) continue;
      times[i].push(one.medianMs);
      peaks[i] = Math.max(peaks[i], one.peakRssKiB);
    }
  }
  return cases.map((c, i) => {
    const t = [...times[i]].sort((a, b) => a - b);
    return {
      label: c.label,
      n: t.length,
      medianMs: t[Math.floor(t.length / 2)],
      p90Ms: t[Math.min(t.length - 1, Math.floor(t.length * 0.9))],
      peakRssKiB: peaks[i],
    };
  });
}

/**
 * The empty script every ratio is measured against, as a {@link BenchCase}.
 *
 * @returns The case and a function that removes its temp file.
 */
export async function emptyDenoRunCase(): Promise<
  { case: BenchCase; cleanup: () => Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-bench-empty-" });
  const script = join(dir, "empty.ts");
  Deno.writeTextFileSync(script, "");
  return {
    case: {
      label: "empty deno run",
      cmd: Deno.execPath(),
      args: ["run", "--no-prompt", "--no-config", script],
    },
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * Measures an empty `deno run --no-prompt --no-config` script: the baseline every ratio uses.
 *
 * @param n Runs.
 * @returns The figures.
 */
export async function emptyDenoRun(n = 15): Promise<BenchStats> {
  const dir = await Deno.makeTempDir({ prefix: "skillgate-bench-empty-" });
  const script = join(dir, "empty.ts");
  Deno.writeTextFileSync(script, "");
  try {
    return await benchProcess(
      "empty deno run",
      Deno.execPath(),
      ["run", "--no-prompt", "--no-config", script],
      { n },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A line describing the machine: CPU model, cores, Deno version.
 *
 * @returns The description.
 */
export function machineNote(): string {
  let cpu = "unknown CPU";
  try {
    cpu = /model name\s*:\s*(.+)/.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1] ?? cpu;
  } catch {
    // Not Linux.
  }
  return `${cpu}, ${navigator.hardwareConcurrency} cores, deno ${Deno.version.deno}, ${Deno.build.os}`;
}

/**
 * Formats figures as a table of ratios to the baseline.
 *
 * @param title The report's title.
 * @param baseline The empty `deno run`.
 * @param rows The measured commands.
 * @param targets Optional ratio targets by label.
 * @returns The report.
 */
export function formatReport(
  title: string,
  baseline: BenchStats,
  rows: readonly BenchStats[],
  targets: Readonly<Record<string, number>> = {},
): string {
  const rss = (k: number) => (Number.isFinite(k) ? `${(k / 1024).toFixed(1)} MiB` : "n/a");
  const lines = [
    `## ${title}`,
    `machine: ${machineNote()}`,
    `baseline: ${baseline.label}: median ${baseline.medianMs.toFixed(1)} ms, p90 ${
      baseline.p90Ms.toFixed(1)
    } ms, peak RSS ${rss(baseline.peakRssKiB)} (n=${baseline.n})`,
    "",
    "| case | median ms | p90 ms | ratio | target | peak RSS |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    if (r.n === 0) continue;
    const ratio = r.medianMs / baseline.medianMs;
    const target = targets[r.label];
    const verdict = target === undefined
      ? ""
      : `≤ ${target}× ${ratio <= target ? "met" : "MISSED"}`;
    lines.push(
      `| ${r.label} | ${r.medianMs.toFixed(1)} | ${r.p90Ms.toFixed(1)} | ${
        ratio.toFixed(2)
      }× | ${verdict} | ${rss(r.peakRssKiB)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * `deno task bench`: runs every benchmark, one after the other (they share two cores), and writes
 * the combined report to `bench/REPORT.md` as well as stdout. Each benchmark states its figures as
 * ratios to an empty `deno run` measured in the same run, with the machine noted.
 *
 * Usage: `deno task bench [runs] [--only <file>] [--case <label>]` (default 15 runs per
 * whole-process case; the contract check benchmark, which writes transcripts of up to 300 MiB,
 * uses a third of that). `--only route` runs only the benchmark files whose name contains
 * `route`; `--case 1000` measures only the cases whose label contains `1000` (and the empty run).
 * Either one prints the report without writing `bench/REPORT.md`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { machineNote } from "./harness.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { only: { type: "string" }, case: { type: "string" } },
  allowPositionals: true,
});
const runs = Math.max(3, Number(positionals[0] ?? 15) || 15);
const benches: Array<[string, string[]]> = ([
  ["foundation_bench.ts", [String(runs)]],
  ["route_bench.ts", [String(runs)]],
  ["contract_stop_bench.ts", [String(runs)]],
  ["contract_check_bench.ts", [String(Math.max(3, Math.round(runs / 3)))]],
  ["redirect_bench.ts", ["--n", String(runs)]],
  ["report_bench.ts", [String(runs)]],
] as Array<[string, string[]]>).filter(([file]) => !values.only || file.includes(values.only));
const partial = values.only !== undefined || values.case !== undefined;

const parts = [
  `# skillgate benchmarks`,
  ``,
  `Run: \`deno task bench ${runs}\` on ${new Date().toISOString()}; ${machineNote()}.`,
  `The load average when it started: ${loadAverage()}. Machines here are shared: compare ratios, not milliseconds.`,
];
let failed = 0;
for (const [file, args] of benches) {
  console.error(`bench: ${file} ${args.join(" ")}`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", new URL(file, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
    env: values.case === undefined ? {} : { SKILLGATE_BENCH_CASE: values.case },
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  console.log(text);
  parts.push("", `<!-- ${file} -->`, text);
  if (out.code !== 0) {
    failed++;
    parts.push(`(${file} exited with ${out.code})`);
  }
}
if (!partial) {
  Deno.writeTextFileSync(new URL("REPORT.md", import.meta.url), parts.join("\n") + "\n");
}
console.error(
  `bench: ${
    partial ? "a part only: bench/REPORT.md left as it was" : "report written to bench/REPORT.md"
  }${failed ? `; ${failed} benchmark(s) failed` : ""}`,
);
Deno.exitCode = failed ? 1 : 0;

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

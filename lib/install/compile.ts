/**
 * `skillgate setup --compile`: one `deno compile` per hook module, its permission flags baked in
 * with this user's absolute paths, into `<state root>/bin/<host>-<key>/`: one set of binaries per
 * hook file they are registered in (`<key>` is a hash of that file's path), since each host's
 * hooks are granted that host's folders and a `--project` hook the project's path. The command lines are plain data
 * ({@link compilePlans}) so they can be checked without running them; {@link runCompile} runs them
 * and turns the usual failure (Deno cannot download its `denort` runtime) into one clear message.
 *
 * @module
 */

import { pathKey } from "../base/path.ts";
import { join } from "node:path";
import { exportName, hookModule, type ModuleSource } from "./hook_commands.ts";
import { type HookRow, permissionFlags, type PermissionPaths } from "../hook/table.ts";

/** One binary to build. */
export interface CompilePlan {
  /** The export name of the module (`skill-route`); the binary is `skillgate-<name>`. */
  readonly name: string;
  /** The hook ids this binary serves (one module can serve two events). */
  readonly hookIds: readonly string[];
  /** The binary's absolute path. */
  readonly output: string;
  /** The full command: `<deno> compile --no-config --no-prompt <flags> --output <bin> <module>`. */
  readonly argv: readonly string[];
}

/** What the compile plans are built from. */
export interface CompileInputs {
  /** The absolute path of the Deno executable. */
  readonly denoPath: string;
  /** Where the hook modules come from (a checkout or the JSR package). */
  readonly source: ModuleSource;
  /** The paths the baked-in permission flags grant. */
  readonly paths: PermissionPaths;
  /** The output folder ({@link binDirOf}). */
  readonly binDir: string;
}

/**
 * The folder of the binaries registered in one hook file: `<state root>/bin/<host>-<key>`, `<key>`
 * a hash of the hook file's path. The binaries' grants are baked in, and differ by host (its own
 * folders) and by `--project` (the project's path): a folder per hook file keeps one file's
 * binaries from replacing another's.
 *
 * @param stateRoot The state root.
 * @param host The host the hook file is for.
 * @param hookFile The hook file the binaries are registered in.
 * @returns The folder.
 */
export function binDirOf(stateRoot: string, host: string, hookFile: string): string {
  return join(stateRoot, "bin", `${host}-${pathKey(hookFile)}`);
}

/**
 * The compile command of each hook module. Rows that share a module and flags share one binary.
 *
 * @param rows The hooks to build.
 * @param inputs Deno, module source, paths and output folder.
 * @returns One plan per binary, in table order.
 * @throws {Error} When the source is already `compiled`, or two rows share a module but not flags.
 */
export function compilePlans(rows: readonly HookRow[], inputs: CompileInputs): CompilePlan[] {
  if (inputs.source.kind === "compiled") throw new Error("Compile needs a checkout or JSR source");
  const plans: CompilePlan[] = [];
  for (const row of rows) {
    const name = exportName(row);
    const flags = permissionFlags(row, inputs.paths);
    const output = hookModule(row, { kind: "compiled", binDir: inputs.binDir });
    const argv = [
      inputs.denoPath,
      "compile",
      "--no-config",
      "--no-prompt",
      ...flags,
      "--output",
      output,
      hookModule(row, inputs.source),
    ];
    const existing = plans.find((p) => p.name === name);
    if (existing) {
      if (JSON.stringify(existing.argv) !== JSON.stringify(argv)) {
        throw new Error(`Hooks sharing the module ${name} need different flags`);
      }
      plans[plans.indexOf(existing)] = { ...existing, hookIds: [...existing.hookIds, row.id] };
      continue;
    }
    plans.push({ name, hookIds: [row.id], output, argv });
  }
  return plans;
}

/** The outcome of {@link runCompile}. */
export type CompileOutcome =
  | { readonly ok: true; readonly built: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** Runs one command; injectable for tests. */
export type CommandRunner = (
  argv: readonly string[],
) => Promise<{ code: number; stderr: string }>;

/**
 * Runs a command with no stdin and no stdout, collecting stderr.
 *
 * @param argv The executable and its arguments.
 * @returns The exit code and stderr.
 */
export async function runProcess(
  argv: readonly string[],
): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * Explains a failed `deno compile`.
 *
 * @param plan The binary that failed.
 * @param stderr What `deno compile` printed.
 * @returns One clear message.
 */
export function explainCompileFailure(plan: CompilePlan, stderr: string): string {
  // deno-lint-ignore no-control-regex
  const clean = stderr.replace(/\u001b\[[0-9;]*m/g, "");
  const runtime = /dl\.deno\.land|denort|Setting up base binary/i.test(clean);
  const last = clean.split("\n").map((l) => l.trim()).filter((l) => l !== "").at(-1) ?? "";
  if (runtime) {
    return `deno compile could not download its runtime (denort) for ${plan.name} (${last}). ` +
      "Nothing was registered. Run skillgate setup --compile on a machine that can reach " +
      "dl.deno.land, set DENORT_BIN to a local denort binary of the same Deno version, or run " +
      "skillgate setup without --compile";
  }
  return `deno compile failed for ${plan.name}: ${last || "no message"}. Nothing was registered`;
}

/**
 * Builds every binary, stopping at the first failure. A binary already built stays (it is a
 * complete, working build); the caller registers nothing unless every one was built.
 *
 * @param plans The binaries.
 * @param run How to run a command (default: a child process).
 * @returns The binaries built, or one clear message.
 */
export async function runCompile(
  plans: readonly CompilePlan[],
  run: CommandRunner = runProcess,
): Promise<CompileOutcome> {
  const built: string[] = [];
  for (const plan of plans) {
    try {
      Deno.mkdirSync(join(plan.output, ".."), { recursive: true, mode: 0o700 });
    } catch (err) {
      return { ok: false, message: `Cannot create ${join(plan.output, "..")}: ${err}` };
    }
    let result: { code: number; stderr: string };
    try {
      result = await run(plan.argv);
    } catch (err) {
      result = { code: -1, stderr: err instanceof Error ? err.message : String(err) };
    }
    if (result.code !== 0) {
      return { ok: false, message: explainCompileFailure(plan, result.stderr) };
    }
    built.push(plan.output);
  }
  return { ok: true, built };
}

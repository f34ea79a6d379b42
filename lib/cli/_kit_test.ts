/**
 * Shared helpers of the CLI's tests (named `_test.ts` so it is never published): capture what a
 * command's `main` prints, and run `cli.ts` as a process, as a user would.
 *
 * @module
 */

import { join } from "node:path";
import { REPO_ROOT } from "../../tests/_helpers.ts";

/** What a command printed, and its exit code. */
export interface Captured {
  /** The exit code. */
  code: number;
  /** Stdout, lines joined. */
  out: string;
  /** Stderr, lines joined. */
  err: string;
}

/**
 * Runs a function while capturing `console.log` and `console.error`.
 *
 * @param fn The function; gives the exit code.
 * @returns The exit code and what was printed.
 */
export async function capture(fn: () => Promise<number>): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await fn();
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/**
 * Runs `deno run -A cli.ts <args>` as a process with a clean environment (HOME, PATH, the Deno
 * cache and `env`), as a user would.
 *
 * @param args The arguments after `skillgate`.
 * @param opts The home directory, working directory and more environment.
 * @returns The exit code, stdout and stderr.
 */
export async function runCli(
  args: string[],
  opts: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string },
): Promise<Captured> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", join(REPO_ROOT, "cli.ts"), ...args],
    cwd: opts.cwd ?? opts.home,
    clearEnv: true,
    env: {
      HOME: opts.home,
      PATH: Deno.env.get("PATH") ?? "",
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      ...opts.env,
    },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const r = await child.output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).replace(/\n$/, "");
  return { code: r.code, out: text(r.stdout), err: text(r.stderr) };
}

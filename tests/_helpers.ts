/**
 * Test helpers: temporary worlds (home, Claude config dir, state root, project) and spawning a hook
 * exactly as the hook table registers it, with its production permission flags.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoRunArgs, type HookId, hookRow } from "../lib/hook/table.ts";
import type { HostFolders } from "../lib/host/mod.ts";
import type { SetupContext } from "../lib/install/setup.ts";
import { claudeFolders } from "../lib/host/_kit_test.ts";

/** The repository root. */
export const REPO_ROOT: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** The project's fixtures directory. */
export const FIXTURES: string = join(REPO_ROOT, "fixtures");

/** A temporary world for one test. */
export interface TempWorld {
  /** The temp directory holding everything. */
  readonly root: string;
  /** `HOME` for the hook. */
  readonly home: string;
  /** The Claude config dir (`<home>/.claude`). */
  readonly claudeDir: string;
  /** The state root (`<home>/.skillgate`, the default). */
  readonly stateRoot: string;
  /** A project directory (a git repository root) to use as the session's cwd. */
  readonly projectDir: string;
  /** Removes the world. */
  cleanup(): Promise<void>;
}

/**
 * Copies a directory tree (files and directories only).
 *
 * @param src The source.
 * @param dest The destination, created when missing.
 */
export function copyDir(src: string, dest: string): void {
  Deno.mkdirSync(dest, { recursive: true });
  for (const entry of Deno.readDirSync(src)) {
    const from = join(src, entry.name);
    const to = join(dest, entry.name);
    if (entry.isDirectory) copyDir(from, to);
    else if (entry.isFile) Deno.copyFileSync(from, to);
  }
}

/** What to put in a temp world. */
export interface WorldOptions {
  /** Fixture directories (relative to `fixtures/`, or absolute) copied into `~/.claude/skills`. */
  readonly skills?: readonly string[];
  /** Fixture directories copied into `~/.claude/agents`. */
  readonly agents?: readonly string[];
}

/**
 * Makes a temporary world. Nothing outside the temp directory is touched.
 *
 * @param opts Fixtures to install.
 * @returns The world; call `cleanup()` when done.
 */
export async function makeTempWorld(opts: WorldOptions = {}): Promise<TempWorld> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-test-" });
  const home = join(root, "home");
  const claudeDir = join(home, ".claude");
  const projectDir = join(root, "project");
  Deno.mkdirSync(claudeDir, { recursive: true });
  Deno.mkdirSync(join(projectDir, ".git"), { recursive: true });
  const abs = (p: string) => (p.startsWith("/") ? p : join(FIXTURES, p));
  for (const s of opts.skills ?? []) copyDir(abs(s), join(claudeDir, "skills"));
  for (const a of opts.agents ?? []) copyDir(abs(a), join(claudeDir, "agents"));
  return {
    root,
    home,
    claudeDir,
    stateRoot: join(home, ".skillgate"),
    projectDir,
    cleanup: () => Deno.remove(root, { recursive: true }),
  };
}

/** What a hook process did. */
export interface HookRun {
  /** Its exit code. */
  readonly code: number;
  /** Its stdout. */
  readonly stdout: string;
  /** Its stderr (hooks run with `--quiet`, so it holds only what skillgate wrote). */
  readonly stderr: string;
  /** Its stdout parsed as JSON, when it printed any. */
  readonly json?: unknown;
  /** The exact arguments it ran with (after the Deno executable). */
  readonly args: readonly string[];
}

/** Options of {@link runHookProcess}. */
export interface RunHookOptions {
  /** The world it runs in. */
  readonly world: TempWorld;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working directory (default: the world's project). */
  readonly cwd?: string;
  /** Replaces the production arguments, for tests that remove a permission. */
  readonly mapArgs?: (args: string[]) => string[];
  /**
   * Which module runs: the bundle that setup and the plugin register (default), or the TypeScript
   * entry it is built from.
   */
  readonly module?: "bundle" | "entry";
  /** Leave stdin open after the payload, as a host that never closes it would. */
  readonly holdStdin?: boolean;
  /** Send the payload's very bytes, as a second registration of the same event gets them. */
  readonly sameEvent?: boolean;
  /** Kill the process (SIGKILL) when it has not ended by itself after this many ms. */
  readonly killAfterMs?: number;
  /**
   * The folders of the host the hook is registered for, when not Claude Code's (the grants
   * `setup --<host>` writes, see `PermissionPaths.host`).
   */
  readonly host?: HostFolders;
}

/**
 * The machine's TLS and proxy settings, passed through so that Deno can fetch an npm package on a
 * cold cache (they are the machine's network setup, not skillgate's configuration).
 */
export function networkEnv(): Record<string, string> {
  const names = [
    "DENO_CERT",
    "NODE_EXTRA_CA_CERTS",
    "DENO_TLS_CA_STORE",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "no_proxy",
  ];
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = Deno.env.get(n);
    if (v !== undefined) out[n] = v;
  }
  return out;
}

function denoDir(): string {
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return fromEnv;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return join(xdg ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

/**
 * The environment Claude Code gives its hooks in a world, for a command run under `sh -c` as the
 * host runs it: `HOME`, `PATH`, `NO_COLOR`, `CLAUDE_PROJECT_DIR` (and `CLAUDE_CONFIG_DIR` unset),
 * and a Deno cache.
 *
 * @param world The world.
 * @param cache The Deno cache (default: this process's).
 * @returns The environment.
 */
export function claudeHookEnv(world: TempWorld, cache: string = denoDir()): Record<string, string> {
  return {
    HOME: world.home,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    CLAUDE_PROJECT_DIR: world.projectDir,
    DENO_DIR: cache,
  };
}

/**
 * Spawns a hook as the hook table registers it (`deno run --quiet --no-prompt --no-config <flags>
 * <bundle>`), writes the payload to its stdin, and collects what it did. The environment holds only
 * `HOME`, `PATH`, `DENO_DIR`, `NO_COLOR` and `opts.env`.
 *
 * @param id The hook.
 * @param payload The payload (an object is JSON-encoded; a string is written as it is).
 * @param opts The world and overrides.
 * @returns What the process did.
 */
let eventCount = 0;

/**
 * A payload's text as a host sends it for a new event. A host's payloads tell two events apart
 * (Claude Code's `prompt_id` and `tool_use_id`, Codex CLI's `turn_id`, Copilot CLI's
 * `timestamp`), and the hooks answer an event once however often skillgate is registered
 * (`lib/hook/event_claim.ts`); tests send one fixture many times, so each object payload gets a
 * field that makes it a new event unless `sameEvent` asks for the very same bytes.
 */
function eventText(payload: unknown, sameEvent = false): string {
  if (typeof payload === "string") return payload;
  if (sameEvent || typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return JSON.stringify(payload);
  }
  return JSON.stringify({ ...payload, skillgate_test_event: ++eventCount });
}

export async function runHookProcess(
  id: HookId,
  payload: unknown,
  opts: RunHookOptions,
): Promise<HookRun> {
  const row = hookRow(id);
  let args = denoRunArgs(
    row,
    {
      stateRoot: opts.world.stateRoot,
      hostFolders: opts.host ?? claudeFolders(opts.world.claudeDir),
    },
    join(REPO_ROOT, opts.module === "entry" ? row.entry : row.bundle),
  );
  if (opts.mapArgs) args = opts.mapArgs(args);
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: opts.cwd ?? opts.world.projectDir,
    clearEnv: true,
    env: {
      HOME: opts.world.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
      ...networkEnv(),
      ...opts.env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(eventText(payload, opts.sameEvent)));
  if (!opts.holdStdin) await writer.close();
  const watchdog = opts.killAfterMs === undefined
    ? undefined
    : setTimeout(() => child.kill("SIGKILL"), opts.killAfterMs);
  const out = await child.output().finally(() => clearTimeout(watchdog));
  if (opts.holdStdin) await writer.close().catch(() => {});
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr).trim();
  let json: unknown;
  if (stdout.trim()) {
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
  }
  return { code: out.code, stdout, stderr, json, args };
}

/**
 * Reads a log file under the world's state root, or an empty string.
 *
 * @param world The world.
 * @param file The log file name, such as `skill-route.log`.
 * @returns Its text.
 */
export function readLog(world: TempWorld, file: string): string {
  try {
    return Deno.readTextFileSync(join(world.stateRoot, "hooks", file));
  } catch {
    return "";
  }
}

/**
 * The setup context of a temporary world, as `skillgate setup` run by its user would build it:
 * its state root, home, each host's config folder under that home, its project, this Deno, this
 * checkout as the module source, and `out` collecting what setup prints and warns.
 *
 * @param world The world.
 * @param out Collects setup's lines.
 * @returns The context; a test spreads it and overrides what it varies.
 */
export function worldSetupContext(world: TempWorld, out: string[]): SetupContext {
  return {
    stateRoot: world.stateRoot,
    claudeConfigDir: world.claudeDir,
    home: world.home,
    hostDirs: {
      claude: world.claudeDir,
      copilot: join(world.home, ".copilot"),
      codex: join(world.home, ".codex"),
      gemini: join(world.home, ".gemini"),
    },
    cwd: world.projectDir,
    denoPath: Deno.execPath(),
    source: { kind: "local", root: REPO_ROOT },
    print: (l) => out.push(l),
    warn: (l) => out.push(l),
  };
}

/**
 * Runs a hook as Claude Code runs it (`sh -c`), by the command `skillgate setup` registered for it
 * in the world's settings.json, from the project folder; asserts exit 0 and no stderr at all.
 *
 * @param world The world (setup already run).
 * @param id The hook's id (`skill-route`, `skill-contract`, …).
 * @param payload The payload.
 * @returns What the hook printed.
 */
export async function runRegisteredHook(
  world: TempWorld,
  id: string,
  payload: Record<string, unknown>,
): Promise<{ stdout: string }> {
  const { listOwnedHooks } = await import("../lib/host/hook_file.ts");
  const { CLAUDE } = await import("../lib/host/claude.ts");
  const { skillgateOwner } = await import("../lib/install/setup.ts");
  const { probeHook } = await import("../lib/install/doctor.ts");
  const settings = JSON.parse(Deno.readTextFileSync(join(world.claudeDir, "settings.json")));
  const hook = listOwnedHooks(CLAUDE.hookFile.format, settings, skillgateOwner).find((h) =>
    h.hookId === id
  );
  if (!hook) throw new Error(`${id} is not registered`);
  const r = await probeHook(hook.command, JSON.stringify(payload), {
    cwd: world.projectDir,
    env: {
      HOME: world.home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      CLAUDE_PROJECT_DIR: world.projectDir,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    },
    timeoutMs: 30_000,
  });
  if (r.code !== 0) throw new Error(`${id} exited ${r.code}: ${r.stderr}`);
  if (r.stderr !== "") throw new Error(`${id} wrote to stderr: ${r.stderr}`);
  return { stdout: r.stdout };
}

/** A file server over this checkout, standing in for jsr.io (`tests/_file_server.ts`). */
export interface RepoServer {
  /** The package's root URL, ending in `/`. */
  readonly base: string;
  /** Stops the server (once; later calls do nothing). */
  stop(): Promise<void>;
}

/**
 * Serves this checkout over HTTP on 127.0.0.1, as the published package would be.
 *
 * @returns Its root URL and how to stop it.
 */
export async function serveRepo(): Promise<RepoServer> {
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      `--allow-read=${REPO_ROOT}`,
      "--no-prompt",
      join(REPO_ROOT, "tests", "_file_server.ts"),
      REPO_ROOT,
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    server.kill();
    await server.status;
    await server.stdout.cancel().catch(() => {});
  };
  const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const first = await reader.read();
  reader.releaseLock();
  const port = /listening (\d+)/.exec(first.value ?? "")?.[1];
  if (!port) {
    await stop();
    throw new Error(`file server: ${first.value}`);
  }
  return { base: `http://127.0.0.1:${port}/`, stop };
}

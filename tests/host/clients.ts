/**
 * The real host clients for host tests: installs the pinned Claude Code, Copilot CLI, Codex CLI and
 * Gemini CLI packages from the npm registry into a cache folder outside the repository (once, then reused), and runs
 * them against a stand-in with a hard timeout.
 *
 * Cache folder: `SKILLGATE_HOST_CACHE`, else `$XDG_CACHE_HOME/skillgate-host`, else
 * `~/.cache/skillgate-host`.
 *
 * @module
 */

import { join } from "node:path";

/** The pinned Claude Code package. */
export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";
/** The pinned Claude Code version. */
export const CLAUDE_VERSION = "2.1.328";
/** The pinned Copilot CLI package. */
export const COPILOT_PACKAGE = "@github/copilot";
/** The pinned Copilot CLI version. */
export const COPILOT_VERSION = "1.0.102";
/** The pinned Codex CLI package. */
export const CODEX_PACKAGE = "@openai/codex";
/** The pinned Codex CLI version. */
export const CODEX_VERSION = "0.169.0";
/** The pinned Gemini CLI package. */
export const GEMINI_PACKAGE = "@google/gemini-cli";
/** The pinned Gemini CLI version. */
export const GEMINI_VERSION = "0.61.0";

/** The cache folder the clients are installed into. */
export function hostCacheDir(): string {
  const explicit = Deno.env.get("SKILLGATE_HOST_CACHE");
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "skillgate-host");
  const home = Deno.env.get("HOME");
  if (!home) throw new Error("HOME is not set; set SKILLGATE_HOST_CACHE");
  return join(home, ".cache", "skillgate-host");
}

/** Paths of the installed client executables. */
export interface Clients {
  /** The Claude Code executable. */
  claude: string;
  /** The Copilot CLI executable (the native platform binary). */
  copilot: string;
  /** The Codex CLI executable (the package's launcher, which runs its platform binary). */
  codex: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function npmInstall(prefix: string, spec: string): Promise<void> {
  await Deno.mkdir(prefix, { recursive: true });
  const cmd = new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", "--prefix", prefix, spec],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(15 * 60_000),
  });
  const out = await cmd.output();
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).slice(-2000);
    throw new Error(`npm install ${spec} failed (exit ${out.code}): ${err}`);
  }
}

function copilotPlatform(): string {
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  return `${os}-${arch}`;
}

/**
 * Installs one package once (a `.installed` marker per version), unless its probe file is there.
 *
 * @param prefix The npm prefix.
 * @param spec The package and version.
 * @param probe A file the install must have made.
 */
async function ensureInstalled(prefix: string, spec: string, probe: string): Promise<void> {
  const marker = join(prefix, ".installed");
  if (await exists(marker) && await exists(probe)) return;
  console.error(`host tests: installing ${spec} into ${prefix} (once)`);
  await npmInstall(prefix, spec);
  await Deno.writeTextFile(marker, spec + "\n");
}

/**
 * Installs the pinned Gemini CLI once and returns its executable (on its own: the Gemini host
 * tests need no other client).
 */
export async function ensureGemini(): Promise<string> {
  const prefix = join(hostCacheDir(), `gemini-cli-${GEMINI_VERSION}`);
  const gemini = join(prefix, "node_modules", ".bin", "gemini");
  await ensureInstalled(prefix, `${GEMINI_PACKAGE}@${GEMINI_VERSION}`, gemini);
  return gemini;
}

/**
 * Installs the pinned clients once (a `.installed` marker per version) and returns their paths.
 * A second call, or a second run, reuses the cache.
 */
export async function ensureClients(): Promise<Clients> {
  const cache = hostCacheDir();
  const claudePrefix = join(cache, `claude-code-${CLAUDE_VERSION}`);
  const copilotPrefix = join(cache, `copilot-${COPILOT_VERSION}`);
  const claude = join(claudePrefix, "node_modules", ".bin", "claude");
  const codexPrefix = join(cache, `codex-${CODEX_VERSION}`);
  const codex = join(codexPrefix, "node_modules", ".bin", "codex");
  const copilotCandidates = [
    join(copilotPrefix, "node_modules", "@github", `copilot-${copilotPlatform()}`, "copilot"),
    join(
      copilotPrefix,
      "node_modules",
      "@github",
      `copilot-linuxmusl-${copilotPlatform().split("-")[1]}`,
      "copilot",
    ),
  ];
  for (
    const [prefix, spec, probe] of [
      [claudePrefix, `${CLAUDE_PACKAGE}@${CLAUDE_VERSION}`, claude],
      [copilotPrefix, `${COPILOT_PACKAGE}@${COPILOT_VERSION}`, copilotCandidates[0]],
      [codexPrefix, `${CODEX_PACKAGE}@${CODEX_VERSION}`, codex],
    ] as const
  ) await ensureInstalled(prefix, spec, probe);
  let copilot = copilotCandidates[0];
  for (const c of copilotCandidates) {
    if (await exists(c)) {
      copilot = c;
      break;
    }
  }
  return { claude, copilot, codex };
}

/** The outcome of one client run. */
export interface ClientRun {
  /** Exit code (or -1 when killed on timeout). */
  code: number;
  /** Whether the run was killed on timeout. */
  timedOut: boolean;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** Wall time in ms. */
  ms: number;
}

/** Options for {@linkcode runClient}. */
export interface RunClientOptions {
  /** Working directory (the project). */
  cwd: string;
  /** The whole environment (not inherited). */
  env: Record<string, string>;
  /** Hard timeout; the process is killed after it. */
  timeoutMs?: number;
}

/** Runs a client executable with a clean environment, a closed stdin and a hard timeout. */
export async function runClient(
  exe: string,
  args: string[],
  opts: RunClientOptions,
): Promise<ClientRun> {
  const started = performance.now();
  const child = new Deno.Command(exe, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, opts.timeoutMs ?? 90_000);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: timedOut ? -1 : out.code,
    timedOut,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: Math.round(performance.now() - started),
  };
}

/** The base environment every client run gets: PATH, HOME, locale and the temp dir. */
export function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
  };
  const tmp = Deno.env.get("TMPDIR");
  if (tmp) env.TMPDIR = tmp;
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  return env;
}

/** The environment for Claude Code against a stand-in. */
export function claudeEnv(
  home: string,
  configDir: string,
  standInUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...baseEnv(home),
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: standInUrl,
    ANTHROPIC_API_KEY: "sk-ant-api03-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...extra,
  };
}

/** The environment for Copilot CLI against a stand-in. */
export function copilotEnv(
  home: string,
  copilotHome: string,
  standInUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...baseEnv(home),
    COPILOT_HOME: copilotHome,
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_BASE_URL: standInUrl,
    COPILOT_PROVIDER_API_KEY: "fake",
    COPILOT_MODEL: "claude-sonnet-4.5",
    COPILOT_AUTO_UPDATE: "false",
    ...extra,
  };
}

/**
 * The environment for Codex CLI against a Responses API stand-in (named in `$CODEX_HOME/config.toml`,
 * see {@linkcode codexConfig}).
 */
export function codexEnv(
  home: string,
  codexHome: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...baseEnv(home), CODEX_HOME: codexHome, FAKE_API_KEY: "fake", ...extra };
}

/**
 * `$CODEX_HOME/config.toml` for a run against a stand-in: the `responses` wire API (the only one
 * Codex CLI 0.169.0 accepts), no approvals, no sandbox, no analytics.
 */
export function codexConfig(baseUrl: string): string {
  return [
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    "[analytics]",
    "enabled = false",
    "",
  ].join("\n");
}

/**
 * The environment for Gemini CLI against a stand-in: `GEMINI_CLI_HOME` (its `.gemini` folder, with
 * the `settings.json` that selects the API key auth), the stand-in's base URL, a fake key, and the
 * workspace trusted (headless mode refuses an untrusted folder).
 */
export function geminiEnv(
  home: string,
  geminiHome: string,
  standInUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...baseEnv(home),
    GEMINI_CLI_HOME: geminiHome,
    GOOGLE_GEMINI_BASE_URL: standInUrl,
    GEMINI_API_KEY: "fake",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    ...extra,
  };
}

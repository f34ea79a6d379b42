/**
 * Host test harness: builds a fresh temporary world (home, Claude config dir, Copilot home,
 * project, state root) per scenario, installs skills and agents from `fixtures/host/`, installs
 * skillgate (as a plugin with `--plugin-dir`, through `skillgate setup`, or as Copilot hook
 * files), runs the real client against the stand-in, and reads back what happened: requests,
 * transcript, records and logs.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  claudeEnv,
  type ClientRun,
  type Clients,
  copilotEnv,
  ensureClients,
  runClient,
} from "./clients.ts";
import {
  modelTurns,
  type RecordedRequest,
  requestText,
  type Rule,
  type StandIn,
  startStandIn,
} from "./stand_in.ts";

/** The repository root (the plugin root). */
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The host fixtures. */
export const FIXTURES: string = join(REPO, "fixtures", "host");

/** One scenario's temporary world. */
export interface HostWorld {
  /** The temp root; everything lives under it. */
  root: string;
  /** HOME for the client and the hooks. */
  home: string;
  /** CLAUDE_CONFIG_DIR. */
  claudeDir: string;
  /** COPILOT_HOME. */
  copilotHome: string;
  /** The project (cwd of the client), a git repository. */
  project: string;
  /** The state root used when skillgate is installed through `setup`. */
  stateRoot: string;
}

let clientsPromise: Promise<Clients> | undefined;

/** The installed clients (installed on first use, once per process). */
export function clients(): Promise<Clients> {
  clientsPromise ??= ensureClients();
  return clientsPromise;
}

/** Creates a fresh world under a temp dir. */
export async function makeHostWorld(label: string): Promise<HostWorld> {
  const root = await Deno.makeTempDir({ prefix: `skillgate-host-${label}-` });
  const w: HostWorld = {
    root,
    home: join(root, "home"),
    claudeDir: join(root, "claude"),
    copilotHome: join(root, "copilot"),
    project: join(root, "project"),
    stateRoot: join(root, "state"),
  };
  for (const d of [w.home, w.claudeDir, w.copilotHome, w.project]) {
    await Deno.mkdir(d, { recursive: true });
  }
  const git = await new Deno.Command("git", {
    args: ["init", "-q"],
    cwd: w.project,
    stdout: "null",
    stderr: "null",
  }).output();
  if (!git.success) throw new Error("git init failed in the temp project");
  return w;
}

/** Removes a world (unless SKILLGATE_HOST_KEEP is set, for debugging). */
export async function removeHostWorld(w: HostWorld): Promise<void> {
  if (Deno.env.get("SKILLGATE_HOST_KEEP")) {
    console.error(`host tests: kept ${w.root}`);
    return;
  }
  await Deno.remove(w.root, { recursive: true }).catch(() => {});
}

/** Copies a folder tree (files and folders only). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Installs fixture skills and agents into a Claude config dir (`skills/<n>/`, `agents/<n>.md`). */
export async function installFixtures(
  claudeDir: string,
  opts: { skills?: string[]; agents?: string[] },
): Promise<void> {
  for (const s of opts.skills ?? []) {
    await copyTree(join(FIXTURES, "skills", s), join(claudeDir, "skills", s));
  }
  for (const a of opts.agents ?? []) {
    await Deno.mkdir(join(claudeDir, "agents"), { recursive: true });
    await Deno.copyFile(join(FIXTURES, "agents", `${a}.md`), join(claudeDir, "agents", `${a}.md`));
  }
}

/** Reads a scenario script (`fixtures/host/scripts/<name>.json`). */
export async function loadScript(name: string): Promise<Rule[]> {
  return JSON.parse(await Deno.readTextFile(join(FIXTURES, "scripts", `${name}.json`)));
}

/** Which hook modules have landed (a scenario whose hook is missing is reported as not run). */
export async function hooksPresent(...entries: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const e of entries) {
    try {
      await Deno.stat(join(REPO, e));
    } catch {
      missing.push(e);
    }
  }
  return missing;
}

/** The state root the plugin's hooks use when loaded with `--plugin-dir`. */
export function pluginStateRoot(w: HostWorld): string {
  return join(w.claudeDir, "plugins", "data", "skillgate-inline");
}

/** The state root of the plugin when installed from the marketplace (`skillgate@skillgate`). */
export function installedPluginStateRoot(w: HostWorld): string {
  return join(w.claudeDir, "plugins", "data", "skillgate-skillgate");
}

/**
 * Runs `claude <args>` (such as `plugin install …`) in a world, as a user's shell would.
 */
export async function claudeCommand(w: HostWorld, args: string[]): Promise<ClientRun> {
  const { claude } = await clients();
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: w.home,
    CLAUDE_CONFIG_DIR: w.claudeDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  return await runClient(claude, args, { cwd: w.project, env, timeoutMs: 60_000 });
}

/**
 * Installs the plugin the way users do: `claude plugin marketplace add <repo>` then
 * `claude plugin install skillgate@skillgate` (a local directory marketplace, no network).
 */
export async function installFromMarketplace(w: HostWorld): Promise<ClientRun[]> {
  const runs: ClientRun[] = [];
  for (
    const args of [["plugin", "marketplace", "add", REPO], [
      "plugin",
      "install",
      "skillgate@skillgate",
    ]]
  ) {
    runs.push(await claudeCommand(w, args));
  }
  return runs;
}

/** The DENO_DIR of the host test process, so hook processes reuse its module cache. */
function denoDir(): string | undefined {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME");
  return home ? join(home, ".cache", "deno") : undefined;
}

function withDenoDir(env: Record<string, string>): Record<string, string> {
  const d = denoDir();
  return d ? { ...env, DENO_DIR: d } : env;
}

/** What one Claude Code run left behind. */
export interface ClaudeSession {
  /** The process outcome. */
  run: ClientRun;
  /** The `--output-format json` result (empty object when stdout did not parse). */
  result: Record<string, unknown>;
  /** Every request the stand-in received. */
  requests: RecordedRequest[];
  /** The requests that were model turns. */
  turns: RecordedRequest[];
  /** The session id. */
  sessionId: string;
  /** The main transcript's records. */
  transcript: Record<string, unknown>[];
  /** The debug log text (hooks category). */
  debug: string;
}

/** Options for one Claude Code run. */
export interface ClaudeRunOptions {
  /** The prompt. */
  prompt: string;
  /** The model's script. */
  rules: Rule[];
  /** `plugin`: `--plugin-dir <repo>`; `settings`: hooks already in settings.json (setup). */
  install: "plugin" | "settings" | "none";
  /** Extra environment for the client (and so the hooks). */
  env?: Record<string, string>;
  /** Extra client arguments. */
  args?: string[];
  /** Hard timeout. */
  timeoutMs?: number;
  /** Resume this session id. */
  resume?: string;
}

/** Reads a JSONL file into records (bad lines skipped). */
export async function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a partial last line
    }
  }
  return out;
}

/** The path Claude Code writes a session's transcript to. */
export function transcriptPath(w: HostWorld, sessionId: string): string {
  const slug = w.project.replace(/[^A-Za-z0-9]/g, "-");
  return join(w.claudeDir, "projects", slug, `${sessionId}.jsonl`);
}

/** Runs Claude Code once against a fresh stand-in playing `rules`. */
export async function runClaude(w: HostWorld, opts: ClaudeRunOptions): Promise<ClaudeSession> {
  const { claude } = await clients();
  const standIn: StandIn = await startStandIn({
    rules: opts.rules,
    logPath: join(w.root, "requests.jsonl"),
  });
  const debugFile = join(w.root, `debug-${crypto.randomUUID().slice(0, 8)}.log`);
  const args = [
    "-p",
    opts.prompt,
    "--output-format",
    "json",
    "--permission-mode",
    "acceptEdits",
    "--allowedTools",
    "Bash",
    "--debug",
    "hooks",
    "--debug-file",
    debugFile,
  ];
  if (opts.install === "plugin") args.push("--plugin-dir", REPO);
  if (opts.resume) args.push("--resume", opts.resume);
  args.push(...(opts.args ?? []));
  let run: ClientRun;
  try {
    run = await runClient(claude, args, {
      cwd: w.project,
      env: withDenoDir(claudeEnv(w.home, w.claudeDir, standIn.url, opts.env ?? {})),
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
  } finally {
    await standIn.close();
  }
  let result: Record<string, unknown> = {};
  try {
    result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}");
  } catch {
    result = {};
  }
  const sessionId = typeof result.session_id === "string" ? result.session_id : "";
  const transcript = sessionId ? await readJsonl(transcriptPath(w, sessionId)) : [];
  const debug = await Deno.readTextFile(debugFile).catch(() => "");
  return {
    run,
    result,
    requests: standIn.requests,
    turns: modelTurns(standIn.requests),
    sessionId,
    transcript,
    debug,
  };
}

/** What one Copilot CLI run left behind. */
export interface CopilotSession {
  /** The process outcome. */
  run: ClientRun;
  /** Every request the stand-in received. */
  requests: RecordedRequest[];
  /** The requests that were model turns. */
  turns: RecordedRequest[];
  /** Copilot's own `events.jsonl` records of this run's session (not the world's earlier ones). */
  events: Record<string, unknown>[];
}

/** Runs Copilot CLI once against a fresh stand-in playing `rules`. */
export async function runCopilot(
  w: HostWorld,
  opts: { prompt: string; rules: Rule[]; env?: Record<string, string>; timeoutMs?: number },
): Promise<CopilotSession> {
  const { copilot } = await clients();
  const dir = join(w.copilotHome, "session-state");
  const earlier = new Set<string>();
  try {
    for await (const e of Deno.readDir(dir)) earlier.add(e.name);
  } catch {
    // no session state yet
  }
  const standIn = await startStandIn({
    rules: opts.rules,
    logPath: join(w.root, "requests.jsonl"),
  });
  let run: ClientRun;
  try {
    run = await runClient(copilot, ["-p", opts.prompt, "--allow-all-tools"], {
      cwd: w.project,
      env: withDenoDir(copilotEnv(w.home, w.copilotHome, standIn.url, opts.env ?? {})),
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
  } finally {
    await standIn.close();
  }
  // This run's session only: a world's earlier runs left theirs in the same folder.
  const events: Record<string, unknown>[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory && !earlier.has(e.name)) {
        events.push(...await readJsonl(join(dir, e.name, "events.jsonl")));
      }
    }
  } catch {
    // no session state
  }
  return { run, requests: standIn.requests, turns: modelTurns(standIn.requests), events };
}

/** Runs `skillgate <args>` from the checkout (`deno run -A cli.ts`), as a user would after install. */
export async function runSkillgate(
  w: HostWorld,
  args: string[],
  env: Record<string, string> = {},
): Promise<ClientRun> {
  const base: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: w.home,
    CLAUDE_CONFIG_DIR: w.claudeDir,
    COPILOT_HOME: w.copilotHome,
    SKILLGATE_STATE_ROOT: w.stateRoot,
    // CI runs Deno from an npx cache, which setup refuses to register: name it explicitly.
    SKILLGATE_DENO: Deno.execPath(),
    NO_COLOR: "1",
    ...env,
  };
  return await runClient(Deno.execPath(), ["run", "-A", join(REPO, "cli.ts"), ...args], {
    cwd: w.project,
    env: withDenoDir(base),
    timeoutMs: 60_000,
  });
}

/** Reads a skillgate hook log (`<state root>/hooks/<file>`) as lines. */
export async function readLog(stateRoot: string, file: string): Promise<string[]> {
  try {
    return (await Deno.readTextFile(join(stateRoot, "hooks", file))).split("\n").filter((l) => l);
  } catch {
    return [];
  }
}

/** Reads a session's contract record (`<state root>/skill-contracts/<session>.json`). */
export async function readRecord(
  stateRoot: string,
  sessionId: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(
      await Deno.readTextFile(join(stateRoot, "skill-contracts", `${sessionId}.json`)),
    );
  } catch {
    return undefined;
  }
}

/**
 * Checks `skillgate contract report` on a host's real sessions, all `met_after_block`: the last
 * one's record is set back to its first stop's `blocked` (as if the second stop had never been
 * recorded), so the report must find its transcript in the host's own folder, read it with the
 * host's reader against the host's skills, and call it `fixed_after_block`.
 *
 * @param stateRoot The world's state root.
 * @param sessions The sessions, in order.
 * @param report Runs `skillgate contract report --json` as the host's user would.
 */
export async function assertReportRechecks(
  stateRoot: string,
  sessions: readonly string[],
  report: () => Promise<ClientRun>,
): Promise<void> {
  const last = sessions.at(-1)!;
  const recFile = join(stateRoot, "skill-contracts", `${last}.json`);
  const rec = JSON.parse(await Deno.readTextFile(recFile));
  rec.runs[0].outcome = "blocked";
  rec.runs[0].missing = ["debug-report", "repro-after-fix"];
  await Deno.writeTextFile(recFile, JSON.stringify(rec));
  const r = await report();
  if (r.code !== 0) throw new Error(`contract report exited ${r.code}: ${r.stderr}`);
  const runs = JSON.parse(r.stdout).runs as {
    session: string;
    outcome: string;
    rechecked: boolean;
  }[];
  const got = runs.map((x) => `${x.session}:${x.outcome}:${x.rechecked}`).sort();
  const want = sessions.map((s) =>
    s === last ? `${s}:fixed_after_block:true` : `${s}:met_after_block:false`
  ).sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`contract report: ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
  }
}

/** Every outcome string found anywhere in a record (the record's shape is the contract hook's). */
export function outcomesIn(record: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (k === "outcome" && typeof x === "string") out.push(x);
        else walk(x);
      }
    }
  };
  walk(record);
  return out;
}

/** The index of the first model turn whose request text contains `needle` (-1 when none). */
export function firstTurnWith(turns: RecordedRequest[], needle: string): number {
  return turns.findIndex((t) => requestText(t.body).includes(needle));
}

/** How many model turns have a last user message containing `needle`. */
export function countTurnsWhoseLastUserHas(turns: RecordedRequest[], needle: string): number {
  return turns.filter((t) => {
    const msgs = (t.body?.messages ?? []) as Record<string, unknown>[];
    for (let i = msgs.length - 1; i >= 0; i--) {
      if (msgs[i].role === "user") return JSON.stringify(msgs[i].content).includes(needle);
    }
    return false;
  }).length;
}

/** Transcript attachments of a type (e.g. `hook_additional_context`). */
export function attachments(
  transcript: Record<string, unknown>[],
  type: string,
): Record<string, unknown>[] {
  return transcript
    .filter((r) => r.type === "attachment")
    .map((r) => r.attachment as Record<string, unknown>)
    .filter((a) => a?.type === type);
}

/**
 * skillgate's stderr lines as the client recorded them: Claude Code 2.1.328 keeps a hook's stderr
 * in the transcript (`attachment` of type `hook_success` and the like, field `stderr`) and in the
 * debug log (`Hook <event> (<event>) success:\nstderr:\n…`). Lines start `skillgate: <CODE>`.
 */
export function hookStderrLines(
  s: { transcript: Record<string, unknown>[]; debug: string },
): string[] {
  const isOurs = (l: string) => /^skillgate: [A-Z][A-Z0-9_]*\b/.test(l.trim());
  const out: string[] = [];
  for (const r of s.transcript) {
    const a = r.type === "attachment" ? r.attachment as Record<string, unknown> : undefined;
    if (a && typeof a.stderr === "string") {
      out.push(...a.stderr.split("\n").map((l) => l.trim()).filter(isOurs));
    }
  }
  if (out.length) return out;
  for (const m of s.debug.matchAll(/stderr:\\n(skillgate: [A-Z][^"\\]*)/g)) out.push(m[1]);
  return out;
}

/** Prints and returns how long a scenario took. */
export function reportTime(label: string, started: number): number {
  const ms = Math.round(performance.now() - started);
  console.log(`host scenario ${label}: ${ms} ms`);
  return ms;
}

/**
 * Registers a host scenario as a test: timed (see {@link reportTime}), and ignored, reported as
 * not run, when a module it needs (a path under the repository) is missing.
 *
 * @param name The scenario's name.
 * @param needs The repository paths it needs (hook bundles, the CLI).
 * @param fn The scenario.
 */
export function hostScenario(
  name: string,
  needs: readonly string[],
  fn: () => Promise<void>,
): void {
  const absent = needs.filter((e) => {
    try {
      Deno.statSync(join(REPO, e));
      return false;
    } catch {
      return true;
    }
  });
  if (absent.length) console.log(`host scenario NOT RUN: ${name} (missing ${absent.join(", ")})`);
  Deno.test({
    name,
    ignore: absent.length > 0,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const started = performance.now();
      try {
        await fn();
      } finally {
        reportTime(name, started);
      }
    },
  });
}

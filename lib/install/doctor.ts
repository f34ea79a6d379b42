/**
 * `skillgate doctor`: finds every skillgate hook registered for this user and project, runs each
 * one's exact command the way the host does (`sh -c <command>`, a harmless sample payload on stdin)
 * and says OK or what is wrong: Deno missing, a wrong module path, a missing permission, a crash,
 * output that is not JSON, a timeout or a slow start. It also shows the switches and their sources.
 * Every host is checked the same way, from its host object (`lib/host/`): its hook files, their
 * shape, and a harmless payload of its own.
 *
 * @module
 */

import { missingDirs } from "./install_record.ts";
import { exists } from "../base/fs.ts";
import { isAbsolute, join, resolve } from "node:path";
import { readConfig, resolveSwitch, SWITCH_NAMES, type SwitchName } from "../base/config.ts";
import { HOOKS, hostRegistration, linkTarget } from "../hook/table.ts";
import { findOnPath, shellSplit } from "./hook_commands.ts";
import type { OwnedHook } from "../host/hook_file.ts";
import { CLAUDE } from "../host/claude.ts";
import { pluginHookStateRoot, userStateRoot } from "../host/places.ts";
import { DEFAULT_HOST, hostFor, type HostKind, HOSTS, type TranscriptFormat } from "../host/mod.ts";
import {
  findPluginRegistrations,
  findRegistrations,
  projectRoot,
  type RegisteredHook,
  registrationFiles,
} from "./registrations.ts";

export {
  findPluginRegistrations,
  findRegistrations,
  type RegisteredHook,
  type RegistrationFile,
  registrationFiles,
} from "./registrations.ts";
import { sanitizeLine } from "../base/sanitize.ts";

/** Where doctor looks. */
export interface DoctorContext {
  /** The state root. */
  readonly stateRoot: string;
  /** The Claude Code config directory: skills, agents, plugins and transcripts. */
  readonly claudeConfigDir: string;
  /** The user's home directory. */
  readonly home: string;
  /** Each host's config directory (`hostConfigDirs` in `lib/host/mod.ts`), holding its hook file. */
  readonly hostDirs: Readonly<Record<HostKind, string>>;
  /** The working directory (the project around it is checked too). */
  readonly cwd: string;
  /** Environment of the probed hooks (default: this process's). */
  readonly env?: Record<string, string>;
  /** A start slower than this many ms is reported (default 1500). */
  readonly slowMs?: number;
  /** Prints a line. */
  readonly print: (line: string) => void;
  /** Print one JSON object ({@link DoctorReport}) at the end instead of the lines. */
  readonly json?: boolean;
}

/** One line of doctor's output: its status and its text (without the status tag). */
export interface DoctorLine {
  /** `ok`, `warn` and `broken` lines decide the verdict; `note` and `info` lines do not. */
  readonly status: "ok" | "warn" | "broken" | "note" | "info";
  /** The text. */
  readonly text: string;
}

/** A probed hook, for `doctor --json`. */
export interface DoctorHook {
  /** The hook's id (`null` for an entry of another version). */
  readonly hook: string | null;
  /** The event, as the host's file names it. */
  readonly event: string;
  /** The file it is registered in. */
  readonly file: string;
  /** The host that runs it. */
  readonly host: HostKind;
  /** Its verdict. */
  readonly status: Diagnosis["status"];
  /** The verdict's reason. */
  readonly message: string;
  /** How long the probe took. */
  readonly ms: number;
}

/** What `doctor --json` prints: the verdict, every line, and the probed hooks. */
export interface DoctorReport {
  /** The verdict: follows from the lines' statuses (see {@link doctorVerdict}). */
  readonly result: DoctorVerdict["result"];
  /** The exit code. */
  readonly exit: number;
  /** The verdict's line, as text. */
  readonly summary: string;
  /** Every line, in order. */
  readonly lines: readonly DoctorLine[];
  /** Every probed hook. */
  readonly hooks: readonly DoctorHook[];
}

/** Doctor's final verdict. */
export interface DoctorVerdict {
  /** `broken` (exit 1), `not-installed` (exit 1), `not-checked`, `warn` or `ok` (exit 0). */
  readonly result: "ok" | "warn" | "broken" | "not-installed" | "not-checked";
  /** The exit code. */
  readonly exit: number;
  /** The final line: `result: OK (3 hooks work)`. */
  readonly summary: string;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The verdict that follows from doctor's lines: any `broken` line is BROKEN (exit 1); with no hook
 * probed, NOT INSTALLED (exit 1), or NOT CHECKED when an installed plugin has not run yet; any
 * `warn` line is WARN; else OK.
 *
 * @param lines The lines printed.
 * @param probed How many hooks were probed.
 * @param pending Whether an installed plugin has not run yet (its hooks cannot be probed).
 * @returns The verdict.
 */
export function doctorVerdict(
  lines: readonly DoctorLine[],
  probed: number,
  pending = false,
): DoctorVerdict {
  const count = (status: DoctorLine["status"]) => lines.filter((l) => l.status === status).length;
  const broken = count("broken");
  const warn = count("warn");
  if (broken > 0) {
    return { result: "broken", exit: 1, summary: `result: BROKEN (${plural(broken, "problem")})` };
  }
  if (probed === 0) {
    return pending
      ? {
        result: "not-checked",
        exit: 0,
        summary: "result: NOT CHECKED (the skillgate plugin has not run yet)",
      }
      : {
        result: "not-installed",
        exit: 1,
        summary: "result: NOT INSTALLED (no skillgate hook is registered)",
      };
  }
  if (warn > 0) {
    return {
      result: "warn",
      exit: 0,
      summary: `result: WARN (${plural(warn, "warning")}; no hook is broken)`,
    };
  }
  return {
    result: "ok",
    exit: 0,
    summary: `result: OK (${plural(probed, "hook")} ${probed === 1 ? "works" : "work"})`,
  };
}

/**
 * A payload that every skillgate hook answers with a pass-through, in the host's own shape
 * (`Host.samplePayload`): a prompt that starts with `/` (never routed), a `Skill` call for a name
 * no skill or agent has, and a stop the host says was already continued (`stop_hook_active`).
 *
 * @param host The host.
 * @param event The event, as the host names it in its hook file.
 * @param cwd The working directory to report.
 * @param transcriptPath The transcript a Stop payload names (see {@link writeDoctorTranscript}).
 * @returns The JSON text.
 */
export function samplePayload(
  host: HostKind,
  event: string,
  cwd: string,
  transcriptPath: string = join(cwd, ".skillgate-doctor-none.jsonl"),
): string {
  return hostFor(host).samplePayload(event, cwd, transcriptPath);
}

/** What running a hook command gave. */
export interface ProbeResult {
  /** The exit code (`null` when killed). */
  readonly code: number | null;
  /** Standard output. */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
  /** Wall time in ms. */
  readonly ms: number;
  /** Whether it was killed at the timeout. */
  readonly timedOut: boolean;
}

/**
 * Runs a registered command exactly as the host does: `sh -c <command>` with the payload on stdin.
 *
 * @param command The command line.
 * @param payload The stdin text.
 * @param options Working directory, environment and timeout.
 * @returns What happened.
 */
export async function probeHook(
  command: string,
  payload: string,
  options: { cwd: string; env?: Record<string, string>; timeoutMs: number },
): Promise<ProbeResult> {
  const start = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.env ? { env: options.env, clearEnv: true } : {}),
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }, options.timeoutMs);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(payload)).catch(() => {});
    await writer.close().catch(() => {});
    const out = await child.output();
    return {
      code: timedOut ? null : out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
      ms: Math.round(performance.now() - start),
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Doctor's verdict on one hook. */
export interface Diagnosis {
  /** `ok`, `warn` (works, but look), or `broken`. */
  readonly status: "ok" | "warn" | "broken";
  /** One line. */
  readonly message: string;
}

/**
 * Judges one probe. Pure except for checking that the executable and module paths exist.
 *
 * @param hook The registration.
 * @param result What running it gave.
 * @param slowMs A start slower than this is reported.
 * @returns The verdict.
 */
export function diagnose(hook: OwnedHook, result: ProbeResult, slowMs = 1500): Diagnosis {
  const words = shellSplit(hook.command) ?? [];
  const exe = words[0] ?? "";
  const isDeno = words[1] === "run";
  // deno-lint-ignore no-control-regex
  const stderr = result.stderr.replace(/\u001b\[[0-9;]*m/g, "");
  const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const last = sanitizeLine(lines.at(-1) ?? "", 240);
  if (result.timedOut) {
    return {
      status: "broken",
      message: `timed out after ${result.ms} ms (the host gives it ${hook.timeout ?? "?"} s)`,
    };
  }
  if (isAbsolute(exe) && !exists(exe, { followSymlinks: true })) {
    return {
      status: "broken",
      message: isDeno
        ? `missing Deno: ${exe} does not exist; install Deno and run skillgate setup again`
        : `missing binary: ${exe} does not exist; run skillgate setup again`,
    };
  }
  if (result.code === 127) {
    return { status: "broken", message: `missing Deno or command not found: ${last}` };
  }
  const module = isDeno ? words.slice(2).find((w) => !w.startsWith("-")) : undefined;
  if (
    module && (/Module not found|Cannot find module|No such file/i.test(stderr) ||
      (isAbsolute(module) && !exists(module, { followSymlinks: true })))
  ) {
    return {
      status: "broken",
      message: `wrong path: the hook module ${module} was not found; run skillgate setup again`,
    };
  }
  const denied = /(Requires \S+ access to [^\n]*?)(?:, run again with the (--allow-\S+) flag)?$/m
    .exec(stderr) ?? /NotCapable[^\n]*/.exec(stderr);
  if (denied) {
    return { status: "broken", message: `missing permission: ${sanitizeLine(denied[0], 240)}` };
  }
  const own = lines.map((l) => /^skillgate: (\S+)(.*)$/.exec(l)).find((m) => m !== null);
  if (own) {
    const detail = sanitizeLine(`${own[1]}${own[2]}`, 240);
    if (/--allow-|permission|NotCapable/i.test(detail)) {
      return { status: "broken", message: `missing permission: ${detail}` };
    }
    return { status: "broken", message: `the hook failed open: ${detail}` };
  }
  if (result.code !== 0) {
    return { status: "broken", message: `exited with ${result.code}: ${last || "no message"}` };
  }
  const out = result.stdout.trim();
  if (out !== "") {
    try {
      JSON.parse(out);
    } catch {
      return { status: "broken", message: "printed output that is not one JSON object" };
    }
    return {
      status: "warn",
      message: `answered the harmless probe: ${sanitizeLine(out, 160)} (${result.ms} ms)`,
    };
  }
  if (result.ms > slowMs) {
    return { status: "warn", message: `slow start: ${result.ms} ms (over ${slowMs} ms)` };
  }
  return { status: "ok", message: `ran in ${result.ms} ms` };
}

const TAGS: Readonly<Record<DoctorLine["status"], string>> = {
  ok: "OK      ",
  warn: "WARN    ",
  broken: "BROKEN  ",
  note: "note    ",
  info: "",
};

/** Says when a host's config folder is a link (a `~/.claude` in a dotfiles folder): where it
 * leads, and how the hooks read there: granted that place too, as setup grants it (`linkTarget`),
 * or through the link, as a hook reads a file under a granted folder whose link leads there
 * (`followLinksTo`: the plugin's commands, whose paths are placeholders, and setup's commands
 * written before the folder was linked). */
function reportLinkedConfig(
  ctx: DoctorContext,
  hooks: readonly RegisteredHook[],
  emit: (status: DoctorLine["status"], text: string) => void,
): void {
  for (const [kind, dir] of Object.entries(ctx.hostDirs)) {
    const target = linkTarget(dir);
    if (target === dir) continue;
    const mine = hooks.filter((h) => h.host === kind && h.command.includes("--allow-read="));
    const setups = mine.filter((h) => !h.env);
    const what = mine.length === 0
      ? "setup grants the hooks that folder too"
      : setups.some((h) => !h.command.includes(target))
      ? "setup's hooks are not granted that folder and read it through the link (skillgate setup " +
        "again grants it)"
      : setups.length === 0
      ? "the plugin's hooks read it through the link (their commands cannot name where it leads)"
      : "the hooks are granted that folder too";
    emit("note", `${sanitizeLine(dir, 200)} is a link to ${sanitizeLine(target, 200)}: ${what}`);
  }
}

/**
 * Runs `skillgate doctor`.
 *
 * @param ctx Where to look and how to print.
 * @returns 0 when every registered hook works (warnings allowed), 1 when one is broken, a file
 * cannot be read, or no hook is registered.
 */
export async function runDoctor(ctx: DoctorContext): Promise<number> {
  const lines: DoctorLine[] = [];
  const probes: DoctorHook[] = [];
  const emit = (status: DoctorLine["status"], text: string) => {
    lines.push({ status, text });
    if (!ctx.json) ctx.print(`${TAGS[status]}${text}`);
  };
  const config = readConfig(ctx.stateRoot);
  const states = new Map<SwitchName, boolean>();
  emit("info", "skillgate doctor");
  if (!config.readable) {
    emit(
      "broken",
      `config ${config.path} cannot be read (${
        sanitizeLine(config.error ?? "")
      }): every hook is off`,
    );
  }
  for (const p of config.problems ?? []) {
    emit("warn", `config ${config.path} line ${p.line}: ${sanitizeLine(p.message, 300)}`);
  }
  for (const name of SWITCH_NAMES) {
    const r = resolveSwitch(name, config);
    states.set(name, r.on);
    emit("info", `switch ${name}: ${r.on ? "on" : "off"} (${r.source})`);
    // A config file's invalid value is reported above; an invalid environment value here.
    if (r.warning && !config.problems?.some((p) => p.key === name)) {
      emit("warn", `switch ${name}: ${sanitizeLine(r.warning)}`);
    }
  }
  const deno = findOnPath("deno", ctx.env?.PATH);
  emit(
    "info",
    deno
      ? `deno on PATH: ${deno}`
      : "deno on PATH: not found (the plugin's hooks run `deno`; setup's hooks use an absolute path)",
  );
  const found = findRegistrations(registrationFiles(ctx));
  const plugin = findPluginRegistrations(ctx);
  const hooks = [...found.hooks, ...plugin.hooks];
  const problems = [...found.problems, ...plugin.problems];
  for (const note of plugin.notes) emit("note", sanitizeLine(note, 400));
  // The plugin's hooks keep their state in the user's state root when it lies beside the Claude
  // config folder (their grants name it), else in their data dir, whatever else is exported.
  const env = ctx.env ?? Deno.env.toObject();
  const exported = env.SKILLGATE_STATE_ROOT;
  const user = userStateRoot((name) => env[name] || undefined);
  const pluginData = new Set(plugin.hooks.map((h) => h.env?.[CLAUDE.env.pluginData] ?? ""));
  pluginData.delete("");
  const pluginRoots = [...pluginData].filter((data) => pluginHookStateRoot(data, user) === data);
  if (exported) {
    for (const data of pluginRoots) {
      emit(
        "note",
        `SKILLGATE_STATE_ROOT (${sanitizeLine(exported, 200)}) is ignored by the ` +
          `skillgate plugin's hooks: they keep their state in ${sanitizeLine(data, 200)}`,
      );
    }
  }
  emit("info", `state root: ${sanitizeLine(ctx.stateRoot, 300)}`);
  if (pluginRoots.length < pluginData.size) {
    emit(
      "info",
      "the skillgate plugin's hooks share this state root (it is beside the Claude config folder)",
    );
  }
  for (const data of exported ? [] : pluginRoots) {
    if (resolve(data) === resolve(ctx.stateRoot)) continue;
    const setupHooks = found.hooks.some((h) => h.host === CLAUDE.kind);
    emit(
      setupHooks ? "warn" : "note",
      `the skillgate plugin's hooks keep their state and config in ${sanitizeLine(data, 200)}, ` +
        `not in ${
          sanitizeLine(ctx.stateRoot, 200)
        }: \`skillgate config\` changes reach them only ` +
        `with SKILLGATE_STATE_ROOT=${sanitizeLine(data, 200)} set` +
        (setupHooks
          ? "; to share one state root, run setup with that variable set too, or keep the " +
            "Claude config folder beside the state root (the defaults, ~/.claude and ~/.skillgate)"
          : ""),
    );
  }
  for (const problem of problems) emit("broken", sanitizeLine(problem, 400));
  const apart = pluginRoots.some((data) => resolve(data) !== resolve(ctx.stateRoot));
  reportDuplicates(ctx, hooks, apart, emit);
  reportLinkedConfig(ctx, hooks, emit);
  if (hooks.length === 0 && plugin.notes.length === 0) {
    emit(
      "note",
      problems.length > 0
        ? "no skillgate hook found in the files that could be read"
        : "no skillgate hooks are registered: run skillgate setup (or install the plugin)",
    );
  }
  // One probe transcript per host, in its own transcripts folder (its hooks may read only theirs).
  const transcripts = new Map<HostKind, string | undefined>();
  try {
    // Whether the host trusts each hook goes on that hook's line: one verdict per hook.
    const trust = await hookTrust(ctx, hooks, emit);
    for (const hook of hooks) {
      if (!transcripts.has(hook.host)) {
        const host = hostFor(hook.host);
        const dir = join(ctx.hostDirs[host.kind], host.layout.transcripts ?? "");
        transcripts.set(hook.host, writeDoctorTranscript(dir, host.transcript));
      }
      probes.push(
        await probeOne(ctx, hook, states, transcripts.get(hook.host), emit, trust.get(hook)),
      );
    }
  } finally {
    for (const t of transcripts.values()) if (t) removeDoctorTranscript(t);
  }
  for (const row of HOOKS) {
    // An installed plugin that has not run yet registers every hook: nothing is missing.
    if (!states.get(row.switchName) || plugin.notes.length > 0) continue;
    const reg = hostRegistration(DEFAULT_HOST, row);
    if (reg && !hooks.some((h) => h.hookId === row.id && h.host === DEFAULT_HOST.kind)) {
      emit(
        "note",
        `${row.id} (${reg.event}) is on but not registered in ${DEFAULT_HOST.name} ` +
          "settings or the plugin",
      );
    }
  }
  await (await import("./doctor_skills.ts")).reportSkills(ctx, config, emit);
  const verdict = doctorVerdict(lines, probes.length, plugin.notes.length > 0);
  if (ctx.json) {
    const report: DoctorReport = {
      result: verdict.result,
      exit: verdict.exit,
      summary: verdict.summary,
      lines,
      hooks: probes,
    };
    ctx.print(JSON.stringify(report));
  } else ctx.print(verdict.summary);
  return verdict.exit;
}

async function probeOne(
  ctx: DoctorContext,
  hook: RegisteredHook,
  states: Map<SwitchName, boolean>,
  transcript: string | undefined,
  emit: (status: DoctorLine["status"], text: string) => void,
  trust?: TrustVerdict,
): Promise<DoctorHook> {
  const label = `${hook.hookId ?? "stale entry"} (${hook.event}) in ${hook.file}`;
  const timeoutMs = Math.max(1, hook.timeout ?? 30) * 1000;
  const result = await probeHook(
    hook.command,
    samplePayload(hook.host, hook.event, ctx.cwd, transcript),
    {
      cwd: ctx.cwd,
      env: hook.env ? { ...(ctx.env ?? Deno.env.toObject()), ...hook.env } : ctx.env,
      timeoutMs,
    },
  );
  const verdict = diagnose(hook, result, ctx.slowMs);
  // One verdict per hook: what the probe found, and what else is true of this registration.
  let status = verdict.status;
  let text = `${label}: ${verdict.message}`;
  const row = HOOKS.find((r) => r.id === hook.hookId);
  if (hook.hookId === undefined) {
    // Never "remove it": it may be the only hook that works. Setup replaces it in place.
    if (status === "ok") status = "warn";
    text += hook.env
      ? "; an entry of another skillgate version (update the plugin)"
      : `; an entry of another skillgate version: \`${setupCommandFor(hook, ctx)}\` replaces it`;
  } else if (row && !states.get(row.switchName)) {
    // Registered while its switch is off: it passes through, which is what the switch asks.
    text += `; ${row.switchName} is off, so it passes through`;
  }
  if (trust) {
    text += `; ${trust.text}`;
    if (trust.status === "warn" && status === "ok") status = "warn";
  }
  emit(status, text);
  return {
    hook: hook.hookId ?? null,
    event: hook.event,
    file: hook.file,
    host: hook.host,
    status: verdict.status,
    message: verdict.message,
    ms: result.ms,
  };
}

/** The setup command that writes a registration's file (its host, user or project). */
function setupCommandFor(hook: RegisteredHook, ctx: Pick<DoctorContext, "hostDirs">): string {
  const host = hostFor(hook.host);
  const flags = [host.kind === DEFAULT_HOST.kind ? "" : ` --${host.kind}`];
  if (resolve(hook.file) !== resolve(host.hookFile.userPath(ctx.hostDirs[host.kind]))) {
    flags.push(" --project");
  }
  return `skillgate setup${flags.join("")}`;
}

/**
 * Says when one hook is registered more than once for a host (user and project settings, the
 * plugin and setup): every registration runs, and the hooks answer once between them (the first
 * to claim the event), but each runs a process; the plugin's hooks answer too when they keep
 * another state root (`pluginApart`), where the claims are. Registrations with the very same
 * command in Claude Code settings files run once (the client merges identical handlers).
 */
function reportDuplicates(
  ctx: Pick<DoctorContext, "hostDirs">,
  hooks: readonly RegisteredHook[],
  pluginApart: boolean,
  emit: (status: DoctorLine["status"], text: string) => void,
): void {
  const groups = new Map<string, RegisteredHook[]>();
  for (const h of hooks) {
    if (h.hookId === undefined) continue;
    const key = `${h.host}\0${h.hookId}\0${h.event}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  for (const group of groups.values()) {
    const distinct = new Set(group.map((h) => h.command));
    if (group.length < 2) continue;
    const where = group.map((h) => h.env ? `the plugin (${h.file})` : h.file).join(", ");
    const first = group[0];
    if (distinct.size === 1 && !group.some((h) => h.env)) {
      emit(
        "note",
        `${first.hookId} (${first.event}) is registered ${group.length} times with the same ` +
          `command (${where}): ${hostFor(first.host).name} runs it once`,
      );
      continue;
    }
    emit(
      "warn",
      `installed twice: ${first.hookId} (${first.event}) is registered ${group.length} times ` +
        `(${where}); ` +
        (pluginApart && group.some((h) => h.env)
          ? "each runs and the plugin's answers too (it keeps another state root)"
          : `each runs and one answers, so each event costs ${group.length} processes`) +
        ". " +
        "Keep one: " + group.map((h) =>
          h.env
            ? "`claude plugin uninstall skillgate@skillgate`"
            : `\`${setupCommandFor(h, ctx)} --uninstall\``
        ).join(" or "),
    );
  }
}

/**
 * Writes a transcript with no skill loaded under `<transcripts folder>/-skillgate-doctor/`, so the
 * Stop hooks read a real file inside their grants and have nothing to check: for Claude Code a
 * prompt and a reply, for the other hosts' formats an empty file (a Claude Code record is no record
 * of theirs). {@link removeDoctorTranscript} deletes it after the probes.
 *
 * @param transcriptsDir The host's transcripts folder (`<claude config>/projects`, ...).
 * @param format The host's transcript format.
 * @returns Its path, or `undefined` when it could not be written.
 */
export function writeDoctorTranscript(
  transcriptsDir: string,
  format: TranscriptFormat = "claude-code-jsonl",
): string | undefined {
  const dir = join(transcriptsDir, "-skillgate-doctor");
  const path = join(dir, "skillgate-doctor.jsonl");
  const records = format !== "claude-code-jsonl" ? [] : [
    {
      type: "user",
      sessionId: "skillgate-doctor",
      uuid: "skillgate-doctor-1",
      message: { role: "user", content: "skillgate doctor probe" },
    },
    {
      type: "assistant",
      sessionId: "skillgate-doctor",
      uuid: "skillgate-doctor-2",
      message: { role: "assistant", content: [{ type: "text", text: "ok" }] },
    },
  ];
  try {
    probeDirsMade.set(path, missingDirs(path));
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, records.map((r) => JSON.stringify(r) + "\n").join(""), {
      mode: 0o600,
    });
    return path;
  } catch {
    return undefined;
  }
}

/** The folders {@link writeDoctorTranscript} made for each probe transcript, outermost first. */
const probeDirsMade = new Map<string, string[]>();

/**
 * Removes the probe transcript and its folder, and any folder made for it that is now empty (a
 * `projects/` folder the client had not made yet), so doctor leaves nothing behind.
 *
 * @param path What {@link writeDoctorTranscript} returned.
 */
export function removeDoctorTranscript(path: string): void {
  try {
    Deno.removeSync(join(path, ".."), { recursive: true });
  } catch {
    // Already gone.
  }
  for (const dir of (probeDirsMade.get(path) ?? []).toReversed()) {
    try {
      Deno.removeSync(dir);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue;
      break; // Not empty: the client wrote into it meanwhile.
    }
  }
  probeDirsMade.delete(path);
}

/** Whether a host that trusts hooks one by one trusts one of them, for its line. */
interface TrustVerdict {
  readonly status: "ok" | "warn";
  readonly text: string;
}

/**
 * For a host that runs a hook only once it is trusted (Codex CLI), whether it trusts each of
 * skillgate's hooks registered for it, as the client itself says (`codex app-server`'s
 * `hooks/list`): an untrusted hook is skipped silently by the client, so it is a warning on that
 * hook's line. A host-wide problem (no `codex` on PATH, a failed listing) is a line of its own.
 * For a host that runs a project's hooks only in a trusted folder (Gemini CLI), whether it will.
 */
async function hookTrust(
  ctx: DoctorContext,
  hooks: readonly RegisteredHook[],
  emit: (status: DoctorLine["status"], text: string) => void,
): Promise<Map<RegisteredHook, TrustVerdict>> {
  const verdicts = new Map<RegisteredHook, TrustVerdict>();
  for (const host of HOSTS) {
    if (host.hookTrust === "project-folder") {
      // Gemini CLI runs a project's hooks only in a trusted folder: its own files say.
      const root = projectRoot(ctx.cwd);
      const files = host.hookFile.projectPaths(root).map((f) => resolve(f));
      const mine = hooks.filter((h) => h.host === host.kind && files.includes(resolve(h.file)));
      const { geminiTrustLines } = await import("./gemini_trust.ts");
      const folders = (ctx.env ?? Deno.env.toObject()).GEMINI_CLI_TRUSTED_FOLDERS_PATH;
      const places = { configDir: ctx.hostDirs[host.kind], trustedFoldersPath: folders };
      for (const l of geminiTrustLines(places, root, host.name, mine)) emit(l.status, l.text);
    }
    if (host.hookTrust !== "app-server") continue;
    const mine = hooks.filter((h) => h.host === host.kind);
    if (mine.length === 0) continue;
    const env = ctx.env ?? Deno.env.toObject();
    const { findCodex, listCodexHooks } = await import("./codex_trust.ts");
    const bin = findCodex(env);
    const fix = `run skillgate setup --${host.kind} again with codex on PATH, or trust them in ` +
      "codex (/hooks)";
    if (!bin) {
      emit(
        "note",
        `${host.name}: codex not found on PATH: cannot tell whether it trusts ` +
          `skillgate's ${mine.length} hook(s); it skips untrusted hooks silently`,
      );
      continue;
    }
    let listed;
    try {
      listed = await listCodexHooks({
        bin,
        cwd: ctx.cwd,
        env: {
          HOME: ctx.home,
          PATH: env.PATH ?? "/usr/bin:/bin",
          CODEX_HOME: ctx.hostDirs[host.kind],
        },
      });
    } catch (err) {
      emit(
        "warn",
        `${host.name}: cannot list its hooks (${
          sanitizeLine(err instanceof Error ? err.message : String(err), 200)
        })`,
      );
      continue;
    }
    for (const h of mine) {
      const state = listed.find((l) =>
        resolve(l.sourcePath) === resolve(h.file) && l.command === h.command
      );
      if (!state) {
        verdicts.set(h, { status: "warn", text: `${host.name} does not list it (${fix})` });
      } else if (state.trustStatus === "trusted") {
        verdicts.set(h, { status: "ok", text: `trusted by ${host.name}` });
      } else {
        verdicts.set(h, {
          status: "warn",
          text: `${sanitizeLine(state.trustStatus, 40)} in ${host.name}, which skips it until ` +
            `it is trusted (${fix})`,
        });
      }
    }
  }
  return verdicts;
}

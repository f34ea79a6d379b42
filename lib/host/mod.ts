/**
 * The host registry: every AI coding client skillgate's hooks run under, one {@link Host} object
 * each (`claude.ts`, `copilot.ts`), and the few questions asked across them: which host sent a
 * payload ({@link recogniseHost}), which host a kind names ({@link hostFor}), and the tool names
 * of a role over every host ({@link toolNamesOf}).
 *
 * A host object owns everything host-specific: how its payloads look and how to recognise them,
 * its event names, the answer shapes it acts on, its tool names, where its files live, its
 * environment markers, the shape of its hook file, and the wording of texts that name its tools.
 * The rest of skillgate asks the host object and never names a host itself. Adding a host is one
 * module plus its tests, and one entry in {@link HOSTS} (see `docs/architecture.md`, "Hosts").
 *
 * Host modules are on every hook's hot path: they hold constants and small functions only, and
 * import nothing but types and the import-free helpers in `json.ts` and `../base/path.ts`.
 *
 * @module
 */

import { CLAUDE, type ClaudeHost } from "./claude.ts";
import { COPILOT } from "./copilot.ts";
import type { HookFileFormat } from "./hook_file.ts";

/** A host answer: one JSON object, or `null` for pass-through (no output). */
export type HookAnswer = Record<string, unknown> | null;

/**
 * The events skillgate's hooks serve, by their canonical names (Claude Code's). Each host names
 * them its own way in its hook file ({@link Host.hookEvents}) and its payloads
 * ({@link Host.eventNames}).
 */
export type HookEventName = "UserPromptSubmit" | "PreToolUse" | "Stop";

/** What a tool does, whatever a host calls it. */
export type ToolRole = "skill" | "agent" | "edit" | "shell";

/** The transcript formats hosts write. A hook that reads one is installed only where it exists. */
export type TranscriptFormat = "claude-code-jsonl" | "copilot-events-jsonl";

/** The fields of the event model, each read from the payload field names the hosts give it. */
export type PayloadField =
  | "eventName"
  | "sessionId"
  | "transcriptPath"
  | "cwd"
  | "prompt"
  | "promptId"
  | "toolName"
  | "toolInput"
  | "toolUseId"
  | "stopHookActive"
  | "lastAssistantMessage"
  | "stopReason";

/** The answers a host acts on, one per kind of decision. */
export interface HostAnswers {
  /** Context added to the prompt (UserPromptSubmit). */
  context(text: string): HookAnswer;
  /** A tool call denied with a reason the model reads (PreToolUse). */
  deny(reason: string): HookAnswer;
  /** A stop held back: the model keeps working with `reason` as its instruction (Stop). */
  stopBlock(reason: string): HookAnswer;
}

/** Texts that name a host's own tools. */
export interface HostTexts {
  /**
   * The skill-to-agent redirect: a statement that `{name}` is an agent and how this host starts
   * agents. `{name}` is the only substitution, always with the sanitised name.
   */
  readonly skillIsAgent: string;
  /** How the routing hint names the tool that loads a skill (`the Skill tool`). */
  readonly skillTool: string;
}

/** The environment variables a host sets or honours. */
export interface HostEnv {
  /** Variables of this host that skillgate's hooks read (each hook's `--allow-env` grants them). */
  readonly hookReads: readonly string[];
  /** Moves the host's config directory (`CLAUDE_CONFIG_DIR`, `COPILOT_HOME`). */
  readonly configDir?: string;
  /** The project root the host names for a hook. */
  readonly projectDir?: string;
  /** Set for a plugin's hooks: the plugin's install, which marks a run from a plugin. */
  readonly pluginRoot?: string;
  /** Set for a plugin's hooks: the plugin's persistent data directory. */
  readonly pluginData?: string;
  /** How the client was started: marks a headless or SDK-spawned run. */
  readonly entrypoint?: string;
}

/**
 * Where a host keeps skills, agents, plugins and transcripts: folders under its config directory
 * (`user*`, `plugins`, `transcripts`) and under a project root (`project*`). A folder left out is
 * one the host does not have, or one skillgate does not read.
 */
export interface HostLayout {
  /** The user's skills, under the config directory. */
  readonly userSkills?: string;
  /** The user's agents, under the config directory. */
  readonly userAgents?: string;
  /** Installed plugins, under the config directory. */
  readonly plugins?: string;
  /** Session transcripts, under the config directory. */
  readonly transcripts?: string;
  /** A project's skills, under the project root. */
  readonly projectSkills?: string;
  /** A project's agents, under the project root. */
  readonly projectAgents?: string;
}

/** Where `setup` and `doctor` find a host's hook files. */
export interface HostHookFile {
  /** The file's shape, for the shared merge (`hook_file.ts`). */
  readonly format: HookFileFormat;
  /**
   * The user's hook file.
   *
   * @param configDir The host's config directory ({@link Host.configDir}).
   */
  userPath(configDir: string): string;
  /**
   * A project's hook files, as the host reads them; `setup --project` writes the first.
   *
   * @param projectRoot The project root.
   */
  projectPaths(projectRoot: string): readonly string[];
}

/** How `skillgate setup` describes a host's hook file in its usage text. */
export interface HostSetupText {
  /** The user's file, as in `Registers skillgate's hooks in <target>` or `--<kind>  Write <target>`. */
  readonly target: string;
  /** The project's file, as in `--project  Use the project's <projectFile>`. */
  readonly projectFile: string;
}

/** What a host's config directory is computed from. */
export interface HostPlaces {
  /** The user's home directory. */
  readonly home: string;
  /**
   * Reads an environment variable.
   *
   * @param name The variable.
   * @returns Its value, or `undefined` when unset, empty or not readable.
   */
  env(name: string): string | undefined;
}

/** One AI coding client, with everything skillgate knows about it. */
export interface Host<K extends string = string> {
  /** The host's id (`claude`, `copilot`): in logs, `HookEvent.host` and the `--<kind>` flag. */
  readonly kind: K;
  /** Its name for people (`Claude Code`). */
  readonly name: string;
  /**
   * Whether a payload is this host's, by its own field names and event names.
   *
   * @param payload The payload, a JSON object.
   * @returns `true` when this host sent it.
   */
  recognise(payload: Readonly<Record<string, unknown>>): boolean;
  /** The host's payload field names for each field of the event model (first present wins). */
  readonly fields: Readonly<Partial<Record<PayloadField, readonly string[]>>>;
  /**
   * The host's event names, as they arrive in a payload, reduced to lower-case letters and digits,
   * with the canonical name each means (`agentstop` gives `Stop`).
   */
  readonly eventNames: Readonly<Record<string, string>>;
  /** The name of each event in the host's hook file; an event left out is one it does not have. */
  readonly hookEvents: Readonly<Partial<Record<HookEventName, string>>>;
  /** The answers it acts on. */
  readonly answers: HostAnswers;
  /** Its tool names by role. */
  readonly tools: Readonly<Record<ToolRole, readonly string[]>>;
  /** The input field of its agent tool that names the agent (`subagent_type`, `agent_type`). */
  readonly agentTypeField: string;
  /** The format of the transcript it writes (the one a Stop payload points at). */
  readonly transcript: TranscriptFormat;
  /** Where it keeps skills, agents, plugins and transcripts. */
  readonly layout: HostLayout;
  /** Its environment variables. */
  readonly env: HostEnv;
  /** Texts that name its tools. */
  readonly texts: HostTexts;
  /**
   * Its config directory.
   *
   * @param places Home and environment.
   * @returns The directory (its environment variable, else its default under home).
   */
  configDir(places: HostPlaces): string;
  /** Its hook files. */
  readonly hookFile: HostHookFile;
  /** How `setup` describes its hook file. */
  readonly setup: HostSetupText;
  /**
   * A payload of this host that every skillgate hook answers with a pass-through (`doctor` runs
   * each registered command on one): a `/` prompt, a Skill call for a name nothing has, a stop
   * the host says was already continued.
   *
   * @param event The event as named in the host's hook file.
   * @param cwd The working directory to report.
   * @param transcriptPath The transcript a stop names.
   * @returns The JSON text.
   */
  samplePayload(event: string, cwd: string, transcriptPath: string): string;
}

/**
 * Every host, in the order the registry asks them whether a payload is theirs: where two could
 * claim the same payload, the first wins, so a host whose payloads are a more specific shape of
 * another's goes before it.
 */
export const HOSTS: readonly [ClaudeHost, Host<"copilot">] = [CLAUDE, COPILOT];

/** The id of a host in {@link HOSTS}. */
export type HostKind = (typeof HOSTS)[number]["kind"];

/** The host `setup` writes for when no host flag is given, and the default of host parameters. */
export const DEFAULT_HOST: ClaudeHost = CLAUDE;

/** Thrown by {@link hostFor} for a kind no host has. */
export class UnknownHostError extends Error {
  /**
   * Makes the error.
   *
   * @param message What was not recognised.
   */
  constructor(message: string) {
    super(message);
    this.name = "UnknownHostError";
  }
}

/**
 * The host of a kind.
 *
 * @param kind A host id.
 * @returns Its host object.
 * @throws {UnknownHostError} When no host has that id.
 */
export function hostFor(kind: HostKind): Host<HostKind> {
  const host = HOSTS.find((h) => h.kind === kind);
  if (!host) throw new UnknownHostError(`Unknown host: ${String(kind).slice(0, 40)}`);
  return host;
}

/**
 * Which host sent a payload: each host is asked, in {@link HOSTS} order, and the first that
 * recognises it wins. A payload no host recognises is an explicit outcome (`undefined`), never
 * a guess.
 *
 * @param payload The payload, a JSON object.
 * @returns The host, or `undefined` when none recognises it.
 */
export function recogniseHost(
  payload: Readonly<Record<string, unknown>>,
): Host<HostKind> | undefined {
  return HOSTS.find((h) => h.recognise(payload));
}

/**
 * The names of one role's tools over every host, deduplicated, in host order (the Skill tool of
 * any host, say). For decisions that do not depend on which host sent the payload.
 *
 * @param role The role.
 * @returns The tool names.
 */
export function toolNamesOf(role: ToolRole): readonly string[] {
  return [...new Set(HOSTS.flatMap((h) => h.tools[role]))];
}

/**
 * The payload field names of one field of the event model over every host, in host order: a
 * payload is read tolerantly, so a host that mixes casings (Copilot CLI's `agentStop` carries
 * `stop_hook_active`) reads whole.
 *
 * @param field The event model's field.
 * @returns The names to try, first present wins.
 */
export function fieldNamesOf(field: PayloadField): readonly string[] {
  let names = fieldNames.get(field);
  if (!names) {
    names = [...new Set(HOSTS.flatMap((h) => h.fields[field] ?? []))];
    fieldNames.set(field, names);
  }
  return names;
}

/** {@link fieldNamesOf}, worked out once per field. */
const fieldNames = new Map<PayloadField, readonly string[]>();

/**
 * The canonical name of an event name as a payload declares it: the sending host's own names
 * first, then every other host's, else the name as given.
 *
 * @param host The host that sent it.
 * @param declared The declared event name.
 * @returns The canonical name (`PreToolUse`, `Stop`, ...), or `declared` when no host knows it.
 */
export function canonicalEventName(host: Host<HostKind>, declared: string): string {
  const key = declared.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  if (Object.hasOwn(host.eventNames, key)) return host.eventNames[key];
  for (const other of HOSTS) {
    if (Object.hasOwn(other.eventNames, key)) return other.eventNames[key];
  }
  return declared;
}

/**
 * Each host's config directory.
 *
 * @param places Home and environment.
 * @returns The directory of every host, by kind.
 */
export function hostConfigDirs(places: HostPlaces): Record<HostKind, string> {
  const out = {} as Record<HostKind, string>;
  for (const h of HOSTS) out[h.kind] = h.configDir(places);
  return out;
}

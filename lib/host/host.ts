/**
 * The shape of a host: what every host module (`claude.ts`, `copilot.ts`) declares, and the small
 * types the rest of skillgate speaks of hosts in. The registry that lists the hosts is `mod.ts`.
 *
 * @module
 */

import type { HookFileFormat } from "./hook_file.ts";

/** A host answer: one JSON object, or `null` for pass-through (no output). */
export type HookAnswer = Record<string, unknown> | null;

/**
 * The events skillgate's hooks serve, by their canonical names (Claude Code's). Each host names
 * them its own way in its hook file ({@link Host.hookEvents}) and its payloads
 * ({@link Host.eventNames}).
 */
export type HookEventName = "UserPromptSubmit" | "PreToolUse" | "Stop" | "SubagentStop";

/** What a tool does, whatever a host calls it. */
export type ToolRole = "skill" | "agent" | "edit" | "shell";

/** The transcript formats hosts write. A hook that reads one is installed only where it exists. */
export type TranscriptFormat =
  | "claude-code-jsonl"
  | "copilot-events-jsonl"
  | "codex-rollout-jsonl"
  | "gemini-chat-jsonl";

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
  | "stopReason"
  | "agentId"
  | "agentName"
  | "agentTranscriptPath"
  | "timestamp";

/** The answers a host acts on, one per kind of decision. */
export interface HostAnswers {
  /** Context added to the prompt (UserPromptSubmit). */
  context(text: string): HookAnswer;
  /** A tool call denied with a reason the model reads (PreToolUse). */
  deny(reason: string): HookAnswer;
  /** A stop held back: the model keeps working with `reason` as its instruction (Stop). */
  stopBlock(reason: string): HookAnswer;
}

/**
 * What marks skillgate's redirect text (`HostTexts.skillIsAgent`), in every host's wording: the text
 * starts with the quoted name and this follows it. Routing recognises the text by it when a host
 * sends the text back as a prompt.
 */
export const SKILL_IS_AGENT_MARK = " is an agent, not a skill:";

/** Texts that name a host's own tools. */
export interface HostTexts {
  /**
   * The skill-to-agent redirect: a statement that `{name}` is an agent and how this host starts
   * agents. `{name}` is the only substitution, always with the sanitised name. It starts with
   * `"{name}"` and {@link SKILL_IS_AGENT_MARK}.
   */
  readonly skillIsAgent: string;
  /**
   * What the host puts before a Stop block's reason when it hands it to the model (Claude Code:
   * `Stop hook feedback:`), when it does.
   */
  readonly stopFeedback?: string;
  /** How the routing hint names the tool that loads a skill (`the Skill tool`). */
  readonly skillTool: string;
}

/** The environment variables a host sets or honours. */
export interface HostEnv {
  /** Variables of this host that skillgate's hooks read (each hook's `--allow-env` grants them). */
  readonly hookReads: readonly string[];
  /** Moves the host's config directory (`CLAUDE_CONFIG_DIR`, `COPILOT_HOME`). */
  readonly configDir?: string;
  /**
   * Moves the home the host sees, its config directory under it (`GEMINI_CLI_HOME`); a host has
   * this or {@link configDir}.
   */
  readonly home?: string;
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
 * (`user*`, `plugins`, `transcripts`), under home (`homeSkills`) and under a project root
 * (`*project*`). These are the folders the host reads, and the only ones a hook run for it reads
 * (besides config `skill_dirs`/`agent_dirs`). A folder left out is one the host does not have.
 */
export interface HostLayout {
  /** The user's skills, under the config directory. */
  readonly userSkills?: string;
  /** The user's agents, under the config directory. */
  readonly userAgents?: string;
  /** Installed plugins, under the config directory. */
  readonly plugins?: string;
  /**
   * Installed extensions, under the config directory (Gemini CLI's): the skills and agents of
   * each one enabled for the workspace (`lib/catalog/extensions.ts`).
   */
  readonly extensions?: string;
  /** Session transcripts, under the config directory. */
  readonly transcripts?: string;
  /** A project's skills, under the project root. */
  readonly projectSkills?: string;
  /** A project's agents, under the project root. */
  readonly projectAgents?: string;
  /** More folders of a project's skills the host reads, after {@link projectSkills}. */
  readonly moreProjectSkills?: readonly string[];
  /** More folders of a project's agents the host reads, after {@link projectAgents}. */
  readonly moreProjectAgents?: readonly string[];
  /**
   * A project's agents the host loads only once the user acknowledged each one, by its name and
   * its file's SHA-256 (Gemini CLI's `.gemini/agents`): the folder, under the project root, and
   * the file of acknowledgements, under the config directory
   * (`{"<project root>": {"<agent>": "<sha256 hex>"}}`).
   */
  readonly acknowledgedAgents?: { readonly dir: string; readonly record: string };
  /** The user's skills under the home directory, shared by clients (`.agents/skills`). */
  readonly homeSkills?: string;
  /**
   * The home of {@link homeSkills} is the config directory's parent, not the user's home: the
   * client moves both with one variable (Gemini CLI: `$GEMINI_CLI_HOME/.gemini` and
   * `$GEMINI_CLI_HOME/.agents`).
   */
  readonly homeBesideConfig?: boolean;
}

/**
 * A host's folders, resolved for one user: its config directory, the home directory and its
 * layout. They are the folders a hook run for that host reads (the catalog scans them, the hook
 * table grants them: `lib/host/folders.ts`), and no other host's.
 */
export interface HostFolders {
  /** The host's config directory ({@link Host.configDir}). */
  readonly configDir: string;
  /** The user's home directory (for {@link HostLayout.homeSkills}). */
  readonly home: string;
  /** Its layout. */
  readonly layout: HostLayout;
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
  /** The files may hold `//` and `/* *\/` comments (the host strips them): kept by every edit. */
  readonly comments?: boolean;
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

/**
 * The error a host's turn shows when the model asks for a skill the host does not have (an
 * agent's name, say), and how to find it in that host's transcript: the redirect's Stop fallback
 * acts on it, for a host that rejects such a call before any tool hook runs.
 */
export interface UnknownSkillError {
  /** A literal every such error holds: a turn without it has none (a cheap text test). */
  readonly needle: string;
  /**
   * Reads the requested name out of a failed skill call: its result's text, and (for a host whose
   * error does not name it: Gemini CLI's) the call's input.
   *
   * @param text The result text.
   * @param input The skill call's input, when the turn holds the call.
   * @returns The name, or `undefined` when the text is not that error.
   */
  nameIn(text: string, input?: unknown): string | undefined;
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
  /**
   * How its model loads a skill: with its skill tool (`tool`, the default), or by reading the
   * skill's SKILL.md with a shell command (`shell-read`: Codex CLI has no skill tool), in which
   * case the redirect watches its shell tools.
   */
  readonly skillLoad?: "tool" | "shell-read";
  /**
   * How the host trusts a hook before it runs it, when it must: `app-server` (Codex CLI skips a
   * hook until it is trusted; `codex app-server` lists and trusts hooks, `lib/install/codex_trust.ts`),
   * `project-folder` (Gemini CLI runs a project's hooks only in a folder the user trusted, and
   * warns once for each new one; `lib/install/gemini_trust.ts` reads its files).
   */
  readonly hookTrust?: "app-server" | "project-folder";
  /**
   * Skills that ship with the client itself, not on disk: an agent of the same name is never
   * redirected (skills take precedence, and the host resolves these).
   */
  readonly builtinSkills: readonly string[];
  /**
   * The error its turn shows for an unknown skill name, when it rejects such a call before any
   * tool hook runs: the redirect then acts at the end of the turn (its Stop fallback), given a
   * turn reader for its transcript format (`lib/transcript/readers.ts`).
   */
  readonly unknownSkill?: UnknownSkillError;
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
 * The id of a host. Written out (not derived from the registry) so that the public API names hosts
 * without their whole shape; the registry (`mod.ts`) checks at compile time that it lists exactly
 * these.
 */
export type HostKind = "claude" | "copilot" | "codex" | "gemini";

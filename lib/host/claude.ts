/**
 * Claude Code as a host: snake_case payloads with `hook_event_name`, answers under
 * `hookSpecificOutput`, the `Skill` and `Agent` tools, `~/.claude` (or `CLAUDE_CONFIG_DIR`) with
 * its `settings.json`, and JSONL transcripts under `<config>/projects`. Observed with Claude Code
 * 2.1.328 (`reference/hosts-observed.md`).
 *
 * GitHub Copilot CLI sends this same payload shape for hooks registered under Claude Code's
 * PascalCase event names (its "VS Code compatible" mode, with an ISO `timestamp`): such a payload is
 * read as this host's, and answered in this host's shapes.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { isJsonObject, jsonEqual, type JsonObject } from "./json.ts";
import type { DesiredHook, HookFileFormat } from "./hook_file.ts";
import { type Host, type HostEnv, type HostLayout, SKILL_IS_AGENT_MARK } from "./host.ts";
import { PLUGIN_ENV } from "./plugin.ts";

/** The payload fields only Claude Code sends; any of them marks its payload. */
const OWN_FIELDS = ["session_id", "tool_name", "hook_event_name", "transcript_path"];

function claudeItem(d: DesiredHook): JsonObject {
  return { type: "command", command: d.command, timeout: d.timeout };
}

function sameMatcher(group: JsonObject, matcher: string | undefined): boolean {
  const m = typeof group.matcher === "string" && group.matcher !== "" ? group.matcher : undefined;
  return m === matcher;
}

/**
 * A `settings.json` format: `{"hooks": {"<Event>": [{"matcher"?, "hooks": [items]}]}}`, every other
 * key kept. A slot is a matcher group; skillgate's item is `itemOf(hook)` (Claude Code's `{"type":
 * "command", "command", "timeout"}`, Gemini CLI's with a `name` and milliseconds). A missing file
 * stays missing when nothing is wanted, and a `hooks` object skillgate empties is removed.
 *
 * @param itemOf skillgate's item for a wanted hook.
 * @param timeoutUnit How many of the file's timeout units make a second (1, or 1000 for ms).
 * @returns The format.
 */
export function settingsFormat(
  itemOf: (d: DesiredHook) => JsonObject,
  timeoutUnit = 1,
): HookFileFormat {
  return {
    ...SETTINGS_BASE,
    describe: (slot, item) => ({
      matcher: typeof slot.matcher === "string" ? slot.matcher : undefined,
      timeout: typeof item.timeout === "number" ? item.timeout / timeoutUnit : undefined,
    }),
    isExact: (slot, want) =>
      sameMatcher(slot, want.matcher) && jsonEqual((slot.hooks as unknown[])[0], itemOf(want)),
    update(slot, want, exact) {
      const next: JsonObject = { ...slot };
      if (want.matcher === undefined) delete next.matcher;
      else next.matcher = want.matcher;
      next.hooks = [exact ? (slot.hooks as unknown[])[0] : itemOf(want)];
      return next;
    },
    create: (want) =>
      want.matcher === undefined
        ? { hooks: [itemOf(want)] }
        : { matcher: want.matcher, hooks: [itemOf(want)] },
  };
}

/** What every `settings.json` format shares ({@link settingsFormat}). */
const SETTINGS_BASE: Pick<HookFileFormat, "open" | "items" | "command" | "keep" | "close"> = {
  open(doc) {
    if (doc !== undefined && !isJsonObject(doc)) {
      throw new Error("The settings file does not hold a JSON object");
    }
    const out: JsonObject = structuredClone(doc ?? {});
    if (out.hooks !== undefined && !isJsonObject(out.hooks)) {
      throw new Error('"hooks" is not a JSON object');
    }
    return out;
  },
  items: (slot) => isJsonObject(slot) && Array.isArray(slot.hooks) ? slot.hooks : undefined,
  command(item) {
    if (!isJsonObject(item)) return undefined;
    if (item.type !== undefined && item.type !== "command") return undefined;
    return typeof item.command === "string" ? item.command : undefined;
  },
  keep: (slot, items) => ({ ...slot, hooks: items }),
  close(out, hooks, original, desired) {
    if (original === undefined && desired.length === 0) return undefined;
    if (Object.keys(hooks).length > 0 || isJsonObject(out.hooks)) {
      const before = isJsonObject(original) && isJsonObject(original.hooks)
        ? original.hooks
        : undefined;
      const emptiedByUs = before !== undefined && Object.keys(hooks).length === 0 &&
        Object.keys(before).length > 0;
      if (emptiedByUs) delete out.hooks;
      else out.hooks = hooks;
    }
    return out;
  },
};

/**
 * Claude Code's `settings.json` (and Codex CLI's `hooks.json`): {@link settingsFormat} with
 * `{"type": "command", "command", "timeout"}` items, the timeout in seconds.
 */
export const SETTINGS_FORMAT: HookFileFormat = settingsFormat(claudeItem);

/**
 * The redirect text for Claude Code. The text states what is wrong and what exists, because the
 * host presents it to the model as a tool result, which the model treats as untrusted and ignores
 * when it reads like an order.
 */
const SKILL_IS_AGENT = '"{name}"' + SKILL_IS_AGENT_MARK + " the Skill tool has no skill by " +
  "that name and cannot run it. Agents are started with the Agent tool (named Task before " +
  'Claude Code 2.1.63), with subagent_type "{name}".';

/** Claude Code's error for a Skill call of a name it has no skill for. */
const UNKNOWN_SKILL = /Unknown skill:[ \t]*([^\r\n<]{1,300})/;

/**
 * Claude Code's host object: a {@link Host} whose every folder and environment variable is known
 * (the default layout: a hook run for another host reads that host's own folders).
 */
export type ClaudeHost = Host<"claude"> & {
  readonly layout: Required<
    Omit<HostLayout, "homeSkills" | "homeBesideConfig" | "extensions" | "acknowledgedAgents">
  >;
  readonly env: Required<Omit<HostEnv, "home">>;
};

/** Claude Code. */
export const CLAUDE: ClaudeHost = {
  kind: "claude",
  name: "Claude Code",
  recognise: (payload) => OWN_FIELDS.some((k) => Object.hasOwn(payload, k)),
  fields: {
    eventName: ["hook_event_name"],
    sessionId: ["session_id"],
    transcriptPath: ["transcript_path"],
    cwd: ["cwd"],
    prompt: ["prompt"],
    promptId: ["prompt_id"],
    toolName: ["tool_name"],
    toolInput: ["tool_input"],
    toolUseId: ["tool_use_id"],
    stopHookActive: ["stop_hook_active"],
    lastAssistantMessage: ["last_assistant_message"],
    // SubagentStop (observed on 2.1.328): the sub-agent's id and its own transcript.
    agentId: ["agent_id"],
    agentTranscriptPath: ["agent_transcript_path"],
  },
  eventNames: {
    userpromptsubmit: "UserPromptSubmit",
    pretooluse: "PreToolUse",
    posttooluse: "PostToolUse",
    stop: "Stop",
    subagentstop: "SubagentStop",
    sessionstart: "SessionStart",
    sessionend: "SessionEnd",
  },
  hookEvents: {
    UserPromptSubmit: "UserPromptSubmit",
    PreToolUse: "PreToolUse",
    Stop: "Stop",
    SubagentStop: "SubagentStop",
  },
  answers: {
    context: (text) => ({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text },
    }),
    deny: (reason) => ({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: reason,
      },
    }),
    stopBlock: (reason) => ({ decision: "block", reason }),
  },
  tools: {
    skill: ["Skill"],
    // `Task` until Claude Code 2.1.63, then `Agent`.
    agent: ["Agent", "Task"],
    edit: ["Edit", "Write", "MultiEdit", "NotebookEdit"],
    // `PowerShell` on Windows takes the same input.
    shell: ["Bash", "PowerShell"],
  },
  agentTypeField: "subagent_type",
  // Seen in the skill listing of Claude Code 2.1.328 (`reference/hosts-observed.md`).
  builtinSkills: [
    "code-review",
    "dataviz",
    "init",
    "loop",
    "security-review",
    "simplify",
    "update-config",
  ],
  // Claude Code rejects a Skill call of an unknown name before any PreToolUse hook runs: the
  // tool_result reads `<tool_use_error>Unknown skill: X</tool_use_error>`, `toolUseResult`
  // `Error: Unknown skill: X`.
  unknownSkill: {
    needle: "Unknown skill",
    nameIn(text) {
      const name = UNKNOWN_SKILL.exec(text)?.[1].trim();
      return name ? name : undefined;
    },
  },
  transcript: "claude-code-jsonl",
  layout: {
    userSkills: "skills",
    userAgents: "agents",
    plugins: "plugins",
    transcripts: "projects",
    projectSkills: ".claude/skills",
    projectAgents: ".claude/agents",
    moreProjectSkills: [],
    moreProjectAgents: [],
  },
  env: {
    hookReads: [
      "CLAUDE_CONFIG_DIR",
      "CLAUDE_PROJECT_DIR",
      PLUGIN_ENV.data,
      PLUGIN_ENV.root,
      "CLAUDE_CODE_ENTRYPOINT",
    ],
    configDir: "CLAUDE_CONFIG_DIR",
    projectDir: "CLAUDE_PROJECT_DIR",
    pluginRoot: PLUGIN_ENV.root,
    pluginData: PLUGIN_ENV.data,
    // `sdk-cli` (`claude -p`) is headless; `sdk-ts`, `sdk-py` and other `sdk-*` are spawned.
    entrypoint: "CLAUDE_CODE_ENTRYPOINT",
  },
  texts: {
    skillIsAgent: SKILL_IS_AGENT,
    skillTool: "the Skill tool",
    stopFeedback: "Stop hook feedback:",
  },
  configDir: (places) => places.env("CLAUDE_CONFIG_DIR") ?? join(places.home, ".claude"),
  hookFile: {
    format: SETTINGS_FORMAT,
    userPath: (configDir) => join(configDir, "settings.json"),
    projectPaths: (root) => [
      join(root, ".claude", "settings.json"),
      join(root, ".claude", "settings.local.json"),
    ],
  },
  setup: {
    target: "Claude Code (~/.claude/settings.json, or $CLAUDE_CONFIG_DIR)",
    projectFile: ".claude/settings.json",
  },
  samplePayload(event, cwd, transcriptPath) {
    const base = {
      session_id: "skillgate-doctor",
      transcript_path: transcriptPath,
      cwd,
      permission_mode: "default",
      hook_event_name: event,
    };
    if (event === "UserPromptSubmit") {
      return JSON.stringify({
        ...base,
        prompt: "/skillgate-doctor",
        prompt_id: "skillgate-doctor",
      });
    }
    if (event === "PreToolUse") {
      return JSON.stringify({
        ...base,
        tool_name: "Skill",
        tool_input: { skill: "skillgate-doctor-probe" },
        tool_use_id: "toolu_skillgate_doctor",
      });
    }
    return JSON.stringify({ ...base, stop_hook_active: true, last_assistant_message: "" });
  },
};

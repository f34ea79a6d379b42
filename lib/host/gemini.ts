/**
 * Gemini CLI as a host: snake_case payloads with its own event names (`BeforeAgent`,
 * `BeforeTool`, `AfterAgent`; BeforeTool has no call id, AfterAgent a cumulative
 * `prompt_response`), its answer shapes (`additionalContext` under `hookSpecificOutput`, a flat
 * `decision: "deny"`), the `activate_skill` and `invoke_agent` tools, `~/.gemini` (under
 * `GEMINI_CLI_HOME` when set) with hooks in its `settings.json` (each hook with a `name`, its
 * timeout in milliseconds), and its chat JSONL under `<config>/tmp/<project>/chats`. Observed with
 * Gemini CLI 0.61.0 (`docs/hosts.md`, "Gemini CLI").
 *
 * @module
 */

import { join } from "../base/path.ts";
import { isJsonObject, type JsonObject } from "./json.ts";
import type { DesiredHook, HookFileFormat } from "./hook_file.ts";
import { settingsFormat } from "./claude.ts";
import type { Host } from "./host.ts";

/** Gemini CLI's own event names, as a payload declares them. */
const OWN_EVENTS: ReadonlySet<string> = new Set([
  "BeforeAgent",
  "AfterAgent",
  "BeforeTool",
  "AfterTool",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "PreCompress",
]);

/** A Gemini CLI chat: `…/chats/session-<time>-<id8>.jsonl`. */
const CHAT_RE = /(?:^|[\\/])chats[\\/]session-[^\\/]*\.jsonl$/;

/**
 * Whether a payload is Gemini CLI's: one of its own event names, or (SessionStart, SessionEnd,
 * shared with Claude Code) a chat of its as the transcript.
 */
function recognise(payload: Readonly<Record<string, unknown>>): boolean {
  const ev = payload.hook_event_name;
  if (typeof ev !== "string") return false;
  if (OWN_EVENTS.has(ev)) return true;
  const t = payload.transcript_path;
  return typeof t === "string" && CHAT_RE.test(t);
}

/** What `activate_skill`'s result reads for a name that is no installed skill. */
const UNKNOWN_SKILL = "must be equal to one of the allowed values";

/** The hook's name in the file: what the client shows and keys its trust of a project hook by. */
function hookName(d: DesiredHook): string {
  return `skillgate-${d.hookId}`;
}

function geminiItem(d: DesiredHook): JsonObject {
  return { type: "command", name: hookName(d), command: d.command, timeout: d.timeout * 1000 };
}

/** `settings.json`: Claude Code's settings shape, with Gemini's items (a `name`, ms timeouts). */
const GEMINI_SETTINGS: HookFileFormat = settingsFormat(geminiItem, 1000);

/**
 * The redirect text in Gemini CLI's terms: `activate_skill` takes only installed skills' names,
 * and agents run with `invoke_agent`, naming the agent as `agent_name`.
 */
const SKILL_IS_AGENT = '"{name}" is an agent, not a skill: activate_skill has no skill by that ' +
  "name and cannot run it. Agents are started with the invoke_agent tool, with " +
  'agent_name "{name}".';

/** Gemini CLI. */
export const GEMINI: Host<"gemini"> = {
  kind: "gemini",
  name: "Gemini CLI",
  recognise,
  fields: {
    eventName: ["hook_event_name"],
    sessionId: ["session_id"],
    transcriptPath: ["transcript_path"],
    cwd: ["cwd"],
    prompt: ["prompt"],
    toolName: ["tool_name"],
    toolInput: ["tool_input"],
    stopHookActive: ["stop_hook_active"],
    lastAssistantMessage: ["prompt_response"],
  },
  eventNames: {
    beforeagent: "UserPromptSubmit",
    beforetool: "PreToolUse",
    aftertool: "PostToolUse",
    afteragent: "Stop",
    sessionstart: "SessionStart",
    sessionend: "SessionEnd",
  },
  hookEvents: { UserPromptSubmit: "BeforeAgent", PreToolUse: "BeforeTool", Stop: "AfterAgent" },
  answers: {
    context: (text) => ({
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: text },
    }),
    deny: (reason) => ({ decision: "deny", reason }),
    stopBlock: (reason) => ({ decision: "block", reason }),
  },
  tools: {
    skill: ["activate_skill"],
    agent: ["invoke_agent"],
    edit: ["replace", "write_file"],
    shell: ["run_shell_command"],
  },
  agentTypeField: "agent_name",
  // Listed by Gemini CLI 0.61.0 in `<available_skills>` from its own bundle (`bundle/builtin`).
  builtinSkills: ["skill-creator", "antigravity-support"],
  // `activate_skill`'s `name` is an enum of the installed skills: for any other name no BeforeTool
  // fires, and the call's result reads `params/name must be equal to one of the allowed values`
  // (the name is only in the call's input).
  unknownSkill: {
    needle: UNKNOWN_SKILL,
    nameIn(text, input) {
      if (!text.includes(UNKNOWN_SKILL) || !isJsonObject(input)) return undefined;
      return typeof input.name === "string" && input.name.trim() !== ""
        ? input.name.trim()
        : undefined;
    },
  },
  hookTrust: "project-folder",
  transcript: "gemini-chat-jsonl",
  // The folders Gemini CLI 0.61.0 reads (docs/hosts.md): skills in `~/.gemini/skills`,
  // `~/.agents/skills`, a project's `.gemini/skills` and `.agents/skills`, extensions'; agents in
  // `~/.gemini/agents`, extensions', and a project's `.gemini/agents` once the user acknowledged
  // each one (`~/.gemini/acknowledgments/agents.json`, which skillgate only reads). Not Claude
  // Code's folders.
  layout: {
    userSkills: "skills",
    userAgents: "agents",
    transcripts: "tmp",
    projectSkills: ".gemini/skills",
    moreProjectSkills: [".agents/skills"],
    homeSkills: ".agents/skills",
    homeBesideConfig: true,
    acknowledgedAgents: { dir: ".gemini/agents", record: "acknowledgments/agents.json" },
    extensions: "extensions",
  },
  env: {
    hookReads: ["GEMINI_CLI_HOME", "GEMINI_PROJECT_DIR"],
    home: "GEMINI_CLI_HOME",
    projectDir: "GEMINI_PROJECT_DIR",
  },
  texts: { skillIsAgent: SKILL_IS_AGENT, skillTool: "activate_skill" },
  configDir: (places) => join(places.env("GEMINI_CLI_HOME") ?? places.home, ".gemini"),
  hookFile: {
    format: GEMINI_SETTINGS,
    userPath: (configDir) => join(configDir, "settings.json"),
    projectPaths: (root) => [join(root, ".gemini", "settings.json")],
    // Gemini CLI reads its settings with `strip-json-comments`, then `JSON.parse`.
    comments: true,
  },
  setup: {
    target: "Gemini CLI (~/.gemini/settings.json, or under $GEMINI_CLI_HOME)",
    projectFile: ".gemini/settings.json",
  },
  samplePayload(event, cwd, transcriptPath) {
    const base = {
      session_id: "skillgate-doctor",
      transcript_path: transcriptPath,
      cwd,
      hook_event_name: event,
      timestamp: "2026-01-01T00:00:00.000Z",
    };
    if (event === "BeforeAgent") return JSON.stringify({ ...base, prompt: "/skillgate-doctor" });
    if (event === "BeforeTool") {
      return JSON.stringify({
        ...base,
        tool_name: "activate_skill",
        tool_input: { name: "skillgate-doctor-probe" },
      });
    }
    return JSON.stringify({
      ...base,
      prompt: "/skillgate-doctor",
      prompt_response: "",
      stop_hook_active: true,
    });
  },
};

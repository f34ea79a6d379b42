/**
 * GitHub Copilot CLI as a host: camelCase payloads for its camelCase events (`toolArgs` possibly a
 * JSON string, no event field), flat answers (`permissionDecision`, `additionalContext`), the
 * `skill` and `task` tools, `~/.copilot` (or `COPILOT_HOME`) with skillgate's own hook file
 * `hooks/skillgate.json`, and its own `events.jsonl` transcripts. Observed with Copilot CLI 1.0.102
 * (`reference/hosts-observed.md`).
 *
 * For hooks registered under Claude Code's PascalCase event names, Copilot CLI sends Claude Code's
 * payload shape (snake_case fields): the Claude Code host reads those.
 *
 * @module
 */

import { join } from "../base/path.ts";
import { isJsonObject, type JsonObject } from "./json.ts";
import type { DesiredHook, HookFileFormat } from "./hook_file.ts";
import { type Host, SKILL_IS_AGENT_MARK } from "./host.ts";

/** The payload fields only Copilot CLI's camelCase payloads have; any of them marks one. */
const OWN_FIELDS = ["sessionId", "toolName", "toolArgs", "transcriptPath", "hookEventName"];

/** The name of skillgate's hook file in a Copilot `hooks` folder. */
export const COPILOT_HOOK_FILE = "skillgate.json";

function copilotItem(d: DesiredHook): JsonObject {
  const item: JsonObject = { type: "command", bash: d.command, timeoutSec: d.timeout };
  if (d.matcher !== undefined) item.matcher = d.matcher;
  return item;
}

/**
 * `hooks/skillgate.json`: `{"version": 1, "hooks": {"<camelCaseEvent>": [{"type": "command",
 * "bash", "timeoutSec", "matcher"?}]}}`, with the anchored tool-name `matcher` on `preToolUse`
 * (Copilot CLI 1.0.63+; older versions run the hook for every tool and the hook passes the others
 * through). A slot is one item. The file is skillgate's by name, but a user's own items in it are
 * kept; when nothing is left but `version` and an empty `hooks`, the file is removed.
 */
const HOOK_FILE_FORMAT: HookFileFormat = {
  open(doc) {
    if (doc !== undefined && !isJsonObject(doc)) {
      throw new Error("The hook file is not a JSON object");
    }
    const out: JsonObject = structuredClone(doc ?? { version: 1, hooks: {} });
    if (out.version === undefined) out.version = 1;
    if (out.version !== 1) {
      throw new Error(`Unsupported hook file version ${JSON.stringify(out.version)} (expected 1)`);
    }
    if (out.hooks === undefined) out.hooks = {};
    if (!isJsonObject(out.hooks)) throw new Error('"hooks" is not a JSON object');
    return out;
  },
  items: (slot) => isJsonObject(slot) ? [slot] : undefined,
  command(item) {
    if (!isJsonObject(item)) return undefined;
    if (item.type !== undefined && item.type !== "command") return undefined;
    if (typeof item.bash === "string") return item.bash;
    if (typeof item.command === "string") return item.command;
    return undefined;
  },
  describe: (slot) => ({
    matcher: typeof slot.matcher === "string" ? slot.matcher : undefined,
    timeout: typeof slot.timeoutSec === "number" ? slot.timeoutSec : undefined,
  }),
  isExact: (slot, want) =>
    JSON.stringify(Object.entries(slot).sort()) ===
      JSON.stringify(Object.entries(copilotItem(want)).sort()),
  update: (slot, want, exact) => exact ? slot : copilotItem(want),
  create: copilotItem,
  keep: (slot) => slot,
  close(out, hooks) {
    out.hooks = hooks;
    const onlyShell = Object.keys(out).every((k) => k === "version" || k === "hooks");
    return onlyShell && Object.keys(hooks).length === 0 ? undefined : out;
  },
};

/**
 * The redirect text in Copilot CLI's terms, whose subagent tool is `task` and takes the agent's
 * name as `agent_type` (observed on Copilot CLI 1.0.102).
 */
const SKILL_IS_AGENT = '"{name}"' + SKILL_IS_AGENT_MARK + " the skill tool has no skill by that " +
  'name and cannot run it. Agents are started with the task tool, with agent_type "{name}".';

/** GitHub Copilot CLI. */
export const COPILOT: Host<"copilot"> = {
  kind: "copilot",
  name: "GitHub Copilot CLI",
  recognise: (payload) => OWN_FIELDS.some((k) => Object.hasOwn(payload, k)),
  fields: {
    eventName: ["hookEventName"],
    sessionId: ["sessionId"],
    transcriptPath: ["transcriptPath"],
    cwd: ["cwd"],
    prompt: ["prompt", "userPrompt", "user_prompt"],
    promptId: ["promptId"],
    toolName: ["toolName"],
    toolInput: ["toolInput", "toolArgs"],
    toolUseId: ["toolUseId", "toolCallId"],
    // agentStop carries `stop_hook_active` (snake_case) since 1.0.72.
    stopHookActive: ["stop_hook_active", "stopHookActive"],
    lastAssistantMessage: ["lastAssistantMessage"],
    // Inside a sub-agent (observed on 1.0.102): its agentStop carries `agentId` (and the
    // sub-agent's id as `sessionId`); subagentStop carries the parent's `sessionId`, the
    // sub-agent's `agentId` and `agentName`, and no event name.
    agentId: ["agentId"],
    agentName: ["agentName"],
    stopReason: ["stopReason", "stop_reason"],
    // agentStop's `timestamp` is also in the stop's own `hook.start` record of events.jsonl.
    timestamp: ["timestamp"],
  },
  eventNames: {
    userpromptsubmitted: "UserPromptSubmit",
    pretooluse: "PreToolUse",
    posttooluse: "PostToolUse",
    agentstop: "Stop",
    subagentstop: "SubagentStop",
    sessionstart: "SessionStart",
    sessionend: "SessionEnd",
  },
  hookEvents: {
    UserPromptSubmit: "userPromptSubmitted",
    PreToolUse: "preToolUse",
    Stop: "agentStop",
    SubagentStop: "subagentStop",
  },
  answers: {
    context: (text) => ({ additionalContext: text }),
    deny: (reason) => ({ permissionDecision: "deny", permissionDecisionReason: reason }),
    stopBlock: (reason) => ({ decision: "block", reason }),
  },
  tools: {
    // Claude-format plugin hooks get Claude Code's tool names (1.0.62): `Skill` may arrive too.
    skill: ["skill", "Skill"],
    agent: ["task"],
    edit: ["edit", "create"],
    shell: ["bash", "powershell"],
  },
  agentTypeField: "agent_type",
  builtinSkills: [],
  transcript: "copilot-events-jsonl",
  // The folders Copilot CLI 1.0.102 was seen to read (docs/hosts.md): skills in its home's
  // `skills`, and a project's `.github/skills`, `.claude/skills` and `.agents/skills`; agents
  // (`*.agent.md` or `*.md`) in its home's `agents`, and a project's `.github/agents` and
  // `.claude/agents`. Not `~/.claude/skills` or `~/.claude/agents`. Its plugins are not read.
  layout: {
    userSkills: "skills",
    userAgents: "agents",
    transcripts: "session-state",
    projectSkills: ".github/skills",
    projectAgents: ".github/agents",
    moreProjectSkills: [".claude/skills", ".agents/skills"],
    moreProjectAgents: [".claude/agents"],
  },
  env: { hookReads: ["COPILOT_HOME"], configDir: "COPILOT_HOME" },
  texts: { skillIsAgent: SKILL_IS_AGENT, skillTool: "the skill tool" },
  configDir: (places) => places.env("COPILOT_HOME") ?? join(places.home, ".copilot"),
  hookFile: {
    format: HOOK_FILE_FORMAT,
    userPath: (configDir) => join(configDir, "hooks", COPILOT_HOOK_FILE),
    projectPaths: (root) => [join(root, ".github", "hooks", COPILOT_HOOK_FILE)],
  },
  setup: {
    target: `the Copilot CLI hook file (~/.copilot/hooks/${COPILOT_HOOK_FILE})`,
    projectFile: ".github/hooks",
  },
  samplePayload(event, cwd, transcriptPath) {
    const base = { sessionId: "skillgate-doctor", timestamp: 0, cwd };
    if (event === "userPromptSubmitted") {
      return JSON.stringify({ ...base, prompt: "/skillgate-doctor" });
    }
    if (event === "preToolUse") {
      return JSON.stringify({
        ...base,
        toolName: "skill",
        toolArgs: { skill: "skillgate-doctor-probe" },
      });
    }
    return JSON.stringify({
      ...base,
      transcriptPath,
      stopReason: "end_turn",
      stop_hook_active: true,
    });
  },
};

/**
 * OpenAI Codex CLI as a host: Claude Code's snake_case payloads plus a `turn_id` (and `agent_id`
 * for a subagent's work), Claude Code's answer shapes, no skill tool (the model reads a skill's
 * SKILL.md with its shell tool, which hooks see as `Bash`), `apply_patch` edits, `spawn_agent`
 * subagents named by `agent_type`, `~/.codex` (or `CODEX_HOME`) with its `hooks.json`, and its
 * own rollout transcripts under `<config>/sessions`. Observed with Codex CLI 0.169.0
 * (`reference/hosts-codex-gemini.md`, and skillgate's host tests).
 *
 * @module
 */

import { join } from "../base/path.ts";
import { CLAUDE, SETTINGS_FORMAT } from "./claude.ts";
import { type Host, SKILL_IS_AGENT_MARK } from "./host.ts";

/**
 * The redirect text in Codex CLI's terms: it has no skill tool (a skill is a SKILL.md the model
 * reads), and starts agents with `spawn_agent`, naming the agent as `agent_type`.
 */
const SKILL_IS_AGENT = '"{name}"' + SKILL_IS_AGENT_MARK + " there is no SKILL.md by that name " +
  "to read. Agents are started with the spawn_agent tool (namespace multi_agent_v1), with " +
  'agent_type "{name}".';

/**
 * Whether a payload is Codex CLI's: Claude Code's `hook_event_name` with a `turn_id` (every event
 * of a turn has one), or with a Codex rollout as its transcript (`rollout-<time>-<id>.jsonl`:
 * SessionStart and SessionEnd).
 */
function recognise(payload: Readonly<Record<string, unknown>>): boolean {
  if (typeof payload.hook_event_name !== "string") return false;
  if (typeof payload.turn_id === "string") return true;
  const t = payload.transcript_path;
  return typeof t === "string" && /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/.test(t);
}

/** Codex CLI. */
export const CODEX: Host<"codex"> = {
  kind: "codex",
  name: "Codex CLI",
  recognise,
  fields: CLAUDE.fields,
  eventNames: { ...CLAUDE.eventNames, subagentstart: "SubagentStart" },
  hookEvents: CLAUDE.hookEvents,
  answers: CLAUDE.answers,
  tools: {
    // No skill tool: a skill is loaded by a shell read of its SKILL.md (see `skillLoad`).
    skill: [],
    agent: ["spawn_agent"],
    edit: ["apply_patch"],
    // `exec_command` (and the older `shell`) arrive in hook payloads as `Bash`.
    shell: ["Bash"],
  },
  agentTypeField: "agent_type",
  builtinSkills: [],
  skillLoad: "shell-read",
  hookTrust: "app-server",
  transcript: "codex-rollout-jsonl",
  // The folders Codex CLI 0.169.0 reads (docs/hosts.md): skills in `$CODEX_HOME/skills`,
  // `~/.agents/skills` and a project's `.agents/skills`; agents (`*.toml`) in `$CODEX_HOME/agents`
  // and a project's `.codex/agents`. Not Claude Code's folders.
  layout: {
    userSkills: "skills",
    userAgents: "agents",
    transcripts: "sessions",
    projectSkills: ".agents/skills",
    projectAgents: ".codex/agents",
    homeSkills: ".agents/skills",
  },
  env: { hookReads: ["CODEX_HOME"], configDir: "CODEX_HOME" },
  texts: { skillIsAgent: SKILL_IS_AGENT, skillTool: "a read of its SKILL.md" },
  configDir: (places) => places.env("CODEX_HOME") ?? join(places.home, ".codex"),
  hookFile: {
    // `hooks.json`: `{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command", ...}]}]}}`,
    // Claude Code's settings shape.
    format: SETTINGS_FORMAT,
    userPath: (configDir) => join(configDir, "hooks.json"),
    projectPaths: (root) => [join(root, ".codex", "hooks.json")],
  },
  setup: {
    target: "Codex CLI (~/.codex/hooks.json, or $CODEX_HOME)",
    projectFile: ".codex/hooks.json",
  },
  samplePayload(event, cwd, transcriptPath) {
    const base = {
      session_id: "skillgate-doctor",
      turn_id: "skillgate-doctor",
      transcript_path: transcriptPath,
      cwd,
      hook_event_name: event,
      model: "skillgate-doctor",
      permission_mode: "default",
    };
    if (event === "UserPromptSubmit") {
      return JSON.stringify({ ...base, prompt: "/skillgate-doctor" });
    }
    if (event === "PreToolUse") {
      return JSON.stringify({
        ...base,
        tool_name: "Bash",
        tool_input: { command: "cat skillgate-doctor-probe/SKILL.md" },
        tool_use_id: "call_skillgate_doctor",
      });
    }
    return JSON.stringify({ ...base, stop_hook_active: true, last_assistant_message: "" });
  },
};

/**
 * Runs of Copilot CLI and Codex CLI built from a short list of calls, in the record shapes their
 * real clients wrote (Copilot CLI 1.0.102, Codex CLI 0.169.0; see `fixtures/transcripts/`), for the
 * kinds' tests.
 *
 * @module
 */

import { parseCopilotText } from "../../transcript/copilot_read.ts";
import { parseCodexRolloutText } from "../../transcript/codex_rollout.ts";
import type { TranscriptRun } from "../../transcript/model.ts";

/** The project folder of the built runs. */
export const HOST_PROJECT = "/tmp/skillgate-host/project";

/**
 * A Copilot CLI run of `investigate`: a `skill` load, then each call (a shell call with its exit
 * code, written as Copilot CLI writes it: `success: true` and `shellExecution.exitCode`).
 */
export function copilotRun(calls: [string, Record<string, unknown>, number?][]): TranscriptRun {
  const lines: unknown[] = [
    {
      type: "session.start",
      data: { sessionId: "s", context: { cwd: HOST_PROJECT } },
      id: "e0",
      timestamp: "t",
    },
    { type: "skill.invoked", data: { name: "investigate", trigger: "agent-invoked" }, id: "e1" },
  ];
  calls.forEach(([name, args, code], i) => {
    const id = `toolu_${i}`;
    lines.push({
      type: "assistant.message",
      data: {
        content: "",
        messageId: `m${i}`,
        toolRequests: [{ toolCallId: id, name, arguments: args }],
      },
      id: `a${i}`,
    });
    const data: Record<string, unknown> = {
      toolCallId: id,
      success: true,
      result: { content: "ok" },
    };
    if (code !== undefined) {
      data.shellExecution = { exitCode: code };
      data.result = { content: `out\n<shellId: ${i} completed with exit code ${code}>` };
    }
    lines.push({ type: "tool.execution_complete", data, id: `c${i}` });
  });
  lines.push({ type: "assistant.message", data: { content: "Done.", messageId: "end" }, id: "z" });
  const read = parseCopilotText(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
    skill: "investigate",
    skillsDirs: [],
  });
  if (read.kind !== "ok") throw new Error(`No run: ${read.kind}`);
  return read.run;
}

/**
 * A Codex CLI run of `investigate`: a shell read of its SKILL.md, then each call: an
 * `apply_patch` with its patch, or a shell command with its exit code.
 */
export async function codexRun(
  calls: (["apply_patch", string] | [string, number])[],
): Promise<TranscriptRun> {
  const rec = (payload: unknown) => ({ timestamp: "t", type: "response_item", payload });
  const lines: unknown[] = [
    { timestamp: "t", type: "session_meta", payload: { id: "s", cwd: HOST_PROJECT } },
    rec({
      type: "function_call",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: "cat .agents/skills/investigate/SKILL.md" }),
      call_id: "load",
    }),
    rec({
      type: "function_call_output",
      call_id: "load",
      output: "Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 0\nOutput:\n---\n",
    }),
  ];
  calls.forEach(([name, arg], i) => {
    if (name === "apply_patch") {
      lines.push(rec({
        type: "custom_tool_call",
        name: "apply_patch",
        input: `*** Begin Patch\n${arg}\n*** End Patch\n`,
        call_id: `p${i}`,
      }));
      lines.push(rec({ type: "custom_tool_call_output", call_id: `p${i}`, output: "Success." }));
    } else {
      lines.push(rec({
        type: "function_call",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: name }),
        call_id: `c${i}`,
      }));
      lines.push(rec({
        type: "function_call_output",
        call_id: `c${i}`,
        output: `Chunk ID: 2\nWall time: 0 seconds\nProcess exited with code ${arg}\nOutput:\nx\n`,
      }));
    }
  });
  lines.push(
    rec({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] }),
  );
  const read = await parseCodexRolloutText(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
    skill: "investigate",
  });
  if (read.kind !== "ok") throw new Error(`No run: ${read.kind}`);
  return read.run;
}

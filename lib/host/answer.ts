/**
 * The answers each host acts on. Every hook exits 0 and prints one of these JSON objects, or
 * nothing (`null`) to let the action proceed.
 *
 * - Claude Code: UserPromptSubmit context under `hookSpecificOutput.additionalContext`; a
 *   PreToolUse deny under `hookSpecificOutput.permissionDecision`; a Stop block as top-level
 *   `decision: "block"` with `reason`.
 * - Copilot CLI (camelCase payloads): a flat `permissionDecision`/`permissionDecisionReason` for
 *   preToolUse, a flat `additionalContext` for userPromptSubmitted, and `decision: "block"` for
 *   agentStop.
 *
 * @module
 */

import type { HookEvent } from "./payload.ts";

/** A host answer: one JSON object, or `null` for pass-through (no output). */
export type HookAnswer = Record<string, unknown> | null;

/**
 * Context added to the prompt (UserPromptSubmit).
 *
 * @param ev The event being answered.
 * @param text One line of factual context.
 * @returns The host's answer.
 */
export function contextAnswer(ev: HookEvent, text: string): HookAnswer {
  if (ev.host === "copilot") return { additionalContext: text };
  return { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text } };
}

/**
 * A tool call denied with a reason the model reads (PreToolUse).
 *
 * @param ev The event being answered.
 * @param reason Why, stated as a fact.
 * @returns The host's answer.
 */
export function denyAnswer(ev: HookEvent, reason: string): HookAnswer {
  if (ev.host === "copilot") {
    return { permissionDecision: "deny", permissionDecisionReason: reason };
  }
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
}

/**
 * A stop held back: the model keeps working with `reason` as its instruction (Stop, agentStop).
 *
 * @param _ev The event being answered (both hosts take the same shape).
 * @param reason What is missing.
 * @returns The host's answer.
 */
export function stopBlockAnswer(_ev: HookEvent, reason: string): HookAnswer {
  return { decision: "block", reason };
}

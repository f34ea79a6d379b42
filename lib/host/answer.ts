/**
 * The answers of a hook, in the shape the host that sent the event acts on. Every hook exits 0 and
 * prints one of these JSON objects, or nothing (`null`) to let the action proceed. The shapes are
 * the host's own (`Host.answers` in `claude.ts`, `copilot.ts`, ...):
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

import { type HookAnswer, hostFor } from "./mod.ts";
import type { HookEvent } from "./payload.ts";

export type { HookAnswer } from "./mod.ts";

/**
 * Context added to the prompt (UserPromptSubmit).
 *
 * @param ev The event being answered.
 * @param text One line of factual context.
 * @returns The host's answer.
 */
export function contextAnswer(ev: HookEvent, text: string): HookAnswer {
  return hostFor(ev.host).answers.context(text);
}

/**
 * A tool call denied with a reason the model reads (PreToolUse).
 *
 * @param ev The event being answered.
 * @param reason Why, stated as a fact.
 * @returns The host's answer.
 */
export function denyAnswer(ev: HookEvent, reason: string): HookAnswer {
  return hostFor(ev.host).answers.deny(reason);
}

/**
 * A stop held back: the model keeps working with `reason` as its instruction (Stop, agentStop).
 *
 * @param ev The event being answered.
 * @param reason What is missing.
 * @returns The host's answer.
 */
export function stopBlockAnswer(ev: HookEvent, reason: string): HookAnswer {
  return hostFor(ev.host).answers.stopBlock(reason);
}

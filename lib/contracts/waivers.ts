/**
 * Waivers: the `skillgate contract waive <item> --reason "<why>"` shell calls of a run that count.
 * `waive` itself is stateless (it prints an acknowledgement); the checker finds the call and its
 * successful result in the session transcript, this session only.
 *
 * @module
 */

import type { TranscriptRun } from "../transcript/model.ts";
import { SHELL_TOOLS } from "../transcript/tool_groups.ts";
import { skillNameMatches } from "../transcript/loads.ts";
import { shellWords } from "./commands/shell_words.ts";
import { isSkillgateExecutable } from "./commands/own_commands.ts";

/** A waiver found in the run. */
export interface Waiver {
  /** The waived item id. */
  item: string;
  /** The `--reason` text. */
  reason: string;
  /** The `--skill` value, when given. */
  skill?: string;
  /** The shell call's tool-use id. */
  toolUseId: string;
  /** Position in the run's event order. */
  seq: number;
}

/** Options of {@link findWaivers}. */
export interface WaiverOptions {
  /** Only waivers without `--skill` or with this skill count. */
  skill: string;
  /** Only calls recorded in this session count (all when omitted). */
  sessionId?: string;
  /** The installed skillgate command; its last word is accepted as the executable too. */
  command?: string;
}

/** The arguments of one waive call. */
export interface WaiveCall {
  /** The item id. */
  item: string;
  /** The `--reason` text, trimmed (never empty). */
  reason: string;
  /** The `--skill` value, when given. */
  skill?: string;
}

/**
 * The waive arguments of one shell command, when it calls `skillgate contract waive`: the word
 * before `contract waive` must be skillgate (`skillgate`, a path ending in it, `cli.ts`, or the
 * installed command's last word).
 *
 * @param command A shell command.
 * @param installed The installed skillgate command.
 * @returns The item, reason and skill, or undefined when it is not a complete waive call.
 */
export function parseWaiveCommand(command: string, installed?: string): WaiveCall | undefined {
  const words = shellWords(command.slice(0, 10000));
  for (let i = 1; i + 1 < words.length; i++) {
    if (words[i] !== "contract" || words[i + 1] !== "waive") continue;
    if (!isSkillgateExecutable(words[i - 1], installed)) continue;
    let item: string | undefined;
    let reason: string | undefined;
    let skill: string | undefined;
    for (let j = i + 2; j < words.length; j++) {
      const w = words[j];
      if (w === ";" || w === "&" || w === "|") break;
      if (w === "--reason" || w === "--skill") {
        const v = words[j + 1];
        if (v === undefined || [";", "&", "|"].includes(v)) break;
        if (w === "--reason") reason = v;
        else skill = v;
        j++;
      } else if (w.startsWith("--reason=")) reason = w.slice(9);
      else if (w.startsWith("--skill=")) skill = w.slice(8);
      else if (!w.startsWith("-") && item === undefined) item = w;
    }
    if (item === undefined || reason === undefined || reason.trim() === "") return undefined;
    const out: WaiveCall = { item, reason: reason.trim() };
    if (skill !== undefined) out.skill = skill;
    return out;
  }
  return undefined;
}

/**
 * The waivers in a run: shell calls of `skillgate contract waive <item> --reason "<why>"` with a
 * successful result (not an error), a non-empty reason, and no `--skill` naming another skill.
 *
 * @param run The run.
 * @param options The skill and session.
 * @returns The waivers, in order (later ones for the same item win).
 */
export function findWaivers(run: TranscriptRun, options: WaiverOptions): Waiver[] {
  const out: Waiver[] = [];
  for (const c of run.toolCalls) {
    if (c.sidechain || !SHELL_TOOLS.includes(c.name)) continue;
    if (!c.result || c.result.isError) continue;
    if (
      options.sessionId !== undefined && c.sessionId !== undefined &&
      c.sessionId !== options.sessionId
    ) {
      continue;
    }
    const cmd = c.input.command;
    if (typeof cmd !== "string" || !cmd.includes("waive")) continue;
    const w = parseWaiveCommand(cmd, options.command);
    if (!w) continue;
    if (w.skill !== undefined && !skillNameMatches(w.skill, options.skill)) continue;
    // Only a call that really ran the waive command counts: its result carries the command's own
    // acknowledgement (an `echo` of the line, or a `|| true` over a failure, does not).
    if (!c.result.text.includes(`Waived ${w.item} for `)) continue;
    const waiver: Waiver = { item: w.item, reason: w.reason, toolUseId: c.id, seq: c.seq };
    if (w.skill !== undefined) waiver.skill = w.skill;
    out.push(waiver);
  }
  return out;
}

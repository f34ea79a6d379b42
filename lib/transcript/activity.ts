/**
 * A session's skill activity, for `skillgate report`: the prompts that start its turns (their
 * times) and every main-session load of a skill (its name, who loaded it, its turn and time), read
 * forward through the whole transcript in each host's format. Only lines that may hold a prompt or
 * a load are parsed (a substring pre-filter); no text of a prompt or a message is kept.
 *
 * @module
 */

import type { TranscriptFormat } from "../host/host.ts";
import type { LoadVia } from "./model.ts";
import { LOAD_NEEDLES, loadsOfRecord, normalizeSkillName, type RawLoad } from "./loads.ts";
import { COPILOT_LOAD_NEEDLES, copilotLoadsOf } from "./copilot_events.ts";
import { rolloutActivityOf } from "./codex_rollout.ts";
import { isRec, parseLine, type Rec, str, textOfContent } from "./record.ts";

/** One load of a skill in a session. */
export interface ActivityLoad {
  /** The skill's name without a `plugin:` prefix. */
  readonly name: string;
  /** How it was loaded: `command` is the user's `/name` (or `$name`), the others the model's. */
  readonly via: LoadVia;
  /** The turn it happened in: the index of the last prompt before it (-1: before any). */
  readonly turn: number;
  /** Its record's time (ms since the epoch), when the record has one. */
  readonly time?: number;
}

/** What a session's transcript says about its skills. */
export interface SessionActivity {
  /** Each prompt that starts a turn, in order: its time (ms), or `undefined` without one. */
  readonly prompts: (number | undefined)[];
  /** Every main-session load, in order. */
  readonly loads: ActivityLoad[];
}

/** The most bytes of one transcript read for the report (a bigger one is not read). */
export const MAX_ACTIVITY_BYTES: number = 64 * 1024 * 1024;

/** One format's view of a line: whether it is worth parsing, then what the record holds. */
interface ActivityFormat {
  /** Strings one of which every line that may hold a prompt or a load contains. */
  readonly needles: readonly string[];
  /** Whether a line the needles found is worth parsing (cheap, no parse). */
  mayHold?(line: string): boolean;
  /** Whether the record is a prompt that starts a turn, and the loads it holds. */
  read(rec: Rec, skillsDirs: readonly string[] | undefined): { prompt: boolean; loads: RawLoad[] };
  /** The record's time. */
  time(rec: Rec): number | undefined;
}

/**
 * The strings to search for: each given one, and each JSON pair `"key":"value"` as the hosts write
 * it (compact). A leading `"` is dropped: a search starting with the commonest character of JSON is
 * several times slower, and the parse decides anyway.
 */
function needles(strings: readonly string[], pairs: readonly [string, string][]): string[] {
  return [...strings, ...pairs.map(([k, v]) => `${k}":"${v}"`)].map((n) => n.replace(/^"/, ""));
}

function timeOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  const s = str(v);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** Whether a Claude Code user record is a prompt: not meta, not a subagent's, no tool result. */
function isClaudePrompt(rec: Rec): boolean {
  if (rec.type !== "user" || rec.isMeta === true || rec.isSidechain === true) return false;
  const msg = rec.message;
  if (!isRec(msg)) return false;
  if (Array.isArray(msg.content) && msg.content.some((b) => isRec(b) && b.type === "tool_result")) {
    return false;
  }
  return textOfContent(msg.content) !== "";
}

/** Every format's activity reader; the map is total over the formats. */
const ACTIVITY_FORMATS: Readonly<Record<TranscriptFormat, ActivityFormat>> = {
  "claude-code-jsonl": {
    needles: needles(LOAD_NEEDLES, [["type", "user"]]),
    // A tool result's user record names its block's type early: found at once.
    mayHold: (line) =>
      !line.includes('"tool_result"') || LOAD_NEEDLES.some((n) => line.includes(n)),
    read: (rec, dirs) => ({ prompt: isClaudePrompt(rec), loads: loadsOfRecord(rec, dirs) }),
    time: (rec) => timeOf(rec.timestamp),
  },
  "copilot-events-jsonl": {
    needles: needles(COPILOT_LOAD_NEEDLES, [["type", "user.message"]]),
    read: (rec, dirs) => {
      const data = rec.data;
      // A Stop hook's block reaches the model as a user message: skillgate's own is no prompt.
      const prompt = rec.type === "user.message" && isRec(data) &&
        !(str(data.source) ?? "").startsWith("agent-") && data.parentToolCallId === undefined &&
        !(str(data.content) ?? "").startsWith("SKILL_CONTRACT_");
      return { prompt, loads: copilotLoadsOf(rec, dirs) };
    },
    time: (rec) => timeOf(rec.timestamp),
  },
  "codex-rollout-jsonl": {
    needles: needles(["SKILL.md", "<skill>"], [["role", "user"]]),
    read: (rec) => {
      const a = rolloutActivityOf(rec);
      const norm = a.load ? normalizeSkillName(a.load.name) : undefined;
      return { prompt: a.prompt, loads: norm && a.load ? [{ ...norm, via: a.load.via }] : [] };
    },
    time: (rec) => timeOf(rec.timestamp),
  },
};

/**
 * The activity of a transcript text.
 *
 * @param format The transcript's format.
 * @param text The whole transcript.
 * @param skillsDirs Installed skills directories (a Read of a SKILL.md under one is a load).
 * @returns The prompts and loads.
 */
export function activityOfText(
  format: TranscriptFormat,
  text: string,
  skillsDirs?: readonly string[],
): SessionActivity {
  const f = ACTIVITY_FORMATS[format];
  const prompts: (number | undefined)[] = [];
  const loads: ActivityLoad[] = [];
  // Each needle searched once over the whole text; only the lines holding one are looked at.
  const starts = new Set<number>();
  for (const n of f.needles) {
    for (let p = text.indexOf(n); p >= 0; p = text.indexOf(n, p + n.length)) {
      starts.add(text.lastIndexOf("\n", p) + 1);
    }
  }
  for (const start of [...starts].sort((a, b) => a - b)) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (f.mayHold && !f.mayHold(line)) continue;
    const rec = parseLine(line);
    if (!rec) continue;
    const r = f.read(rec, skillsDirs);
    if (!r.prompt && r.loads.length === 0) continue;
    const time = f.time(rec);
    if (r.prompt) prompts.push(time);
    for (const l of r.loads) {
      loads.push({
        name: l.name,
        via: l.via,
        turn: prompts.length - 1,
        ...(time !== undefined ? { time } : {}),
      });
    }
  }
  return { prompts, loads };
}

/**
 * Reads a transcript's activity.
 *
 * @param path The transcript.
 * @param format Its format.
 * @param skillsDirs Installed skills directories.
 * @returns The prompts and loads.
 * @throws {Error} When the file cannot be read or is larger than {@link MAX_ACTIVITY_BYTES}.
 */
export async function readActivity(
  path: string,
  format: TranscriptFormat,
  skillsDirs?: readonly string[],
): Promise<SessionActivity> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error("Not a file");
  if (info.size > MAX_ACTIVITY_BYTES) {
    throw new Error(`Larger than ${MAX_ACTIVITY_BYTES / 1024 / 1024} MiB`);
  }
  return activityOfText(format, await Deno.readTextFile(path), skillsDirs);
}

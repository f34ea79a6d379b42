/**
 * What kind of session runs the hooks: `spawned` (started by a program through the Agent SDK),
 * `headless` (print mode, CI, an explicit `SKILLGATE_HEADLESS`) or `interactive` (a person at the
 * terminal). Decided from environment markers only, and `interactive` on any doubt, so a person
 * who pauses to ask a question is never blocked by mistake.
 *
 * Markers, first match wins:
 *
 * 1. `SKILLGATE_HEADLESS`: `spawned` gives spawned; `1`, `true`, `yes`, `on`, `headless` give
 *    headless; `0`, `false`, `no`, `off`, `interactive` give interactive (and end the search).
 * 2. `CLAUDE_CODE_ENTRYPOINT`: `sdk-cli` (`claude -p`) is headless; `sdk-ts`, `sdk-py` and any
 *    other `sdk-*` are spawned. `cli` and every other value decide nothing here.
 * 3. `GITHUB_ACTIONS=true` or a `CI` that is set and not `0`/`false`/`no`/`off`: headless.
 * 4. Otherwise interactive.
 *
 * @module
 */

import { getEnv } from "../base/locations.ts";
import { CLAUDE } from "../host/claude.ts";

/** The kind of a session. */
export type SessionKind = "spawned" | "headless" | "interactive";

/** The environment names {@link sessionKind} reads (all in the hook table's `HOOK_ENV`). */
export const SESSION_KIND_ENV: readonly string[] = [
  "SKILLGATE_HEADLESS",
  CLAUDE.env.entrypoint,
  "GITHUB_ACTIONS",
  "CI",
];

/** A session kind with the marker that decided it. */
export interface SessionKindResult {
  /** The kind. */
  kind: SessionKind;
  /** The marker, for example `CLAUDE_CODE_ENTRYPOINT=sdk-cli`, or `default`. */
  marker: string;
}

const YES = new Set(["1", "true", "yes", "on", "headless"]);
const NO = new Set(["0", "false", "no", "off", "interactive"]);

/** Reads one environment variable; `undefined` when unset or not permitted. */
export type EnvReader = (name: string) => string | undefined;

/**
 * Decides the session kind and names the marker that decided it.
 *
 * @param env Reads an environment variable (default: {@link getEnv}, which never throws).
 * @returns The kind and its marker.
 */
export function detectSessionKind(env: EnvReader = getEnv): SessionKindResult {
  const read = (name: string): string | undefined => {
    try {
      const v = env(name);
      return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
    } catch {
      return undefined;
    }
  };
  const explicit = read("SKILLGATE_HEADLESS")?.toLowerCase();
  if (explicit !== undefined) {
    const marker = `SKILLGATE_HEADLESS=${explicit.replace(/[^a-z0-9_-]/g, "").slice(0, 20)}`;
    if (explicit === "spawned") return { kind: "spawned", marker };
    if (YES.has(explicit)) return { kind: "headless", marker };
    if (NO.has(explicit)) return { kind: "interactive", marker };
  }
  const entry = read(CLAUDE.env.entrypoint)?.toLowerCase();
  if (entry !== undefined && /^sdk-[a-z0-9_-]{1,20}$/.test(entry)) {
    return {
      kind: entry === "sdk-cli" ? "headless" : "spawned",
      marker: `${CLAUDE.env.entrypoint}=${entry}`,
    };
  }
  if (read("GITHUB_ACTIONS")?.toLowerCase() === "true") {
    return { kind: "headless", marker: "GITHUB_ACTIONS=true" };
  }
  const ci = read("CI")?.toLowerCase();
  if (ci !== undefined && !NO.has(ci)) return { kind: "headless", marker: "CI" };
  return { kind: "interactive", marker: "default" };
}

/**
 * The session kind from environment markers, `interactive` on any doubt.
 *
 * @param env Reads an environment variable (default: {@link getEnv}).
 * @returns `spawned`, `headless` or `interactive`.
 */
export function sessionKind(env: EnvReader = getEnv): SessionKind {
  return detectSessionKind(env).kind;
}

/**
 * The session kind of a stop, from environment markers and what the transcript says: a session
 * whose transcript says it runs unattended (a Copilot CLI `-p` run, see
 * `TranscriptRun.nonInteractive`) is `headless` unless a marker decided otherwise.
 *
 * @param transcriptUnattended Whether the transcript says the session runs unattended.
 * @param env Reads an environment variable (default: {@link getEnv}).
 * @returns `spawned`, `headless` or `interactive`.
 */
export function sessionKindFor(
  transcriptUnattended: boolean,
  env: EnvReader = getEnv,
): SessionKind {
  const found = detectSessionKind(env);
  if (found.marker === "default" && transcriptUnattended) return "headless";
  return found.kind;
}

/**
 * Whether nobody is there to answer a question: a spawned or headless session.
 *
 * @param kind The session kind.
 * @returns True for `spawned` and `headless`.
 */
export function isUnattended(kind: SessionKind): boolean {
  return kind !== "interactive";
}

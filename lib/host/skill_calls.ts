/**
 * The one test of whether a call concerns the skill-to-agent redirect: a call of a host's skill
 * tool, or, for a host whose model loads a skill by reading its SKILL.md with a shell command
 * (`skillLoad: "shell-read"`), a call of its shell tool. The redirect hook's front asks the cheap
 * text form ({@link mayConcernRedirect}) before any module of its core is loaded; the core and
 * the redirect ask {@link isSkillCall}.
 *
 * @module
 */

import type { Host } from "./host.ts";
import { foreignClientOf, HOSTS } from "./mod.ts";

/**
 * Whether a tool call is a skill load the redirect looks at, for the host that sent it.
 *
 * @param host The host.
 * @param toolName The payload's tool name.
 * @returns `true` for its skill tool, or its shell tool when it loads skills by a shell read.
 */
export function isSkillCall(host: Host, toolName: string | undefined): boolean {
  if (toolName === undefined) return false;
  if (host.tools.skill.includes(toolName)) return true;
  return host.skillLoad === "shell-read" && host.tools.shell.includes(toolName);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Any host's tool-name field holding any host's skill tool name. */
const SKILL_CALL_TEXT = new RegExp(
  `"(?:${[...new Set(HOSTS.flatMap((h) => h.fields.toolName ?? []))].map(escape).join("|")})"` +
    `\\s*:\\s*"(?:${[...new Set(HOSTS.flatMap((h) => h.tools.skill))].map(escape).join("|")})"`,
);

/** Any host's name of a stop event, as a payload declares it. */
const STOP_TEXT = new RegExp(
  [
    ...new Set(HOSTS.flatMap((h) => [
      ...Object.keys(h.eventNames).filter((k) => h.eventNames[k] === "Stop"),
      ...(h.hookEvents.Stop ? [h.hookEvents.Stop] : []),
    ])),
  ].map(escape).join("|"),
  "i",
);

/**
 * Whether a payload may concern the redirect, from its text alone: anything but a well-formed
 * JSON object of a host that names neither a skill call of any host nor a stop. A false "may" only
 * costs the full check, which decides (and reports a malformed payload, or one of a client
 * skillgate does not serve).
 *
 * @param raw The payload text.
 * @returns `false` when the payload certainly is another tool's call.
 */
export function mayConcernRedirect(raw: string): boolean {
  if (SKILL_CALL_TEXT.test(raw) || STOP_TEXT.test(raw)) return true;
  // A host that loads skills by a shell read of their SKILL.md.
  if (HOSTS.some((h) => h.skillLoad === "shell-read") && raw.includes("SKILL.md")) return true;
  try {
    const value = JSON.parse(raw);
    return value === null || typeof value !== "object" || Array.isArray(value) ||
      foreignClientOf(value) !== undefined;
  } catch {
    return true;
  }
}

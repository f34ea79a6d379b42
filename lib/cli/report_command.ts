/**
 * `skillgate report [--since <window>] [--host <kind>] [--json] [--html <file>]`: the per-skill
 * funnel (`lib/report/`): prompts routed to each skill, sessions that followed the route, sessions
 * that loaded it and who did, its contract runs by outcome, and the installed skills never used.
 *
 * Exit codes: 0 done (what could not be read is listed); 2 for a bad argument; 3 when the state
 * root cannot be found or the page cannot be written.
 *
 * @module
 */

import { errorCause } from "../base/errors.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import {
  commandError,
  type CommandSpec,
  parseCommand,
  STATE_ERROR_EXIT,
  STATE_ERROR_WORD,
  usageError,
} from "./args.ts";
import type { UsageOptions } from "../report/report.ts";

/** `skillgate report`. */
export const REPORT_SPEC: CommandSpec = {
  name: "report",
  usage: ["[--since <window>] [--host <kind>] [--json] [--html <file>]"],
  description: "Shows, per skill, how often prompts were routed to it, how many sessions " +
    "followed the route (the model loaded it after), how many loaded it at all and who did (a " +
    "typed /name, the model, after a route), and its contract runs by outcome (met, " +
    "met_after_block, met_waived, miss, deferred) with the items missed most. Installed skills " +
    "never loaded nor routed are listed as unused. It reads skillgate's own logs and records and " +
    "the transcripts they name; no prompt text is read from the logs or kept.",
  options: {
    since: {
      type: "string",
      value: "<window>",
      description: "Only this window: 30m, 24h, 7d, 2w back from now, or a date (2026-11-01)",
    },
    host: {
      type: "string",
      value: "<kind>",
      description: "Only this host's sessions and skills (claude, copilot, codex, …)",
    },
    json: {
      type: "boolean",
      description: "Print one JSON object: summary, skills (per-skill objects with routed, " +
        "followed, loaded, loaded_by, met, met_after_block, met_waived, miss, deferred, " +
        "missed_items, hosts), unused, unread",
    },
    html: {
      type: "string",
      value: "<file>",
      description: "Also write one self-contained page (table and chart) to this file",
    },
  },
  notes: "Exit codes: 0 done (what could not be read is listed), 2 usage error, 3 the state root " +
    "or the page cannot be read or written.",
};

/**
 * A `--host` value checked against the hosts (`report`, `lint`).
 *
 * @param spec The command.
 * @param value The value given, if any.
 * @param json Whether the command was asked for JSON.
 * @returns The host's kind, `undefined` when none was given, or the usage error's exit code.
 */
export async function hostOption(
  spec: CommandSpec,
  value: string | undefined,
  json: boolean,
): Promise<{ kind: string } | undefined | number> {
  if (value === undefined) return undefined;
  const { HOSTS } = await import("../host/mod.ts");
  if (HOSTS.some((h) => h.kind === value)) return { kind: value };
  return usageError(spec, `--host takes one of: ${HOSTS.map((h) => h.kind).join(", ")}`, json);
}

/**
 * A file or folder that cannot be read or written (exit 3), named and with why.
 *
 * @param spec The command.
 * @param path The file.
 * @param e What was thrown.
 * @param json Whether the command was asked for JSON.
 * @returns {@link STATE_ERROR_EXIT}.
 */
export function fileError(spec: CommandSpec, path: string, e: unknown, json: boolean): number {
  return commandError(
    spec,
    STATE_ERROR_EXIT,
    STATE_ERROR_WORD,
    `${sanitizeLine(path, 300)}: ${errorCause(e)}`,
    json,
  );
}

/**
 * Runs `skillgate report`.
 *
 * @param args The arguments after `report`.
 * @param opts Test seams: the report's options (state root, places, installed skills, re-check).
 * @returns The exit code.
 */
export async function main(args: string[], opts: UsageOptions = {}): Promise<number> {
  const spec = REPORT_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json } = parsed.args;
  const { parseSince, usageReport } = await import("../report/report.ts");
  const sinceText = parsed.args.string("since");
  const since = sinceText === undefined ? 0 : parseSince(sinceText);
  if (since === undefined) {
    return usageError(spec, "--since takes 30m, 24h, 7d, 2w or a date (2026-11-01)", json);
  }
  const host = await hostOption(spec, parsed.args.string("host"), json);
  if (typeof host === "number") return host;
  let report;
  try {
    report = await usageReport({ ...opts, since, ...(host ? { host: host.kind } : {}) });
  } catch (e) {
    return commandError(spec, STATE_ERROR_EXIT, STATE_ERROR_WORD, errorCause(e), json);
  }
  const { formatUsage, usageHtml } = await import("../report/format.ts");
  const html = parsed.args.string("html");
  if (html !== undefined) {
    try {
      await Deno.writeTextFile(html, usageHtml(report));
    } catch (e) {
      return fileError(spec, html, e, json);
    }
  }
  console.log(json ? JSON.stringify(report) : formatUsage(report));
  return 0;
}

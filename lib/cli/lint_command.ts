/**
 * `skillgate lint [--host <kind>] [--dir <folder>]... [--context-tokens <n>] [--budget-fraction
 * <f>] [--json]`: the installed skills each host lists, checked (`lib/report/lint.ts`):
 * descriptions its listing will cut or drop (an estimate, with the assumption printed),
 * descriptions that never say when to use the skill, shared triggers and names.
 *
 * Exit codes: 0 nothing found; 1 findings; 2 for a bad argument; 3 when a skill folder cannot be
 * read.
 *
 * @module
 */

import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import { type CommandSpec, parseCommand, usageError } from "./args.ts";
import { fileError, hostOption } from "./report_command.ts";
import type { LintFinding, LintSkill, ListingBudget } from "../report/lint.ts";

/** `skillgate lint`. */
export const LINT_SPEC: CommandSpec = {
  name: "lint",
  usage: [
    "[--host <kind>] [--dir <folder>]... [--context-tokens <n>] [--budget-fraction <f>] [--json]",
  ],
  description: "Checks the skills each host lists: descriptions its skill listing will cut or " +
    "drop (an estimate from the host's documented budget: Claude Code's " +
    "skillListingBudgetFraction, 1% of the context window; Codex CLI's cut of long " +
    "descriptions), descriptions that never say when to use the skill, and triggers or names " +
    "two skills share. The estimate's assumptions are printed with it.",
  options: {
    host: { type: "string", value: "<kind>", description: "Only this host (claude, codex, …)" },
    dir: {
      type: "string",
      multiple: true,
      value: "<folder>",
      description: "Also lint the skills in this folder, as if installed",
    },
    "context-tokens": {
      type: "string",
      value: "<n>",
      description: "Claude Code's context window in tokens (default 200000)",
    },
    "budget-fraction": {
      type: "string",
      value: "<f>",
      description: "Claude Code's skillListingBudgetFraction (default 0.01)",
    },
    "by-use": {
      type: "boolean",
      description: "Order the listing by the loads skillgate recorded (skillgate report), most " +
        "used first, instead of by name",
    },
    json: {
      type: "boolean",
      description: "Print one JSON object: hosts (each with its skills, budget, listingChars " +
        "and findings)",
    },
  },
  notes: "Exit codes: 0 nothing found, 1 findings, 2 usage error, 3 a skill folder cannot be read.",
};

/** One host's lint. */
interface HostLint {
  host: string;
  skills: number;
  budget: ListingBudget;
  listingChars: number;
  findings: LintFinding[];
}

/** The skills of a catalog as lint reads them: the whole description and `when_to_use`. */
async function lintSkillsOf(
  entries: readonly {
    name: string;
    file: string;
    description?: string;
    triggers: readonly string[];
  }[],
): Promise<LintSkill[]> {
  const { parseFrontmatter } = await import("../catalog/frontmatter.ts");
  const out: LintSkill[] = [];
  for (const e of entries) {
    let description = e.description;
    let whenToUse: string | undefined;
    try {
      const { data } = await parseFrontmatter(await Deno.readTextFile(e.file));
      if (typeof data.description === "string") description = data.description;
      if (typeof data.when_to_use === "string") whenToUse = data.when_to_use;
    } catch {
      // The catalog's copy stands.
    }
    out.push({
      name: e.name,
      triggers: e.triggers,
      ...(description !== undefined ? { description } : {}),
      ...(whenToUse !== undefined ? { whenToUse } : {}),
    });
  }
  return out;
}

function positiveNumber(text: string | undefined, max: number): number | undefined | null {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= max ? n : null;
}

/**
 * Runs `skillgate lint`.
 *
 * @param args The arguments after `lint`.
 * @param opts Test seams: the state root.
 * @returns The exit code.
 */
export async function main(args: string[], opts: { stateRoot?: string } = {}): Promise<number> {
  const spec = LINT_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json } = parsed.args;
  const tokens = positiveNumber(parsed.args.string("context-tokens"), 100_000_000);
  const fraction = positiveNumber(parsed.args.string("budget-fraction"), 1);
  if (tokens === null) return usageError(spec, "--context-tokens takes a positive number", json);
  if (fraction === null) {
    return usageError(spec, "--budget-fraction takes a number above 0, at most 1", json);
  }
  const host = await hostOption(spec, parsed.args.string("host"), json);
  if (typeof host === "number") return host;
  const dirs = parsed.args.strings("dir");
  for (const d of dirs) {
    try {
      if (!Deno.statSync(d).isDirectory) throw new Error("Not a directory");
    } catch (e) {
      return fileError(spec, d, e, json);
    }
  }
  const { installedCatalogs } = await import("../report/report.ts");
  const { lintSkills, listingBudget } = await import("../report/lint.ts");
  const { skillKey } = await import("../report/usage.ts");
  const root = opts.stateRoot ?? (await import("../host/places.ts")).stateRoot();
  const catalogs = await installedCatalogs(root, dirs, host?.kind);
  // Each skill's loads, per host, as `skillgate report` counts them (all time).
  const uses = new Map<string, number>();
  if (parsed.args.flag("by-use")) {
    const { usageReport } = await import("../report/report.ts");
    const installed = {
      skills: catalogs.flatMap((c) =>
        c.catalog.skills.map((s) => ({ name: s.name, host: c.host.kind }))
      ),
      dirs: [...new Set(catalogs.flatMap((c) => c.catalog.dirs))],
    };
    const report = await usageReport({ stateRoot: root, installed });
    for (const row of report.skills) {
      for (const [h, c] of Object.entries(row.hosts)) uses.set(`${h}\u0000${row.skill}`, c.loaded);
    }
  }
  const hosts: HostLint[] = [];
  for (const { host: h, catalog } of catalogs) {
    if (catalog.skills.length === 0) continue;
    const budget = listingBudget(h.kind, {
      ...(tokens !== undefined ? { contextTokens: tokens } : {}),
      ...(fraction !== undefined ? { fraction } : {}),
    });
    const skills = (await lintSkillsOf(catalog.skills)).map((s) => {
      const n = uses.get(`${h.kind}\u0000${skillKey(s.name)}`);
      return n === undefined ? s : { ...s, uses: n };
    });
    hosts.push({
      host: h.kind,
      skills: skills.length,
      budget,
      ...lintSkills(h.kind, skills, budget),
    });
  }
  // Overlay entries (skills.yaml) that name no skill installed for any host.
  const { catalogOverlays, unmatchedOverlays } = await import("../catalog/overlay_index.ts");
  const overlays = await catalogOverlays({ stateRoot: root, cwd: Deno.cwd() });
  const unmatched = unmatchedOverlays(catalogs.flatMap((c) => c.catalog.skills), overlays)
    .map((u) => ({ name: u.name, scope: u.from.scope, file: u.from.file, line: u.from.line }));
  const found = hosts.some((h) => h.findings.length > 0) || unmatched.length > 0;
  if (json) console.log(JSON.stringify({ hosts, overlays: unmatched }));
  else {
    const lines = [formatLint(hosts)];
    if (unmatched.length > 0) {
      lines.push("", `Overlay entries for no installed skill (${unmatched.length}):`);
    }
    for (const u of unmatched) {
      lines.push(
        `  ${sanitizeLine(u.file, 300)}:${u.line}: ${
          sanitizeLine(JSON.stringify(u.name), 100)
        } (${u.scope} overlay)`,
      );
    }
    console.log(lines.join("\n"));
  }
  return found ? 1 : 0;
}

const HEADINGS: Readonly<Record<LintFinding["kind"], string>> = {
  listing_dropped: "Descriptions the listing drops",
  listing_cut: "Descriptions the listing cuts",
  no_when_to_use: 'Descriptions with no "when to use"',
  trigger_collision: "Triggers two or more skills share",
  name_collision: "Names two or more skills share",
};

function formatLint(hosts: readonly HostLint[]): string {
  if (hosts.length === 0) return "skillgate lint: no skills installed for any host";
  const lines: string[] = [];
  for (const h of hosts) {
    if (lines.length > 0) lines.push("");
    const budget = h.budget.budgetChars !== undefined
      ? `, listing about ${h.listingChars} of ${h.budget.budgetChars} characters`
      : "";
    lines.push(`${h.host}: ${h.skills} skill(s)${budget}`, `  estimate: ${h.budget.assumption}`);
    for (const kind of Object.keys(HEADINGS) as LintFinding["kind"][]) {
      const fs = h.findings.filter((f) => f.kind === kind);
      if (fs.length === 0) continue;
      lines.push(`  ${HEADINGS[kind]} (${fs.length}):`);
      for (const f of fs) {
        lines.push(
          `    ${f.skills.map((s) => sanitizeName(s)).join(", ")}: ${sanitizeLine(f.detail, 200)}`,
        );
      }
    }
    if (h.findings.length === 0) lines.push("  nothing found");
  }
  return lines.join("\n");
}

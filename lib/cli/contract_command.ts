/**
 * `skillgate contract check|lint|waive|report`.
 *
 * `check --transcript <path> --skill <name> [--skill-file <SKILL.md>] [--json] [--session <id>]`
 * checks one skill run's contract (`checkTranscript` in lib/contracts/check_transcript.ts prints
 * nothing; this formats its verdict); `lint <SKILL.md>…` checks contract blocks for their authors
 * (`lintSkillText` in lib/contracts/lint.ts). `waive` and `report` are in `contract_waive.ts` and
 * `contract_report.ts`, loaded only when used. Exit codes 0–6 as in {@link EXIT_CODES}.
 *
 * @module
 */

import { EXIT_CODES, EXIT_WORDS } from "../contracts/exit_codes.ts";
import { CONTRACT_EXIT_NOTES } from "./contract_exits.ts";
import { errorCause } from "../base/errors.ts";
import { commandError, type CommandSpec, parseCommand, runGroup, usageError } from "./args.ts";

/** `skillgate contract`: the group. */
export const CONTRACT_SPEC: CommandSpec = {
  name: "contract",
  usageWord: "SKILL_CONTRACT_USAGE",
  usage: ["<check|lint|report|waive> [options]", "<subcommand> --help"],
  description: "Skill contracts: the outputs a skill declares that a finished run must show.",
  subcommands: [
    { name: "check", description: "Check a skill run's contract in a Claude Code transcript" },
    { name: "lint", description: "Check SKILL.md contract blocks, every problem at once" },
    { name: "report", description: "List contract misses by skill and item, then each missed run" },
    { name: "waive", description: "Waive a contract item that truly does not apply" },
  ],
  notes: CONTRACT_EXIT_NOTES,
};

/** `skillgate contract check`. */
export const CONTRACT_CHECK_SPEC: CommandSpec = {
  name: "contract check",
  usageWord: "SKILL_CONTRACT_USAGE",
  usage: [
    "--transcript <path> --skill <name> [--skill-file <SKILL.md>] [--json] [--session <id>] " +
    "[--final-text <text>]",
  ],
  description: "Checks one skill run's contract against a Claude Code transcript (the JSONL a " +
    "hook payload's transcript_path names) and prints each item as met, missing or waived. It " +
    "records nothing.",
  options: {
    transcript: { type: "string", value: "<path>", description: "The transcript (required)" },
    skill: {
      type: "string",
      value: "<name>",
      description: "The skill whose run to check (required)",
    },
    "skill-file": {
      type: "string",
      value: "<SKILL.md>",
      description: "Read the contract from this file, not from the installed skill",
    },
    json: { type: "boolean", description: "Print one JSON object instead of text" },
    session: {
      type: "string",
      value: "<id>",
      description: "Count only waivers recorded in this session",
    },
    "final-text": {
      type: "string",
      value: "<text>",
      description: "The turn's final text, when newer than the file (as a Stop payload gives it)",
    },
  },
  notes: CONTRACT_EXIT_NOTES,
};

/** `skillgate contract lint`. */
export const CONTRACT_LINT_SPEC: CommandSpec = {
  name: "contract lint",
  usageWord: "SKILL_CONTRACT_USAGE",
  usage: ["<SKILL.md|skills.yaml>... [--json]"],
  description: "Checks the contract block of each SKILL.md the way the Stop hook reads it, and " +
    "prints every problem of each file (YAML errors with their line). A `.yaml` or `.yml` file is " +
    "read as an overlay file (skills.yaml): its entries and each entry's contract, every problem " +
    "with its line. A file without frontmatter or with an invalid contract exits 5; one that " +
    "cannot be read exits 3; a valid file without a contract is fine.",
  arguments: [{ name: "<SKILL.md|skills.yaml>...", description: "The files to check" }],
  options: { json: { type: "boolean", description: "Print one JSON object instead of text" } },
  notes: CONTRACT_EXIT_NOTES,
};

function fail(spec: CommandSpec, code: number, message: string, json: boolean): number {
  return commandError(spec, code, EXIT_WORDS[code], message, json);
}

async function check(args: string[]): Promise<number> {
  const spec = CONTRACT_CHECK_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const a = parsed.args;
  const json = a.json;
  const v = {
    transcript: a.string("transcript"),
    skill: a.string("skill"),
    "skill-file": a.string("skill-file"),
    "final-text": a.string("final-text"),
    session: a.string("session"),
  };
  if (!v.transcript || !v.skill) {
    return usageError(spec, "Missing --transcript and --skill (both are required)", json);
  }
  const { checkTranscript } = await import("../contracts/check_transcript.ts");
  const verdict = await checkTranscript({
    transcript: v.transcript,
    skill: v.skill,
    skillFile: v["skill-file"],
    finalText: v["final-text"],
    sessionId: v.session,
  });
  const { result, run } = verdict;
  if (!result || !run) return fail(spec, verdict.exit, verdict.message ?? "", json);
  const { sanitizeLine, sanitizeName } = await import("../base/sanitize.ts");
  const shown = sanitizeName(v.skill.trim().replace(/^\//, ""));
  if (json) {
    console.log(JSON.stringify({
      word: verdict.word,
      exit: verdict.exit,
      skill: shown,
      contractFrom: verdict.contractFrom ?? null,
      version: result.version,
      outcome: result.outcome,
      waived: result.waived,
      earlyEnd: result.earlyEnd ?? null,
      items: result.items,
      blockLine: verdict.blockLine ?? null,
      run: {
        load: { via: run.loadVia, offset: run.loadOffset },
        startOffset: run.startOffset,
        endOffset: run.endOffset,
        bytesParsed: run.bytesParsed,
        fileSize: run.fileSize,
        records: run.records,
        skippedLines: run.skippedLines,
        unknownTypes: run.unknownTypes,
      },
    }));
    return verdict.exit;
  }
  const lines: string[] = [];
  if (verdict.blockLine) lines.push(verdict.blockLine);
  else {
    lines.push(
      `${verdict.word} ${shown} (contract v${result.version})${
        result.earlyEnd ? ` (run ended early: ${result.earlyEnd})` : ""
      }`,
    );
  }
  if (verdict.contractFrom) lines.push(`  contract from ${sanitizeLine(verdict.contractFrom)}`);
  for (const item of result.items) {
    const extra = item.status === "waived" ? ` (waived: ${item.waiverReason})` : "";
    lines.push(`  ${item.status.padEnd(7)} ${item.id}: ${item.detail}${extra}`);
  }
  if (run.skippedLines > 0) {
    lines.push(`  (${run.skippedLines} unparseable line(s) skipped)`);
  }
  console.log(lines.join("\n"));
  return verdict.exit;
}

async function lint(args: string[]): Promise<number> {
  const spec = CONTRACT_LINT_SPEC;
  const parsed = parseCommand(spec, args);
  if (!parsed.ok) return parsed.exit;
  const { json, positionals: files } = parsed.args;
  if (files.length === 0) {
    return usageError(spec, "Missing <SKILL.md>: give one or more files", json);
  }
  const { lintOverlayText, lintSkillText } = await import("../contracts/lint.ts");
  const { sanitizeLine } = await import("../base/sanitize.ts");
  let worst = 0;
  const results: Record<string, unknown>[] = [];
  for (const file of files) {
    const shown = sanitizeLine(file, 300);
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch (e) {
      worst = Math.max(worst, EXIT_CODES.STATE_ERROR);
      const cause = errorCause(e);
      if (json) results.push({ file: shown, status: "unreadable", error: cause });
      else fail(spec, EXIT_CODES.STATE_ERROR, `${shown}: ${cause}`, false);
      continue;
    }
    const overlay = /\.ya?ml$/i.test(file);
    const r = overlay ? await lintOverlayText(text) : await lintSkillText(text);
    if (r.status === "invalid") worst = Math.max(worst, EXIT_CODES.NO_CONTRACT);
    const errors = r.problems.filter((p) => p.severity === "error");
    if (json) {
      results.push({
        file: shown,
        status: r.status,
        ...(overlay ? { overlay: true } : {}),
        ...(r.contract ? { items: r.contract.items.map((i) => i.id) } : {}),
        errors: errors.map((p) => ({ line: p.line ?? null, message: sanitizeLine(p.message) })),
        warnings: r.problems.filter((p) => p.severity === "warning")
          .map((p) => ({ line: p.line ?? null, message: sanitizeLine(p.message) })),
      });
      continue;
    }
    for (const p of r.problems) {
      // One shape for every line a command prints about a problem: `skillgate <command>: WORD`,
      // then `file:line:`.
      const word = p.severity === "error" ? EXIT_WORDS[EXIT_CODES.NO_CONTRACT] : "WARN";
      console.log(
        `skillgate contract lint: ${word} ${shown}${p.line ? `:${p.line}` : ""}: ${
          sanitizeLine(p.message)
        }`,
      );
    }
    if (r.contract) {
      console.log(
        `${shown}: ok (contract v1, ${r.contract.items.length} item(s): ${
          r.contract.items.map((i) => i.id).join(", ")
        })`,
      );
    } else if (r.status === "ok") console.log(`${shown}: ok (overlay file)`);
    else if (r.status === "no-contract") console.log(`${shown}: ok (no contract)`);
    else {
      console.log(
        `${shown}: ${EXIT_WORDS[EXIT_CODES.NO_CONTRACT]} ${errors.length} ${
          errors.length === 1 ? "error" : "errors"
        }`,
      );
    }
  }
  if (json) {
    // A lint that ran says which files failed; the word is given only for an exit code that is a
    // failure (the seed's exit 0 word, SKILL_CONTRACT_MET, is about a run, not a file).
    console.log(
      JSON.stringify({
        ...(worst ? { word: EXIT_WORDS[worst] } : {}),
        exit: worst,
        files: results,
      }),
    );
  }
  return worst;
}

/**
 * Runs `skillgate contract <subcommand>`.
 *
 * @param args The arguments after `contract`.
 * @returns The exit code (0–6, see {@link EXIT_CODES}).
 */
export async function main(args: string[]): Promise<number> {
  return await runGroup(CONTRACT_SPEC, {
    check,
    lint,
    report: async (rest) => await (await import("./contract_report_command.ts")).main(rest),
    waive: async (rest) => await (await import("./contract_waive_command.ts")).main(rest),
  }, args);
}

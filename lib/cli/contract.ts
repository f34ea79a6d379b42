/**
 * `skillgate contract check|lint|waive|report`.
 *
 * `check --transcript <path> --skill <name> [--skill-file <SKILL.md>] [--json] [--session <id>]`
 * checks one skill run's contract (`checkTranscript` in lib/contracts/check_transcript.ts prints
 * nothing; this formats its verdict); `lint <SKILL.md>…` validates contract blocks. `waive` and
 * `report` live in lib/contracts/waive.ts and report.ts, loaded only when used. Exit codes 0–6 as
 * in {@link EXIT_CODES}.
 *
 * @module
 */

import { EXIT_CODES, EXIT_WORDS } from "../contracts/exit_codes.ts";
import { errorCause } from "../contracts/state_error.ts";
import type { Contract } from "../contracts/schema.ts";
import { parseCommandArgs, printHelp, shownArg } from "./args.ts";

const USAGE = `Usage:
  skillgate contract check --transcript <path> --skill <name> [--skill-file <SKILL.md>] [--json]
                           [--session <id>] [--final-text <text>]
  skillgate contract lint <SKILL.md>...
  skillgate contract waive <item> --reason "<why>" [--skill <name>]
  skillgate contract report [--json] [--session <id>]`;

/** A failure with an exit code and a message (printed as `<WORD> <message>`). */
class ContractCliError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

function fail(code: number, message: string, json: boolean): number {
  const word = EXIT_WORDS[code];
  if (json) console.log(JSON.stringify({ word, exit: code, error: message }));
  else console.error(`${word} ${message}`);
  return code;
}

/** The contract of a SKILL.md file: parse its frontmatter and validate `contract:`. */
async function contractOfFile(
  file: string,
): Promise<{ contract?: Contract; problem?: string; warnings: string[] }> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    throw new ContractCliError(EXIT_CODES.STATE_ERROR, `${file}: ${errorCause(e)}`);
  }
  const { parseFrontmatter } = await import("../catalog/frontmatter.ts");
  const fm = await parseFrontmatter(text);
  return contractOfValue(fm.data.contract);
}

async function contractOfValue(
  raw: unknown,
): Promise<{ contract?: Contract; problem?: string; warnings: string[] }> {
  if (raw === undefined || raw === null) return { problem: "declares no contract", warnings: [] };
  const { validateContract } = await import("../contracts/schema.ts");
  const v = await validateContract(raw);
  if (!v.ok) return { problem: `has an invalid contract: ${v.error}`, warnings: v.warnings };
  return { contract: v.contract, warnings: v.warnings };
}

async function check(args: string[]): Promise<number> {
  const parsed = parseCommandArgs({
    args,
    allowPositionals: false,
    strict: true,
    options: {
      transcript: { type: "string" },
      skill: { type: "string" },
      "skill-file": { type: "string" },
      json: { type: "boolean", default: false },
      session: { type: "string" },
      "final-text": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (!parsed.ok) {
    const message = parsed.message.split("\n")[0].slice(0, 200);
    return fail(EXIT_CODES.USAGE, `${message}\n${USAGE}`, args.includes("--json"));
  }
  const v = parsed.parsed.values;
  const json = v.json === true;
  if (v.help) return printHelp(USAGE);
  if (!v.transcript || !v.skill) {
    return fail(EXIT_CODES.USAGE, `check needs --transcript and --skill\n${USAGE}`, json);
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
  if (!result || !run) return fail(verdict.exit, verdict.message ?? "", json);
  const { sanitizeName } = await import("../base/sanitize.ts");
  const shown = sanitizeName(v.skill.trim().replace(/^\//, ""));
  if (json) {
    console.log(JSON.stringify({
      word: verdict.word,
      exit: verdict.exit,
      skill: shown,
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
  const files = args.filter((a) => !a.startsWith("-"));
  const unknown = args.filter((a) => a.startsWith("-"));
  if (unknown.length > 0 || files.length === 0) {
    return fail(
      EXIT_CODES.USAGE,
      unknown.length > 0
        ? `Unknown option ${unknown[0]}\n${USAGE}`
        : `lint needs a SKILL.md\n${USAGE}`,
      false,
    );
  }
  let worst = 0;
  for (const file of files) {
    try {
      const c = await contractOfFile(file);
      for (const w of c.warnings) console.log(`${file}: warning: ${w}`);
      if (c.contract) {
        console.log(
          `${file}: ok (contract v1, ${c.contract.items.length} item(s): ${
            c.contract.items.map((i) => i.id).join(", ")
          })`,
        );
      } else if (c.problem === "declares no contract") {
        console.log(`${file}: no contract`);
      } else {
        console.log(`${file}: ${EXIT_WORDS[EXIT_CODES.NO_CONTRACT]} ${c.problem}`);
        worst = Math.max(worst, EXIT_CODES.NO_CONTRACT);
      }
    } catch (e) {
      const code = e instanceof ContractCliError ? e.code : EXIT_CODES.STATE_ERROR;
      console.log(`${EXIT_WORDS[code]} ${e instanceof Error ? e.message : String(e)}`);
      worst = Math.max(worst, code);
    }
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
  const [sub, ...rest] = args;
  switch (sub) {
    case "check":
      return await check(rest);
    case "lint":
      return await lint(rest);
    case "waive":
      return await (await import("../contracts/waive.ts")).main(rest);
    case "report":
      return await (await import("../contracts/report.ts")).main(rest);
    case "--help":
    case "-h":
    case "help":
      return printHelp(USAGE);
    default:
      return fail(
        EXIT_CODES.USAGE,
        sub === undefined
          ? `contract needs a subcommand\n${USAGE}`
          : `Unknown subcommand ${shownArg(sub)}\n${USAGE}`,
        false,
      );
  }
}

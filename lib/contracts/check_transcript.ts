/**
 * One call from a transcript to a contract verdict: what `skillgate contract check` does, for
 * library users. It finds the skill's contract (the installed skill, a SKILL.md, or one passed
 * in), reads the skill's last run from the transcript, and checks it.
 *
 * @example Check a session's last `investigate` run
 * ```ts
 * import { checkTranscript } from "@skillgate/skillgate";
 *
 * const verdict = await checkTranscript({
 *   transcript: `${Deno.env.get("HOME")}/.claude/projects/-home-dev-app/5b0c2f7e.jsonl`,
 *   skill: "investigate",
 * });
 * console.log(verdict.word, verdict.blockLine ?? verdict.message ?? "");
 * ```
 *
 * @module
 */

import { EXIT_CODES, EXIT_WORDS } from "./exit_codes.ts";
import { errorCause } from "./state_error.ts";
import type { Contract } from "./schema.ts";
import type { CheckResult } from "./check.ts";
import type { HostKind } from "../host/host.ts";

/** What {@link checkTranscript} needs. */
export interface TranscriptCheckOptions {
  /** The transcript (Claude Code JSONL, Copilot CLI `events.jsonl`, Codex CLI `rollout-*.jsonl`). */
  readonly transcript: string;
  /** The skill whose last run is checked (a leading `/` is dropped). */
  readonly skill: string;
  /** A `contract:` value to check against, as a SKILL.md's frontmatter holds it (validated here). */
  readonly contract?: unknown;
  /** A SKILL.md whose `contract:` is checked (else the installed skill's). */
  readonly skillFile?: string;
  /**
   * The host that wrote the transcript (default: the host whose transcript format the file has).
   */
  readonly host?: HostKind;
  /** That host's config directory holding the installed skills (default: the host's own). */
  readonly configDir?: string;
  /** The directory whose project skills count (default: the current directory). */
  readonly cwd?: string;
  /**
   * The state root whose overlay file (`skills.yaml`) applies (default: skillgate's, as the hooks
   * find it); the catalog's index there is read, never written.
   */
  readonly stateRoot?: string;
  /** The run's final text when the transcript lags (a Stop payload's `last_assistant_message`). */
  readonly finalText?: string;
  /** The session whose waivers count. */
  readonly sessionId?: string;
  /** The installed skillgate command, named in the block line (default: from config). */
  readonly command?: string;
}

/** The verdict of {@link checkTranscript}: an exit code of `skillgate contract check` and its word. */
export interface TranscriptCheck {
  /** The exit code: 0 met, 1 unmet, 3 state error, 4 unknown shape, 5 no contract, 6 not loaded. */
  readonly exit: number;
  /** The word of the exit code, such as `SKILL_CONTRACT_UNMET`. */
  readonly word: string;
  /** Why there is no verdict (exit 3 to 6). */
  readonly message?: string;
  /**
   * Where the contract checked came from: `frontmatter <SKILL.md>`, `overlay user <file>:<line>`,
   * `overlay project <file>:<line>`, `pack <name>` (config `contract_packs`), `--skill-file
   * <file>`, or `the contract given`.
   */
  readonly contractFrom?: string;
  /** The item-by-item check (exit 0 or 1). */
  readonly result?: CheckResult;
  /** The block line the Stop hook would give (exit 1). */
  readonly blockLine?: string;
  /** Where the checked run is in the transcript, and what reading it took (exit 0 or 1). */
  readonly run?: RunSummary;
}

/** Where a checked run is in its transcript, and what reading it took. */
export interface RunSummary {
  /** How the skill was loaded: `skill_tool`, `slash_command`, `read_skill_md` or `base_directory`. */
  readonly loadVia: string;
  /** The byte offset of the load. */
  readonly loadOffset: number;
  /** The byte offset where the run's parse started. */
  readonly startOffset: number;
  /** The byte offset where it stopped. */
  readonly endOffset: number;
  /** The bytes parsed. */
  readonly bytesParsed: number;
  /** The transcript's size. */
  readonly fileSize: number;
  /** The records parsed. */
  readonly records: number;
  /** Lines that were not a JSON object (skipped). */
  readonly skippedLines: number;
  /** Records of a type the reader does not know (ignored). */
  readonly unknownTypes: number;
}

function verdict(exit: number, message?: string): TranscriptCheck {
  return { exit, word: EXIT_WORDS[exit], ...(message !== undefined ? { message } : {}) };
}

/** The contract of a parsed `contract:` value, or why there is none. */
async function contractOfValue(raw: unknown): Promise<{ contract?: Contract; problem?: string }> {
  if (raw === undefined || raw === null) return { problem: "declares no contract" };
  const { validateContract } = await import("./schema.ts");
  const v = await validateContract(raw);
  return v.ok ? { contract: v.contract } : { problem: `has an invalid contract: ${v.error}` };
}

async function installedCommand(): Promise<string> {
  try {
    const { skillgateCommand, stateRoot } = await import("../host/places.ts");
    let values: Record<string, string> | undefined;
    try {
      values = (await import("../base/config.ts")).readConfig(stateRoot).values;
    } catch {
      values = undefined;
    }
    return skillgateCommand(values);
  } catch {
    return "skillgate";
  }
}

/**
 * Checks a skill's last run in a transcript against its contract, as `skillgate contract check`
 * does. Never throws for a missing file, a skill without a contract or a transcript it cannot
 * read: the verdict says so with its exit code.
 *
 * @param options The transcript, the skill, and where its contract comes from.
 * @returns The verdict.
 */
export async function checkTranscript(options: TranscriptCheckOptions): Promise<TranscriptCheck> {
  const skill = options.skill.trim().replace(/^\//, "");
  const { sanitizeName } = await import("../base/sanitize.ts");
  const shown = sanitizeName(skill);
  try {
    // The installed skills directories decide which Reads of a SKILL.md are loads, as in the Stop
    // hook, whatever the contract's source.
    const { loadCatalog, findSkill } = await import("../catalog/catalog.ts");
    const { foldersOf, projectDirOf, stateRoot } = await import("../host/places.ts");
    // The file says which host wrote it (its first record); that host's reader reads it, and
    // that host's skill folders are the ones it loads from.
    const { formatOfFile, readerFor } = await import("../transcript/readers.ts");
    const { HOSTS } = await import("../host/mod.ts");
    const format = await formatOfFile(options.transcript);
    const host = HOSTS.find((h) => h.kind === options.host) ??
      HOSTS.find((h) => h.transcript === format)!;
    let folders;
    try {
      folders = foldersOf(host);
      if (options.configDir !== undefined) folders = { ...folders, configDir: options.configDir };
    } catch (e) {
      return verdict(EXIT_CODES.STATE_ERROR, `${host.name} config directory: ${errorCause(e)}`);
    }
    const root = options.stateRoot ?? stateRoot();
    const { contractPacksOf, readConfig } = await import("../base/config.ts");
    const catalog = await loadCatalog({
      hostFolders: folders,
      cwd: options.cwd ?? Deno.cwd(),
      projectDir: projectDirOf(host),
      agents: false,
      stateRoot: root,
      writeIndex: false,
      // As the Stop hook: a built-in pack's contract when config `contract_packs` names the pack.
      contractPacks: contractPacksOf(readConfig(root)),
    });
    let contract: Contract | undefined;
    let contractFrom: string;
    if (options.contract !== undefined) {
      const c = await contractOfValue(options.contract);
      if (!c.contract) return verdict(EXIT_CODES.NO_CONTRACT, `The contract ${c.problem}`);
      contract = c.contract;
      contractFrom = "the contract given";
    } else if (options.skillFile !== undefined) {
      let text: string;
      try {
        text = await Deno.readTextFile(options.skillFile);
      } catch (e) {
        return verdict(EXIT_CODES.STATE_ERROR, `${options.skillFile}: ${errorCause(e)}`);
      }
      const { parseFrontmatter } = await import("../catalog/frontmatter.ts");
      const c = await contractOfValue((await parseFrontmatter(text)).data.contract);
      if (!c.contract) return verdict(EXIT_CODES.NO_CONTRACT, `${options.skillFile} ${c.problem}`);
      contract = c.contract;
      contractFrom = `--skill-file ${options.skillFile}`;
    } else {
      const entry = findSkill(catalog, skill);
      if (!entry) return verdict(EXIT_CODES.NO_CONTRACT, `No installed skill is named ${shown}`);
      const o = entry.overlay?.contract;
      contractFrom = o
        ? `overlay ${o.scope} ${o.file}:${o.line}`
        : entry.contractPack
        ? `pack ${entry.contractPack}`
        : `frontmatter ${entry.file}`;
      const c = await contractOfValue(entry.contract);
      const where = o ? `${o.file}:${o.line} (${shown})` : entry.file;
      if (!c.contract) return verdict(EXIT_CODES.NO_CONTRACT, `${where} ${c.problem}`);
      contract = c.contract;
    }

    const reader = await readerFor(format);
    // A Claude Code sub-agent's own file (`subagents/agent-<id>.jsonl`) is read as its run.
    const agent = format === "claude-code-jsonl"
      ? /(?:^|[\\/])subagents[\\/]agent-([^\\/]+)\.jsonl$/.exec(options.transcript)?.[1]
      : undefined;
    const read = await reader.readRun(options.transcript, {
      skill,
      skillsDirs: catalog.dirs,
      ...(agent ? { agent } : {}),
    });
    if (read.kind === "not_loaded") {
      return verdict(EXIT_CODES.NOT_LOADED, `The transcript never loads ${shown}`);
    }
    if (read.kind === "too_large") {
      return verdict(
        EXIT_CODES.STATE_ERROR,
        `${options.transcript}: the run of ${shown} is ${read.bytes} bytes, over the ${read.limit}-byte limit`,
      );
    }
    if (read.kind === "unknown_shape") {
      return verdict(EXIT_CODES.UNKNOWN_SHAPE, `${options.transcript}: ${read.reason}`);
    }

    const { checkContract } = await import("./check.ts");
    const { renderBlockLine } = await import("./block_line.ts");
    const command = options.command ?? await installedCommand();
    const result = checkContract(read.run, contract, {
      skill,
      finalText: options.finalText,
      sessionId: options.sessionId,
      command,
    });
    const exit = result.outcome === "met" ? EXIT_CODES.MET : EXIT_CODES.UNMET;
    const s = read.run.stats;
    return {
      exit,
      word: EXIT_WORDS[exit],
      contractFrom,
      result,
      run: {
        loadVia: read.run.load.via,
        loadOffset: read.run.load.offset,
        startOffset: s.startOffset,
        endOffset: s.endOffset,
        bytesParsed: s.bytesParsed,
        fileSize: s.fileSize,
        records: s.records,
        skippedLines: s.skippedLines,
        unknownTypes: s.unknownTypes,
      },
      ...(exit === EXIT_CODES.UNMET ? { blockLine: renderBlockLine(result, { command }) } : {}),
    };
  } catch (e) {
    const { TranscriptReadError } = await import("../transcript/model.ts");
    if (e instanceof TranscriptReadError) {
      return verdict(EXIT_CODES.STATE_ERROR, `${e.path}: ${e.message}`);
    }
    return verdict(EXIT_CODES.STATE_ERROR, errorCause(e));
  }
}

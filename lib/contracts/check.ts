/**
 * The skill contract checker: a pure function of one parsed transcript run and a contract.
 *
 * `checkContract(run, contract, options)` gives each item as met, missing or waived and the overall
 * outcome; `renderBlockLine` gives the exact line the Stop hook blocks with (and `check` prints
 * first when unmet). Waivers are read from the run: a successful `skillgate contract waive <item>
 * --reason "…"` shell call.
 *
 * @module
 */

import {
  type AgentDispatchItem,
  type CheckAfterLastEditItem,
  compileMarker,
  type Contract,
  type ContractItem,
  type ContractKind,
  DEFAULT_MATCHERS,
} from "./schema.ts";
import type { UserRegex } from "../base/user_regex.ts";
import { isCheckCommand, printsFileOrPage } from "./command_classifier.ts";
import {
  AGENT_TOOLS,
  EDIT_TOOLS,
  SHELL_TOOLS,
  type ToolCall,
  type TranscriptMessage,
  type TranscriptRun,
} from "../transcript/model.ts";
import { skillNameMatches } from "../transcript/loads.ts";
import { finalAssistantText, findStatusLine } from "../transcript/turn.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";

/** Stable exit codes of `skillgate contract`. */
export const EXIT_CODES: {
  readonly MET: 0;
  readonly UNMET: 1;
  readonly USAGE: 2;
  readonly STATE_ERROR: 3;
  readonly UNKNOWN_SHAPE: 4;
  readonly NO_CONTRACT: 5;
  readonly NOT_LOADED: 6;
} = {
  MET: 0,
  UNMET: 1,
  USAGE: 2,
  STATE_ERROR: 3,
  UNKNOWN_SHAPE: 4,
  NO_CONTRACT: 5,
  NOT_LOADED: 6,
};

/** The word printed with each exit code (index = exit code). */
export const EXIT_WORDS: readonly string[] = [
  "SKILL_CONTRACT_MET",
  "SKILL_CONTRACT_UNMET",
  "SKILL_CONTRACT_USAGE",
  "SKILL_CONTRACT_STATE_ERROR",
  "SKILL_CONTRACT_UNKNOWN_SHAPE",
  "SKILL_CONTRACT_NO_CONTRACT",
  "SKILL_CONTRACT_NOT_LOADED",
];

/** The state of one item. */
export type ItemStatus = "met" | "missing" | "waived";

/** One item's result. */
export interface ItemResult {
  /** The item id. */
  id: string;
  /** The item kind. */
  kind: ContractKind;
  /** Met, missing or waived. */
  status: ItemStatus;
  /** A short explanation (what was found or not found); data is sanitised. */
  detail: string;
  /** The fix text the block line names (the item's `fix`, or the kind's default). */
  fix: string;
  /** The waiver's reason, when waived. */
  waiverReason?: string;
}

/** How a run ended early (counts as met for every item). */
export type EarlyEnd = "blocked" | "nothing_to_review";

/** The result of {@link checkContract}. */
export interface CheckResult {
  /** The skill name (as given to the check). */
  skill: string;
  /** The contract version (1). */
  version: 1;
  /** `met` when every item is met or waived, else `unmet`. */
  outcome: "met" | "unmet";
  /** True when at least one item is waived (a met run that counts as a miss for follow). */
  waived: boolean;
  /** Each item, in contract order. */
  items: ItemResult[];
  /** Set when the skill ended the run early (STATUS: BLOCKED, "Nothing to review"). */
  earlyEnd?: EarlyEnd;
}

/** Options of {@link checkContract}. */
export interface CheckOptions {
  /** The skill name (used in results, waiver `--skill` matching and the block line). */
  skill: string;
  /** The turn's final text (Stop payload `last_assistant_message`), newer than the file. */
  finalText?: string;
  /** The session id: only waivers recorded in this session count (all when omitted). */
  sessionId?: string;
  /**
   * The installed skillgate command (`skillgateCommand()`): recognises waive calls, and a run of it
   * is never a test or repro.
   */
  command?: string;
}

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

/** Options of {@link renderBlockLine}. */
export interface RenderOptions {
  /**
   * The command that runs skillgate on this machine (`skillgateCommand()` from `paths.ts`), default
   * `skillgate`. A single word is single-quoted as the seed shows its path; a command of several
   * words (`deno run … /abs/cli.ts`) is taken as already shell-ready.
   */
  command?: string;
}

/**
 * Checks a contract against one run.
 *
 * @param run The parsed run (from the skill's load to the end).
 * @param contract The validated contract.
 * @param options Skill name, final-text override, session id.
 * @returns Each item's state and the overall outcome.
 */
export function checkContract(
  run: TranscriptRun,
  contract: Contract,
  options: CheckOptions,
): CheckResult {
  const finalText = finalAssistantText(run, options.finalText);
  const earlyEnd = findEarlyEnd(finalText);
  const waivers = new Map<string, Waiver>();
  for (const w of findWaivers(run, options)) {
    waivers.set(w.item, w);
  }
  const items: ItemResult[] = contract.items.map((item) => {
    const fix = itemFix(item);
    if (earlyEnd) {
      return {
        id: item.id,
        kind: item.kind,
        status: "met",
        detail: earlyEnd === "blocked"
          ? "the run ended early with STATUS: BLOCKED"
          : "the run ended early with Nothing to review",
        fix,
      };
    }
    const verdict = checkItem(run, item, finalText, options.command);
    if (!verdict.met) {
      const w = waivers.get(item.id);
      if (w) {
        return {
          id: item.id,
          kind: item.kind,
          status: "waived",
          detail: verdict.detail,
          fix,
          waiverReason: sanitizeLine(w.reason, 200),
        };
      }
    }
    return {
      id: item.id,
      kind: item.kind,
      status: verdict.met ? "met" : "missing",
      detail: verdict.detail,
      fix,
    };
  });
  const result: CheckResult = {
    skill: options.skill,
    version: 1,
    outcome: items.every((i) => i.status !== "missing") ? "met" : "unmet",
    waived: items.some((i) => i.status === "waived"),
    items,
  };
  if (earlyEnd) result.earlyEnd = earlyEnd;
  return result;
}

/**
 * How the final text ends the run early, if it does: a final STATUS of BLOCKED, or a line that
 * starts "Nothing to review".
 *
 * @param finalText The turn's final text.
 * @returns The early end, or undefined.
 */
export function findEarlyEnd(finalText: string): EarlyEnd | undefined {
  if (findStatusLine(finalText)?.value === DEFAULT_MATCHERS.blockedStatus) return "blocked";
  const prefix = DEFAULT_MATCHERS.nothingToReview.toLowerCase();
  for (const line of finalText.split("\n")) {
    if (line.replace(/^[\s>*_#-]+/, "").toLowerCase().startsWith(prefix)) {
      return "nothing_to_review";
    }
  }
  return undefined;
}

interface Verdict {
  met: boolean;
  detail: string;
}

function checkItem(
  run: TranscriptRun,
  item: ContractItem,
  finalText: string,
  command: string | undefined,
): Verdict {
  switch (item.kind) {
    case "report_labels":
      return checkReportLabels(run, item.heading, item.labels, finalText);
    case "check_after_last_edit":
      return checkAfterLastEdit(run, matcherOf(item), command);
    case "selected_specialists_dispatched":
      return checkSpecialists(
        run,
        item.marker ?? DEFAULT_MATCHERS.specialistsMarker,
        item.empty_marker ?? DEFAULT_MATCHERS.specialistsEmptyMarker,
        finalText,
      );
    case "agent_dispatch":
      return checkAgentDispatch(run, matcherOf(item)!);
  }
}

/**
 * An item's compiled `match` (linear-time RE2, compiled by `validateContract`). A contract built
 * by hand, with a `match` but no `matcher`, is a caller's error.
 */
function matcherOf(item: CheckAfterLastEditItem | AgentDispatchItem): UserRegex | undefined {
  if (item.match === undefined) return undefined;
  if (!item.matcher) {
    throw new TypeError(
      `Contract item ${
        sanitizeName(item.id, 64)
      } has a match but no matcher: validate the contract with validateContract()`,
    );
  }
  return item.matcher;
}

function mainAssistantTexts(run: TranscriptRun, finalText: string): string[] {
  const texts = run.messages
    .filter((m: TranscriptMessage) => m.role === "assistant" && !m.sidechain && m.text !== "")
    .map((m) => m.text);
  if (finalText !== "" && texts[texts.length - 1] !== finalText) texts.push(finalText);
  return texts;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A label value that is empty or a placeholder. */
export function isPlaceholderValue(value: string): boolean {
  const v = value.replace(/^[\s*_`]+|[\s*_`]+$/g, "").trim();
  if (v === "") return true;
  if (/^\[[^\]]*\]$/.test(v)) return true;
  if (/^<[^>]*>$/.test(v)) return true;
  if (/^(?:\.{3,}|…)$/.test(v)) return true;
  if (/^(?:TBD|TODO)\b/i.test(v)) return true;
  const alts = v.split("|").map((p) => p.trim());
  if (alts.length >= 2 && alts.every((p) => /^[A-Za-z][\w-]*$/.test(p))) return true;
  return false;
}

function checkReportLabels(
  run: TranscriptRun,
  heading: string,
  labels: string[],
  finalText: string,
): Verdict {
  const texts = mainAssistantTexts(run, finalText);
  const h = heading.toLowerCase();
  let text: string | undefined;
  for (let i = texts.length - 1; i >= 0; i--) {
    if (texts[i].toLowerCase().includes(h)) {
      text = texts[i];
      break;
    }
  }
  if (text === undefined) return { met: false, detail: `no message contains ${heading}` };
  // The heading may also be mentioned in passing ("I kept the debug report short"): the report is
  // there when the text after any mention of it has every label, the last mention tried first.
  const lower = text.toLowerCase();
  let firstBad: string[] | undefined;
  for (let at = lower.lastIndexOf(h); at >= 0; at = at === 0 ? -1 : lower.lastIndexOf(h, at - 1)) {
    const bad = badLabels(text.slice(at + h.length).split("\n"), labels);
    if (bad.length === 0) return { met: true, detail: `${heading} has ${labels.join(", ")}` };
    firstBad ??= bad;
  }
  return { met: false, detail: `${heading} has no real value for ${firstBad!.join(", ")}` };
}

/** The labels that have no `Label: value` line with a real value among `lines`. */
function badLabels(lines: string[], labels: string[]): string[] {
  const bad: string[] = [];
  for (const label of labels) {
    const re = new RegExp(
      `^[\\s>|]*(?:[-*+]\\s+|\\d+[.)]\\s+)?[*_\`]*${escapeRe(label)}[*_\`]*\\s*:(.*)$`,
      "i",
    );
    let value: string | undefined;
    for (const line of lines) {
      const m = re.exec(line);
      if (m) {
        value = m[1];
        break;
      }
    }
    if (value === undefined || isPlaceholderValue(value.replace(/\|\s*$/, ""))) bad.push(label);
  }
  return bad;
}

function resultRan(call: ToolCall): boolean {
  if (!call.result) return true;
  const t = call.result.text.trimStart();
  if (t.startsWith("<tool_use_error>")) return false;
  if (call.result.isError && /doesn't want to proceed|was rejected|denied/i.test(t.slice(0, 300))) {
    return false;
  }
  return true;
}

function checkAfterLastEdit(
  run: TranscriptRun,
  match: UserRegex | undefined,
  command: string | undefined,
): Verdict {
  let lastEdit: ToolCall | undefined;
  for (const c of run.toolCalls) {
    if (EDIT_TOOLS.includes(c.name) && resultRan(c)) lastEdit = c;
  }
  if (!lastEdit) return { met: true, detail: "no edit in this run" };
  const edit = lastEdit;
  const check = run.toolCalls.find((c) =>
    c.seq > edit.seq && SHELL_TOOLS.includes(c.name) && typeof c.input.command === "string" &&
    resultRan(c) && isCheckCommand(c.input.command, match, command)
  );
  if (check) return { met: true, detail: "a test or repro ran after the last edit" };
  return { met: false, detail: `no test or repro ran after the last ${edit.name}` };
}

/** A specialists selection line: the count and names found after the marker. */
export interface SpecialistSelection {
  /** The count the line gives (undefined when the marker has no `N`). */
  count?: number;
  /** The plain names (parenthesised text removed). */
  names: string[];
  /** True when every name is plain (letters, digits, spaces, `_`, `.`, `-`, ≤ 40 characters). */
  plain: boolean;
  /** True when the line is an empty marker ("specialists skipped"). */
  empty: boolean;
}

/**
 * Parses the last selection line of a text.
 *
 * @param text A message or Bash output.
 * @param marker The marker (a whole-word `N` stands for the count).
 * @param emptyMarker The "none selected" marker.
 * @returns The selection, or undefined when the text has none.
 */
export function parseSelection(
  text: string,
  marker: string,
  emptyMarker: string,
): SpecialistSelection | undefined {
  const re = compileMarker(marker);
  const hasN = /\bN\b/.test(marker);
  const emptyLower = emptyMarker.toLowerCase();
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.length > 2000) continue;
    if (line.toLowerCase().includes(emptyLower)) {
      return { count: 0, names: [], plain: true, empty: true };
    }
    const m = re.exec(line);
    if (!m) continue;
    const count = hasN ? Number(m[1]) : undefined;
    const rest = line.slice(m.index + m[0].length)
      .replace(/\([^)]*\)/g, " ")
      .replace(/[*_`]/g, "")
      .trim()
      .replace(/[.;]+$/, "");
    const names = rest === ""
      ? []
      : rest.split(/,|\band\b/).map((n) => n.trim()).filter((n) => n !== "");
    const plain = names.every((n) => n.length <= 40 && /^[A-Za-z0-9 _.-]+$/.test(n));
    return { count, names, plain, empty: false };
  }
  return undefined;
}

function agentCalls(run: TranscriptRun): ToolCall[] {
  return run.toolCalls.filter((c) => !c.sidechain && AGENT_TOOLS.includes(c.name));
}

function mentions(call: ToolCall, name: string): boolean {
  const re = new RegExp(`(?:^|[^A-Za-z0-9])${escapeRe(name)}(?:[^A-Za-z0-9]|$)`, "i");
  for (const k of ["description", "prompt", "subagent_type", "name"]) {
    const v = call.input[k];
    if (typeof v === "string" && re.test(v)) return true;
  }
  return false;
}

function checkSpecialists(
  run: TranscriptRun,
  marker: string,
  emptyMarker: string,
  finalText: string,
): Verdict {
  // Sources: main assistant messages and shell results, newest last; never a fetched page or a
  // file (Read/WebFetch output, or a shell command such as `cat notes.md` or `curl URL`).
  const sources: { seq: number; text: string }[] = [];
  for (const m of run.messages) {
    if (m.role === "assistant" && !m.sidechain && m.text !== "") {
      sources.push({ seq: m.seq, text: m.text });
    }
  }
  for (const c of run.toolCalls) {
    if (!c.sidechain && SHELL_TOOLS.includes(c.name) && c.result && c.result.text !== "") {
      const cmd = c.input.command;
      if (typeof cmd !== "string" || printsFileOrPage(cmd)) continue;
      sources.push({ seq: c.result.seq, text: c.result.text });
    }
  }
  sources.sort((a, b) => a.seq - b.seq);
  if (finalText !== "") sources.push({ seq: Number.MAX_SAFE_INTEGER, text: finalText });
  let selection: SpecialistSelection | undefined;
  for (let i = sources.length - 1; i >= 0 && !selection; i--) {
    selection = parseSelection(sources[i].text, marker, emptyMarker);
  }
  if (!selection) return { met: false, detail: "no specialists selection line was printed" };
  if (selection.empty || selection.count === 0) {
    return { met: true, detail: "zero specialists were selected" };
  }
  if (!selection.plain) {
    return { met: false, detail: "the selection line names are not plain specialist names" };
  }
  if (selection.names.length === 0) {
    return { met: false, detail: "the selection line names no specialists" };
  }
  const calls = agentCalls(run);
  const missing = selection.names.filter((n) => !calls.some((c) => mentions(c, n)));
  if (missing.length > 0) {
    return {
      met: false,
      detail: `no Agent dispatch for ${missing.map((n) => sanitizeLine(n, 40)).join(", ")}`,
    };
  }
  return { met: true, detail: `dispatched ${selection.names.length} specialists` };
}

function checkAgentDispatch(run: TranscriptRun, re: UserRegex): Verdict {
  const hit = agentCalls(run).some((c) =>
    ["description", "prompt"].some((k) => {
      const v = c.input[k];
      return typeof v === "string" && re.test(v);
    })
  );
  return hit
    ? { met: true, detail: "an Agent dispatch matches" }
    : { met: false, detail: "no Agent dispatch matches" };
}

/**
 * The default fix text of an item (its `fix` when it declares one).
 *
 * @param item The contract item.
 * @returns The fix text, for example `run the test or repro again after your last edit and show its
 *   result`.
 */
export function itemFix(item: ContractItem): string {
  if (item.fix) return item.fix;
  switch (item.kind) {
    case "report_labels":
      return `print the ${item.heading} with real values for ${item.labels.join(", ")}`;
    case "check_after_last_edit":
      return "run the test or repro again after your last edit and show its result";
    case "selected_specialists_dispatched":
      return `print the selection line (${
        item.marker ?? DEFAULT_MATCHERS.specialistsMarker
      } followed by the names) and dispatch an Agent for each specialist it names`;
    case "agent_dispatch":
      return "dispatch the Agent this skill requires";
  }
}

/**
 * The exact line the Stop hook blocks with (and `check` prints first when unmet):
 * `SKILL_CONTRACT_UNMET <skill> (contract v1): missing <ids>. Fix: <id>: <fix>; …. If an item truly
 * does not apply, run '<skillgate>' contract waive <item> --reason "<why>" (this session only;
 * counted as a miss for follow). This blocks once.`
 *
 * @param result An unmet check result.
 * @param options The installed skillgate command.
 * @returns The one-line block text.
 */
export function renderBlockLine(result: CheckResult, options?: RenderOptions): string {
  const missing = result.items.filter((i) => i.status === "missing");
  const skill = sanitizeName(result.skill, 64);
  const fixes = missing.map((i) => `${i.id}: ${i.fix}`).join("; ");
  return `${EXIT_WORDS[EXIT_CODES.UNMET]} ${skill} (contract v${result.version}): missing ${
    missing.map((i) => i.id).join(", ")
  }. Fix: ${fixes}. If an item truly does not apply, run ${
    waiveCommandPrefix(options?.command)
  } waive <item> --reason "<why>" (this session only; counted as a miss for follow). This blocks once.`;
}

/**
 * The shell prefix that runs `skillgate contract`: a one-word command single-quoted as the seed
 * shows it (`'skillgate' contract`), a command of several words as given.
 *
 * @param command The command that runs skillgate (default `skillgate`).
 * @returns For example `'skillgate' contract`.
 */
export function waiveCommandPrefix(command?: string): string {
  const cmd = (command ?? "").trim() === "" ? "skillgate" : command!.trim();
  const head = /\s/.test(cmd) ? cmd : `'${cmd.replace(/'/g, `'\\''`)}'`;
  return `${head} contract`;
}

/** Shell-like word split of a command: quotes grouped, quote characters removed. */
function shellWords(command: string): string[] {
  const out: string[] = [];
  let cur = "";
  let has = false;
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end < 0 ? command.length : end;
      cur += command.slice(i + 1, stop);
      has = true;
      i = stop + 1;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      cur += command[i + 1];
      has = true;
      i += 2;
      continue;
    }
    if (/[\s;&|]/.test(c)) {
      if (has) out.push(cur);
      if (/[;&|]/.test(c)) out.push(c);
      cur = "";
      has = false;
      i++;
      continue;
    }
    cur += c;
    has = true;
    i++;
  }
  if (has) out.push(cur);
  return out;
}

const SKILLGATE_EXEC_RE = /(?:^|[\\/])skillgate(?:\.exe|\.cmd|\.ts|\.js)?$|(?:^|[\\/])cli\.ts$/;

/**
 * The waive arguments of one shell command, when it calls `skillgate contract waive`: the word
 * before `contract waive` must be skillgate (`skillgate`, a path ending in it, `cli.ts`, or the
 * installed command's last word).
 *
 * @param command A shell command.
 * @param installed The installed skillgate command.
 * @returns The item, reason and skill, or undefined when it is not a complete waive call.
 */
export function parseWaiveCommand(
  command: string,
  installed?: string,
): { item: string; reason: string; skill?: string } | undefined {
  const installedExec = installed?.trim().split(/\s+/).pop();
  const words = shellWords(command.slice(0, 10000));
  for (let i = 1; i + 1 < words.length; i++) {
    if (words[i] !== "contract" || words[i + 1] !== "waive") continue;
    const exec = words[i - 1];
    const execBase = exec.slice(Math.max(exec.lastIndexOf("/"), exec.lastIndexOf("\\")) + 1);
    const installedBase = installedExec?.slice(
      Math.max(installedExec.lastIndexOf("/"), installedExec.lastIndexOf("\\")) + 1,
    );
    if (
      !SKILLGATE_EXEC_RE.test(exec) && (installedBase === undefined || execBase !== installedBase)
    ) {
      continue;
    }
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
    const out: { item: string; reason: string; skill?: string } = { item, reason: reason.trim() };
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

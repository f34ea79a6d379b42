/**
 * The waiver of `skillgate contract waive <item> --reason "<why>" [--skill <name>]` (its command
 * line is `lib/cli/contract_waive_command.ts`): the escape for a contract item that truly does not apply.
 * It is stateless: {@link waiveItem} checks the item against the installed contracts and gives the
 * acknowledgement. The checker finds the waiver later by reading this shell call and its
 * successful result in the session transcript (this session only); a failed call, a missing reason
 * or another skill's item does not count, and a waived item still counts as a miss for follow-up.
 *
 * Exit codes: 0 acknowledged; 2 (`SKILL_CONTRACT_USAGE`) without an item or a reason, or for an
 * item the skill's contract lacks; 3 when the installed skills cannot be read; 5 when `--skill`
 * names no installed skill with a valid contract.
 *
 * @module
 */

import { EXIT_CODES } from "./exit_codes.ts";
import { errorCause } from "./state_error.ts";
import { type Contract, validateContract } from "./schema.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import type { SkillEntry } from "../catalog/catalog.ts";

const ITEM_RE = /^[a-z0-9._-]{1,64}$/;

/** The installed skills with their contracts, for tests to replace. */
export interface WaiveSkill {
  /** The skill's invocable name. */
  name: string;
  /** Its SKILL.md. */
  file: string;
  /** Its raw `contract:` block. */
  contract: unknown;
  /** Its frontmatter name where it differs. */
  altName?: string;
}

/**
 * The installed skills (personal, project, plugin and config `skill_dirs`) with their contracts,
 * of every host (the waive runs in whichever host's shell the model uses: Claude Code's folders,
 * then each other host's own).
 *
 * @returns The skills.
 */
export async function installedSkills(): Promise<WaiveSkill[]> {
  const { loadCatalog } = await import("../catalog/catalog.ts");
  const { foldersOf, projectDirOf, stateRoot } = await import("../host/places.ts");
  const { HOSTS } = await import("../host/mod.ts");
  const { configList, readConfig } = await import("../base/config.ts");
  let extra: string[] = [];
  let root: string | undefined;
  try {
    root = stateRoot();
    extra = configList(readConfig(root), "skill_dirs", []);
  } catch {
    root = undefined;
  }
  const skills: SkillEntry[] = [];
  for (const host of HOSTS) {
    let hostFolders;
    try {
      hostFolders = foldersOf(host);
    } catch {
      continue; // no home: that host's personal folders cannot be known
    }
    const catalog = await loadCatalog({
      hostFolders,
      cwd: Deno.cwd(),
      projectDir: projectDirOf(host),
      extraSkillDirs: extra,
      agents: false,
    });
    skills.push(...catalog.skills.filter((s) => !skills.some((k) => k.file === s.file)));
  }
  return skills.map((s) => ({
    name: s.name,
    file: s.file,
    contract: s.contract,
    ...(s.altName ? { altName: s.altName } : {}),
  }));
}

function base(name: string): string {
  const t = name.trim().replace(/^\//, "");
  const i = t.lastIndexOf(":");
  return (i >= 0 ? t.slice(i + 1) : t).toLowerCase();
}

/** What a waiver gives: the exit code and its message (the acknowledgement when 0). */
export interface WaiveOutcome {
  /** 0, or the exit code of the problem. */
  readonly exit: number;
  /** The acknowledgement, or what is wrong (capitalised, no trailing period). */
  readonly message: string;
  /** The acknowledged item, skill (when `--skill` named one) and reason. */
  readonly waived?: { item: string; skill: string | null; reason: string };
}

/**
 * Checks a waiver against the installed contracts and gives its acknowledgement.
 *
 * @param request The item, the reason and the skill (optional).
 * @param skills The installed skills (default: the catalog).
 * @returns The outcome.
 */
export async function waiveItem(
  request: { item: string | undefined; reason: string | undefined; skill?: string },
  skills: () => Promise<WaiveSkill[]> = installedSkills,
): Promise<WaiveOutcome> {
  const fail = (exit: number, message: string): WaiveOutcome => ({ exit, message });
  const item = request.item;
  if (item === undefined || item.trim() === "") {
    return fail(EXIT_CODES.USAGE, "Missing <item>: waive needs an item id");
  }
  if (!ITEM_RE.test(item)) {
    return fail(
      EXIT_CODES.USAGE,
      `${sanitizeName(item)} is not an item id (lowercase letters, digits, ., _, -)`,
    );
  }
  const reason = request.reason?.trim() ?? "";
  if (reason === "") {
    return fail(EXIT_CODES.USAGE, 'Missing --reason "<why the item does not apply>"');
  }
  let list: WaiveSkill[];
  try {
    list = await skills();
  } catch (e) {
    return fail(
      EXIT_CODES.STATE_ERROR,
      `Installed skills could not be read: ${sanitizeLine(errorCause(e), 200)}`,
    );
  }
  const valid = async (s: WaiveSkill): Promise<Contract | undefined> => {
    if (s.contract === undefined || s.contract === null) return undefined;
    const v = await validateContract(s.contract);
    return v.ok ? v.contract : undefined;
  };
  const wanted = request.skill;
  let skillName: string;
  if (wanted !== undefined) {
    const w = wanted.trim().replace(/^\//, "");
    const entry = list.find((s) => s.name === w) ?? list.find((s) => s.altName === w) ??
      list.find((s) => base(s.name) === base(w));
    if (!entry) {
      return fail(EXIT_CODES.NO_CONTRACT, `No installed skill is named ${sanitizeName(w)}`);
    }
    const contract = await valid(entry);
    if (!contract) {
      return fail(
        EXIT_CODES.NO_CONTRACT,
        `${sanitizeLine(entry.file, 300)} declares no valid contract`,
      );
    }
    if (!contract.items.some((i) => i.id === item)) {
      return fail(
        EXIT_CODES.USAGE,
        `The contract of ${sanitizeName(entry.name)} has no item ${item} (items: ${
          contract.items.map((i) => i.id).join(", ")
        })`,
      );
    }
    skillName = entry.name;
  } else {
    const owners: WaiveSkill[] = [];
    for (const s of list) {
      if ((await valid(s))?.items.some((i) => i.id === item)) owners.push(s);
    }
    if (owners.length === 0) {
      return fail(EXIT_CODES.USAGE, `No installed skill's contract has an item ${item}`);
    }
    skillName = owners.map((s) => s.name).join(", ");
  }
  const shownReason = sanitizeLine(reason, 300);
  return {
    exit: 0,
    message: `Waived ${item} for ${
      sanitizeLine(skillName, 200)
    }: ${shownReason}. This waiver counts for this session's current run only and is still counted as a miss for follow-up.`,
    waived: { item, skill: wanted !== undefined ? skillName : null, reason: shownReason },
  };
}

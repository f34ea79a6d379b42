/**
 * `skillgate contract waive <item> --reason "<why>" [--skill <name>]`: the escape for a contract
 * item that truly does not apply. It is stateless: it checks its arguments against the installed
 * contracts and prints an acknowledgement. The checker finds the waiver later by reading this
 * shell call and its successful result in the session transcript (this session only); a failed
 * call, a missing reason or another skill's item does not count, and a waived item still counts as
 * a miss for follow-up.
 *
 * Exit codes: 0 acknowledged; 2 (`SKILL_CONTRACT_USAGE`) without an item or a reason, or for an
 * item the skill's contract lacks; 3 when the installed skills cannot be read; 5 when `--skill`
 * names no installed skill with a valid contract.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { EXIT_CODES, EXIT_WORDS } from "./exit_codes.ts";
import { errorCause } from "./state_error.ts";
import { type Contract, validateContract } from "./schema.ts";
import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";

const USAGE = 'Usage: skillgate contract waive <item> --reason "<why>" [--skill <name>] [--json]';

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

async function installedSkills(): Promise<WaiveSkill[]> {
  const { loadCatalog } = await import("../catalog/catalog.ts");
  const { claudeConfigDir, getEnv, stateRoot } = await import("../base/locations.ts");
  const { configList, readConfig } = await import("../base/config.ts");
  let extra: string[] = [];
  let root: string | undefined;
  try {
    root = stateRoot();
    extra = configList(readConfig(root), "skill_dirs", []);
  } catch {
    root = undefined;
  }
  const catalog = await loadCatalog({
    claudeConfigDir: claudeConfigDir(),
    cwd: Deno.cwd(),
    projectDir: getEnv("CLAUDE_PROJECT_DIR"),
    extraSkillDirs: extra,
    agents: false,
  });
  return catalog.skills.map((s) => ({
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

function out(
  json: boolean,
  code: number,
  text: string,
  extra: Record<string, unknown> = {},
): number {
  if (json) {
    console.log(JSON.stringify({ word: EXIT_WORDS[code], exit: code, message: text, ...extra }));
  } else if (code === 0) console.log(text);
  else console.error(`${EXIT_WORDS[code]} ${text}`);
  return code;
}

/**
 * Runs `skillgate contract waive`.
 *
 * @param args The arguments after `waive`.
 * @param skills The installed skills (default: the catalog).
 * @returns The exit code.
 */
export async function main(
  args: string[],
  skills?: () => Promise<WaiveSkill[]>,
): Promise<number> {
  const json = args.includes("--json");
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        reason: { type: "string" },
        skill: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    return out(json, EXIT_CODES.USAGE, `${sanitizeLine(errorCause(e), 200)}\n${USAGE}`);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [item, ...extra] = parsed.positionals;
  if (item === undefined || item.trim() === "") {
    return out(json, EXIT_CODES.USAGE, `waive needs an item id\n${USAGE}`);
  }
  if (extra.length > 0) {
    return out(json, EXIT_CODES.USAGE, `waive takes one item id; quote the reason\n${USAGE}`);
  }
  if (!ITEM_RE.test(item)) {
    return out(
      json,
      EXIT_CODES.USAGE,
      `${sanitizeName(item)} is not an item id (lowercase letters, digits, ., _, -)`,
    );
  }
  const reason = parsed.values.reason?.trim() ?? "";
  if (reason === "") {
    return out(
      json,
      EXIT_CODES.USAGE,
      `waive needs --reason "<why the item does not apply>"\n${USAGE}`,
    );
  }

  let list: WaiveSkill[];
  try {
    list = await (skills ?? installedSkills)();
  } catch (e) {
    return out(
      json,
      EXIT_CODES.STATE_ERROR,
      `Installed skills could not be read: ${sanitizeLine(errorCause(e), 200)}`,
    );
  }
  const valid = async (s: WaiveSkill): Promise<Contract | undefined> => {
    if (s.contract === undefined || s.contract === null) return undefined;
    const v = await validateContract(s.contract);
    return v.ok ? v.contract : undefined;
  };

  const wanted = parsed.values.skill;
  let skillName: string;
  if (wanted !== undefined) {
    const w = wanted.trim().replace(/^\//, "");
    const entry = list.find((s) => s.name === w) ?? list.find((s) => s.altName === w) ??
      list.find((s) => base(s.name) === base(w));
    const shown = sanitizeName(w);
    if (!entry) return out(json, EXIT_CODES.NO_CONTRACT, `No installed skill is named ${shown}`);
    const contract = await valid(entry);
    if (!contract) {
      return out(
        json,
        EXIT_CODES.NO_CONTRACT,
        `${sanitizeLine(entry.file, 300)} declares no valid contract`,
      );
    }
    if (!contract.items.some((i) => i.id === item)) {
      return out(
        json,
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
      return out(json, EXIT_CODES.USAGE, `No installed skill's contract has an item ${item}`);
    }
    skillName = owners.map((s) => s.name).join(", ");
  }
  const shownReason = sanitizeLine(reason, 300);
  return out(
    json,
    0,
    `Waived ${item} for ${
      sanitizeLine(skillName, 200)
    }: ${shownReason}. This waiver counts for this session's current run only and is still counted as a miss for follow-up.`,
    { item, skill: wanted !== undefined ? skillName : null, reason: shownReason },
  );
}

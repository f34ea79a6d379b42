/**
 * Helpers the redirect tests share (a `_test.ts` name keeps it out of the package): the fixture
 * lookups, and a world for the Stop path.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { RedirectHookContext, RedirectSources, StopSources } from "./redirect.ts";
import { parsePayload } from "../host/payload.ts";
import { bash, jsonl, say, user } from "../../fixtures/transcripts/_build.ts";
import { claudeContext } from "../host/_kit_test.ts";

/** The fixture world's skills folder. */
export const SKILLS_DIR = fileURLToPath(new URL("../../fixtures/world/skills", import.meta.url));

/** The fixture world's skill names: its skill directory names. */
export function fixtureSkills(): Set<string> {
  const names = new Set<string>();
  for (const e of Deno.readDirSync(SKILLS_DIR)) if (e.isDirectory) names.add(e.name);
  return names;
}

/**
 * The agent names of the fixture world (`fixtures/world/agents`; `guide` is named twice there, once
 * under `meta:`). A test in `redirect_test.ts` checks this against the catalog of those files.
 */
export const FIXTURE_AGENTS: ReadonlySet<string> = new Set([
  "architect",
  "gherkin-expert",
  "guide",
  "prompt-writer",
  "security",
  "tla-plus-expert",
  "verus-expert",
]);

/** Sources over the fixture world: its agents and skills, with a spy on skill lookups. */
export function fixtureSources(): RedirectSources & { skillLookups: string[] } {
  const skills = fixtureSkills();
  const skillLookups: string[] = [];
  return {
    skillLookups,
    isAgent: (name) => FIXTURE_AGENTS.has(name),
    isSkill: (name) => {
      skillLookups.push(name);
      return skills.has(name);
    },
  };
}

/** The fixture transcripts folder. */
export const TRANSCRIPTS = fileURLToPath(new URL("../../fixtures/transcripts", import.meta.url));

/** Runs `fn` with a fresh temporary folder, removed afterwards. */
export async function withStateRoot(fn: (root: string) => Promise<void> | void): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "skillgate-redirect-state-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A Stop payload of session `sess-1` whose transcript is the world's (see {@link stopWorld}). */
export function stopPayload(extra: Record<string, unknown>, root: string): string {
  return JSON.stringify({
    session_id: "sess-1",
    hook_event_name: "Stop",
    transcript_path: `${root}/claude/projects/p/sess-1.jsonl`,
    stop_hook_active: false,
    ...extra,
  });
}

/** {@link stopPayload}, parsed as the hook parses it. */
export function stopEvent(extra: Record<string, unknown>, root: string) {
  return parsePayload(stopPayload(extra, root));
}

/** Log lines as `outcome:reason`; each line's extra fields are kept on `logs.fields`. */
export type Logs = string[] & { fields: Array<Record<string, string | number | boolean>> };

/**
 * A world for the Stop path: the transcript (a fixture's name, or a writer of the file) where the
 * host keeps it, a state root, and a hook context whose log lines `fn` gets.
 */
export async function stopWorld(
  fixture: string | ((path: string) => void),
  fn: (root: string, ctx: RedirectHookContext, logs: Logs) => Promise<void>,
): Promise<void> {
  await withStateRoot(async (root) => {
    Deno.mkdirSync(`${root}/claude/projects/p`, { recursive: true });
    const path = `${root}/claude/projects/p/sess-1.jsonl`;
    if (typeof fixture === "string") Deno.copyFileSync(`${TRANSCRIPTS}/${fixture}.jsonl`, path);
    else fixture(path);
    // Not enumerable: `logs` still compares equal to a plain list of lines.
    const logs = Object.defineProperty([] as string[], "fields", { value: [] }) as Logs;
    const ctx: RedirectHookContext = {
      stateRoot: `${root}/state`,
      ...claudeContext(`${root}/claude`),
      config: { path: "", exists: false, readable: true, values: {} },
      log: (outcome, reason, extra) => {
        logs.push(`${outcome}:${reason}`);
        logs.fields.push(extra ?? {});
      },
    };
    await fn(root, ctx, logs);
  });
}

/** The fixture sources, with the agent names the Stop path loads. */
export function stopSources(): StopSources & { skillLookups: string[] } {
  const s = fixtureSources();
  return Object.assign(s, {
    agentNames: () => Promise.resolve(new Set(["prompt-writer", "guide", "architect", "security"])),
  });
}

/** The last turn of a session with no failed Skill call. */
export const CLEAN_TURN: string = jsonl([
  user("tell me what module 7 does"),
  ...bash("toolu_c1", "cat src/m7.ts", "export const m7 = 7;\n".repeat(200)),
  say("Module 7 exports one constant."),
]);
/** {@link CLEAN_TURN}'s final text. */
export const CLEAN_FINAL = "Module 7 exports one constant.";
/** The fixture turn with `Unknown skill: prompt-writer`. */
export const FAILED_TURN: string = Deno.readTextFileSync(
  `${TRANSCRIPTS}/redirect_unknown_skill.jsonl`,
);
/** {@link FAILED_TURN}'s final text. */
export const FAILED_FINAL = "The requirements are written down above.";

/**
 * Host test harness for Codex CLI: a world (the shared temp home, project and state root, plus a
 * `CODEX_HOME`), skills in the project's `.agents/skills` and agents in `.codex/agents`, one
 * Responses API stand-in per world named in `$CODEX_HOME/config.toml`, `skillgate setup --codex`,
 * and `codex exec` runs read back: requests, hook payload effects, rollout, records.
 *
 * @module
 */

import { join } from "node:path";
import { type ClientRun, codexConfig, codexEnv, runClient } from "./clients.ts";
import {
  clients,
  FIXTURES,
  type HostWorld,
  makeHostWorld,
  readJsonl,
  runSkillgate,
} from "./harness.ts";
import {
  type ResponsesRequest,
  type ResponsesRule,
  type ResponsesStandIn,
  responsesTurns,
  startResponsesStandIn,
} from "./responses_stand_in.ts";

/** A world for Codex CLI. */
export interface CodexWorld extends HostWorld {
  /** `CODEX_HOME`. */
  codexHome: string;
  /** The stand-in the world's config names. */
  standIn: ResponsesStandIn;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/**
 * A fresh world: the project holds `.agents/skills/<skill>` and `.codex/agents/<agent>.toml` and a
 * `test.sh` that prints PASS; `$CODEX_HOME/config.toml` names a fresh stand-in.
 */
export async function makeCodexWorld(
  label: string,
  opts: { skills?: string[]; agents?: string[] } = {},
): Promise<CodexWorld> {
  const w = await makeHostWorld(`codex-${label}`);
  const codexHome = join(w.root, "codex");
  await Deno.mkdir(codexHome, { recursive: true });
  for (const s of opts.skills ?? []) {
    await copyTree(join(FIXTURES, "skills", s), join(w.project, ".agents", "skills", s));
  }
  for (const a of opts.agents ?? []) {
    await Deno.mkdir(join(w.project, ".codex", "agents"), { recursive: true });
    await Deno.copyFile(
      join(FIXTURES, "codex", "agents", `${a}.toml`),
      join(w.project, ".codex", "agents", `${a}.toml`),
    );
  }
  await Deno.writeTextFile(join(w.project, "test.sh"), "echo PASS\n");
  const standIn = startResponsesStandIn([]);
  await Deno.writeTextFile(join(codexHome, "config.toml"), codexConfig(standIn.baseUrl));
  return { ...w, codexHome, standIn };
}

/** Reads a Codex scenario script (`fixtures/host/codex/scripts/<name>.json`). */
export async function loadCodexScript(name: string): Promise<ResponsesRule[]> {
  return JSON.parse(
    await Deno.readTextFile(join(FIXTURES, "codex", "scripts", `${name}.json`)),
  );
}

/** The Codex CLI executable. */
export async function codexBin(): Promise<string> {
  return (await clients()).codex;
}

/** Runs `skillgate <args>` for a Codex world (its `CODEX_HOME`, the client findable or not). */
export async function codexSkillgate(
  w: CodexWorld,
  args: string[],
  opts: { codexFindable?: boolean } = {},
): Promise<ClientRun> {
  // Codex CLI sets no CLAUDE_CONFIG_DIR for its hooks: setup runs without it too.
  return await runSkillgate(w, args, {
    CLAUDE_CONFIG_DIR: "",
    CODEX_HOME: w.codexHome,
    SKILLGATE_CODEX_BIN: opts.codexFindable === false ? join(w.root, "no-codex") : await codexBin(),
  });
}

/** What one `codex exec` left behind. */
export interface CodexSession {
  /** The process outcome. */
  run: ClientRun;
  /** The thread (session) id from `--json` output. */
  sessionId: string;
  /** The model requests of this run. */
  turns: ResponsesRequest[];
  /** The rollout path of the main thread. */
  rolloutPath: string;
  /** Its records. */
  rollout: Record<string, unknown>[];
}

async function findRollout(dir: string, sessionId: string): Promise<string> {
  const walk = async (d: string): Promise<string | undefined> => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) {
        const f = await walk(p);
        if (f) return f;
      } else if (e.name.startsWith("rollout-") && e.name.endsWith(`${sessionId}.jsonl`)) return p;
    }
    return undefined;
  };
  try {
    return (await walk(dir)) ?? "";
  } catch {
    return "";
  }
}

/** Runs `codex exec` once in the world's project, the stand-in playing `rules`. */
export async function runCodex(
  w: CodexWorld,
  opts: { prompt: string; rules: ResponsesRule[]; env?: Record<string, string>; args?: string[] },
): Promise<CodexSession> {
  w.standIn.setRules(opts.rules);
  const before = w.standIn.requests.length;
  const deno = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache", "deno");
  const run = await runClient(
    await codexBin(),
    ["exec", "--json", "--trust", ...(opts.args ?? []), opts.prompt],
    {
      cwd: w.project,
      env: codexEnv(w.home, w.codexHome, {
        DENO_DIR: deno,
        SKILLGATE_STATE_ROOT: w.stateRoot,
        ...(opts.env ?? {}),
      }),
      timeoutMs: 120_000,
    },
  );
  let sessionId = "";
  for (const line of run.stdout.split("\n")) {
    try {
      const ev = JSON.parse(line);
      if (ev?.type === "thread.started" && typeof ev.thread_id === "string") {
        sessionId = ev.thread_id;
      }
    } catch {
      // not an event line
    }
  }
  const rolloutPath = sessionId ? await findRollout(join(w.codexHome, "sessions"), sessionId) : "";
  return {
    run,
    sessionId,
    turns: responsesTurns(w.standIn.requests.slice(before)),
    rolloutPath,
    rollout: rolloutPath ? await readJsonl(rolloutPath) : [],
  };
}

/** Closes the world's stand-in and removes the world (unless SKILLGATE_HOST_KEEP is set). */
export async function removeCodexWorld(w: CodexWorld): Promise<void> {
  await w.standIn.close();
  if (Deno.env.get("SKILLGATE_HOST_KEEP")) {
    console.error(`host tests: kept ${w.root}`);
    return;
  }
  await Deno.remove(w.root, { recursive: true }).catch(() => {});
}

/**
 * Host test harness for Gemini CLI: a world (the shared temp home, project and state root, plus a
 * `GEMINI_CLI_HOME` whose `.gemini/settings.json` holds the user's own settings (with comments): API
 * key auth, no
 * telemetry, no auto-update, and a hook of the user's), skills in the project's `.agents/skills`
 * and agents in `~/.gemini/agents`, one Gemini API stand-in per world, `skillgate setup --gemini`,
 * and `gemini -p` runs read back: requests, the chat transcript, records.
 *
 * @module
 */

import { join } from "node:path";
import { type ClientRun, ensureGemini, geminiEnv, runClient } from "./clients.ts";
import {
  copyTree,
  FIXTURES,
  type HostWorld,
  makeHostWorld,
  readJsonl,
  runSkillgate,
} from "./harness.ts";
import {
  type GeminiRule,
  type GeminiStandIn,
  geminiTurns,
  startGeminiStandIn,
} from "./gemini_stand_in.ts";
import type { RecordedRequest } from "./stand_in.ts";

/** A world for Gemini CLI. */
export interface GeminiWorld extends HostWorld {
  /** `GEMINI_CLI_HOME` (the client's home: its folder is `<geminiHome>/.gemini`). */
  geminiHome: string;
  /** `<geminiHome>/.gemini`. */
  geminiDir: string;
  /** The stand-in. */
  standIn: GeminiStandIn;
}

/** The user's own hook in the world's settings (setup and uninstall must keep it). */
export const USER_HOOK = {
  type: "command",
  name: "users-own-hook",
  command: "true",
  timeout: 5000,
};

/** The user's own settings the world starts with. */
export function userSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true },
    hooks: { SessionStart: [{ hooks: [USER_HOOK] }] },
  };
}

/** The extension a world installs its skills and agents in, with `place: "extension"`. */
export const FIXTURE_EXTENSION = "skillgate-fixture-ext";

/**
 * The user's settings as their file holds them: with comments, which Gemini CLI strips (setup and
 * uninstall must keep every one).
 */
export function userSettingsText(): string {
  const body = JSON.stringify(userSettings(), null, 2)
    .replace('"security": {', '/* auth by API key */\n  "security": {')
    .replace(
      '"telemetry": {\n    "enabled": false\n  },',
      '"telemetry": {\n    "enabled": false // off\n  },',
    );
  return `// my Gemini CLI settings\n${body}\n`;
}

/**
 * A fresh world: the project holds `.agents/skills/<skill>` and a `test.sh` that prints PASS;
 * `~/.gemini/agents/<agent>.md` the agents; `~/.gemini/settings.json` the user's own settings.
 * With `place: "extension"` the skills and agents are an extension's
 * (`~/.gemini/extensions/<FIXTURE_EXTENSION>/skills`, `agents`); with `"cli-home"` the skills are
 * in `$GEMINI_CLI_HOME/.agents/skills` (the world's `GEMINI_CLI_HOME` is not its `HOME`); with
 * `"project-agents"` the agents are the project's (`.gemini/agents`).
 */
export async function makeGeminiWorld(
  label: string,
  opts: {
    skills?: string[];
    agents?: string[];
    place?: "project" | "extension" | "cli-home" | "project-agents";
  } = {},
): Promise<GeminiWorld> {
  const w = await makeHostWorld(`gemini-${label}`);
  const geminiHome = join(w.root, "gemini-home");
  const geminiDir = join(geminiHome, ".gemini");
  await Deno.mkdir(geminiDir, { recursive: true });
  const extension = join(geminiDir, "extensions", FIXTURE_EXTENSION);
  const skillsDir = opts.place === "extension"
    ? join(extension, "skills")
    : opts.place === "cli-home"
    ? join(geminiHome, ".agents", "skills")
    : join(w.project, ".agents", "skills");
  const agentsDir = opts.place === "extension"
    ? join(extension, "agents")
    : opts.place === "project-agents"
    ? join(w.project, ".gemini", "agents")
    : join(geminiDir, "agents");
  if (opts.place === "extension") {
    await Deno.mkdir(extension, { recursive: true });
    await Deno.writeTextFile(
      join(extension, "gemini-extension.json"),
      JSON.stringify({ name: FIXTURE_EXTENSION, version: "1.0.0" }),
    );
  }
  for (const s of opts.skills ?? []) {
    await copyTree(join(FIXTURES, "skills", s), join(skillsDir, s));
  }
  for (const a of opts.agents ?? []) {
    await Deno.mkdir(agentsDir, { recursive: true });
    await Deno.copyFile(join(FIXTURES, "agents", `${a}.md`), join(agentsDir, `${a}.md`));
  }
  await Deno.writeTextFile(join(w.project, "test.sh"), "echo PASS\n");
  await Deno.writeTextFile(join(w.project, "auth.txt"), "old line\n");
  await Deno.writeTextFile(
    join(geminiDir, "settings.json"),
    userSettingsText(),
  );
  return { ...w, geminiHome, geminiDir, standIn: startGeminiStandIn([]) };
}

/** Reads a Gemini scenario script (`fixtures/host/gemini/scripts/<name>.json`). */
export async function loadGeminiScript(name: string): Promise<GeminiRule[]> {
  return JSON.parse(
    await Deno.readTextFile(join(FIXTURES, "gemini", "scripts", `${name}.json`)),
  );
}

/** Runs `skillgate <args>` for a Gemini world (its `GEMINI_CLI_HOME`; no Claude config dir). */
export async function geminiSkillgate(w: GeminiWorld, args: string[]): Promise<ClientRun> {
  return await runSkillgate(w, args, { CLAUDE_CONFIG_DIR: "", GEMINI_CLI_HOME: w.geminiHome });
}

/** What one `gemini -p` run left behind. */
export interface GeminiSession {
  /** The process outcome. */
  run: ClientRun;
  /** The session id (from the `init` line of stream-json). */
  sessionId: string;
  /** The stream-json events. */
  events: Record<string, unknown>[];
  /** The model requests of this run. */
  turns: RecordedRequest[];
  /** The chat transcript's path. */
  chatPath: string;
  /** Its records, as written (a record rewritten under its id appears more than once). */
  chat: Record<string, unknown>[];
}

async function findChat(chats: string, sessionId: string): Promise<string> {
  try {
    for await (const e of Deno.readDir(chats)) {
      if (e.isFile && e.name.startsWith("session-") && e.name.endsWith(".jsonl")) {
        const p = join(chats, e.name);
        const first = (await Deno.readTextFile(p)).split("\n", 1)[0];
        if (first.includes(`"sessionId":"${sessionId}"`)) return p;
      }
    }
  } catch {
    // no chats folder
  }
  return "";
}

/** Runs `gemini -p` once in the world's project, the stand-in playing `rules`. */
export async function runGemini(
  w: GeminiWorld,
  opts: { prompt: string; rules: GeminiRule[]; env?: Record<string, string> },
): Promise<GeminiSession> {
  w.standIn.setRules(opts.rules);
  const before = w.standIn.requests.length;
  const deno = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache", "deno");
  const run = await runClient(
    await ensureGemini(),
    [
      "-p",
      opts.prompt,
      "--yolo",
      "-m",
      "gemini-2.5-pro",
      "--output-format",
      "stream-json",
    ],
    {
      cwd: w.project,
      env: geminiEnv(w.home, w.geminiHome, w.standIn.baseUrl, {
        DENO_DIR: deno,
        SKILLGATE_STATE_ROOT: w.stateRoot,
        ...(opts.env ?? {}),
      }),
      timeoutMs: 150_000,
    },
  );
  const events: Record<string, unknown>[] = [];
  for (const line of run.stdout.split("\n")) {
    try {
      const ev = JSON.parse(line);
      if (ev && typeof ev === "object") events.push(ev);
    } catch {
      // not an event line
    }
  }
  const init = events.find((e) => e.type === "init");
  const sessionId = typeof init?.session_id === "string" ? init.session_id : "";
  const chats = join(w.geminiDir, "tmp", "project", "chats");
  const chatPath = sessionId ? await findChat(chats, sessionId) : "";
  return {
    run,
    sessionId,
    events,
    turns: geminiTurns(w.standIn.requests.slice(before)),
    chatPath,
    chat: chatPath ? await readJsonl(chatPath) : [],
  };
}

/** Closes the world's stand-in and removes the world (unless SKILLGATE_HOST_KEEP is set). */
export async function removeGeminiWorld(w: GeminiWorld): Promise<void> {
  await w.standIn.close();
  if (Deno.env.get("SKILLGATE_HOST_KEEP")) {
    console.error(`host tests: kept ${w.root}`);
    return;
  }
  await Deno.remove(w.root, { recursive: true }).catch(() => {});
}

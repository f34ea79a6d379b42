/**
 * Writes the routing and Skill(agent) cases as shell scripts for `hyperfine`, so that hook bundles
 * of two checkouts (copies of `hooks/dist/`) can be compared in one invocation with an empty
 * `deno run`. Each script `exec`s the command `skillgate setup` registers (`denoRunArgs` of the
 * hook table, `HOOK_V8_FLAGS` included) under a clean environment, with the payload on stdin:
 *
 * - `r60-<tag>.sh`, `r1000-<tag>.sh`: `skill-route` with 60 and 1,000 skills (the worlds of
 *   `route_bench.ts`, index built, the prompt routed);
 * - `a500-<tag>.sh`: `skill-redirect`, `Skill(bench-agent-123)` with 500 agents and 500 skills;
 * - `a39-<tag>.sh`: the same with 39 agents and 59 skills (`Skill(bench-agent-7)`);
 * - `c768-<tag>.sh`, `c10-<tag>.sh`: `skill-contract` at a Stop of a 32 MiB session whose unmet
 *   investigate run (768 KiB, 10 KiB) is at its end, with `stop_hook_active` (the world and
 *   payloads of `contract_stop_bench.ts`: every stop reads, checks and allows without recording);
 * - `empty.sh`: the empty script every ratio is taken against.
 *
 * The catalog indexes are warmed as another hook would (the redirect may not write them).
 *
 * Run: `deno run -A bench/hyperfine_cases.ts <out dir> <tag> <bundle dir>`, then for example
 * `cd <out dir> && hyperfine -N -w 3 -r 20 "sh empty.sh" "sh r60-a.sh" "sh r60-b.sh"`.
 *
 * @module
 */

import { join } from "node:path";
import { routeCase } from "./route_bench.ts";
import { claudeFolders, finalTextOf, writeSyntheticInstall } from "./fixtures.ts";
import { writeTranscript } from "./contract_stop_bench.ts";
import { denoRunArgs, hookRow } from "../lib/hook/table.ts";
import { loadCatalog } from "../lib/catalog/catalog.ts";

function denoDir(): string {
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return fromEnv;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return join(xdg ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Writes one case's script and payload.
 *
 * @param out The output directory.
 * @param name The script's name.
 * @param args The arguments after `deno`.
 * @param env The environment (PATH is added).
 * @param stdin The payload.
 * @param cwd The working directory.
 */
function writeCase(
  out: string,
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  stdin: string,
  cwd: string,
): void {
  const payload = join(out, `${name}.json`);
  Deno.writeTextFileSync(payload, stdin);
  const vars = Object.entries({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env })
    .map(([k, v]) => `${k}=${quote(v)}`).join(" ");
  Deno.writeTextFileSync(
    join(out, `${name}.sh`),
    `cd ${quote(cwd)} && exec env -i ${vars} ${quote(Deno.execPath())} ${
      args.map(quote).join(" ")
    } < ${quote(payload)}\n`,
  );
}

if (import.meta.main) {
  const [out, tag, dist] = Deno.args;
  if (!out || !tag || !dist || !/^[A-Za-z0-9_-]+$/.test(tag)) {
    console.error("Usage: deno run -A bench/hyperfine_cases.ts <out dir> <tag> <bundle dir>");
    Deno.exit(2);
  }
  const worlds = join(out, tag);
  Deno.mkdirSync(worlds, { recursive: true });
  for (const [label, n] of [["r60", 60], ["r1000", 1000]] as const) {
    const c = await routeCase(label, worlds, n, { bundle: join(dist, "skill_route.js") });
    const o = c.opts as { env: Record<string, string>; stdin: string; cwd: string };
    writeCase(out, `${label}-${tag}`, c.args ?? [], o.env, o.stdin, o.cwd);
  }
  const redirects = [["a500", 500, 500, "bench-agent-123"], ["a39", 59, 39, "bench-agent-7"]];
  for (const [label, skills, agents, name] of redirects as [string, number, number, string][]) {
    const home = join(worlds, label);
    const claude = join(home, ".claude");
    const state = join(home, ".skillgate");
    const project = join(home, "project");
    Deno.mkdirSync(join(project, ".git"), { recursive: true });
    writeSyntheticInstall(claude, skills, agents);
    await loadCatalog({
      hostFolders: claudeFolders(claude),
      cwd: project,
      projectDir: project,
      stateRoot: state,
    });
    const args = denoRunArgs(
      hookRow("skill-redirect"),
      { stateRoot: state, hostFolders: claudeFolders(claude) },
      join(dist, "skill_redirect.js"),
    );
    const env = {
      HOME: home,
      CLAUDE_CONFIG_DIR: claude,
      CLAUDE_PROJECT_DIR: project,
      SKILLGATE_STATE_ROOT: state,
      DENO_DIR: denoDir(),
      NO_COLOR: "1",
    };
    const stdin = JSON.stringify({
      session_id: "bench-session",
      hook_event_name: "PreToolUse",
      cwd: project,
      tool_name: "Skill",
      tool_input: { skill: name },
      tool_use_id: "toolu_bench",
    });
    writeCase(out, `${label}-${tag}`, args, env, stdin, project);
  }
  const home = join(worlds, "contract");
  const claude = join(home, ".claude");
  const state = join(home, ".skillgate");
  const projects = join(claude, "projects", "-home-dev-app");
  Deno.mkdirSync(join(claude, "skills", "investigate"), { recursive: true });
  Deno.mkdirSync(projects, { recursive: true });
  Deno.copyFileSync(
    join(import.meta.dirname!, "..", "fixtures", "world", "skills", "investigate", "SKILL.md"),
    join(claude, "skills", "investigate", "SKILL.md"),
  );
  const contractArgs = denoRunArgs(
    hookRow("skill-contract"),
    { stateRoot: state, hostFolders: claudeFolders(claude) },
    join(dist, "skill_contract.js"),
  );
  const contractEnv = {
    HOME: home,
    CLAUDE_CONFIG_DIR: claude,
    SKILLGATE_STATE_ROOT: state,
    DENO_DIR: denoDir(),
    NO_COLOR: "1",
  };
  for (const [label, kib] of [["c768", 768], ["c10", 10]] as const) {
    const transcript = join(projects, `${label}.jsonl`);
    writeTranscript(transcript, 32 * 1024 * 1024, kib * 1024, "stop_unmet");
    const stdin = JSON.stringify({
      session_id: `bench-${label}`,
      transcript_path: transcript,
      cwd: "/home/dev/app",
      hook_event_name: "Stop",
      stop_hook_active: true,
      last_assistant_message: finalTextOf("stop_unmet"),
    });
    writeCase(out, `${label}-${tag}`, contractArgs, contractEnv, stdin, worlds);
  }
  Deno.writeTextFileSync(join(out, "empty.ts"), "");
  writeCase(
    out,
    "empty",
    ["run", "--no-prompt", "--no-config", join(out, "empty.ts")],
    { DENO_DIR: denoDir() },
    "",
    out,
  );
  console.log(`bench: cases for ${tag} written to ${out}`);
}

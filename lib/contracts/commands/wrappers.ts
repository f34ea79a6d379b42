/**
 * Wrappers a command runs behind (`sudo`, `env`, `timeout 60`, `bundle exec`, `uv run`,
 * `docker compose run app`, `ssh host`, …): {@link unwrap} drops them, with their flags, so the
 * classifier and the recognition of skillgate's own commands see the program that really runs.
 *
 * @module
 */

import { baseName, isAssignment } from "./shell_words.ts";
import { nameSaysCheck, SCRIPT_TOOLS } from "./programs.ts";

/** Plain prefix wrappers: drop them (and their flags) and classify the rest. */
export const PREFIX_WRAPPERS: ReadonlySet<string> = new Set([
  "sudo",
  "env",
  "time",
  "nice",
  "nohup",
  "timeout",
  "gtimeout",
  "stdbuf",
  "exec",
  "command",
  "builtin",
  "xvfb-run",
  "caffeinate",
  "chronic",
  "unbuffer",
  "dotenv",
  "xargs",
  "watch",
  "flock",
  "ionice",
  "taskset",
  "script",
  "strace",
  "valgrind",
  "catchsegv",
  "!",
  "coverage",
  "c8",
  "nyc",
]);

/** Wrapper flags that take a separate value. */
export const FLAGS_WITH_VALUE: ReadonlySet<string> = new Set([
  "-u",
  "--user",
  "-e",
  "--env",
  "-v",
  "--volume",
  "-w",
  "--workdir",
  "--name",
  "-p",
  "--publish",
  "--entrypoint",
  "--env-file",
  "--network",
  "--net",
  "-l",
  "--label",
  "--platform",
  "--mount",
  "-s",
  "--server-args",
  "-n",
  "-k",
  "--kill-after",
  "--signal",
  "-o",
  "--with",
  "--python",
  "--project",
  "--directory",
  "--package",
  "-f",
  "--file",
  "-c",
  "--config",
  "--profile",
  "--cwd",
  "--filter",
  "-F",
  "-C",
  "--prefix",
  "--reporter",
  "-r",
  "--require",
  "-I",
  "-L",
  "-P",
  "--group",
  "-g",
]);

/**
 * Skips the flags at `i` (a flag of {@link FLAGS_WITH_VALUE} with its value; `--` ends them).
 *
 * @param tokens The words.
 * @param i Where the flags start.
 * @returns The index of the first word after them.
 */
export function skipFlags(tokens: string[], i: number): number {
  while (i < tokens.length) {
    const t = tokens[i];
    if (t === "--") return i + 1;
    if (!t.startsWith("-") || t === "-") break;
    if (!t.includes("=") && FLAGS_WITH_VALUE.has(t)) i += 2;
    else i += 1;
  }
  return i;
}

/**
 * Strips leading assignments and wrappers, any number deep. A project script whose name says
 * check (`hatch run test`) comes back as the one word `<tool>-script:<name>`.
 *
 * @param tokens The words of one command part.
 * @param depth How many wrappers were stripped already (the recursion stops at 12).
 * @returns The words from the real command word on (none when a wrapper runs nothing).
 */
export function unwrap(tokens: string[], depth = 0): string[] {
  let i = 0;
  while (i < tokens.length && (isAssignment(tokens[i]) || tokens[i] === "!")) i++;
  if (i >= tokens.length || depth > 12) return tokens.slice(i);
  const cmd = baseName(tokens[i]);
  const rest = tokens.slice(i + 1);
  const next = (j: number) => unwrap(rest.slice(j), depth + 1);
  if (PREFIX_WRAPPERS.has(cmd)) {
    let j = skipFlags(rest, 0);
    if (cmd === "env") { while (j < rest.length && isAssignment(rest[j])) j++; }
    if ((cmd === "timeout" || cmd === "gtimeout") && j < rest.length && /^\d/.test(rest[j])) j++;
    if ((cmd === "coverage") && rest[j] === "run") j = skipFlags(rest, j + 1);
    if (cmd === "flock" && j < rest.length) j++;
    if (cmd === "watch" || cmd === "dotenv") j = skipFlags(rest, j);
    return next(j);
  }
  const sub = rest[0];
  if (cmd === "bundle" && sub === "exec") return next(skipFlags(rest, 1));
  // `hatch run test` names a project script (here one called test), not the shell's `test`.
  if (SCRIPT_TOOLS.has(cmd) && sub === "run") {
    const script = rest[skipFlags(rest, 1)];
    if (
      script !== undefined && !script.includes("/") && nameSaysCheck(script.replace(/^.*:/, ""))
    ) {
      return [`${cmd}-script:${script}`];
    }
  }
  // `ssh [options] host command …` runs the command on the host.
  if (cmd === "ssh") {
    let j = 0;
    while (j < rest.length && rest[j].startsWith("-")) {
      j += /^-[BbcDEeFIiJLlmOoPpQRSWw]$/.test(rest[j]) ? 2 : 1;
    }
    return j + 1 < rest.length ? next(j + 1) : tokens.slice(i);
  }
  if (
    ["uv", "poetry", "pipenv", "pdm", "rye", "hatch", "conda", "micromamba", "mamba"].includes(
      cmd,
    ) && sub === "run"
  ) {
    let j = skipFlags(rest, 1);
    if ((cmd === "conda" || cmd === "mamba" || cmd === "micromamba") && rest[j]) {
      j = skipFlags(rest, j);
    }
    return next(j);
  }
  if (cmd === "uvx" || cmd === "pipx" && sub === "run") {
    return next(skipFlags(rest, cmd === "uvx" ? 0 : 1));
  }
  if (cmd === "npx" || cmd === "bunx" || cmd === "pnpx") return next(skipFlags(rest, 0));
  if ((cmd === "pnpm" || cmd === "yarn" || cmd === "npm") && (sub === "exec" || sub === "dlx")) {
    return next(skipFlags(rest, 1));
  }
  if (cmd === "bun" && sub === "x") return next(skipFlags(rest, 1));
  if ((cmd === "mise" || cmd === "rtx") && (sub === "exec" || sub === "x")) {
    return next(skipFlags(rest, 1));
  }
  if (cmd === "asdf" && sub === "exec") return next(1);
  if (cmd === "direnv" && sub === "exec") return next(2);
  if (cmd === "nix" && (sub === "develop" || sub === "shell")) {
    const k = rest.indexOf("-c") >= 0 ? rest.indexOf("-c") : rest.indexOf("--command");
    return k >= 0 ? next(k + 1) : [];
  }
  if ((cmd === "docker" || cmd === "podman") && (sub === "compose" || sub === "container")) {
    const op = rest[1];
    if (op === "run" || op === "exec") {
      const j = skipFlags(rest, 2);
      return next(j + 1); // the service/container name
    }
    return tokens.slice(i);
  }
  if (cmd === "docker-compose" || cmd === "podman-compose") {
    if (sub === "run" || sub === "exec") return next(skipFlags(rest, 1) + 1);
    return tokens.slice(i);
  }
  if ((cmd === "docker" || cmd === "podman") && (sub === "run" || sub === "exec")) {
    return next(skipFlags(rest, 1) + 1);
  }
  if (cmd === "kubectl" && sub === "exec") {
    const k = rest.indexOf("--");
    return k >= 0 ? next(k + 1) : [];
  }
  if (cmd === "ddev" && sub === "exec") return next(1);
  return tokens.slice(i);
}

/**
 * A stand-in for `codex app-server` (named `_test.ts` so it is never published), for the unit tests
 * of Codex CLI's hook trust. It speaks the three methods skillgate uses, as Codex CLI 0.169.0 does:
 * `hooks/list` reads `$CODEX_HOME/hooks.json` and each cwd's `.codex/hooks.json` (Claude Code's
 * settings shape) and keys each hook `<file>:<snake_event>:<group>:<index>`; `config/batchWrite`
 * applies `…trusted_hash` upserts and `null` replacements of `hooks.state."<key>"` to a JSON file
 * of trusted hashes (`$CODEX_HOME/trust.json`, instead of config.toml). Every request is appended to
 * `$CODEX_HOME/requests.jsonl`. The hash is the SHA-256 of the command (the real one hashes more).
 *
 * @module
 */

import { join } from "node:path";

/** Writes an executable that runs this stand-in as `<bin> app-server`, and returns its path. */
export function writeFakeCodex(dir: string): string {
  const bin = join(dir, "codex");
  const denoDir = Deno.env.get("DENO_DIR");
  Deno.writeTextFileSync(
    bin,
    `#!/bin/sh\n${denoDir ? `DENO_DIR='${denoDir}' ` : ""}exec '${Deno.execPath()}' run -A ` +
      `--no-check '${new URL(import.meta.url).pathname}' "$@"\n`,
  );
  Deno.chmodSync(bin, 0o755);
  return bin;
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function snake(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

async function serve(): Promise<void> {
  const home = Deno.env.get("CODEX_HOME")!;
  const trustFile = join(home, "trust.json");
  const trust = (): Record<string, string> => {
    try {
      return JSON.parse(Deno.readTextFileSync(trustFile));
    } catch {
      return {};
    }
  };
  const hooksOf = async (path: string) => {
    let doc: { hooks?: Record<string, { hooks?: { command?: string }[] }[]> };
    try {
      doc = JSON.parse(Deno.readTextFileSync(path));
    } catch {
      return [];
    }
    const out = [];
    const t = trust();
    for (const [event, groups] of Object.entries(doc.hooks ?? {})) {
      for (const [g, group] of groups.entries()) {
        for (const [i, h] of (group.hooks ?? []).entries()) {
          const key = `${path}:${snake(event)}:${g}:${i}`;
          const currentHash = `sha256:${await sha256(String(h.command))}`;
          out.push({
            key,
            command: h.command,
            eventName: event[0].toLowerCase() + event.slice(1),
            sourcePath: path,
            currentHash,
            trustStatus: t[key] === undefined
              ? "untrusted"
              : t[key] === currentHash
              ? "trusted"
              : "modified",
          });
        }
      }
    }
    return out;
  };
  let buf = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let n;
    while ((n = buf.indexOf("\n")) >= 0) {
      const msg = JSON.parse(buf.slice(0, n));
      buf = buf.slice(n + 1);
      Deno.writeTextFileSync(join(home, "requests.jsonl"), JSON.stringify(msg) + "\n", {
        append: true,
      });
      if (msg.id === undefined) continue;
      let result: unknown = {};
      if (msg.method === "hooks/list") {
        const cwds: string[] = msg.params?.cwds ?? [];
        result = {
          data: await Promise.all(cwds.map(async (cwd) => ({
            cwd,
            hooks: [
              ...await hooksOf(join(home, "hooks.json")),
              ...await hooksOf(join(cwd, ".codex", "hooks.json")),
            ],
          }))),
        };
      } else if (msg.method === "config/batchWrite") {
        const t = trust();
        for (const e of msg.params.edits) {
          const m = /^hooks\.state\.("(?:[^"\\]|\\.)*")(\.trusted_hash)?$/.exec(e.keyPath);
          if (!m) throw new Error(`unexpected keyPath ${e.keyPath}`);
          const key = JSON.parse(m[1]);
          if (m[2] && e.mergeStrategy === "upsert") t[key] = e.value;
          else if (!m[2] && e.value === null && e.mergeStrategy === "replace") delete t[key];
          else throw new Error(`unexpected edit ${JSON.stringify(e)}`);
        }
        Deno.writeTextFileSync(trustFile, JSON.stringify(t));
        result = { status: "ok" };
      }
      const answer = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\n";
      await Deno.stdout.write(new TextEncoder().encode(answer));
    }
  }
}

if (import.meta.main && Deno.args[0] === "app-server") await serve();

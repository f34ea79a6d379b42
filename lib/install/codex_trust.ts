/**
 * Codex CLI's hook trust, through the client's own app-server (`codex app-server`, JSON-RPC over
 * stdio; observed with Codex CLI 0.169.0): Codex CLI skips a hook silently until the user trusts
 * it, and stores the trust per hook as a hash of its content in `config.toml`. skillgate never
 * computes or writes that hash itself: `hooks/list` says which hooks are trusted (doctor), and
 * `config/batchWrite` of each hook's `currentHash` trusts skillgate's own hooks (setup), exactly as
 * the client's review does, and a `null` in place of a hook's `hooks.state` entry takes it back
 * (uninstall: `uninstall_trust.ts`).
 *
 * @module
 */

import { findOnPath } from "./hook_commands.ts";

/** One hook as Codex CLI's `hooks/list` reports it. */
export interface CodexHookState {
  /** The hook's key (`<hooks.json path>:<event>:<group>:<index>`). */
  readonly key: string;
  /** Its command line. */
  readonly command: string;
  /** Its event (`preToolUse`, ...). */
  readonly eventName: string;
  /** The file it is in. */
  readonly sourcePath: string;
  /** The hash of its content, as the client computes it. */
  readonly currentHash: string;
  /** `trusted`, `untrusted`, or another word of a later client (`modified`, ...). */
  readonly trustStatus: string;
}

/** Where the Codex CLI executable is: `SKILLGATE_CODEX_BIN`, else `codex` on `PATH`. */
export function findCodex(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const explicit = env.SKILLGATE_CODEX_BIN;
  if (explicit) {
    try {
      return Deno.statSync(explicit).isFile ? explicit : undefined;
    } catch {
      return undefined;
    }
  }
  return findOnPath("codex", env.PATH);
}

/** A short-lived `codex app-server`, spoken to one request at a time. */
class AppServer {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly lines: AsyncIterator<string>;
  private id = 0;

  constructor(bin: string, env: Record<string, string>, cwd: string) {
    this.child = new Deno.Command(bin, {
      args: ["app-server"],
      cwd,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.lines = this.child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new LineSplitter(),
    )[Symbol.asyncIterator]();
  }

  async notify(method: string, params?: unknown): Promise<void> {
    const msg = { jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) };
    await this.writer.write(new TextEncoder().encode(JSON.stringify(msg) + "\n"));
  }

  async request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = ++this.id;
    await this.writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"),
    );
    for (;;) {
      const next = await this.lines.next();
      if (next.done) throw new Error(`codex app-server closed before answering ${method}`);
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(next.value);
      } catch {
        continue;
      }
      if (msg.id !== id) continue;
      if (msg.error) {
        const e = msg.error as { message?: unknown };
        throw new Error(
          `codex app-server ${method}: ${String(e.message ?? "error").slice(0, 200)}`,
        );
      }
      return (msg.result ?? {}) as Record<string, unknown>;
    }
  }

  async close(): Promise<void> {
    try {
      await this.writer.close();
    } catch {
      // already closed
    }
    try {
      this.child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await this.child.status.catch(() => {});
  }
}

/** Splits a text stream into lines. */
class LineSplitter extends TransformStream<string, string> {
  constructor() {
    let buf = "";
    super({
      transform(chunk, ctl) {
        buf += chunk;
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          ctl.enqueue(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      },
      flush(ctl) {
        if (buf) ctl.enqueue(buf);
      },
    });
  }
}

async function withAppServer<T>(
  bin: string,
  env: Record<string, string>,
  cwd: string,
  fn: (s: AppServer) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  const server = new AppServer(bin, env, cwd);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const work = async () => {
      await server.request("initialize", { clientInfo: { name: "skillgate", version: "1" } });
      await server.notify("initialized");
      return await fn(server);
    };
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error("codex app-server did not answer in time")),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await server.close();
  }
}

/** The hooks of a `hooks/list` answer, each once (the user's file is listed for every cwd). */
function hookStates(result: Record<string, unknown>): CodexHookState[] {
  const out: CodexHookState[] = [];
  const seen = new Set<string>();
  for (const d of Array.isArray(result.data) ? result.data : []) {
    for (const h of Array.isArray(d?.hooks) ? d.hooks : []) {
      if (typeof h?.key !== "string" || typeof h.command !== "string" || seen.has(h.key)) continue;
      seen.add(h.key);
      out.push({
        key: h.key,
        command: h.command,
        eventName: String(h.eventName ?? ""),
        sourcePath: String(h.sourcePath ?? ""),
        currentHash: String(h.currentHash ?? ""),
        trustStatus: String(h.trustStatus ?? ""),
      });
    }
  }
  return out;
}

/** Options of the app-server calls. */
export interface CodexTrustOptions {
  /** The Codex CLI executable. */
  readonly bin: string;
  /** Its environment (`CODEX_HOME`, `HOME`, `PATH`). */
  readonly env: Record<string, string>;
  /** The project directory whose `.codex/hooks.json` counts too. */
  readonly cwd: string;
  /** Every project directory whose hooks to list (default: `cwd` alone). */
  readonly cwds?: readonly string[];
  /** How long the app-server may take (default 20 s). */
  readonly timeoutMs?: number;
}

/**
 * Every hook Codex CLI sees for a project, with its trust status.
 *
 * @param opts The executable, environment and project.
 * @returns The hooks.
 * @throws {Error} When the app-server cannot be run or does not answer.
 */
export function listCodexHooks(opts: CodexTrustOptions): Promise<CodexHookState[]> {
  return withAppServer(opts.bin, opts.env, opts.cwd, async (s) => {
    return hookStates(await s.request("hooks/list", { cwds: opts.cwds ?? [opts.cwd] }));
  }, opts.timeoutMs ?? 20_000);
}

/**
 * Trusts the hooks that `mine` picks (skillgate's own), through the client's `config/batchWrite`
 * of each one's current hash, as the client's review does; other hooks are left as they are.
 *
 * @param opts The executable, environment and project.
 * @param mine Whether a hook is skillgate's.
 * @returns The hooks now trusted by this call, and skillgate's hooks that already were.
 * @throws {Error} When the app-server cannot be run or does not answer.
 */
export function trustCodexHooks(
  opts: CodexTrustOptions,
  mine: (hook: CodexHookState) => boolean,
): Promise<{ trusted: CodexHookState[]; already: CodexHookState[] }> {
  return withAppServer(opts.bin, opts.env, opts.cwd, async (s) => {
    const hooks = hookStates(await s.request("hooks/list", { cwds: [opts.cwd] })).filter(mine);
    const todo = hooks.filter((h) => h.trustStatus !== "trusted" && h.currentHash);
    if (todo.length > 0) {
      await s.request("config/batchWrite", {
        edits: todo.map((h) => ({
          keyPath: `hooks.state.${JSON.stringify(h.key)}.trusted_hash`,
          value: h.currentHash,
          mergeStrategy: "upsert",
        })),
      });
    }
    return { trusted: todo, already: hooks.filter((h) => h.trustStatus === "trusted") };
  }, opts.timeoutMs ?? 20_000);
}

/**
 * Removes trust entries (each a `hooks.state."<key>"` table in the user's `config.toml`) through
 * the client's `config/batchWrite`: a `null` value with the `replace` strategy deletes the table and
 * keeps the rest of the file, comments included (observed with Codex CLI 0.169.0). Then lists the
 * hooks again, so the caller sees what the client now trusts.
 *
 * @param opts The executable, environment and projects.
 * @param keys The hook keys whose entries to delete.
 * @returns The hooks as the client lists them afterwards.
 * @throws {Error} When the app-server cannot be run, does not answer, or refuses the edit.
 */
export function removeCodexTrust(
  opts: CodexTrustOptions,
  keys: readonly string[],
): Promise<CodexHookState[]> {
  return withAppServer(opts.bin, opts.env, opts.cwd, async (s) => {
    if (keys.length > 0) {
      await s.request("config/batchWrite", {
        edits: keys.map((key) => ({
          keyPath: `hooks.state.${JSON.stringify(key)}`,
          value: null,
          mergeStrategy: "replace",
        })),
      });
    }
    return hookStates(await s.request("hooks/list", { cwds: opts.cwds ?? [opts.cwd] }));
  }, opts.timeoutMs ?? 20_000);
}

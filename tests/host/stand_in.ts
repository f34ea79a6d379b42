/**
 * A scripted stand-in for the Anthropic Messages API, for host tests.
 *
 * It listens on 127.0.0.1 only (a free port chosen by the system), plays the model's side of a
 * session from a list of rules, answers in the streaming (SSE) format the real clients read, and
 * records every request it receives, so a test can see what hook output reached the "model".
 *
 * Rule matching: for each request that carries `tools` (a model turn of a main loop or a
 * subagent), the first rule not yet played whose `when` holds is played; a rule with
 * `repeat: true` can be played again. Any other request (titles, summaries, token counts) gets
 * the text `ok`.
 *
 * @module
 */

/** One content block the stand-in plays: text, or a tool call. */
export type PlayBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input?: Record<string, unknown> };

/** When a rule applies; every given key must hold. */
export interface RuleWhen {
  /** Substring of the text of the last user message (tool results included). */
  last_user_contains?: string;
  /** Substring anywhere in the request's system prompt or messages. */
  any_contains?: string;
  /** Substring that must not appear anywhere in the request's system prompt or messages. */
  not_contains?: string;
  /** Substring of the system prompt only (tells a subagent's turn from the main loop's). */
  system_contains?: string;
}

/** One scripted model turn. */
export interface Rule {
  /** Conditions; all optional. */
  when?: RuleWhen;
  /** The blocks of the reply. */
  blocks: PlayBlock[];
  /** The stop reason; `end_turn` unless given. */
  stop?: "end_turn" | "tool_use";
  /** Whether the rule can be played more than once. */
  repeat?: boolean;
  /** A label for reports. */
  label?: string;
  /** Wait this long before answering (a slow subagent, so the main loop stops first). */
  delay_ms?: number;
}

/** One request as the stand-in received it. */
export interface RecordedRequest {
  /** Sequence number from 1. */
  seq: number;
  /** HTTP method. */
  method: string;
  /** URL path with query. */
  path: string;
  /** Parsed JSON body (`null` when there was none or it did not parse). */
  body: Record<string, unknown> | null;
  /** Index of the rule played, or `null` for the default reply. */
  played: number | null;
}

/** A running stand-in. */
export interface StandIn {
  /** The base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Indexes of rules played so far. */
  readonly used: ReadonlySet<number>;
  /** Stops listening and flushes the log. */
  close(): Promise<void>;
}

/** Options for {@linkcode startStandIn}. */
export interface StandInOptions {
  /** The script. */
  rules: Rule[];
  /** When given, every request is appended to this file as one JSON line. */
  logPath?: string;
}

/**
 * All text inside a request fragment, joined with newlines: text, content, tool inputs (as JSON), the
 * ids and names of tool calls and results (so a rule can wait for `toolu_x`'s result).
 */
export function flatten(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join("\n");
  if (value && typeof value === "object") {
    const keep = ["text", "content", "input", "system", "messages", "tool_use_id", "id", "name"];
    return Object.entries(value as Record<string, unknown>)
      .filter(([k]) => keep.includes(k))
      .map(([k, v]) => k === "input" && v && typeof v === "object" ? JSON.stringify(v) : flatten(v))
      .join("\n");
  }
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

/** The messages of a request body (empty when absent). */
export function messagesOf(body: Record<string, unknown> | null): Record<string, unknown>[] {
  const msgs = body?.messages;
  return Array.isArray(msgs) ? msgs as Record<string, unknown>[] : [];
}

/** The text of the last user message of a request body. */
export function lastUserText(body: Record<string, unknown> | null): string {
  const msgs = messagesOf(body);
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role === "user") return flatten(msgs[i].content);
  }
  return "";
}

/** The system prompt and all messages of a request body, as one string. */
export function requestText(body: Record<string, unknown> | null): string {
  return flatten(body?.system) + "\n" + flatten(messagesOf(body));
}

/** Whether a rule's `when` holds for a request body. */
export function ruleMatches(when: RuleWhen | undefined, body: Record<string, unknown>): boolean {
  if (!when) return true;
  const all = requestText(body);
  if (
    when.last_user_contains !== undefined && !lastUserText(body).includes(when.last_user_contains)
  ) {
    return false;
  }
  if (when.any_contains !== undefined && !all.includes(when.any_contains)) return false;
  if (when.not_contains !== undefined && all.includes(when.not_contains)) return false;
  if (when.system_contains !== undefined && !flatten(body.system).includes(when.system_contains)) {
    return false;
  }
  return true;
}

/** The SSE events of one streamed reply. */
export function sseEvents(
  model: string,
  blocks: PlayBlock[],
  stop: string,
  id: string,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }];
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      out.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      out.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } });
    } else {
      out.push({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      out.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input ?? {}) },
      });
    }
    out.push({ type: "content_block_stop", index });
  });
  out.push({
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  out.push({ type: "message_stop" });
  return out;
}

/**
 * A JSON response.
 *
 * @param obj The body.
 * @returns The response.
 */
export function json(obj: unknown): Response {
  return new Response(JSON.stringify(obj), { headers: { "content-type": "application/json" } });
}

/**
 * Records one request of a stand-in: its method, path and body when that is a JSON object.
 *
 * @param req The request.
 * @param text Its body's text (`undefined` when it has none).
 * @param requests The requests so far; the record is appended.
 * @returns The request's URL and its record.
 */
export function recordRequest(
  req: Request,
  text: string | undefined,
  requests: RecordedRequest[],
): { url: URL; rec: RecordedRequest } {
  const url = new URL(req.url);
  let body: Record<string, unknown> | null = null;
  if (text !== undefined) {
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
    } catch {
      body = null;
    }
  }
  const rec: RecordedRequest = {
    seq: requests.length + 1,
    method: req.method,
    path: url.pathname + url.search,
    body,
    played: null,
  };
  requests.push(rec);
  return { url, rec };
}

/** Starts a stand-in on 127.0.0.1 with a free port. */
export async function startStandIn(opts: StandInOptions): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const used = new Set<number>();
  let msgId = 0;
  const enc = new TextEncoder();
  const logFile = opts.logPath
    ? await Deno.open(opts.logPath, { create: true, append: true, mode: 0o600 })
    : undefined;

  const handler = async (req: Request): Promise<Response> => {
    const { url, rec } = recordRequest(
      req,
      req.method === "POST" ? await req.text() : undefined,
      requests,
    );
    const body = rec.body;
    if (req.method !== "POST") {
      logFile?.writeSync(enc.encode(JSON.stringify(rec) + "\n"));
      // Model listings and other probes: an empty, well-formed answer.
      if (url.pathname.endsWith("/models")) return json({ data: [], has_more: false });
      return json({});
    }
    if (url.pathname.includes("count_tokens")) {
      logFile?.writeSync(enc.encode(JSON.stringify(rec) + "\n"));
      return json({ input_tokens: 100 });
    }
    let blocks: PlayBlock[] = [{ type: "text", text: "ok" }];
    let stop = "end_turn";
    if (body && Array.isArray(body.tools) && body.tools.length > 0) {
      for (let i = 0; i < opts.rules.length; i++) {
        const rule = opts.rules[i];
        if ((used.has(i) && !rule.repeat) || !ruleMatches(rule.when, body)) continue;
        blocks = rule.blocks;
        stop = rule.stop ?? "end_turn";
        rec.played = i;
        used.add(i);
        break;
      }
    }
    logFile?.writeSync(enc.encode(JSON.stringify(rec) + "\n"));
    const delay = rec.played === null ? 0 : Math.min(opts.rules[rec.played].delay_ms ?? 0, 30_000);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const model = typeof body?.model === "string" ? body.model : "claude-sonnet-4-5";
    const id = `msg_standin${String(++msgId).padStart(5, "0")}`;
    if (body?.stream) {
      const text = sseEvents(model, blocks, stop, id)
        .map((ev) => `event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`)
        .join("");
      return new Response(text, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    }
    return json({
      id,
      type: "message",
      role: "assistant",
      model,
      content: blocks.map((b) => b.type === "text" ? b : { ...b, input: b.input ?? {} }),
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handler,
  );
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    used,
    async close() {
      await server.shutdown();
      logFile?.close();
    },
  };
}

/** The requests that were model turns (they carry `tools`). */
export function modelTurns(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) =>
    r.method === "POST" && Array.isArray(r.body?.tools) && (r.body.tools as unknown[]).length > 0
  );
}

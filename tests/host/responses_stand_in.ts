/**
 * A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, SSE), for host tests
 * of Codex CLI: the wire format of `../shared/tools/fake_responses_api.py`, in TypeScript.
 *
 * It listens on 127.0.0.1 only (a free port), plays the model's side from a list of rules, and
 * records every request, so a test can see what hook output reached the "model". For each request
 * that carries `tools`, the first rule not yet played whose `when` holds is played (`repeat: true`
 * lets a rule play again); any other request gets the text `ok`.
 *
 * @module
 */

import { json, type RecordedRequest, recordRequest } from "./stand_in.ts";

/** One output item the stand-in plays. */
export type ResponseItem =
  | { type: "text"; text: string }
  | {
    type: "function_call";
    name: string;
    arguments: Record<string, unknown> | string;
    call_id?: string;
    namespace?: string;
  }
  | { type: "custom_tool_call"; name: string; input: string; call_id?: string };

/** When a rule applies; every given key must hold. */
export interface ResponsesWhen {
  /** Substring of the last input item that is a user message or a tool output. */
  last_user_contains?: string;
  /** Substring anywhere in the instructions and input. */
  any_contains?: string;
  /** Substring that must appear nowhere in the instructions and input. */
  not_contains?: string;
}

/** One scripted model turn. */
export interface ResponsesRule {
  /** Conditions; all optional. */
  when?: ResponsesWhen;
  /** The reply's output items. */
  items: ResponseItem[];
  /** Whether the rule can be played more than once. */
  repeat?: boolean;
  /** A label for reports. */
  label?: string;
  /**
   * Holds the reply (at most 30 s) until a request whose last user text or tool output contains
   * this has arrived: a parent that ends its turn only after its asynchronous sub-agent has
   * asked the model (Codex CLI's `spawn_agent` returns at once, and `codex exec` exits with the
   * parent's turn).
   */
  after_request_containing?: string;
}

/** One request as received. */
export type ResponsesRequest = RecordedRequest;

/** A running stand-in. */
export interface ResponsesStandIn {
  /** The base URL of the API, `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every request so far. */
  readonly requests: ResponsesRequest[];
  /** Plays a new script from now on (the played-rule memory starts again; requests are kept). */
  setRules(rules: ResponsesRule[]): void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** The text of a request fragment: text, content, output, arguments, input, instructions. */
export function flattenResponses(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flattenResponses).join("\n");
  if (value && typeof value === "object") {
    const keep = ["text", "content", "output", "arguments", "input", "instructions"];
    return Object.entries(value as Record<string, unknown>)
      .filter(([k]) => keep.includes(k))
      .map(([, v]) => flattenResponses(v))
      .join("\n");
  }
  return "";
}

/** The text of the last input item that is a user message or a tool output. */
export function lastInputText(body: Record<string, unknown> | null): string {
  const items = body?.input;
  if (typeof items === "string") return items;
  if (!Array.isArray(items)) return "";
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as Record<string, unknown>;
    const t = typeof it?.type === "string" ? it.type : "";
    if ((t === "message" && it.role === "user") || t.endsWith("_output")) {
      return flattenResponses(it);
    }
  }
  return "";
}

/** The instructions and every input item, as one string. */
export function responsesText(body: Record<string, unknown> | null): string {
  return flattenResponses(body?.instructions) + "\n" + flattenResponses(body?.input);
}

/** The input messages of one role, as text each. */
export function inputMessages(body: Record<string, unknown> | null, role: string): string[] {
  const items = Array.isArray(body?.input) ? body.input as Record<string, unknown>[] : [];
  return items.filter((it) => it?.type === "message" && it.role === role).map(flattenResponses);
}

function matches(when: ResponsesWhen | undefined, body: Record<string, unknown>): boolean {
  if (!when) return true;
  const all = responsesText(body);
  if (
    when.last_user_contains !== undefined && !lastInputText(body).includes(when.last_user_contains)
  ) {
    return false;
  }
  if (when.any_contains !== undefined && !all.includes(when.any_contains)) return false;
  if (when.not_contains !== undefined && all.includes(when.not_contains)) return false;
  return true;
}

/** The SSE events of one reply. */
export function responseEvents(items: ResponseItem[], n: number): Record<string, unknown>[] {
  const id = `resp_${String(n).padStart(5, "0")}`;
  const evs: Record<string, unknown>[] = [{ type: "response.created", response: { id } }];
  items.forEach((it, j) => {
    let item: Record<string, unknown>;
    if (it.type === "text") {
      item = {
        type: "message",
        role: "assistant",
        id: `msg_${n}_${j}`,
        content: [{ type: "output_text", text: it.text, annotations: [] }],
      };
      evs.push({
        type: "response.output_item.added",
        output_index: j,
        item: { ...item, content: [] },
      });
      evs.push({
        type: "response.output_text.delta",
        output_index: j,
        content_index: 0,
        item_id: item.id,
        delta: it.text,
      });
    } else if (it.type === "function_call") {
      item = {
        type: "function_call",
        id: `fc_${n}_${j}`,
        name: it.name,
        arguments: typeof it.arguments === "string" ? it.arguments : JSON.stringify(it.arguments),
        call_id: it.call_id ?? `call_${n}_${j}`,
        ...(it.namespace ? { namespace: it.namespace } : {}),
      };
    } else {
      item = {
        type: "custom_tool_call",
        id: `ctc_${n}_${j}`,
        name: it.name,
        input: it.input,
        call_id: it.call_id ?? `call_${n}_${j}`,
      };
    }
    evs.push({ type: "response.output_item.done", output_index: j, item });
  });
  evs.push({
    type: "response.completed",
    response: {
      id,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  return evs;
}

async function bodyText(req: Request): Promise<string> {
  const enc = req.headers.get("content-encoding");
  if (enc === "gzip" || enc === "deflate") {
    const stream = req.body!.pipeThrough(new DecompressionStream(enc));
    return await new Response(stream).text();
  }
  if (enc === "zstd") {
    const raw = new Uint8Array(await req.arrayBuffer());
    const child = new Deno.Command("zstd", { args: ["-d", "-c"], stdin: "piped", stdout: "piped" })
      .spawn();
    const w = child.stdin.getWriter();
    await w.write(raw);
    await w.close();
    return new TextDecoder().decode((await child.output()).stdout);
  }
  return await req.text();
}

/**
 * Starts a stand-in on 127.0.0.1 with a free port.
 *
 * @param rules The script.
 * @returns The running stand-in.
 */
export function startResponsesStandIn(script: ResponsesRule[]): ResponsesStandIn {
  const requests: ResponsesRequest[] = [];
  const used = new Set<number>();
  let rules = script;
  const handler = async (req: Request): Promise<Response> => {
    const raw = req.method === "POST" ? await bodyText(req).catch(() => "") : undefined;
    const { url, rec } = recordRequest(req, raw, requests);
    const body = rec.body;
    if (req.method !== "POST") {
      return url.pathname.includes("models")
        ? json({ object: "list", data: [], models: [] })
        : json({});
    }
    let items: ResponseItem[] = [{ type: "text", text: "ok" }];
    let waitFor: string | undefined;
    if (body && Array.isArray(body.tools) && body.tools.length > 0) {
      for (let i = 0; i < rules.length; i++) {
        if ((used.has(i) && !rules[i].repeat) || !matches(rules[i].when, body)) continue;
        items = rules[i].items;
        waitFor = rules[i].after_request_containing;
        rec.played = i;
        used.add(i);
        break;
      }
    }
    if (waitFor !== undefined) {
      const seen = () =>
        requests.some((r) => r.body && matches({ last_user_contains: waitFor }, r.body));
      for (let waited = 0; waited < 30_000 && !seen(); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const text = responseEvents(items, rec.seq)
      .map((ev) => `event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`)
      .join("");
    return new Response(text, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    setRules(next) {
      rules = next;
      used.clear();
    },
    close: () => server.shutdown(),
  };
}

/** The requests that were model turns (they carry `tools`). */
export function responsesTurns(requests: ResponsesRequest[]): ResponsesRequest[] {
  return requests.filter((r) =>
    r.method === "POST" && Array.isArray(r.body?.tools) && (r.body.tools as unknown[]).length > 0
  );
}

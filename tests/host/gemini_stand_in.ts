/**
 * A scripted stand-in for the Gemini API (`:generateContent`, `:streamGenerateContent?alt=sse`,
 * `:countTokens`), for host tests of Gemini CLI: the wire format of
 * `../shared/tools/fake_gemini_api.py`, in TypeScript.
 *
 * It listens on 127.0.0.1 only (a free port), plays the model's side from a list of rules, and
 * records every request, so a test can see what hook output reached the "model". For each request
 * that carries `tools`, the first rule not yet played whose `when` holds is played (`repeat: true`
 * lets a rule play again); a JSON-mode request without tools (the client's own classifier calls)
 * gets `{}`, and any other request the text `ok`.
 *
 * @module
 */

import { json, type RecordedRequest, recordRequest } from "./stand_in.ts";

/** One Gemini content part the stand-in plays: text, or a function call. */
export type GeminiPart =
  | { text: string }
  | { functionCall: { name: string; args: Record<string, unknown> } };

/** When a rule applies; every given key must hold. */
export interface GeminiWhen {
  /** Substring of the text of the last `role: "user"` content (function responses included). */
  last_user_contains?: string;
  /** Substring anywhere in the system instruction and the contents. */
  any_contains?: string;
  /** Substring that must appear nowhere in the system instruction and the contents. */
  not_contains?: string;
}

/** One scripted model turn. */
export interface GeminiRule {
  /** Conditions; all optional. */
  when?: GeminiWhen;
  /** The reply's parts. */
  parts: GeminiPart[];
  /** Whether the rule can be played more than once. */
  repeat?: boolean;
  /** A label for reports. */
  label?: string;
}

/** A running stand-in. */
export interface GeminiStandIn {
  /** The base URL to give the client (`GOOGLE_GEMINI_BASE_URL`), `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Every request so far. */
  readonly requests: RecordedRequest[];
  /** Plays a new script from now on (the played-rule memory starts again; requests are kept). */
  setRules(rules: GeminiRule[]): void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** The text of a request fragment: every string under `text`, `parts`, `functionResponse`, .... */
export function flattenGemini(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flattenGemini).join("\n");
  if (value && typeof value === "object") {
    return Object.values(value as Record<string, unknown>).map(flattenGemini).join("\n");
  }
  return "";
}

/** The contents of a request. */
export function contentsOf(body: Record<string, unknown> | null): Record<string, unknown>[] {
  return Array.isArray(body?.contents) ? body.contents as Record<string, unknown>[] : [];
}

/** The text of the last `role: "user"` content. */
export function lastUserContent(body: Record<string, unknown> | null): string {
  const contents = contentsOf(body);
  for (let i = contents.length - 1; i >= 0; i--) {
    if (contents[i].role === "user") return flattenGemini(contents[i].parts);
  }
  return "";
}

/** The system instruction and every content, as one string. */
export function geminiText(body: Record<string, unknown> | null): string {
  return flattenGemini(body?.systemInstruction) + "\n" + flattenGemini(body?.contents);
}

function matches(when: GeminiWhen | undefined, body: Record<string, unknown>): boolean {
  if (!when) return true;
  const all = geminiText(body);
  if (
    when.last_user_contains !== undefined &&
    !lastUserContent(body).includes(when.last_user_contains)
  ) return false;
  if (when.any_contains !== undefined && !all.includes(when.any_contains)) return false;
  if (when.not_contains !== undefined && all.includes(when.not_contains)) return false;
  return true;
}

/** The reply body of one model turn. */
export function geminiReply(parts: GeminiPart[], model: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
  };
}

/**
 * Starts a stand-in on 127.0.0.1 with a free port.
 *
 * @param script The rules.
 * @returns The running stand-in.
 */
export function startGeminiStandIn(script: GeminiRule[]): GeminiStandIn {
  const requests: RecordedRequest[] = [];
  const used = new Set<number>();
  let rules = script;
  const handler = async (req: Request): Promise<Response> => {
    const raw = req.method === "POST" ? await req.text().catch(() => "") : undefined;
    const { url, rec } = recordRequest(req, raw, requests);
    if (req.method !== "POST") return json({ models: [] });
    if (url.pathname.endsWith(":countTokens")) return json({ totalTokens: 100 });
    const body = rec.body ?? {};
    let parts: GeminiPart[] = [{ text: "ok" }];
    if (Array.isArray(body.tools) && body.tools.length > 0) {
      for (let i = 0; i < rules.length; i++) {
        if ((used.has(i) && !rules[i].repeat) || !matches(rules[i].when, body)) continue;
        parts = rules[i].parts;
        rec.played = i;
        used.add(i);
        break;
      }
    } else if (
      (body.generationConfig as Record<string, unknown> | undefined)?.responseMimeType ===
        "application/json"
    ) {
      parts = [{ text: "{}" }];
    }
    const model = url.pathname.split("models/").at(-1)?.split(":")[0] ?? "gemini";
    const reply = geminiReply(parts, model);
    if (url.pathname.endsWith(":streamGenerateContent")) {
      return new Response(`data: ${JSON.stringify(reply)}\r\n\r\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    }
    return json(reply);
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    setRules(next) {
      rules = next;
      used.clear();
    },
    close: () => server.shutdown(),
  };
}

/** The requests that were model turns (they carry `tools`). */
export function geminiTurns(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) =>
    r.method === "POST" && Array.isArray(r.body?.tools) && (r.body.tools as unknown[]).length > 0
  );
}

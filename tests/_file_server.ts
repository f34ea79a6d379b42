/**
 * A static file server for tests: serves one folder over HTTP on 127.0.0.1 (a free port), prints
 * `listening <port>` on stdout, and counts requests on stderr. It stands in for jsr.io, which tests
 * cannot reach: `deno run --allow-net=127.0.0.1 --allow-read=<root> tests/_file_server.ts <root>`.
 *
 * @module
 */

import { join, normalize } from "node:path";

const root = Deno.args[0];
if (!root) throw new Error("Usage: _file_server.ts <root>");

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  const path = normalize(decodeURIComponent(new URL(req.url).pathname));
  if (path.includes("..")) return new Response("bad path", { status: 400 });
  console.error(`GET ${path}`);
  try {
    const body = await Deno.readFile(join(root, path));
    const type = path.endsWith(".json") ? "application/json" : "application/javascript";
    return new Response(body, { headers: { "content-type": type } });
  } catch {
    return new Response("not found", { status: 404 });
  }
});
console.log(`listening ${server.addr.port}`);

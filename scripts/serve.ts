// Usage: tsx scripts/serve.ts — the production server (`npm start` runs migrations first).
// Next.js's request handler behind a plain Node HTTP server, for the two things `next start`
// cannot do: refuse methods no route answers before Next builds a Request (undici throws on
// TRACE and CONNECT, which became a 500), and tell the app which address the connection
// came from (`x-spindle-peer`, overwriting anything a client sent) — the only honest source
// of the client's address; forwarded headers are kept only from SPINDLE_TRUSTED_PROXIES.
import { createServer } from "node:http";
import next from "next";
import { parseConfig, ConfigError, normaliseAddress, type Config } from "../lib/config/env";
import { FORWARDED_HEADERS, PEER_HEADER } from "../lib/http/client-address";
import {
  ALLOWED_METHODS,
  isAllowedHost,
  methodNotAllowedBody,
  misdirectedBody,
  undecodablePathBody,
} from "../lib/http/edge";

/** Whether the path of a request target percent-decodes (UTF-8). */
function decodes(target: string): boolean {
  try {
    decodeURIComponent(target.split("?")[0] ?? "");
    return true;
  } catch {
    return false;
  }
}

let config: Config;
try {
  config = parseConfig(process.env);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(`spindle: configuration error: ${e.message}`);
    process.exit(1);
  }
  throw e;
}

const app = next({ dev: false, hostname: config.host, port: config.port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  const method = req.method ?? "";
  if (!ALLOWED_METHODS.has(method)) {
    res.writeHead(405, {
      "content-type": "application/json",
      allow: [...ALLOWED_METHODS].join(", "),
    });
    res.end(JSON.stringify(methodNotAllowedBody(method)));
    return;
  }
  // A Host no URL can be made of (`999.999.999.999`) would fail where Next builds the
  // request's URL: refused here with the proxy's 421 ([R143]).
  if (!isAllowedHost(req.headers.host ?? "", config.publicUrl)) {
    res.writeHead(421, { "content-type": "application/json" });
    res.end(JSON.stringify(misdirectedBody()));
    return;
  }
  // A path that does not percent-decode is a clear 400, not a crash further in.
  if (!decodes(req.url ?? "/")) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify(undecodablePathBody()));
    return;
  }
  const peer = req.socket.remoteAddress ?? "";
  req.headers[PEER_HEADER] = peer;
  // Forwarded headers count only from a trusted proxy ([R146]): from anyone else they are
  // removed before Next sees them (its server-action Origin check reads X-Forwarded-Host).
  if (!config.trustedProxies.includes(normaliseAddress(peer))) {
    for (const name of FORWARDED_HEADERS) delete req.headers[name];
  }
  void handle(req, res);
});

server.listen(config.port, config.host, () => {
  console.log(`spindle: listening on http://${config.host}:${config.port}`);
});

// A clean stop on SIGTERM/SIGINT: stop accepting, let Next close, then exit.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    void app.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}

/**
 * An in-process Chat Completions server on 127.0.0.1 for tests and local development. It
 * speaks the protocol the way real servers do (SSE chunks, a usage chunk, tool calls split
 * across chunks, GET /v1/models), records every request exactly as received, and answers
 * each chat request with the next queued `Behaviour` (or the default: an echo of the last
 * user message).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Behaviour } from "./recording-behaviours";
import { messageWords, serveChat, type OpenStream } from "./recording-responder";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names, as Node reports them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly rawBody: string;
  /** How the exchange ended: answered in full, or cut short (the client left, or the behaviour killed it). */
  readonly outcome: Promise<"completed" | "incomplete">;
}

export interface RecordingServerOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly models?: readonly string[];
  /** Answers chat requests when the queue is empty. Default: `echoBehaviour`. */
  readonly fallback?: (request: RecordedRequest) => Behaviour;
  /** Serve /_control/* so another process can script this one (the standalone CLI). */
  readonly control?: boolean;
  /**
   * Report a prompt cache the way OpenAI-compatible servers do
   * (`usage.prompt_tokens_details.cached_tokens`): the words of the leading messages this
   * request shares, byte for byte, with the chat request before it. An emulation for tests
   * and benches, in the server's own token unit (words).
   */
  readonly promptCache?: boolean;
}

export interface RecordingServer {
  /** Base URL including /v1, ready for `OPENAI_BASE_URL`. */
  readonly url: string;
  readonly port: number;
  /** Every request (chat, models, unknown paths), in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Chat-completion requests only. */
  readonly chatRequests: readonly RecordedRequest[];
  /** Queues behaviours for the next chat requests, in order. */
  enqueue(...behaviours: Behaviour[]): void;
  /** Resolves with the n-th (1-based) chat request once it has arrived. */
  waitForChatRequest(n: number): Promise<RecordedRequest>;
  /**
   * Ends every hanging stream now: `destroy` kills the connection, `error_event` sends an
   * SSE error and ends. Returns how many streams were interrupted.
   */
  interrupt(mode: "destroy" | "error_event"): number;
  /** How many streams are hanging open right now (a client that closes one leaves). */
  hanging(): number;
  /** Forgets requests and queued behaviours. */
  reset(): void;
  close(): Promise<void>;
}

/** The last user message's text, or "" when there is none. */
export function lastUserText(request: RecordedRequest): string {
  const messages = request.body?.["messages"];
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m: unknown = messages[i];
    if (typeof m === "object" && m !== null && (m as { role?: unknown }).role === "user") {
      const content = (m as { content?: unknown }).content;
      return typeof content === "string" ? content : JSON.stringify(content);
    }
  }
  return "";
}

/** The default answer: streams back the last user message. */
export function echoBehaviour(request: RecordedRequest): Behaviour {
  return { kind: "reply", text: `You said: ${lastUserText(request)}` };
}

function parseJson(raw: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Words of the leading messages `request` shares byte for byte with `previous`. */
function sharedPrefixWords(
  previous: RecordedRequest | undefined,
  request: RecordedRequest,
): number {
  const before = previous?.body?.["messages"];
  const now = request.body?.["messages"];
  if (!Array.isArray(before) || !Array.isArray(now)) return 0;
  let shared = 0;
  while (
    shared < before.length &&
    shared < now.length &&
    JSON.stringify(before[shared]) === JSON.stringify(now[shared])
  ) {
    shared += 1;
  }
  return messageWords(now.slice(0, shared));
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startRecordingServer(
  options: RecordingServerOptions = {},
): Promise<RecordingServer> {
  const models = options.models ?? ["spindle-test-model"];
  const fallback = options.fallback ?? echoBehaviour;
  const requests: RecordedRequest[] = [];
  const queue: Behaviour[] = [];
  const open = new Set<OpenStream>();
  const waiters: { n: number; resolve: (r: RecordedRequest) => void }[] = [];
  const chatRequests = () => requests.filter((r) => /\/chat\/completions$/.test(r.path));

  const server = http.createServer((req, res) => {
    void (async () => {
      let raw = "";
      for await (const chunk of req) raw += String(chunk);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (options.control && path.startsWith("/_control/")) {
        handleControl(path, raw, res);
        return;
      }
      let settle: (o: "completed" | "incomplete") => void = () => {};
      const outcome = new Promise<"completed" | "incomplete">((r) => (settle = r));
      res.on("finish", () => settle("completed"));
      res.on("close", () => settle(res.writableFinished ? "completed" : "incomplete"));
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path,
        headers: flatHeaders(req.headers),
        body: parseJson(raw),
        rawBody: raw,
        outcome,
      };
      requests.push(recorded);

      if (req.method === "GET" && /\/models$/.test(path)) {
        sendJson(res, 200, {
          object: "list",
          data: models.map((id) => ({
            id,
            object: "model",
            created: 0,
            owned_by: "spindle-tests",
          })),
        });
        return;
      }
      if (req.method !== "POST" || !/\/chat\/completions$/.test(path)) {
        sendJson(res, 404, {
          error: { message: `No route for ${req.method} ${path}`, type: "not_found" },
        });
        return;
      }
      const chats = chatRequests();
      const count = chats.length;
      for (const w of waiters.filter((w) => w.n === count)) w.resolve(recorded);
      const behaviour = queue.shift() ?? fallback(recorded);
      const cachedTokens = options.promptCache
        ? sharedPrefixWords(chats.at(-2), recorded)
        : undefined;
      await serveChat(recorded, behaviour, res, open, {
        ...(cachedTokens === undefined ? {} : { cachedTokens }),
      });
    })().catch((error: unknown) => {
      // A bug in the test server must be loud, not a silently hanging test.
      console.error("recording server failed:", error);
      res.destroy();
    });
  });

  function handleControl(path: string, raw: string, res: http.ServerResponse): void {
    const body = parseJson(raw);
    if (path === "/_control/enqueue" && Array.isArray(body?.["behaviours"])) {
      queue.push(...(body["behaviours"] as Behaviour[]));
      sendJson(res, 200, { queued: queue.length });
    } else if (path === "/_control/requests") {
      sendJson(
        res,
        200,
        requests.map(({ outcome: _o, ...r }) => r),
      );
    } else if (path === "/_control/reset") {
      requests.length = 0;
      queue.length = 0;
      sendJson(res, 200, { ok: true });
    } else if (path === "/_control/interrupt") {
      const mode = body?.["mode"] === "error_event" ? "error_event" : "destroy";
      sendJson(res, 200, { interrupted: interrupt(mode) });
    } else {
      sendJson(res, 404, { error: { message: `Unknown control ${path}` } });
    }
  }

  function interrupt(mode: "destroy" | "error_event"): number {
    const streams = [...open];
    for (const s of streams) s.fail(mode);
    return streams.length;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    get chatRequests() {
      return chatRequests();
    },
    enqueue: (...behaviours) => void queue.push(...behaviours),
    waitForChatRequest(n) {
      const existing = chatRequests()[n - 1];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    interrupt,
    hanging: () => open.size,
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close() {
      for (const s of open) s.fail("destroy");
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

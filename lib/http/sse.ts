import { isEngineError } from "../engine/errors";

/**
 * A Server-Sent Events response. `produce` runs to its end even when the client goes away
 * (writes after a disconnect are dropped), so a turn always seals its reply.
 */
export function sseResponse(
  produce: (send: (event: string, data: unknown) => void, closed: AbortSignal) => Promise<void>,
  options: { keepAliveMs?: number } = {},
): Response {
  const encoder = new TextEncoder();
  let open = true;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  // Aborts when the reader cancels the body (the client went), whether or not the request's
  // own signal says so: an event stream ends then and gives back its place ([R148]).
  const closed = new AbortController();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          open = false;
        }
      };
      const send = (event: string, data: unknown) =>
        write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // A comment line keeps proxies from closing a quiet stream.
      keepAlive = setInterval(() => write(": keep-alive\n\n"), options.keepAliveMs ?? 15_000);
      produce(send, closed.signal)
        .catch((e: unknown) => {
          if (isEngineError(e)) {
            send("error", { code: e.code, message: e.message });
          } else {
            console.error("[spindle] SSE producer failed", e);
            send("error", { code: "internal", message: "The stream failed on the server." });
          }
        })
        .finally(() => {
          clearInterval(keepAlive);
          if (open) {
            open = false;
            try {
              controller.close();
            } catch {
              // Already closed by the client.
            }
          }
        });
    },
    cancel() {
      open = false;
      clearInterval(keepAlive);
      closed.abort();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

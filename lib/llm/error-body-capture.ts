/**
 * Keeps the raw body of every failed response. The SDK only parses bodies shaped
 * `{"error": {...}}`; vLLM's older top-level `{"object":"error","message":...}` or a
 * FastAPI `{"detail": ...}` would reach us as "400 status code (no body)", and the overflow
 * matcher would never see "maximum context length". The SDK hands its errors the response's
 * `Headers` object, so that object is the key that ties an error back to its body.
 */

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const bodies = new WeakMap<Headers, string>();

/** Error bodies beyond this are cut: a misbehaving proxy must not balloon our memory. */
const MAX_BODY_CHARS = 16_384;

/** Wraps `fetch` so failed responses remember their body text; successes pass untouched. */
export function capturingFetch(inner: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    const text = (await response.text()).slice(0, MAX_BODY_CHARS);
    const rebuilt = new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    bodies.set(rebuilt.headers, text);
    return rebuilt;
  };
}

/** The raw body of the failed response these headers came with, if it was captured. */
export function capturedBody(headers: unknown): string | undefined {
  return headers instanceof Headers ? bodies.get(headers) : undefined;
}

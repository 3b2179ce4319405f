import type { ProviderError } from "./provider-error";

/**
 * What a user is shown of a provider failure ([R145]): the catalogue code with a short
 * message. Credentials, network and server failures say only what kind of failure it was
 * (and the HTTP status) — their text names hosts and, on some servers, a masked key. A
 * refused request (an unknown model, a bad parameter) and an overflow keep the provider's
 * first line, which says what to change, with URLs, addresses and key-like tokens removed.
 * The full text goes to the server log, keys redacted, once per failure.
 */
export function userMessage(error: ProviderError): string {
  const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
  switch (error.code) {
    case "auth_failed":
      return `The model provider rejected the server's credentials${status}; the operator must check the API key.`;
    case "rate_limited":
      return `The model provider is rate limiting requests${status}; try again shortly.`;
    case "unreachable":
      return "The model provider could not be reached or stopped answering.";
    case "provider_error":
      return `The model provider failed${status}.`;
    case "aborted":
      return "The request to the model provider was aborted.";
    case "bad_request":
    case "provider_overflow":
      return scrub(error.message) || `The model provider rejected the request${status}.`;
  }
}

/** Logs a provider failure's whole text for the operator, keys and key-like tokens masked. */
export function logProviderError(where: string, error: ProviderError): void {
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
  console.warn(`[spindle] ${where}: provider ${error.code}: ${maskKeys(error.message + cause)}`);
}

/** Tokens that look like credentials, masked or not: `sk-…`, `Bearer …`, `ab12****yz`. */
function maskKeys(text: string): string {
  return text
    .replace(/\b(sk|pk|rk|spk|key)[-_][A-Za-z0-9_*.-]{4,}/gi, "[redacted]")
    .replace(/\bBearer\s+\S+/gi, "Bearer [redacted]")
    .replace(/[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_-]*/g, "[redacted]");
}

/** The first line, at most 300 characters, without keys, URLs, host:port or IP addresses. */
function scrub(text: string): string {
  const first = (text.split("\n")[0] ?? "").slice(0, 300);
  return maskKeys(first)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "[url]")
    .replace(/\[[0-9a-f:.]+\](:\d+)?/gi, "[address]")
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, "[address]")
    .replace(/\b[a-z0-9-]+(\.[a-z0-9-]+)+:\d{2,5}\b/gi, "[address]")
    .replace(/\blocalhost(:\d+)?\b/gi, "[address]")
    .trim();
}

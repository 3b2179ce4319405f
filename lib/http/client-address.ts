import { normaliseAddress } from "../config/env";

/**
 * Who is on the other end of a request ([R146]). The connection's peer is the only address
 * a client cannot choose: `scripts/serve.ts` takes it from the socket and hands it to the app
 * as `x-spindle-peer` (overwriting anything a client sent). `X-Forwarded-For`,
 * `X-Forwarded-Host` and `X-Forwarded-Proto` are believed only when that peer is one of
 * `SPINDLE_TRUSTED_PROXIES`; then the client is the rightmost `X-Forwarded-For` entry that is
 * not itself a trusted proxy (entries left of it are whatever the client wrote).
 */

/** The header scripts/serve.ts writes with the socket's remote address. */
export const PEER_HEADER = "x-spindle-peer";

export interface ClientView {
  /** The client's address: the socket's peer, or what a trusted proxy says it saw. */
  readonly address: string;
  /** The Host the client asked for: `X-Forwarded-Host` from a trusted proxy, else `Host`. */
  readonly host: string | null;
  /** `https:`/`http:` from a trusted proxy's `X-Forwarded-Proto`; null when not told. */
  readonly proto: "http:" | "https:" | null;
  /** Whether the peer is a trusted proxy (its forwarded headers were believed). */
  readonly viaTrustedProxy: boolean;
}

/** The last value of a header a proxy appends to (`a, b, c` → `c`). */
function lastOf(value: string | null): string | null {
  const v = value?.split(",").at(-1)?.trim();
  return v ? v : null;
}

export function clientView(
  headers: Headers,
  peer: string | null,
  trusted: readonly string[],
): ClientView {
  const host = headers.get("host");
  const socket = peer === null || peer === "" ? null : normaliseAddress(peer);
  if (socket === null || !trusted.includes(socket)) {
    return { address: socket ?? "unknown", host, proto: null, viaTrustedProxy: false };
  }
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => normaliseAddress(h))
    .filter((h) => h !== "");
  let address = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    address = hop;
    if (!trusted.includes(hop)) break;
  }
  const proto = lastOf(headers.get("x-forwarded-proto"))?.toLowerCase();
  return {
    address,
    host: lastOf(headers.get("x-forwarded-host")) ?? host,
    proto: proto === "https" ? "https:" : proto === "http" ? "http:" : null,
    viaTrustedProxy: true,
  };
}

/** The forwarded headers a client may not send past a server that does not trust it. */
export const FORWARDED_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
] as const;

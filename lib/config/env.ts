import { isIP } from "node:net";
import { z } from "zod";
import { DEFAULT_ATTACHMENT_CAPS, DEFAULT_PDF_LIMITS, type PdfLimits } from "../files/limits";

/**
 * Server configuration, read from the environment and validated once. Every consumer takes
 * a `Config` rather than reading `process.env`, so a bad value is caught at start with one
 * clear line instead of deep inside a request.
 */

const DEFAULT_DATABASE_URL = "file:./data/spindle.db";

const httpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL");

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => {
    if (/^file:.+/.test(v)) return true;
    if (!/^postgres(ql)?:\/\//.test(v)) return false;
    try {
      const u = new URL(v);
      return u.hostname.length > 0 && u.pathname.length > 1;
    } catch {
      return false;
    }
  }, 'must be "file:<path>" (SQLite) or "postgresql://user@host:port/database"');

const positiveInt = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number (${what})`)
    .transform(Number)
    .refine((n) => n > 0, `must be greater than 0 (${what})`);

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["true", "false", "1", "0", "on", "off"].includes(v), "must be true or false")
  .transform((v) => v === "true" || v === "1" || v === "on");

const schema = z.object({
  DATABASE_URL: databaseUrl.default(DEFAULT_DATABASE_URL),
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().trim().min(1, "must not be empty when set").optional(),
  SPINDLE_MODEL: z.string().trim().min(1, "must not be empty when set").optional(),
  SPINDLE_SUMMARY_MODEL: z.string().trim().min(1, "must not be empty when set").optional(),
  PORT: positiveInt("a TCP port")
    .refine((n) => n < 65536, "must be a TCP port below 65536")
    .optional(),
  SPINDLE_CONTEXT_WINDOW: positiveInt("tokens").optional(),
  SPINDLE_KEEP_RECENT_TOKENS: positiveInt("tokens").optional(),
  SPINDLE_MAX_MESSAGE_CHARS: positiveInt("characters").optional(),
  HOST: z
    .string()
    .trim()
    .regex(/^[\w.:[\]-]+$/, "must be a host name or an IP address (e.g. 127.0.0.1 or 0.0.0.0)")
    .optional(),
  SPINDLE_AUTH: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => v === "on" || v === "off", 'must be "on" or "off"')
    .optional(),
  SPINDLE_ALLOW_SIGNUP: flag.optional(),
  SPINDLE_PUBLIC_URL: httpUrl.optional(),
  SPINDLE_TRUSTED_PROXIES: z
    .string()
    .trim()
    .refine(
      (v) =>
        v
          .split(/[\s,]+/)
          .filter(Boolean)
          .every((a) => isIP(a.replace(/^\[|\]$/g, "")) !== 0),
      "must list IP addresses separated by commas (the reverse proxies in front of this server)",
    )
    .optional(),
  SPINDLE_AUTH_SECRET: z
    .string()
    .trim()
    .min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)")
    .optional(),
  // At most 1 GiB: Next buffers request bodies for the proxy up to that size
  // (next.config.mjs `proxyClientMaxBodySize`) and silently cuts anything longer.
  SPINDLE_MAX_BODY_BYTES: positiveInt("bytes")
    .refine((n) => n <= 2 ** 30, "must be at most 1073741824 (1 GiB)")
    .optional(),
  SPINDLE_MAX_IMPORT_BYTES: positiveInt("bytes")
    .refine((n) => n <= 2 ** 30, "must be at most 1073741824 (1 GiB)")
    .optional(),
  SPINDLE_MAX_IMPORT_NODES: positiveInt("nodes").optional(),
  // Attachments (docs/spec.md "Attachments"): per file, and all files of one message.
  SPINDLE_MAX_ATTACHMENT_BYTES: positiveInt("bytes")
    .refine((n) => n <= 2 ** 30, "must be at most 1073741824 (1 GiB)")
    .optional(),
  SPINDLE_MAX_MESSAGE_ATTACHMENT_BYTES: positiveInt("bytes")
    .refine((n) => n <= 2 ** 30, "must be at most 1073741824 (1 GiB)")
    .optional(),
  // How a PDF is read (docs/spec.md R278): its most pages, and the time its text may take.
  SPINDLE_MAX_PDF_PAGES: positiveInt("pages").optional(),
  SPINDLE_PDF_TIMEOUT_MS: positiveInt("milliseconds").optional(),
  SPINDLE_MAX_IMPORTS: positiveInt("imports written at once").optional(),
  SPINDLE_MAX_IMPORTS_PER_ACCOUNT: positiveInt("imports per account").optional(),
  SPINDLE_MAX_STREAMS_PER_ACCOUNT: positiveInt("event streams per account").optional(),
  SPINDLE_MAX_HEAVY_READS_PER_ACCOUNT: positiveInt("heavy reads per account").optional(),
  SPINDLE_HEAVY_READ_NODES: positiveInt("nodes").optional(),
  SPINDLE_OFFLINE_DELAY_MS: z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number of milliseconds")
    .transform(Number)
    .optional(),
});

export type DatabaseKind = "sqlite" | "postgresql";

export interface Config {
  readonly databaseUrl: string;
  readonly databaseKind: DatabaseKind;
  /** Set when an OpenAI-compatible endpoint is configured; otherwise the offline model runs. */
  readonly openai: { readonly baseUrl: string; readonly apiKey: string | undefined } | undefined;
  readonly model: string | undefined;
  readonly summaryModel: string | undefined;
  readonly port: number;
  readonly contextWindow: number | undefined;
  readonly keepRecentTokens: number | undefined;
  readonly maxMessageChars: number;
  /** Per-word streaming delay of the offline model, in milliseconds. */
  readonly offlineDelayMs: number;
  /** The address the server listens on (`next start -H`). */
  readonly host: string;
  /** `false` only in single-user mode (`SPINDLE_AUTH=off`, loopback only). */
  readonly auth: boolean;
  /** Whether anyone may create an account once the first (admin) account exists. */
  readonly allowSignup: boolean;
  /** The origin users type (behind a proxy or on a LAN address); its host is always allowed. */
  readonly publicUrl: string | undefined;
  /**
   * The reverse proxies whose `X-Forwarded-For`/`-Host`/`-Proto` are believed (normalised IP
   * addresses); empty: the socket's peer is the client ([R146]).
   */
  readonly trustedProxies: readonly string[];
  /** Signs session cookies; when unset one is generated once and kept in the database. */
  readonly authSecret: string | undefined;
  /** Largest accepted JSON request body, and the larger cap of `POST /api/import`. */
  readonly maxBodyBytes: number;
  readonly maxImportBytes: number;
  /** Most nodes one imported ledger may hold. */
  readonly maxImportNodes: number;
  /** Largest attachment (one file), and the most all attachments of one message may weigh. */
  readonly maxAttachmentBytes: number;
  readonly maxMessageAttachmentBytes: number;
  /** The limits a PDF's text is read under. */
  readonly pdf: PdfLimits;
  /** Imports this process writes at once, all accounts together. */
  readonly maxImports: number;
  /**
   * What one account may hold at once on this instance ([R148]): open event streams,
   * imports being written, and graph/nodes reads of sessions past `heavyReadNodes` nodes.
   */
  readonly perAccount: {
    readonly eventStreams: number;
    readonly imports: number;
    readonly heavyReads: number;
  };
  readonly heavyReadNodes: number;
}

/** `::ffff:10.0.0.1` → `10.0.0.1`; lower case; `[::1]` → `::1`. */
export function normaliseAddress(address: string): string {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return a.startsWith("::ffff:") && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

/** `SPINDLE_TRUSTED_PROXIES`: IP addresses separated by commas or spaces, normalised. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(normaliseAddress);
}

/** Loopback addresses: the only ones single-user mode may listen on. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

export function databaseKindOf(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//.test(url) ? "postgresql" : "sqlite";
}

/** Parses an environment; throws a ConfigError naming the first bad variable. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Treat empty strings as unset: `FOO= npm start` is how people clear a variable.
  const present: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== "") present[key] = v;
  }
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? "environment");
    const shown = present[variable];
    const secret = variable === "OPENAI_API_KEY" || variable === "SPINDLE_AUTH_SECRET";
    const got = shown === undefined || secret ? "" : ` (got ${JSON.stringify(shown)})`;
    throw new ConfigError(variable, `${issue?.message ?? "is invalid"}${got}`);
  }
  const e = parsed.data;
  const host = e.HOST ?? "127.0.0.1";
  const auth = e.SPINDLE_AUTH !== "off";
  if (!auth && !isLoopbackHost(host)) {
    throw new ConfigError(
      "SPINDLE_AUTH",
      `is "off" (single-user mode: no accounts) but HOST is ${JSON.stringify(host)}; single-user mode may listen only on a loopback address (HOST=127.0.0.1), anything wider needs accounts`,
    );
  }
  const baseUrl = e.OPENAI_BASE_URL ?? (e.OPENAI_API_KEY ? "https://api.openai.com/v1" : undefined);
  return {
    databaseUrl: e.DATABASE_URL,
    databaseKind: databaseKindOf(e.DATABASE_URL),
    openai: baseUrl
      ? { baseUrl: baseUrl.replace(/\/+$/, ""), apiKey: e.OPENAI_API_KEY }
      : undefined,
    model: e.SPINDLE_MODEL,
    summaryModel: e.SPINDLE_SUMMARY_MODEL,
    port: e.PORT ?? 3000,
    contextWindow: e.SPINDLE_CONTEXT_WINDOW,
    keepRecentTokens: e.SPINDLE_KEEP_RECENT_TOKENS,
    maxMessageChars: e.SPINDLE_MAX_MESSAGE_CHARS ?? 200_000,
    offlineDelayMs: e.SPINDLE_OFFLINE_DELAY_MS ?? 25,
    host,
    auth,
    allowSignup: e.SPINDLE_ALLOW_SIGNUP ?? false,
    publicUrl: e.SPINDLE_PUBLIC_URL?.replace(/\/+$/, ""),
    trustedProxies: parseTrustedProxies(e.SPINDLE_TRUSTED_PROXIES),
    authSecret: e.SPINDLE_AUTH_SECRET,
    maxBodyBytes: e.SPINDLE_MAX_BODY_BYTES ?? 4 * 1024 * 1024,
    maxImportBytes: e.SPINDLE_MAX_IMPORT_BYTES ?? 64 * 1024 * 1024,
    maxImportNodes: e.SPINDLE_MAX_IMPORT_NODES ?? 100_000,
    maxAttachmentBytes:
      e.SPINDLE_MAX_ATTACHMENT_BYTES ?? DEFAULT_ATTACHMENT_CAPS.maxAttachmentBytes,
    maxMessageAttachmentBytes:
      e.SPINDLE_MAX_MESSAGE_ATTACHMENT_BYTES ?? DEFAULT_ATTACHMENT_CAPS.maxMessageAttachmentBytes,
    pdf: {
      maxPages: e.SPINDLE_MAX_PDF_PAGES ?? DEFAULT_PDF_LIMITS.maxPages,
      timeoutMs: e.SPINDLE_PDF_TIMEOUT_MS ?? DEFAULT_PDF_LIMITS.timeoutMs,
      memoryBytes: DEFAULT_PDF_LIMITS.memoryBytes,
    },
    maxImports: e.SPINDLE_MAX_IMPORTS ?? 2,
    perAccount: {
      eventStreams: e.SPINDLE_MAX_STREAMS_PER_ACCOUNT ?? 16,
      imports: e.SPINDLE_MAX_IMPORTS_PER_ACCOUNT ?? 1,
      heavyReads: e.SPINDLE_MAX_HEAVY_READS_PER_ACCOUNT ?? 2,
    },
    heavyReadNodes: e.SPINDLE_HEAVY_READ_NODES ?? 5_000,
  };
}

let cached: Config | undefined;

/** Forgets the parsed configuration; the next `config()` reads the environment again. */
export function resetConfig(): void {
  cached = undefined;
}

/** The process's configuration, parsed on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

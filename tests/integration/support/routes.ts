import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeServices } from "@/lib/server/services";
import { createDatabase, type TestDatabase } from "./databases";
import { expectDocumentedAnswer } from "./openapi-schema";

/**
 * The app's route handlers, called in-process with real Requests (no server): the same
 * modules `next start` serves, found by walking app/api. Every answer {@link Routes.call}
 * receives is validated against the OpenAPI document ([R276]).
 */

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response> | Response;
type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
type RouteModule = Partial<Record<Method, Handler>>;

const ROUTES_DIR = path.resolve("app/api");
/** The origin the test requests claim; its Host is one the edge guard accepts. */
export const ORIGIN = "http://127.0.0.1:3000";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const full = path.join(dir, e);
    return statSync(full).isDirectory() ? routeFiles(full) : e === "route.ts" ? [full] : [];
  });
}

/** `app/api/sessions/[id]/route.ts` → `/api/sessions/{id}` (a catch-all keeps `[...x]`). */
function apiPath(file: string): string {
  const rel = path.relative(ROUTES_DIR, path.dirname(file)).replace(/\[(\w+)\]/g, "{$1}");
  return rel ? `/api/${rel}` : "/api";
}

/** The `Cookie` header a browser would send back after these `Set-Cookie`s. */
export function cookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * Signs a new account up through better-auth's route (accounts on, sign-up allowed) and
 * answers the headers a browser then sends: its Origin and session cookie.
 */
export async function signUpAs(
  routes: Routes,
  email: string,
  password: string,
): Promise<{ origin: string; cookie: string }> {
  const res = await routes.call(
    "POST",
    "/api/auth/sign-up/email",
    { email, password, name: email },
    { headers: { origin: ORIGIN } },
  );
  if (res.status !== 200) throw new Error(`sign-up of ${email}: ${res.status} ${res.text}`);
  return { origin: ORIGIN, cookie: cookieOf(res.headers) };
}

export interface CallOptions {
  readonly headers?: Record<string, string>;
  /** Raw body text (sent as is) instead of JSON. */
  readonly raw?: string;
  /** A multipart/form-data body (its type and boundary are set from it). */
  readonly form?: FormData;
}

export interface CallResult {
  readonly status: number;
  readonly json: Record<string, unknown>;
  readonly text: string;
  readonly type: string;
  readonly headers: Headers;
}

export class Routes {
  private constructor(readonly modules: Map<string, RouteModule>) {}

  static async load(): Promise<Routes> {
    const modules = new Map<string, RouteModule>();
    for (const file of routeFiles(ROUTES_DIR))
      modules.set(apiPath(file), (await import(file)) as RouteModule);
    return new Routes(modules);
  }

  /** Every routed `METHOD /path` (catch-alls excluded). */
  routed(): string[] {
    return [...this.modules.entries()]
      .filter(([p]) => !p.includes("[..."))
      .flatMap(([p, mod]) =>
        (["GET", "POST", "PATCH", "DELETE"] as const)
          .filter((m) => typeof mod[m] === "function")
          .map((m) => `${m} ${p}`),
      );
  }

  /**
   * Calls a route as a same-origin browser or script would: JSON body type and this
   * server's Host; `options.headers` add or override (a cookie, a key, another Origin).
   */
  async call(method: Method, url: string, body?: unknown, options: CallOptions = {}) {
    const pathname = url.split("?")[0] ?? "";
    const [template, params] = this.match(pathname);
    const handler = this.modules.get(template)?.[method];
    if (!handler) throw new Error(`${method} ${template} is not routed`);
    const headers: Record<string, string> = {
      host: new URL(ORIGIN).host,
      ...(options.form ? {} : { "content-type": "application/json" }),
      ...options.headers,
    };
    const init: RequestInit = { method, headers };
    if (method === "GET") {
      // A GET carries no body.
    } else if (options.form !== undefined) {
      // Serialised as a browser would, so the handler sees a real multipart body.
      const encoded = new Request(ORIGIN, { method: "POST", body: options.form });
      headers["content-type"] = encoded.headers.get("content-type") ?? "";
      init.body = new Uint8Array(await encoded.arrayBuffer());
    } else if (options.raw !== undefined) init.body = options.raw;
    else if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const res = await handler(new Request(`${ORIGIN}${url}`, init), {
      params: Promise.resolve(params),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    const result = {
      status: res.status,
      json: json as Record<string, unknown>,
      text,
      type: res.headers.get("content-type") ?? "",
      headers: res.headers,
    } satisfies CallResult;
    // Every answer a test receives is one the OpenAPI document describes ([R276]).
    expectDocumentedAnswer(method, template, result);
    return result;
  }

  /**
   * Calls a route like {@link call} but answers the Response itself, unread: for event
   * streams a test reads (or abandons) as it goes.
   */
  async raw(
    method: Method,
    url: string,
    options: {
      headers?: Record<string, string>;
      body?: unknown;
      /** A body sent as is (a stream a test holds open). */
      rawBody?: ReadableStream<Uint8Array>;
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const [template, params] = this.match(url.split("?")[0] ?? "");
    const handler = this.modules.get(template)?.[method];
    if (!handler) throw new Error(`${method} ${template} is not routed`);
    const init: RequestInit = {
      method,
      headers: {
        host: new URL(ORIGIN).host,
        "content-type": "application/json",
        ...options.headers,
      },
    };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    if (options.rawBody !== undefined) {
      init.body = options.rawBody;
      (init as RequestInit & { duplex: "half" }).duplex = "half";
    }
    if (options.signal !== undefined) init.signal = options.signal;
    return handler(new Request(`${ORIGIN}${url}`, init), { params: Promise.resolve(params) });
  }

  /**
   * The templates in the order Next tries them: a catch-all after every other route, and a
   * deeper catch-all (`/api/auth/[...all]`) before a shallower one (`/api/[...rest]`).
   */
  private templates(): string[] {
    const rank = (t: string) => (t.includes("[...") ? 1_000 - t.split("/").length : 0);
    return [...this.modules.keys()].sort((x, y) => rank(x) - rank(y));
  }

  private match(pathname: string): [string, Record<string, string | string[]>] {
    for (const template of this.templates()) {
      const catchAll = /\{\.\.\.(\w+)\}|\[\.\.\.(\w+)\]/.exec(template);
      const pattern = template.replace(/\[\.\.\.\w+\]/, "(.+)").replace(/\{\w+\}/g, "([^/]+)");
      const m = new RegExp(`^${pattern}$`).exec(pathname);
      if (!m) continue;
      const names = [...template.matchAll(/\{(\w+)\}|\[\.\.\.(\w+)\]/g)].map(
        (x) => (x[1] ?? x[2]) as string,
      );
      const params: Record<string, string | string[]> = {};
      names.forEach((n, i) => {
        const v = decodeURIComponent(m[i + 1] ?? "");
        params[n] = catchAll && n === (catchAll[1] ?? catchAll[2]) ? v.split("/") : v;
      });
      return [template, params];
    }
    throw new Error(`no route for ${pathname}`);
  }
}

export interface AppUnderTest {
  readonly db: TestDatabase;
  readonly routes: Routes;
}

/**
 * The app's route handlers over a fresh database for one suite, the offline model without
 * streaming delay, and `env` on top (e.g. `SPINDLE_AUTH: "off"`; `undefined` unsets). The
 * server's services are rebuilt from that environment before the suite and closed after it.
 */
export function useApp(
  kind: "sqlite" | "postgresql",
  env: Record<string, string | undefined>,
  assign: (app: AppUnderTest) => void,
): void {
  let db: TestDatabase | undefined;
  const set = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  const overrides = {
    SPINDLE_OFFLINE_DELAY_MS: "0",
    OPENAI_BASE_URL: undefined,
    OPENAI_API_KEY: undefined,
    SPINDLE_AUTH: undefined,
    ...env,
  };
  const saved = Object.fromEntries(Object.keys(overrides).map((k) => [k, process.env[k]]));
  beforeAll(async () => {
    db = await createDatabase(kind);
    set({ ...overrides, DATABASE_URL: db.url });
    await closeServices();
    assign({ db, routes: await Routes.load() });
  });
  afterAll(async () => {
    await closeServices();
    set(saved);
    await db?.drop();
  });
}

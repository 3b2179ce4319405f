import type { Config } from "../config/env";
import { EngineError } from "../engine/errors";
import type { ApiKeyStore } from "../store/api-key-store";
import { accountActor, LOCAL_ACTOR, requirePasswordChosen, type Actor } from "./actor";
import type { Accounts } from "./accounts";

export interface AuthenticateDeps {
  readonly config: Pick<Config, "auth">;
  readonly accounts: Accounts;
  readonly keys: ApiKeyStore;
  readonly findUser: (id: string) => Promise<{
    id: string;
    name: string;
    email: string;
    role: string | null;
    banned: boolean | null;
  } | null>;
}

/** Query parameters a key must never travel in (URLs end up in logs and browser history). */
const KEY_PARAMS = ["key", "api_key", "apikey", "apiKey", "token", "access_token"];

/**
 * Who sent the request, or null when nobody is signed in. A request that tries and fails to
 * authenticate (a bad or revoked key, a key in the URL) is refused outright rather than
 * treated as anonymous, so a script learns at once that its key stopped working.
 */
export async function authenticate(req: Request, deps: AuthenticateDeps): Promise<Actor | null> {
  if (!deps.config.auth) return LOCAL_ACTOR;
  const params = new URL(req.url).searchParams;
  if (KEY_PARAMS.some((p) => params.has(p))) {
    throw new EngineError(
      "unauthenticated",
      "API keys go in the Authorization header (Authorization: Bearer <key>), never in the URL.",
    );
  }
  // Only the Bearer scheme is ours: a proxy's `Basic` credentials pass through untouched.
  const header = req.headers.get("authorization")?.trim() ?? "";
  if (/^Bearer\b/i.test(header)) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const owner = match?.[1] ? await deps.keys.verify(match[1]) : null;
    if (!owner) {
      throw new EngineError("unauthenticated", "The API key is not valid (unknown or revoked).");
    }
    const user = await deps.findUser(owner.userId);
    if (!user || user.banned) throw new EngineError("unauthenticated", "This account is disabled.");
    return accountActor(user, "key", `key:${owner.keyId}`);
  }
  return signedInActor(req.headers, deps);
}

/** The account whose sign-in cookie the request carries (pages, server actions, routes). */
export async function signedInActor(
  headers: Headers,
  deps: Pick<AuthenticateDeps, "config" | "accounts">,
): Promise<Actor | null> {
  if (!deps.config.auth) return LOCAL_ACTOR;
  const signedIn = await deps.accounts.api.getSession({ headers });
  if (!signedIn) return null;
  const user = signedIn.user as typeof signedIn.user & {
    banned?: boolean | null;
    mustChangePassword?: boolean | null;
  };
  if (user.banned) return null;
  return accountActor(user, "cookie", `session:${signedIn.session.id}`);
}

/**
 * The actor, or a 401 when nobody is signed in, or a 403 when a browser must choose a new
 * password first.
 */
export async function requireActor(req: Request, deps: AuthenticateDeps): Promise<Actor> {
  const actor = await authenticate(req, deps);
  if (!actor) throw new EngineError("unauthenticated");
  return requirePasswordChosen(actor);
}

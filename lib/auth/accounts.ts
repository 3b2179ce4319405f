import "../llm/server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError } from "better-auth/api";
import { admin } from "better-auth/plugins";
import type { Config } from "../config/env";
import type { Database } from "../db/client";
import { asOwnerId } from "../engine/ids";
import type { SessionRows } from "../store/session-rows";
import { isOwnOrigin } from "../http/edge";
import { PASSWORD_LENGTH } from "./password-length";

export interface AccountsDeps {
  readonly database: Database;
  readonly store: Pick<SessionRows, "adoptLocalSessions">;
  readonly config: Pick<Config, "allowSignup" | "publicUrl" | "trustedProxies">;
  /** Signs the session cookie; the same on every instance. */
  readonly secret: string;
}

/** How long a sign-in lasts without activity. */
const SESSION_DAYS = 30;

/**
 * Accounts through better-auth (email and password, its admin plugin for roles and disabled
 * accounts), stored by its Prisma adapter in the same database as the ledger. The edge guard
 * (lib/http/edge.ts) has already checked the Host and Origin of every request that reaches
 * it, so better-auth derives its base URL from the request.
 */
export function createAccounts(deps: AccountsDeps) {
  const { db } = deps.database;
  return betterAuth({
    appName: "Spindle",
    secret: deps.secret,
    basePath: "/api/auth",
    baseURL: deps.config.publicUrl ?? { allowedHosts: ["*"] },
    // The origin the request was sent to: its Host passed the edge guard, which also
    // refused every write whose Origin differs from it.
    trustedOrigins: (request) => {
      const origin = request?.headers.get("origin");
      return request && origin && isOwnOrigin(origin, request, deps.config) ? [origin] : [];
    },
    database: prismaAdapter(db, { provider: deps.database.kind }),
    session: { modelName: "authSession", expiresIn: SESSION_DAYS * 24 * 60 * 60 },
    user: {
      additionalFields: {
        // Set by an admin's password reset, cleared by the user's own change (auth-route.ts);
        // never taken from a request body.
        mustChangePassword: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_LENGTH.min,
      maxPasswordLength: PASSWORD_LENGTH.max,
    },
    // Sign-in throttling is Spindle's own (per account and per address, lib/auth/throttle.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: "spindle",
      useSecureCookies: deps.config.publicUrl?.startsWith("https://") ?? false,
    },
    plugins: [admin({ bannedUserMessage: "This account is disabled." })],
    databaseHooks: {
      user: {
        create: {
          // Open sign-up only while no account exists (the first-run admin) or when the
          // operator allows it; the admin page creates accounts through another path.
          before: async (_user, ctx) => {
            if (ctx?.path !== "/sign-up/email" || deps.config.allowSignup) return;
            if ((await db.user.count()) > 0) {
              throw new APIError("FORBIDDEN", {
                code: "SIGNUP_CLOSED",
                message: "Sign-up is closed: ask the admin of this server to create your account.",
              });
            }
          },
          // The earliest account is the admin, decided after the insert so two racing
          // first sign-ups still end with exactly one admin. It adopts the sessions made in
          // single-user mode.
          after: async (user) => {
            const first = await db.user.findFirst({
              orderBy: [{ createdAt: "asc" }, { id: "asc" }],
              select: { id: true },
            });
            if (first?.id !== user.id) return;
            await db.user.update({ where: { id: user.id }, data: { role: "admin" } });
            await deps.store.adoptLocalSessions(asOwnerId(user.id));
          },
        },
      },
    },
  });
}

export type Accounts = ReturnType<typeof createAccounts>;

import { authRoute } from "@/lib/auth/auth-route";

export const dynamic = "force-dynamic";

/** Accounts (better-auth): sign-up, sign-in, sign-out, the session, admin endpoints. */
export const GET = authRoute;
export const POST = authRoute;

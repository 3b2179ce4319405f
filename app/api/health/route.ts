import { publicRoute } from "@/lib/http/guard";
import { authenticate } from "@/lib/auth/authenticate";
import { migrationState } from "@/lib/db/migration-status";
import type { Health } from "@/lib/http/answers";

export const dynamic = "force-dynamic";

/**
 * Liveness for anyone: `ok`, the database kind and the migration state. Which model answers
 * (and through which host) is for a signed-in caller only ([R144]).
 */
export function GET(req: Request) {
  return publicRoute(req, async ({ database, providers, authDeps }) => {
    await database.db.$queryRawUnsafe("SELECT 1");
    const migrations = await migrationState(database);
    const health: Health = { ok: migrations === "up to date", db: database.kind, migrations };
    const actor = await authenticate(req, authDeps).catch(() => null);
    if (!actor) return Response.json(health);
    const { kind, label } = providers.describe();
    return Response.json({ ...health, model: kind, modelLabel: label } satisfies Health);
  });
}

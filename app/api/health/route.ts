import { publicRoute } from "@/lib/http/guard";
import { migrationState } from "@/lib/db/migration-status";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return publicRoute(req, async ({ database, providers }) => {
    await database.db.$queryRawUnsafe("SELECT 1");
    const migrations = await migrationState(database);
    return Response.json({
      ok: migrations === "up to date",
      db: database.kind,
      migrations,
      model: providers.describe().kind,
      modelLabel: providers.describe().label,
    });
  });
}

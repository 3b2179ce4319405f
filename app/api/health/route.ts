import { handle } from "@/lib/http/respond";
import { services } from "@/lib/server/services";
import { migrationState } from "@/lib/db/migration-status";

export const dynamic = "force-dynamic";

export function GET() {
  return handle(async () => {
    const { database, providers } = await services();
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

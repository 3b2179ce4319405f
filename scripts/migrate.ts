// Usage: tsx scripts/migrate.ts <create NAME | deploy | status | diff-empty>
// Validates the configuration, then drives Prisma's WASM schema engine through the driver
// adapter (the native engine cannot be downloaded here). DATABASE_URL picks the schema:
// file:… → SQLite (prisma/), postgresql://… → PostgreSQL (prisma/postgres/).
import {
  createMigration,
  applyMigrations,
  diffFromEmpty,
  status,
  migrationFactory,
} from "./schema-engine";
import { parseConfig, ConfigError, databaseKindOf } from "../lib/config/env";
import { describeStartupError } from "../lib/db/startup-error";
import { ensureSqliteDirectory, migrationPaths } from "../lib/db/paths";
import { claimSqliteFile } from "../lib/db/single-process";

function fail(line: string): never {
  console.error(`spindle: ${line}`);
  process.exit(1);
}

let url: string;
try {
  url = parseConfig(process.env).databaseUrl;
} catch (e) {
  if (e instanceof ConfigError) fail(`configuration error: ${e.message}`);
  throw e;
}

const { schemaPath, migrationsDir } = migrationPaths(url);
ensureSqliteDirectory(url);
const factory = migrationFactory(url);

const [cmd, name] = process.argv.slice(2);
try {
  // A running server owns its SQLite file: migrating under it is refused with one line (the
  // same claim the server takes, lib/db/single-process.ts), released when this exits.
  if (databaseKindOf(url) === "sqlite" && cmd !== "status") await claimSqliteFile(url);
  if (cmd === "create") {
    const dir = await createMigration({
      schemaPath,
      migrationsDir,
      name: name ?? "migration",
      factory,
    });
    console.log(dir ? `created ${dir}` : "no schema changes, nothing created");
  } else if (cmd === "deploy") {
    const r = await applyMigrations({ schemaPath, migrationsDir, factory });
    console.log(
      r.appliedMigrationNames.length
        ? `spindle: migrations applied: ${r.appliedMigrationNames.join(", ")}`
        : "spindle: database schema up to date",
    );
  } else if (cmd === "status") {
    console.log(JSON.stringify(await status({ schemaPath, migrationsDir, factory })));
  } else if (cmd === "diff-empty") {
    process.stdout.write((await diffFromEmpty({ schemaPath, factory })) ?? "");
  } else {
    fail("usage: migrate.ts create NAME | deploy | status | diff-empty");
  }
} catch (e) {
  fail(describeStartupError(e, url));
}
// The wasm engine leaves a ~10 s timer behind on PostgreSQL (advisory-lock timeout).
process.exit(0);

import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline: the CLI insists on resolving the native schema-engine binary (it would download
// it otherwise) even for `prisma generate`, which never runs it. Migrations go through the
// WASM engine instead (scripts/migrate.ts).
process.env["PRISMA_SCHEMA_ENGINE_BINARY"] ??= path.resolve("scripts/no-schema-engine.sh");
process.env["CHECKPOINT_DISABLE"] ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env["DATABASE_URL"] ?? "file:./data/spindle.db" },
});

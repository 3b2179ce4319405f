// Derives prisma/postgres/schema.prisma from the SQLite source of truth: the models are
// shared, only the provider and the generated client's folder differ (a SQLite-generated
// client refuses the pg adapter, so each database kind gets its own client).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";

const src = readFileSync("prisma/schema.prisma", "utf8");
const out = src
  .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
  .replace(
    /output\s*=\s*"\.\.\/lib\/generated\/prisma"/,
    'output   = "../../lib/generated/prisma-pg"',
  );
if (out === src) throw new Error("sync-pg-schema: nothing replaced");
mkdirSync("prisma/postgres", { recursive: true });
writeFileSync(
  "prisma/postgres/schema.prisma",
  "// GENERATED from prisma/schema.prisma by scripts/sync-pg-schema.mjs - do not edit\n" + out,
);

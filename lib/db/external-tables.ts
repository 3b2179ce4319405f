/**
 * The tables the hand-written search migrations create (docs/spec.md [R100]): Prisma's
 * schema cannot describe them, so the schema engine is told they are external. Without
 * this, `migrate.ts create` — the drift check, which diffs the migrations against the
 * schema — would propose dropping them. An FTS5 table keeps its data in five shadow tables,
 * which the engine lists as ordinary tables.
 */
const FTS5_SHADOWS = ["data", "idx", "content", "docsize", "config"] as const;

const fts5 = (table: string) => [table, ...FTS5_SHADOWS.map((s) => `${table}_${s}`)];

export const EXTERNAL_TABLES = {
  sqlite: [...fts5("node_fts"), ...fts5("session_fts"), ...fts5("attachment_fts")],
  postgresql: ["public.node_search", "public.session_search", "public.attachment_search"],
} as const satisfies Record<string, readonly string[]>;

/** The schema engine's filter for a driver adapter's provider (`sqlite` or `postgres`). */
export function schemaEngineFilters(provider: string) {
  const tables = provider === "sqlite" ? EXTERNAL_TABLES.sqlite : EXTERNAL_TABLES.postgresql;
  return { externalTables: [...tables], externalEnums: [] as string[] };
}

import type { GraphRow } from "@/lib/engine/build-graph";

/**
 * A node's graph row as the page holds it: how the node hangs in the graph — its kind, where
 * it is among its versions, what a capsule covers — not the node itself, which the page's
 * store already holds (its text, metadata, reads, time). A row's readers of the node ask
 * the store ([R138]).
 */
export type PageRow = Pick<
  GraphRow,
  | "id"
  | "kind"
  | "onHeadSpine"
  | "foldedIn"
  | "rawFork"
  | "childCount"
  | "siblingIndex"
  | "siblingCount"
  | "covers_ids"
  | "nestedIn"
  | "superseded_summary"
  | "tokensSaved"
>;

/**
 * A row as the layout worker answers it ({@link PageRow}). Copying each node back to the page
 * with its row cost a 100,000-node session 41 of the 100 MB the worker's first answer took
 * to clone onto the main thread, and held every node twice in the page.
 *
 * The page copies each row it receives the same way: a row read from a message is built
 * property by property, its fields past the first four in a separate array, where a
 * literal holds them all in the object — 4.1 MB less for 100,000 rows.
 */
export function pageRow(row: PageRow): PageRow {
  // Fields copied by name, not spread (as buildGraph does): spreading is much slower.
  const slim: { -readonly [K in keyof PageRow]: PageRow[K] } = {
    id: row.id,
    kind: row.kind,
    onHeadSpine: row.onHeadSpine,
    foldedIn: row.foldedIn,
    rawFork: row.rawFork,
    childCount: row.childCount,
    siblingIndex: row.siblingIndex,
    siblingCount: row.siblingCount,
  };
  if (row.covers_ids !== undefined) slim.covers_ids = row.covers_ids;
  if (row.nestedIn !== undefined) slim.nestedIn = row.nestedIn;
  if (row.superseded_summary !== undefined) slim.superseded_summary = row.superseded_summary;
  if (row.tokensSaved !== undefined) slim.tokensSaved = row.tokensSaved;
  return slim;
}

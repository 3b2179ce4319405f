import type { Database } from "../db/client";
import { EngineError } from "../engine/errors";
import { asNodeId, asSessionId, type OwnerId } from "../engine/ids";
import type { NodeHit, SearchHit, SearchPage, TitleHit } from "../search/search-hit";
import { searchTerms, type SearchTerms } from "../search/search-terms";
import { markHits, snippetOf } from "../search/snippet";
import {
  attachmentTexts,
  nodeMatches,
  onHeadSpines,
  titleMatches,
  type NodeMatchRow,
} from "./search-sql";

export interface SearchInput {
  readonly limit: number;
  /** A previous page's `nextCursor`. */
  readonly cursor?: string | undefined;
}

/** Title matches lead the first page, at most this many. */
const TITLE_HITS = 3;
/** How deep paging goes: a search is for finding, not for walking every mention. */
export const SEARCH_MAX_OFFSET = 1_000;

const NODE_HIT_KINDS: ReadonlySet<string> = new Set<NodeHit["kind"]>([
  "user",
  "assistant",
  "summary",
]);

function iso(value: Date | string | number): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * Full-text search over one account's sessions ([R100]–[R104]): sealed user, assistant and
 * summary text, the text attachments of user messages ([R279]), and session titles. The
 * index is the database's (kept by triggers); this reads it, decides which hits are on their
 * session's HEAD branch, and cuts the snippets (a hit in a file from that file's text).
 */
export class SearchStore {
  constructor(private readonly database: Database) {}

  async search(ownerId: OwnerId, query: string, input: SearchInput): Promise<SearchPage> {
    const offset = offsetOf(input.cursor);
    const terms = searchTerms(query);
    if (terms.words.length === 0) return { results: [], nextCursor: null };
    const { db, kind } = this.database;
    const titles =
      input.cursor === undefined
        ? await titleMatches(db, kind, { ownerId, terms, limit: Math.min(TITLE_HITS, input.limit) })
        : [];
    const room = input.limit - titles.length;
    const rows = await nodeMatches(db, kind, { ownerId, terms, limit: room + 1, offset });
    const page = rows.slice(0, room);
    const more = rows.length > room && offset + room < SEARCH_MAX_OFFSET;
    const results: SearchHit[] = [
      ...titles.map((t): TitleHit => ({
        kind: "title",
        sessionId: asSessionId(t.id),
        sessionTitle: t.title,
        updatedAt: iso(t.updatedAt),
        snippet: markHits(t.title, terms),
        nodeId: null,
        seq: null,
        onHeadSpine: true,
      })),
      ...(await this.nodeHits(ownerId, page, terms)),
    ];
    return { results, nextCursor: more ? String(offset + room) : null };
  }

  private async nodeHits(
    ownerId: OwnerId,
    rows: readonly NodeMatchRow[],
    terms: SearchTerms,
  ): Promise<NodeHit[]> {
    // A summary is never on a spine ([R5]); it counts as on HEAD's branch when the last node
    // it covers is, which is also where opening it lands (revealTarget).
    const anchors = new Map(
      rows.map((r) => [r.id, r.kind === "summary" ? lastCoveredId(r.metadata) : r.id] as const),
    );
    const { db, kind } = this.database;
    const onSpine = await onHeadSpines(
      db,
      kind,
      [...new Set(rows.map((r) => r.sessionId))],
      [...anchors.values()].filter((id): id is string => id !== undefined),
    );
    // A hit in a file is shown from the file: its name, then its text.
    const inFiles = rows.flatMap((r) => (r.attachmentId === null ? [] : [r.attachmentId]));
    const files = new Map(
      inFiles.length === 0
        ? []
        : (await attachmentTexts(db, kind, ownerId, inFiles)).map((f) => [f.id, f] as const),
    );
    return rows.flatMap((r): NodeHit[] => {
      // The triggers index nothing else; a row of another kind would be a corrupt index.
      if (!NODE_HIT_KINDS.has(r.kind)) return [];
      const anchor = anchors.get(r.id);
      const file = r.attachmentId === null ? undefined : files.get(r.attachmentId);
      return [
        {
          kind: r.kind as NodeHit["kind"],
          sessionId: asSessionId(r.sessionId),
          sessionTitle: r.title,
          updatedAt: iso(r.updatedAt),
          snippet: snippetOf(file?.text ?? r.content, terms),
          nodeId: asNodeId(r.id),
          seq: Number(r.seq),
          onHeadSpine: anchor !== undefined && onSpine.has(anchor),
          ...(file ? { attachment: { id: file.id, name: file.name } } : {}),
        },
      ];
    });
  }
}

/** The last id of a summary's `covers_ids` (its metadata is a JSON column). */
function lastCoveredId(metadata: string): string | undefined {
  try {
    const covers: unknown = (JSON.parse(metadata) as Record<string, unknown>)["covers_ids"];
    const last: unknown = Array.isArray(covers) ? covers.at(-1) : undefined;
    return typeof last === "string" ? last : undefined;
  } catch {
    return undefined;
  }
}

/** A cursor is the number of node hits already shown, as the previous page said. */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^\d{1,6}$/.test(cursor) ? Number(cursor) : NaN;
  if (!(n >= 0 && n <= SEARCH_MAX_OFFSET))
    throw new EngineError("invalid_request", "Unknown cursor.");
  return n;
}

import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";
import type { z } from "zod";
import { nodesPageSchema, packedNodesPageSchema, sessionBodySchema } from "@/lib/http/answers";
import { unpackLedger } from "@/lib/engine/packed-ledger";
import { NODES_PAGE_MAX } from "@/lib/http/schemas";
import { readAnswer } from "@/components/ui/read-answer";

/** One page of `GET /api/sessions/:id/nodes` (docs/big-sessions.md). */
export interface NodePage {
  readonly nodes: readonly WireNode[];
  readonly lastSeq: number;
  /** The `afterSeq` of the next page; null when this page reached the end. */
  readonly nextAfterSeq: number | null;
  /** The session's node count (absent from an older server). */
  readonly total?: number;
}

/**
 * The reads the session store makes on its own (catch-up, content on demand). An interface
 * so the store's tests drive it with a fake instead of a server.
 */
export interface NodeSource {
  session(): Promise<SessionRecord>;
  /** Lean nodes with `seq > afterSeq`, one page. */
  after(afterSeq: number): Promise<NodePage>;
  /** Skeleton nodes with `seq > afterSeq`, one page (the ids the server still has). */
  skeleton(afterSeq: number): Promise<NodePage>;
  /** Full copies of these nodes (at most `MAX_IDS` per call). */
  byIds(ids: readonly NodeId[]): Promise<readonly WireNode[]>;
}

/** The server's cap on `?ids=`. */
export const MAX_IDS = 500;
/** Catch-up page size: large enough that a normal catch-up is one request. */
const PAGE = 2000;

async function read<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Request failed (${res.status}).`);
  return readAnswer(res, schema);
}

export function httpNodeSource(sessionId: string): NodeSource {
  const base = `/api/sessions/${encodeURIComponent(sessionId)}`;
  return {
    session: () => read(base, sessionBodySchema),
    after: (afterSeq) =>
      read(`${base}/nodes?afterSeq=${afterSeq}&limit=${PAGE}&view=lean`, nodesPageSchema),
    // In columns, the largest page the server gives: the pass that fills a near-first
    // page of 100,000 nodes is 20 requests of about 0.2 MB each ([R294]).
    skeleton: async (afterSeq) => {
      const { ledger, ...page } = await read(
        `${base}/nodes?${afterSeq >= 0 ? `afterSeq=${afterSeq}&` : ""}limit=${NODES_PAGE_MAX}&view=skeleton&form=columns`,
        packedNodesPageSchema,
      );
      return { ...page, nodes: unpackLedger(ledger) };
    },
    byIds: async (ids) =>
      (await read(`${base}/nodes?ids=${ids.map(encodeURIComponent).join(",")}`, nodesPageSchema))
        .nodes,
  };
}

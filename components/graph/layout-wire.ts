import type { GraphRow, GraphView } from "@/lib/engine/build-graph";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import type { ProvenanceMarks } from "@/lib/engine/provenance-marks";
import type { NodeMetadata } from "@/lib/engine/types";
import { firstLine } from "@/lib/engine/wire-node";
import type { FlowEdge, FlowNode, GraphLayout, NavEntry } from "./flow-types";
import { layoutGraph, type LayoutOptions } from "./layout";
import type { LayoutCache } from "./tidy-tree";

/**
 * The layout worker's messages (layout.worker.ts), serialised on purpose: plain arrays and
 * objects only, so nothing depends on which shapes structured clone keeps (Sets, Maps and
 * class instances are turned into arrays here and back on the other side). Rows travel
 * slimmed to what a card shows: the first line of their content, the tool calls' names, no
 * reads — a long reply on HEAD's spine is not copied to the worker on every change.
 */
export interface LayoutRequest {
  /** Generation: replies to an older request than the latest are dropped. */
  readonly gen: number;
  readonly view: GraphView;
  readonly expanded: readonly string[];
  readonly showRelics: boolean;
  readonly marks: {
    readonly glowing: readonly string[];
    readonly capsuleGlows: boolean;
    readonly insideCapsule: readonly string[];
  } | null;
}

export interface LayoutDone {
  readonly gen: number;
  readonly nodes: FlowNode[];
  readonly edges: FlowEdge[];
  readonly nav: [string, NavEntry][];
}

export type LayoutReply = LayoutDone | { readonly gen: number; readonly error: string };

/** What the layout reads of a node's metadata: the tool calls' names (cardText). */
function slimMetadata(metadata: NodeMetadata): NodeMetadata {
  const calls = metadata.tool_calls;
  if (calls === undefined || calls.length === 0) return {};
  return { tool_calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: "" })) };
}

/** A row as the layout needs it: what a card shows and how the row hangs in the tree. */
export function slimRow(row: GraphRow): GraphRow {
  // Fields copied by name, not spread (as buildGraph does): spreading is much slower.
  const slim: { -readonly [K in keyof GraphRow]: GraphRow[K] } = {
    id: row.id,
    sessionId: row.sessionId,
    predecessorId: row.predecessorId,
    seq: row.seq,
    kind: row.kind,
    content: firstLine(row.content),
    status: row.status,
    callerId: row.callerId,
    metadata: slimMetadata(row.metadata),
    reads: [],
    tokenCount: row.tokenCount,
    createdAt: row.createdAt,
    onHeadSpine: row.onHeadSpine,
    foldedIn: row.foldedIn,
    rawFork: row.rawFork,
    childCount: row.childCount,
    siblingIndex: row.siblingIndex,
    siblingCount: row.siblingCount,
  };
  if (row.covers_ids !== undefined) slim.covers_ids = row.covers_ids;
  if (row.superseded_summary !== undefined) slim.superseded_summary = row.superseded_summary;
  if (row.tokensSaved !== undefined) slim.tokensSaved = row.tokensSaved;
  return slim;
}

export function toRequest(gen: number, view: GraphView, opts: LayoutOptions): LayoutRequest {
  const marks = opts.marks ?? null;
  return {
    gen,
    view: {
      sessionId: view.sessionId,
      headId: view.headId,
      activeSummaryId: view.activeSummaryId,
      nodes: view.nodes.map(slimRow),
    },
    expanded: [...opts.expanded],
    showRelics: opts.showRelics,
    marks:
      marks === null
        ? null
        : {
            glowing: [...marks.glowing],
            capsuleGlows: marks.capsuleGlows,
            insideCapsule: [...marks.insideCapsule],
          },
  };
}

function fromRequest(request: LayoutRequest): LayoutOptions {
  const marks: ProvenanceMarks | null =
    request.marks === null
      ? null
      : {
          glowing: new Set<NodeId>(request.marks.glowing.map(asNodeId)),
          capsuleGlows: request.marks.capsuleGlows,
          insideCapsule: request.marks.insideCapsule.map(asNodeId),
        };
  return {
    expanded: new Set<NodeId>(request.expanded.map(asNodeId)),
    showRelics: request.showRelics,
    marks,
  };
}

/** The worker's side: lay out one request with the worker's cache, as a plain reply. */
export function answerRequest(request: LayoutRequest, cache: LayoutCache): LayoutReply {
  try {
    const layout = layoutGraph(request.view, fromRequest(request), cache);
    return {
      gen: request.gen,
      nodes: layout.nodes,
      edges: layout.edges,
      nav: [...layout.nav],
    };
  } catch (error) {
    return { gen: request.gen, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The page's side: the reply as the layout the canvas draws. */
export function fromReply(reply: LayoutDone): GraphLayout {
  return { nodes: reply.nodes, edges: reply.edges, nav: new Map(reply.nav) };
}

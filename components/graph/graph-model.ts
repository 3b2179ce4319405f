import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import type { FlowEdge, FlowNode, GraphLayout, NavEntry } from "./flow-types";
import { layoutGraph } from "./layout";
import { pageRow, type PageRow } from "./page-row";
import { LayoutCache } from "./tidy-tree";

/**
 * What the graph canvas draws and reads, built from the ledger in one place: the engine's
 * graph contract (`buildGraph`), the provenance marks and the layout. For a small session it
 * is made in place; for a large one in the layout worker, which holds the ledger and answers
 * each change with what changed ([R138]).
 */
export interface GraphModel {
  readonly headId: NodeId | null;
  readonly activeSummaryId: NodeId | null;
  /** Inert summaries (relics) in the session. */
  readonly relics: number;
  /**
   * Every node's graph row: how it hangs in the graph. The node itself (text, metadata,
   * reads) is the store's: readers ask it.
   */
  readonly rows: ReadonlyMap<NodeId, PageRow>;
  /** The drawn cards by id. */
  readonly cards: ReadonlyMap<string, FlowNode>;
  readonly edges: ReadonlyMap<string, FlowEdge>;
  readonly nav: ReadonlyMap<string, NavEntry>;
}

/** Options of one build: what is expanded, whether relics show, what the selection read. */
export interface ModelOptions {
  readonly expanded: ReadonlySet<NodeId>;
  readonly showRelics: boolean;
  /** The selected call's `reads` (what glows), or null. */
  readonly reads: readonly NodeId[] | null;
}

const relicsOf = (view: GraphView) =>
  view.nodes.reduce((n, row) => (row.superseded_summary === true ? n + 1 : n), 0);

/** The layout of a built graph, with the selection's provenance marks. */
function markedLayout(view: GraphView, opts: ModelOptions, cache?: LayoutCache): GraphLayout {
  const marks =
    opts.reads !== null && opts.reads.length > 0 ? provenanceMarks(opts.reads, view) : null;
  return layoutGraph(view, { ...opts, marks }, cache);
}

/** The in-place model of a graph already built: layout and marks on this thread. */
export function modelOf(view: GraphView, opts: ModelOptions, cache?: LayoutCache): GraphModel {
  const layout = markedLayout(view, opts, cache);
  return {
    headId: view.headId,
    activeSummaryId: view.activeSummaryId,
    relics: relicsOf(view),
    rows: new Map(view.nodes.map((row) => [row.id, row])),
    cards: new Map(layout.nodes.map((card) => [card.id, card])),
    edges: new Map(layout.edges.map((e) => [e.id, e])),
    nav: layout.nav,
  };
}

// ── the worker's protocol ──────────────────────────────────────────────────────────────

/**
 * A change of the ledger or the options, page → worker. Plain data only (no Sets or Maps),
 * so nothing depends on what structured clone keeps.
 */
export interface GraphSync {
  readonly gen: number;
  /** The worker drops what it holds first: `upserts` is then the whole ledger. */
  readonly reset: boolean;
  readonly session: SessionRecord;
  /** Nodes new or changed since the previous sync, without their `reads`. */
  readonly upserts: readonly LedgerNode[];
  readonly removed: readonly string[];
  readonly expanded: readonly string[];
  readonly showRelics: boolean;
  readonly reads: readonly string[] | null;
}

/** What changed in one keyed collection. */
export interface Patch<T> {
  readonly upserts: readonly T[];
  readonly removed: readonly string[];
}

/** The worker's answer: what changed in the model since its previous answer. */
export interface GraphPatch {
  readonly gen: number;
  /** Answers a reset: the page drops what it holds first. */
  readonly reset: boolean;
  readonly headId: NodeId | null;
  readonly activeSummaryId: NodeId | null;
  readonly relics: number;
  readonly rows: Patch<PageRow>;
  readonly cards: Patch<FlowNode>;
  readonly edges: Patch<FlowEdge>;
  readonly nav: Patch<readonly [string, NavEntry]>;
}

export type GraphReply = GraphPatch | { readonly gen: number; readonly error: string };

/** Deep equality of plain data (the rows, cards and edges the layout makes). */
export function samePlain(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!samePlain(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!samePlain((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) {
      return false;
    }
  }
  return true;
}

/** Updates `held` to `next` and answers what changed. */
function patch<T>(
  held: Map<string, T>,
  next: Iterable<T>,
  key: (item: T) => string,
  reset: boolean,
): Patch<T> {
  if (reset) {
    // Everything is new: the page drops what it held on a reset, so nothing is "removed".
    held.clear();
    const upserts = [...next];
    for (const item of upserts) held.set(key(item), item);
    return { upserts, removed: [] };
  }
  const upserts: T[] = [];
  const seen = new Set<string>();
  for (const item of next) {
    const id = key(item);
    seen.add(id);
    const before = held.get(id);
    if (before === undefined || !samePlain(before, item)) {
      upserts.push(item);
      held.set(id, item);
    }
  }
  const removed: string[] = [];
  for (const id of held.keys()) if (!seen.has(id)) removed.push(id);
  for (const id of removed) held.delete(id);
  return { upserts, removed };
}

/**
 * The worker's side: holds the ledger as synced, builds the graph with the engine's own
 * function, lays it out with a per-subtree cache, and answers only what changed — so the
 * page's cost per change follows the change, not the ledger ([R138]). Also run on the page
 * when there is no worker, through the same messages.
 */
export class GraphBuilder {
  private readonly nodes = new Map<string, LedgerNode>();
  /** The nodes in seq order, and each one's place in it; null when it must be sorted. */
  private order: LedgerNode[] | null = [];
  private readonly place = new Map<string, number>();
  private readonly rows = new Map<string, PageRow>();
  private readonly cards = new Map<string, FlowNode>();
  private readonly edges = new Map<string, FlowEdge>();
  private readonly nav = new Map<string, readonly [string, NavEntry]>();
  private readonly cache = new LayoutCache();

  answer(sync: GraphSync): GraphReply {
    try {
      return this.apply(sync);
    } catch (error) {
      return { gen: sync.gen, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private apply(sync: GraphSync): GraphPatch {
    if (sync.reset) {
      this.nodes.clear();
      this.order = [];
      this.place.clear();
    }
    this.take(sync.upserts, sync.removed);
    const view = buildGraph(sync.session, this.sorted());
    const opts: ModelOptions = {
      expanded: new Set(sync.expanded.map(asNodeId)),
      showRelics: sync.showRelics,
      reads: sync.reads === null ? null : sync.reads.map(asNodeId),
    };
    const layout = markedLayout(view, opts, this.cache);
    const byId = (x: { readonly id: string }) => x.id;
    return {
      gen: sync.gen,
      reset: sync.reset,
      headId: view.headId,
      activeSummaryId: view.activeSummaryId,
      relics: relicsOf(view),
      rows: patch(this.rows, view.nodes.map(pageRow), byId, sync.reset),
      cards: patch(this.cards, layout.nodes, byId, sync.reset),
      edges: patch(this.edges, layout.edges, byId, sync.reset),
      nav: patch(this.nav, layout.nav, ([id]) => id, sync.reset),
    };
  }

  private take(upserts: readonly LedgerNode[], removed: readonly string[]): void {
    for (const id of removed) {
      if (this.nodes.delete(id)) this.order = null;
    }
    for (const node of upserts) {
      const had = this.nodes.has(node.id);
      this.nodes.set(node.id, node);
      if (this.order === null) continue;
      const at = this.place.get(node.id);
      if (had && at !== undefined) {
        this.order[at] = node;
      } else if ((this.order.at(-1)?.seq ?? -Infinity) < node.seq) {
        this.place.set(node.id, this.order.length);
        this.order.push(node);
      } else {
        this.order = null;
      }
    }
  }

  private sorted(): readonly LedgerNode[] {
    if (this.order === null) {
      this.order = [...this.nodes.values()].sort((a, b) => a.seq - b.seq);
      this.place.clear();
      this.order.forEach((node, i) => this.place.set(node.id, i));
    }
    return this.order;
  }
}

import { buildGraph, type GraphRow, type GraphView } from "@/lib/engine/build-graph";
import type { VersionsLeftOut } from "@/lib/engine/versions-left-out";
import { asNodeId, type NodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { linesOf } from "./flow-elements";
import type { FlowEdge, FlowNode, GraphLayout, Lines, NavEntry } from "./flow-types";
import { layoutGraph } from "./layout";
import { navigate, type NavKey } from "./nav";
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
   * Every summary's graph row: what its capsule covers, what it nests in. The node itself
   * (text, metadata, reads) is the store's: readers ask it.
   */
  readonly summaries: ReadonlyMap<NodeId, PageRow>;
  /**
   * Any node's graph row — how it hangs in the graph — or null for a node the graph does not
   * hold. A large graph's rows stay in the worker, which answers this ([R138]): the page
   * reads one row at a time, the selected node's.
   */
  readonly rowOf: (id: NodeId) => Promise<PageRow | null>;
  /** The drawn cards by id. */
  readonly cards: ReadonlyMap<string, FlowNode>;
  /** The lines between them, read through the card each leads into. */
  readonly lines: Lines;
  /**
   * Where an arrow key leads from a drawn card (graph.md, Interaction). A large graph's
   * arrows stay in the worker, which answers this ([R138]): the page holds no entry per card
   * for a key most sessions never press.
   */
  readonly navigate: (from: string, key: NavKey) => Promise<string | null>;
}

/** Options of one build: what is expanded, whether relics show, what the selection read. */
export interface ModelOptions {
  readonly expanded: ReadonlySet<NodeId>;
  readonly showRelics: boolean;
  /** The selected call's `reads` (what glows), or null. */
  readonly reads: readonly NodeId[] | null;
}

const summaryRows = (view: GraphView) => view.nodes.filter((row) => row.kind === "summary");

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
  const rows = new Map<NodeId, PageRow>(view.nodes.map((row) => [row.id, row]));
  return {
    headId: view.headId,
    activeSummaryId: view.activeSummaryId,
    relics: relicsOf(view),
    summaries: new Map(summaryRows(view).map((row) => [row.id, row])),
    rowOf: (id) => Promise.resolve(rows.get(id) ?? null),
    cards: new Map(layout.nodes.map((card) => [card.id, card])),
    lines: linesOf(layout.edges),
    navigate: (from, key) => Promise.resolve(navigate(layout.nav, from, key)),
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
  /**
   * Answer the whole model, as a reset of the page's (the worker keeps its ledger): the
   * change brought more nodes than the page held — a near-first page's rest ([R294]) — so
   * the answer is shown like the first one, HEAD's area at once and the rest part by
   * part, instead of one change applied whole in a single long task.
   */
  readonly redraw: boolean;
  /**
   * More of this change's nodes follow in the next message: the worker takes them into its
   * ledger and answers nothing yet. A change of many nodes travels in messages of at most
   * {@link SYNC_NODES}, one per task, so copying it never costs the page one long task.
   */
  readonly more: boolean;
  readonly session: SessionRecord;
  /** A near-first page's versions left out, counted in the rows' versions ([R294]). */
  readonly leftOut: VersionsLeftOut | null;
  /** Nodes new or changed since the previous sync, without their `reads`. */
  readonly upserts: readonly LedgerNode[];
  readonly removed: readonly string[];
  readonly expanded: readonly string[];
  readonly showRelics: boolean;
  readonly reads: readonly string[] | null;
  /**
   * The page's window in CSS pixels, when it has one: a large answer is sent in parts, the
   * cards within a few windows of HEAD first (see {@link inParts}).
   */
  readonly window: WindowSize | null;
}

/** The most nodes one message to the worker carries ({@link GraphSync.more}). */
export const SYNC_NODES = 5_000;

/** A window's size in CSS pixels. */
export interface WindowSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The page asks for the next part of answer `next` ({@link inParts}) once it has taken the
 * one before: the worker sends a part only when asked, so the page renders between parts.
 */
export interface GraphNext {
  readonly next: number;
}

/**
 * A question about the worker's model, answered from the model last answered (page →
 * worker): where arrow `key` leads from card `from`, or node `row`'s graph row.
 */
export type GraphAsk =
  | { readonly ask: number; readonly from: string; readonly key: NavKey }
  | { readonly ask: number; readonly row: string };

/** The answer to a {@link GraphAsk} (worker → page): the card it leads to, or the row. */
export type GraphAnswer =
  | { readonly ask: number; readonly to: string | null }
  | { readonly ask: number; readonly row: PageRow | null };

/** A message page → worker. */
export type GraphRequest = GraphSync | GraphNext | GraphAsk;

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
  /** The summaries' rows (every other row stays in the worker: {@link GraphAsk}). */
  readonly summaries: Patch<PageRow>;
  readonly cards: Patch<FlowNode>;
  readonly edges: Patch<FlowEdge>;
  /**
   * More parts of this answer follow ({@link inParts}): the page applies this one, asks for
   * the next ({@link GraphNext}) and sends no other request until the last has come.
   */
  readonly more?: true;
}

export type GraphReply = GraphPatch | { readonly gen: number; readonly error: string };

/** A message worker → page. */
export type WorkerMessage = GraphReply | GraphAnswer;

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

/** At most this many rows, cards and edges together in one part of an answer. */
export const PART_ITEMS = 5_000;
/** The first part of an answer holds the cards this many windows either side of HEAD's. */
const NEAR_WINDOWS = 3;

/** A rectangle in flow coordinates. */
interface Area {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

const inArea = (card: FlowNode, a: Area) =>
  card.position.x < a.maxX &&
  card.position.x + card.width > a.minX &&
  card.position.y < a.maxY &&
  card.position.y + card.height > a.minY;

/** The area around a card the first part of a large answer covers, for a page's window. */
export function nearArea(card: FlowNode, window: WindowSize): Area {
  const x = card.position.x + card.width / 2;
  const y = card.position.y + card.height / 2;
  const dx = NEAR_WINDOWS * window.width;
  const dy = NEAR_WINDOWS * window.height;
  return { minX: x - dx, minY: y - dy, maxX: x + dx, maxY: y + dy };
}

/**
 * One answer as the messages that carry it. A small one is one message. A large one (a
 * reset, or a change that moved most cards) is cut into parts of at most `size` items, so
 * that no single message costs the page a long task to read: the first part carries what
 * the view around HEAD needs — the cards in `near`, the edges from or to them and every
 * summary's row — and every id removed; the rest follow in order. Each part but the last
 * says `more`; the worker sends each next part when the page asks for it
 * ({@link GraphNext}). The first part is bounded by area, not by count: cards do not overlap.
 * Applied in order, the parts make the same model as the whole; a reset's first part can be
 * shown at once.
 */
export function inParts(whole: GraphPatch, near: Area | null, size = PART_ITEMS): GraphPatch[] {
  const total =
    whole.summaries.upserts.length + whole.cards.upserts.length + whole.edges.upserts.length;
  if (total <= size) return [whole];
  const ids = new Set<string>();
  if (near !== null)
    for (const card of whole.cards.upserts) if (inArea(card, near)) ids.add(card.id);
  const split = <T>(items: readonly T[], first: (item: T) => boolean) => {
    const now: T[] = [];
    const later: T[] = [];
    for (const item of items) (first(item) ? now : later).push(item);
    return { now, later };
  };
  const cards = split(whole.cards.upserts, (card) => ids.has(card.id));
  const edges = split(whole.edges.upserts, (e) => ids.has(e.source) || ids.has(e.target));
  const part = (first: boolean, items: { cards: FlowNode[]; edges: FlowEdge[] }): GraphPatch => ({
    gen: whole.gen,
    reset: first && whole.reset,
    headId: whole.headId,
    activeSummaryId: whole.activeSummaryId,
    relics: whole.relics,
    summaries: first ? whole.summaries : { upserts: [], removed: [] },
    cards: { upserts: items.cards, removed: first ? whole.cards.removed : [] },
    edges: { upserts: items.edges, removed: first ? whole.edges.removed : [] },
    more: true,
  });
  const parts = [part(true, { cards: cards.now, edges: edges.now })];
  // The rest, cut into parts of `size` items, collection by collection.
  let open = { cards: [] as FlowNode[], edges: [] as FlowEdge[] };
  let count = 0;
  const flush = () => {
    parts.push(part(false, open));
    open = { cards: [], edges: [] };
    count = 0;
  };
  const fill = <K extends keyof typeof open>(key: K, items: (typeof open)[K]) => {
    for (const item of items) {
      (open[key] as unknown[]).push(item);
      if (++count === size) flush();
    }
  };
  fill("cards", cards.later);
  fill("edges", edges.later);
  if (count > 0) flush();
  const { more: _, ...last } = parts[parts.length - 1] as GraphPatch;
  parts[parts.length - 1] = last;
  return parts;
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
  /** The summaries' rows as last answered. */
  private readonly summaries = new Map<string, PageRow>();
  /** Every row of the graph last answered, and an index of them made when first asked. */
  private rows: readonly GraphRow[] = [];
  private rowIndex: Map<string, GraphRow> | null = null;
  private readonly cards = new Map<string, FlowNode>();
  private readonly edges = new Map<string, FlowEdge>();
  /** Where each arrow key leads, from the latest layout: asked for by the page. */
  private nav: ReadonlyMap<string, NavEntry> = new Map();
  private readonly cache = new LayoutCache();

  answer(sync: GraphSync): GraphReply {
    try {
      return this.apply(sync);
    } catch (error) {
      return { gen: sync.gen, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Takes the nodes of a message with more to come ({@link GraphSync.more}); no answer. */
  stage(sync: GraphSync): void {
    if (sync.reset) this.clear();
    this.take(sync.upserts, sync.removed);
  }

  /** {@link answer} as the messages that carry it ({@link inParts}), HEAD's area first. */
  answerInParts(sync: GraphSync, size = PART_ITEMS): GraphReply[] {
    const whole = this.answer(sync);
    if ("error" in whole) return [whole];
    const head = whole.headId === null ? undefined : this.cardOf(whole.headId);
    const near = head === undefined || sync.window === null ? null : nearArea(head, sync.window);
    return inParts(whole, near, size);
  }

  private clear(): void {
    this.nodes.clear();
    this.order = [];
    this.place.clear();
  }

  private apply(sync: GraphSync): GraphPatch {
    if (sync.reset) this.clear();
    this.take(sync.upserts, sync.removed);
    const view = buildGraph(sync.session, this.sorted(), undefined, sync.leftOut);
    const opts: ModelOptions = {
      expanded: new Set(sync.expanded.map(asNodeId)),
      showRelics: sync.showRelics,
      reads: sync.reads === null ? null : sync.reads.map(asNodeId),
    };
    const layout = markedLayout(view, opts, this.cache);
    const byId = (x: { readonly id: string }) => x.id;
    const whole = sync.reset || sync.redraw;
    this.nav = layout.nav;
    this.rows = view.nodes;
    this.rowIndex = null;
    return {
      gen: sync.gen,
      reset: whole,
      headId: view.headId,
      activeSummaryId: view.activeSummaryId,
      relics: relicsOf(view),
      summaries: patch(this.summaries, summaryRows(view).map(pageRow), byId, whole),
      cards: patch(this.cards, layout.nodes, byId, whole),
      edges: patch(this.edges, layout.edges, byId, whole),
    };
  }

  /** The answer to a question about the model last answered ({@link GraphAsk}). */
  reply(ask: GraphAsk): GraphAnswer {
    if ("key" in ask) return { ask: ask.ask, to: navigate(this.nav, ask.from, ask.key) };
    this.rowIndex ??= new Map(this.rows.map((row) => [row.id, row]));
    const row = this.rowIndex.get(ask.row);
    return { ask: ask.ask, row: row === undefined ? null : pageRow(row) };
  }

  /** A node's card, or the capsule's that folds it (HEAD checked out inside a summary). */
  private cardOf(id: string): FlowNode | undefined {
    const own = this.cards.get(id);
    if (own !== undefined) return own;
    for (const card of this.cards.values()) {
      if (
        card.type === "capsule" &&
        this.summaries.get(card.data.summaryId)?.covers_ids?.includes(asNodeId(id))
      ) {
        return card;
      }
    }
    return undefined;
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

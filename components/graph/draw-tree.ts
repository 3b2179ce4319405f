import type { GraphRow, GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";

/**
 * One card of the tidy tree. `capsule` (folded) and `frame` (expanded) are the two faces of
 * a summary's stand-in: both take the covered segment's place in the tree and carry as
 * children the branches that leave it. A frame may hold stand-ins of its own: an expanded
 * nested summary holds the capsules of the summaries it names ([R249]).
 */
export interface DrawNode {
  /** The flow id: the row's id (the stand-in takes its summary's id — the capsule IS it). */
  readonly id: string;
  /** For a stand-in, the summary row. */
  readonly row: GraphRow;
  readonly shape: "turn" | "capsule" | "frame";
  /** Drawn inside an expanded capsule's frame. */
  readonly covered: boolean;
  readonly children: DrawNode[];
  /** Side leaves hanging off this card, in seq order. */
  readonly sides: GraphRow[];
  /** Frame only: what it holds (turns, or inner stand-ins), laid out as their own tree. */
  readonly inner: DrawNode[];
  /** Stand-ins only: the summary and what it folds. */
  capsule: CapsuleInfo | null;
  /**
   * A raw fork hung off the folded capsule: the position, in the covered segment, of the
   * node it forks from — its edge leaves the capsule by the port there.
   */
  port: number | null;
  /**
   * The card the incoming edge starts at when that is not the layout parent: the node a
   * branch leaves a frame from, or the card above a frame for the first thing inside it.
   */
  edgeFrom: string | null;
}

export interface CapsuleInfo {
  readonly summary: GraphRow;
  /** covers_ids, restricted to rows that exist (a nested summary's: the summaries it names). */
  readonly covered: readonly NodeId[];
  /** The real turns under it, resolved through nesting, in segment order. */
  readonly turns: readonly NodeId[];
  /** Every summary nested under it, at any depth. */
  readonly nested: readonly NodeId[];
  readonly folded: boolean;
  /** HEAD's spine runs through the segment. */
  readonly spine: boolean;
  /** HEAD rests on a covered node. */
  readonly head: boolean;
}

/** What is drawn and how it hangs together, before any geometry. */
export interface DrawTree {
  readonly roots: DrawNode[];
  /** Every stand-in drawn (capsules and frames), each before the ones its frame holds. */
  readonly standIns: readonly DrawNode[];
}

export interface DrawOptions {
  readonly expanded: ReadonlySet<NodeId>;
  readonly showRelics: boolean;
}

function bySeq(rows: readonly GraphRow[]): readonly GraphRow[] {
  for (let i = 1; i < rows.length; i += 1) {
    const prev = rows[i - 1];
    const next = rows[i];
    if (prev !== undefined && next !== undefined && prev.seq > next.seq) {
      return [...rows].sort((a, b) => a.seq - b.seq);
    }
  }
  return rows;
}

function draw(row: GraphRow, shape: DrawNode["shape"], covered: boolean): DrawNode {
  return {
    id: row.id,
    row,
    shape,
    covered,
    children: [],
    sides: [],
    inner: [],
    capsule: null,
    port: null,
    edgeFrom: null,
  };
}

/**
 * Decides what the graph draws (graph.md; compaction.md §6 per capsule): every conversation
 * node as a card, except that each active summary's covered nodes are replaced by a stand-in
 * hung where its segment began — the capsule, or when expanded a frame holding the covered
 * turns in place. A nested summary's frame holds the stand-ins of the summaries it names,
 * which unfold in turn to the originals. Children of covered nodes that are not covered hang
 * off the stand-in (a raw fork from the capsule's port at its fork position). Side leaves
 * attach to the card that draws their predecessor. Rows are visited in seq order, so
 * siblings come out oldest first. Linear in the rows; HEAD-free.
 */
export function drawTree(view: GraphView, opts: DrawOptions): DrawTree {
  const rows = bySeq(view.nodes);
  const byId = new Map<NodeId, GraphRow>();
  for (const row of rows) byId.set(row.id, row);

  /** The summaries a summary names (a nested one), or none. */
  const innerOf = (summary: GraphRow): GraphRow[] =>
    (summary.covers_ids ?? []).flatMap((id) => {
      const row = byId.get(id);
      return row !== undefined && row.kind === "summary" ? [row] : [];
    });

  // The stand-ins, what each folds or holds, and which frame holds each card.
  const standIns: DrawNode[] = [];
  const standInIds = new Set<NodeId>();
  /** The stand-ins' summaries and every summary nested under one: never side leaves. */
  const hidden = new Set<NodeId>();
  const foldedBy = new Map<NodeId, DrawNode>();
  const frameOfTurn = new Map<NodeId, DrawNode>();
  const container = new Map<DrawNode, DrawNode>();
  /** Stand-ins to place just before the row that starts their segment, outermost first. */
  const startsAt = new Map<NodeId, DrawNode[]>();
  const claimed = new Set<NodeId>();

  /** Real turns under a summary, through nesting; a cycle or a missing summary adds none. */
  const turnsOf = (summary: GraphRow, seen: Set<NodeId>, nested: NodeId[]): NodeId[] => {
    if (seen.has(summary.id)) return [];
    seen.add(summary.id);
    const inner = innerOf(summary);
    if (inner.length === 0) {
      return (summary.covers_ids ?? []).filter((id) => {
        const row = byId.get(id);
        return row !== undefined && !isSideLeafKind(row.kind);
      });
    }
    return inner.flatMap((row) => {
      nested.push(row.id);
      return turnsOf(row, seen, nested);
    });
  };

  const visit = (summary: GraphRow, frame: DrawNode | null, seen: Set<NodeId>): void => {
    if (standInIds.has(summary.id)) return;
    const nested: NodeId[] = [];
    const turns = turnsOf(summary, new Set(seen), nested).filter((id) => !claimed.has(id));
    const first = turns[0];
    if (first === undefined) return;
    const folded = !opts.expanded.has(summary.id);
    const card = draw(summary, folded ? "capsule" : "frame", frame !== null);
    const turnRows = turns.flatMap((id) => byId.get(id) ?? []);
    card.capsule = {
      summary,
      covered: (summary.covers_ids ?? []).filter((id) => byId.has(id)),
      turns,
      nested,
      folded,
      spine: turnRows.some((row) => row.onHeadSpine),
      head: view.headId !== null && turns.includes(view.headId),
    };
    standIns.push(card);
    standInIds.add(summary.id);
    hidden.add(summary.id);
    for (const id of nested) hidden.add(id);
    if (frame !== null) container.set(card, frame);
    const list = startsAt.get(first);
    if (list === undefined) startsAt.set(first, [card]);
    else list.push(card);
    const inner = innerOf(summary);
    if (folded || inner.length === 0) {
      for (const id of turns) {
        claimed.add(id);
        if (folded) foldedBy.set(id, card);
        else frameOfTurn.set(id, card);
      }
      return;
    }
    const deeper = new Set(seen).add(summary.id);
    for (const row of inner) visit(row, card, deeper);
  };
  const active =
    view.activeSummaryIds.length > 0
      ? view.activeSummaryIds
      : view.activeSummaryId === null
        ? []
        : [view.activeSummaryId];
  for (const id of active) {
    const row = byId.get(id);
    if (row !== undefined && row.kind === "summary") visit(row, null, new Set());
  }

  const cards = new Map<string, DrawNode>();
  for (const row of rows) {
    if (isSideLeafKind(row.kind) || foldedBy.has(row.id)) continue;
    const frame = frameOfTurn.get(row.id);
    const card = draw(row, "turn", frame !== undefined);
    if (frame !== undefined) container.set(card, frame);
    cards.set(row.id, card);
  }

  // The card that draws `id`: itself, the capsule folding it, or — for a side leaf, which
  // nothing should hang under — whatever draws its predecessor. Bounded by the row count.
  const cardOf = (start: NodeId | null): DrawNode | undefined => {
    let id = start;
    for (let hops = 0; id !== null && hops <= rows.length; hops += 1) {
      const folding = foldedBy.get(id);
      if (folding !== undefined) return folding;
      const card = cards.get(id);
      if (card !== undefined) return card;
      id = byId.get(id)?.predecessorId ?? null;
    }
    return undefined;
  };
  const frameOf = (card: DrawNode): DrawNode | null => container.get(card) ?? null;
  const within = (card: DrawNode, frame: DrawNode): boolean => {
    for (let f: DrawNode | null = card; f !== null; f = frameOf(f)) if (f === frame) return true;
    return false;
  };

  const roots: DrawNode[] = [];
  /**
   * Hangs `card` under `from` when both are drawn at the same level; across a frame's edge,
   * the edge keeps its real source and the card hangs where the layout can place it: under
   * the frame `from` sits in (leaving it), or at the top of its own frame (entering it).
   */
  const hang = (card: DrawNode, from: DrawNode | undefined): void => {
    const home = frameOf(card);
    if (from === undefined) {
      if (home === null) roots.push(card);
      else home.inner.push(card);
      return;
    }
    if (frameOf(from) === home) {
      from.children.push(card);
      return;
    }
    card.edgeFrom = from.id;
    let out = frameOf(from);
    while (out !== null && frameOf(out) !== home) out = frameOf(out);
    if (out !== null) out.children.push(card);
    else if (home === null) roots.push(card);
    else home.inner.push(card);
  };

  const placed = new Set<DrawNode>();
  const place = (standIn: DrawNode): void => {
    placed.add(standIn);
    // A stand-in hangs from its summary's predecessor — unless that lies inside it.
    const above = cardOf(standIn.row.predecessorId);
    hang(standIn, above === undefined || within(above, standIn) ? undefined : above);
  };

  for (const row of rows) {
    if (isSideLeafKind(row.kind)) {
      if (hidden.has(row.id)) continue;
      if (row.superseded_summary === true && !opts.showRelics) continue;
      cardOf(row.predecessorId)?.sides.push(row);
      continue;
    }
    for (const standIn of startsAt.get(row.id) ?? []) place(standIn);
    const card = cards.get(row.id);
    if (card === undefined) continue;
    const from = row.predecessorId === null ? undefined : cardOf(row.predecessorId);
    const fromCapsule = from?.shape === "capsule" ? from.capsule : null;
    if (fromCapsule !== null && row.rawFork && row.predecessorId !== null) {
      card.port = Math.max(0, fromCapsule.turns.indexOf(row.predecessorId));
    }
    hang(card, from);
  }
  for (const standIn of standIns) if (!placed.has(standIn)) place(standIn);

  return { roots, standIns };
}

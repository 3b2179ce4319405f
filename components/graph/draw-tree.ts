import type { GraphRow, GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import { isSideLeafKind } from "@/lib/engine/side-leaf";

/**
 * One card of the tidy tree. `capsule` (folded) and `frame` (expanded) are the two faces of
 * the active summary's stand-in: both take the covered segment's place in the tree and
 * carry as children the branches that leave it.
 */
export interface DrawNode {
  /** The flow id: the row's id (the stand-in takes its summary's id — the capsule IS it). */
  readonly id: string;
  /** For the stand-in, the active summary row. */
  readonly row: GraphRow;
  readonly shape: "turn" | "capsule" | "frame";
  /** A turn drawn inside the expanded capsule's frame. */
  readonly covered: boolean;
  readonly children: DrawNode[];
  /** Side leaves hanging off this card, in seq order. */
  readonly sides: GraphRow[];
  /** Frame only: the covered turns, laid out as their own tree inside it. */
  readonly inner: DrawNode[];
  /**
   * A raw fork hung off the folded capsule: the position, in the covered segment, of the
   * node it forks from — its edge leaves the capsule by the port there.
   */
  port: number | null;
  /**
   * The card the incoming edge starts at when that is not the layout parent: the covered
   * node a branch leaves the frame from, or the frame's parent for the segment's first turn.
   */
  edgeFrom: string | null;
}

export interface CapsuleInfo {
  readonly summary: GraphRow;
  /** covers_ids, restricted to rows that exist. */
  readonly covered: readonly NodeId[];
  readonly folded: boolean;
  /** HEAD's spine runs through the segment. */
  readonly spine: boolean;
  /** HEAD rests on a covered node. */
  readonly head: boolean;
}

/** What is drawn and how it hangs together, before any geometry. */
export interface DrawTree {
  readonly roots: DrawNode[];
  /** The capsule or the frame, somewhere in the tree. */
  readonly standIn: DrawNode | null;
  readonly capsule: CapsuleInfo | null;
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
    port: null,
    edgeFrom: null,
  };
}

/**
 * Decides what the graph draws (graph.md): every conversation node as a card, except that
 * the active summary's covered nodes are replaced by a stand-in hung where the segment
 * began — the capsule, or when expanded a frame holding the covered turns in place. Children
 * of covered nodes that are not covered hang off the stand-in (a raw fork from the capsule's
 * port at its fork position). Side leaves attach to the card that draws their predecessor.
 * Rows are visited in seq order, so siblings come out oldest first. Linear; HEAD-free.
 */
export function drawTree(view: GraphView, opts: DrawOptions): DrawTree {
  const rows = bySeq(view.nodes);
  const byId = new Map<NodeId, GraphRow>();
  for (const row of rows) byId.set(row.id, row);

  const summary = view.activeSummaryId === null ? undefined : byId.get(view.activeSummaryId);
  const covered = (summary?.covers_ids ?? []).filter((id) => byId.has(id));
  const coverPos = new Map<NodeId, number>(covered.map((id, i) => [id, i]));
  const isCovered = (id: NodeId | null) => id !== null && coverPos.has(id);
  const hasCapsule = summary !== undefined && covered.length > 0;
  const folded = hasCapsule && !opts.expanded.has(summary.id);
  const standIn = hasCapsule ? draw(summary, folded ? "capsule" : "frame", false) : null;

  const cards = new Map<string, DrawNode>();
  for (const row of rows) {
    if (isSideLeafKind(row.kind) || (folded && isCovered(row.id))) continue;
    cards.set(row.id, draw(row, "turn", isCovered(row.id)));
  }

  // The card that draws `id`: itself, the capsule folding it, or — for a side leaf, which
  // nothing should hang under — whatever draws its predecessor. Bounded by the row count.
  const cardOf = (start: NodeId | null): DrawNode | undefined => {
    let id = start;
    for (let hops = 0; id !== null && hops <= rows.length; hops += 1) {
      if (folded && isCovered(id)) return standIn ?? undefined;
      const card = cards.get(id);
      if (card !== undefined) return card;
      id = byId.get(id)?.predecessorId ?? null;
    }
    return undefined;
  };

  const roots: DrawNode[] = [];
  const hang = (child: DrawNode, parent: DrawNode | undefined): void => {
    if (parent === undefined || parent === child) roots.push(child);
    else parent.children.push(child);
  };
  // The stand-in hangs from the summary's predecessor — unless that is itself covered.
  const above = hasCapsule ? cardOf(summary.predecessorId) : undefined;
  const standInParent = above === standIn || above?.covered === true ? undefined : above;
  let placed = false;

  for (const row of rows) {
    if (isSideLeafKind(row.kind)) {
      if (hasCapsule && row.id === summary.id) continue;
      if (row.superseded_summary === true && !opts.showRelics) continue;
      cardOf(row.predecessorId)?.sides.push(row);
      continue;
    }
    const segmentStart = isCovered(row.id) && !isCovered(row.predecessorId);
    if (standIn !== null && segmentStart && !placed) {
      // The stand-in takes the place of the segment's first node among its parent's children.
      hang(standIn, standInParent);
      placed = true;
    }
    const card = cards.get(row.id);
    if (card === undefined) continue;
    const from = row.predecessorId === null ? undefined : cardOf(row.predecessorId);
    if (standIn !== null && !folded && card.covered !== (from?.covered === true)) {
      // Crossing the frame's edge: into it (the segment's first turn) or out of it.
      card.edgeFrom = from?.id ?? null;
      if (card.covered) standIn.inner.push(card);
      else standIn.children.push(card);
      continue;
    }
    if (from === standIn && standIn !== null && row.rawFork && row.predecessorId !== null) {
      card.port = coverPos.get(row.predecessorId) ?? 0;
    }
    hang(card, from);
  }
  if (standIn !== null && !placed) hang(standIn, standInParent);

  if (!hasCapsule) return { roots, standIn: null, capsule: null };
  const coveredRows = covered.flatMap((id) => byId.get(id) ?? []);
  return {
    roots,
    standIn,
    capsule: {
      summary,
      covered,
      folded,
      spine: coveredRows.some((row) => row.onHeadSpine),
      head: view.headId !== null && coverPos.has(view.headId),
    },
  };
}

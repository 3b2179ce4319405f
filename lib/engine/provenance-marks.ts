import type { GraphView } from "./build-graph";
import type { NodeId } from "./ids";

/** How the graph marks what a selected call read (graph.md, "Provenance marking"). */
export interface ProvenanceMarks {
  /** Rows that glow: the reads that still exist. Everything else dims. */
  readonly glowing: ReadonlySet<NodeId>;
  /**
   * A capsule glows: the call read an active summary (or one nested under it). The nodes the
   * summary stands in for are not in the reads, so they do not glow — the summary did.
   */
  readonly capsuleGlows: boolean;
  /**
   * Reads now folded inside a capsule: raw turns (or a summary, now nested) the call read
   * before a later compaction covered them. They glow when the capsule is expanded.
   */
  readonly insideCapsule: readonly NodeId[];
}

/**
 * The marks for a selected node's `reads` (a reply's, or a summary's: its summariser call
 * read the covered slice).
 */
export function provenanceMarks(
  reads: readonly NodeId[],
  graph: Pick<GraphView, "nodes">,
): ProvenanceMarks {
  const existing = new Set<NodeId>();
  // Every capsule — the active summaries and the ones nested under them — and what it folds.
  const capsules = new Set<NodeId>();
  const folded = new Set<NodeId>();
  for (const row of graph.nodes) {
    existing.add(row.id);
    if (row.covers_ids !== undefined) {
      capsules.add(row.id);
      for (const id of row.covers_ids) folded.add(id);
    }
  }
  const glowing = new Set<NodeId>();
  for (const id of reads) if (existing.has(id)) glowing.add(id);
  return {
    glowing,
    capsuleGlows: [...glowing].some((id) => capsules.has(id)),
    insideCapsule: [...glowing].filter((id) => folded.has(id)),
  };
}

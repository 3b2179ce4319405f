import type { GraphView } from "./build-graph";
import type { NodeId } from "./ids";

/** How the graph marks what a selected call read (graph.md, "Provenance marking"). */
export interface ProvenanceMarks {
  /** Rows that glow: the reads that still exist. Everything else dims. */
  readonly glowing: ReadonlySet<NodeId>;
  /**
   * The capsule glows: the call read the active summary. The nodes the summary stands in
   * for are not in the reads, so they do not glow — the summary did, not they.
   */
  readonly capsuleGlows: boolean;
  /**
   * Reads now folded inside the capsule: raw turns the call read before a later compaction
   * covered them. They glow when the capsule is expanded.
   */
  readonly insideCapsule: readonly NodeId[];
}

/**
 * The marks for a selected node's `reads` (a reply's, or a summary's: its summariser call
 * read the covered slice).
 */
export function provenanceMarks(
  reads: readonly NodeId[],
  graph: Pick<GraphView, "activeSummaryId" | "nodes">,
): ProvenanceMarks {
  const existing = new Set<NodeId>();
  let capsule: ReadonlySet<NodeId> = new Set();
  for (const row of graph.nodes) {
    existing.add(row.id);
    if (row.id === graph.activeSummaryId && row.covers_ids !== undefined) {
      capsule = new Set(row.covers_ids);
    }
  }
  const glowing = new Set<NodeId>();
  for (const id of reads) if (existing.has(id)) glowing.add(id);
  return {
    glowing,
    capsuleGlows: graph.activeSummaryId !== null && glowing.has(graph.activeSummaryId),
    insideCapsule: [...glowing].filter((id) => capsule.has(id)),
  };
}

import type { NodeId, SessionId } from "../engine/ids";
import { expansionNeeds } from "../engine/replay-prompt";
import type { LedgerNode, NodeLookup } from "../engine/types";
import type { LedgerReads } from "../store/ledger-reads";

/**
 * The nodes a prompt that expands `summaries` needs, beyond those already in `have`: the
 * summaries nested under them and their original turns, read by id a level at a time
 * (without their `reads`, which a rendering never looks at). Answers a lookup over all of
 * them.
 */
export async function withExpansion(
  store: Pick<LedgerReads, "nodesById">,
  sessionId: SessionId,
  have: readonly LedgerNode[],
  summaries: readonly LedgerNode[],
): Promise<NodeLookup> {
  const known = new Map<NodeId, LedgerNode>(have.map((n) => [n.id, n] as const));
  for (const s of summaries) known.set(s.id, s);
  const lookup: NodeLookup = (id) => known.get(id);
  // Each round reaches one level of nesting deeper; a cycle or a missing id stops it.
  for (let round = 0; round < 64; round++) {
    const needs = expansionNeeds(summaries, lookup);
    const wanted = [...needs.summaries, ...needs.turns];
    if (wanted.length === 0) break;
    const found = await store.nodesById(sessionId, wanted, { reads: false });
    if (found.length === 0) break;
    for (const n of found) known.set(n.id, n);
  }
  return lookup;
}

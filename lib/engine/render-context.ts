import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import { renderMessage, type RenderedMessage } from "./render-message";
import { rendersInPlace } from "./renders-in-place";
import { innerSummaryIds, turnsOf } from "./summary-turns";
import type { LedgerNode } from "./types";

/** What the model reads from a head: the wire shape of `GET .../context?head=ID`. */
export interface RenderedContext {
  readonly headId: NodeId;
  /** The rendered ids in prompt order; `ids[0]` is the ROOT. */
  readonly ids: readonly NodeId[];
  readonly messages: readonly RenderedMessage[];
}

/** What a rendering is computed from — nothing else (no HEAD, no clock). */
export interface RenderInput {
  /** The head's predecessor spine, ROOT first (see {@link spineOf}). */
  readonly spine: readonly LedgerNode[];
  /** The session's active summaries (see {@link activeSummaries}); relics never belong here. */
  readonly activeSummaries: readonly LedgerNode[];
  /**
   * The summaries nested under the active ones, at every depth (compaction.md §7): a nested
   * summary is resolved to its turns through them. Not active themselves: one is admitted
   * only where the summary nesting it does not apply whole.
   */
  readonly innerSummaries?: readonly LedgerNode[];
}

/**
 * The one place that decides what the model reads (compaction.md §3, segment substitution).
 *
 * For each active summary S with covered segment L (its covers_ids; for a nested summary the
 * turns of the summaries it names, recursively): iff every id of L lies on the spine, L is
 * dropped and S is admitted at L's position; otherwise the spine renders raw — except that
 * a nested summary that does not apply whole hands the question down to the summaries it
 * names, each of which applies where its own segment lies whole on the spine. A compacted
 * branch therefore renders `[ROOT, S, kept tail…]` (under `segmented`, `[ROOT, S1, S2, …,
 * kept tail…]`), while a fork from inside a covered range or a dead sibling of the same era
 * — whose spine lacks part of L — renders that stretch raw. The result depends only on the
 * spine and the summaries passed in, never on where HEAD happens to be. Cost: linear in the
 * spine plus the covered segments.
 *
 * @throws EngineError `invalid_ledger` when the spine is empty or does not start at ROOT.
 */
export function renderContext(input: RenderInput): RenderedContext {
  const { spine } = input;
  const root = spine[0];
  const head = spine.at(-1);
  if (root === undefined || head === undefined || root.kind !== "root") {
    throw new EngineError("invalid_ledger", "A rendering starts from a spine rooted at ROOT.");
  }

  const onSpine = new Set<NodeId>();
  for (const node of spine) onSpine.add(node.id);

  const known = new Map<NodeId, LedgerNode>();
  for (const summary of input.innerSummaries ?? []) known.set(summary.id, summary);
  for (const summary of input.activeSummaries) known.set(summary.id, summary);
  const lookup = (id: NodeId): LedgerNode | undefined => known.get(id);

  // Covered id → the summary standing in for it. A summary applies only as a whole.
  const standIn = new Map<NodeId, LedgerNode>();
  const visited = new Set<NodeId>();
  const substitute = (summary: LedgerNode): void => {
    if (visited.has(summary.id)) return;
    visited.add(summary.id);
    const covered = turnsOf(summary, lookup);
    if (
      covered !== null &&
      covered.length > 0 &&
      !covered.includes(root.id) &&
      covered.every((id) => onSpine.has(id)) &&
      // Segments of distinct active summaries are disjoint by policy; an overlap is skipped
      // rather than letting one id vanish behind two stand-ins.
      !covered.some((id) => standIn.has(id))
    ) {
      for (const id of covered) standIn.set(id, summary);
      return;
    }
    for (const id of innerSummaryIds(summary)) {
      const inner = lookup(id);
      if (inner !== undefined) substitute(inner);
    }
  };
  for (const summary of input.activeSummaries) substitute(summary);

  const messages: RenderedMessage[] = [];
  const admitted = new Set<NodeId>();
  for (const node of spine) {
    const summary = standIn.get(node.id);
    const source = summary ?? (rendersInPlace(node) ? node : undefined);
    if (source === undefined || admitted.has(source.id)) continue;
    admitted.add(source.id);
    const message = renderMessage(source);
    if (message !== null) messages.push(message);
  }

  return { headId: head.id, ids: messages.map((m) => m.id), messages };
}

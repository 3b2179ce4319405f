import { coversIdsOf } from "./covers-ids-of";
import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import { renderMessage, type RenderedMessage } from "./render-message";
import { rendersInPlace } from "./renders-in-place";
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
}

/**
 * The one place that decides what the model reads (compaction.md §3, segment substitution).
 *
 * For each active summary S with covered segment L = covers_ids(S): iff every id of L lies
 * on the spine, L is dropped and S is admitted at L's position; otherwise the spine renders
 * raw. A compacted branch therefore renders `[ROOT, S, kept tail…]`, while a fork from
 * inside the covered range or a dead sibling of the same era — whose spine lacks part of L —
 * renders raw. The result depends only on the spine and the summaries passed in, never on
 * where HEAD happens to be. Cost: linear in the spine plus the covered segments.
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

  // Covered id → the summary standing in for it. A summary applies only as a whole.
  const standIn = new Map<NodeId, LedgerNode>();
  for (const summary of input.activeSummaries) {
    const covered = coversIdsOf(summary);
    if (covered.length === 0 || covered.includes(root.id)) continue;
    if (!covered.every((id) => onSpine.has(id))) continue;
    // Segments of distinct active summaries are disjoint by policy; an overlap is skipped
    // rather than letting one id vanish behind two stand-ins.
    if (covered.some((id) => standIn.has(id))) continue;
    for (const id of covered) standIn.set(id, summary);
  }

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

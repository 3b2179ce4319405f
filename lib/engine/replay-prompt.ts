import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import type { RenderedContext } from "./render-context";
import { renderMessage, type RenderedMessage } from "./render-message";
import { rendersInPlace } from "./renders-in-place";
import { coversIdsOf } from "./covers-ids-of";
import { isNestedSummary, turnsOf } from "./summary-turns";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * Which summaries of a replayed prompt to expand: none (an exact replay), every summary it
 * read (`"all"`: the prompt without compaction), or the named ones.
 */
export type ReplayExpand = "all" | readonly NodeId[];

/** The prompt a replay sends, and what it changed. */
export interface ReplayPrompt {
  /** The messages in prompt order; `ids` are the nodes they came from. */
  readonly rendering: RenderedContext;
  /** The summaries replaced with their originals, in prompt order. */
  readonly expanded: readonly NodeId[];
  /** How many original turns stand where those summaries stood. */
  readonly expandedTurns: number;
}

/**
 * The summaries a prompt of `reads` admitted, resolved through `getNode`, in prompt order.
 * A read that is missing is left out here; {@link replayPrompt} reports it.
 */
export function summariesRead(reads: readonly NodeId[], getNode: NodeLookup): LedgerNode[] {
  const out: LedgerNode[] = [];
  for (const id of reads) {
    const node = getNode(id);
    if (node?.kind === "summary") out.push(node);
  }
  return out;
}

/**
 * The summaries `expand` selects among those a prompt read. Naming a summary the prompt did
 * not read is `invalid_request`: expanding it could not change what was sent.
 */
export function summariesToExpand(
  read: readonly LedgerNode[],
  expand: ReplayExpand | undefined,
): LedgerNode[] {
  if (expand === undefined) return [];
  if (expand === "all") return [...read];
  const byId = new Map(read.map((s) => [s.id, s] as const));
  const chosen = new Set<NodeId>();
  for (const id of expand) {
    if (!byId.has(id)) {
      throw new EngineError(
        "invalid_request",
        `Summary ${id} is not part of this reply's prompt, so it cannot be expanded.`,
      );
    }
    chosen.add(id);
  }
  return read.filter((s) => chosen.has(s.id));
}

/**
 * Rebuilds the prompt a reply was produced from (compaction.md §7.2: provenance is what
 * makes replay possible). Without `expand` the messages are exactly those of `reads` — the
 * same nodes in the same order, each rendered by the one rule every prompt uses
 * ({@link renderMessage}) — so, sent the same way, the request is the original's. With
 * `expand`, each chosen summary's message is replaced by its covered originals' messages in
 * spine order (for a nested summary, the turns under it, recursively), rendered as a raw
 * spine renders them: notices and failed replies stay out ([R9]). Nothing else changes.
 *
 * `getNode` must answer every read, and, for each expanded summary, the summaries nested
 * under it and its turns. Pure; cost linear in the reads plus the expanded turns.
 *
 * @throws EngineError `no_provenance` when `reads` is empty or names a node that is gone or
 *   cannot be rendered, or an expanded summary's originals are not all there;
 *   `invalid_request` when `expand` names a summary the prompt did not read.
 */
export function replayPrompt(
  reads: readonly NodeId[],
  getNode: NodeLookup,
  expand?: ReplayExpand,
): ReplayPrompt {
  if (reads.length === 0) {
    throw new EngineError(
      "no_provenance",
      "This reply has no recorded prompt (reads), so it cannot be replayed.",
    );
  }
  const nodes = reads.map((id) => {
    const node = getNode(id);
    if (node === undefined) {
      throw new EngineError(
        "no_provenance",
        `Part of this reply's prompt (node ${id}) no longer exists, so it cannot be replayed.`,
      );
    }
    return node;
  });
  const chosen = new Set(summariesToExpand(summariesRead(reads, getNode), expand).map((s) => s.id));

  const messages: RenderedMessage[] = [];
  const expanded: NodeId[] = [];
  let expandedTurns = 0;
  for (const node of nodes) {
    if (chosen.has(node.id)) {
      const originals = originalsOf(node, getNode);
      expanded.push(node.id);
      expandedTurns += originals.length;
      for (const original of originals) messages.push(renderOrThrow(original));
      continue;
    }
    messages.push(renderOrThrow(node));
  }
  const headId = reads.at(-1) as NodeId;
  return {
    rendering: { headId, ids: messages.map((m) => m.id), messages },
    expanded,
    expandedTurns,
  };
}

function renderOrThrow(node: LedgerNode): RenderedMessage {
  const message = renderMessage(node);
  if (message === null) {
    throw new EngineError(
      "no_provenance",
      `Node ${node.id} (a ${node.kind}) cannot be part of a prompt; this reply's reads are not a prompt.`,
    );
  }
  return message;
}

/**
 * The covered turns of `summary` that a raw rendering of them sends, in spine order: its
 * covers_ids resolved through nesting, without notices and failed replies.
 */
export function originalsOf(summary: LedgerNode, getNode: NodeLookup): LedgerNode[] {
  const turns = turnsOf(summary, getNode);
  if (turns === null || turns.length === 0) {
    throw new EngineError(
      "no_provenance",
      `The turns summary ${summary.id} stands in for cannot be resolved.`,
    );
  }
  const out: LedgerNode[] = [];
  for (const id of turns) {
    const node = getNode(id);
    if (node === undefined) {
      throw new EngineError(
        "no_provenance",
        `Turn ${id}, summarised by ${summary.id}, no longer exists: the summary cannot be expanded.`,
      );
    }
    if (rendersInPlace(node)) out.push(node);
  }
  return out;
}

/**
 * The ids a loader must still read, beyond the reads themselves, before {@link replayPrompt}
 * can expand `summaries`: nested summaries `getNode` does not answer yet, and the turns of
 * the plain summaries it can reach. A loader asks again after each read until both are
 * empty (each round reaches one level of nesting deeper).
 */
export function expansionNeeds(
  summaries: readonly LedgerNode[],
  getNode: NodeLookup,
): { readonly summaries: readonly NodeId[]; readonly turns: readonly NodeId[] } {
  const missingSummaries = new Set<NodeId>();
  const turns = new Set<NodeId>();
  const seen = new Set<NodeId>();
  const visit = (summary: LedgerNode): void => {
    // Nesting that cycles is reported by replayPrompt (turnsOf); here it just stops.
    if (seen.has(summary.id)) return;
    seen.add(summary.id);
    for (const id of coversIdsOf(summary)) {
      const node = getNode(id);
      if (!isNestedSummary(summary)) {
        if (node === undefined) turns.add(id);
      } else if (node === undefined) missingSummaries.add(id);
      else visit(node);
    }
  };
  for (const summary of summaries) visit(summary);
  return { summaries: [...missingSummaries], turns: [...turns] };
}

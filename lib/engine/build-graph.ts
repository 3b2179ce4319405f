import { activeSummaries, summaryPolicyOf } from "./active-summaries";
import { isAttachmentOf } from "./attachment";
import { capsuleCoverage, type CapsuleCoverage } from "./capsule-coverage";
import { messageTokens } from "./context-tokens";
import { EngineError } from "./errors";
import { tokens, type NodeId, type SessionId, type Tokens } from "./ids";
import { createLedgerIndex, type LedgerIndex } from "./ledger-index";
import { renderMessage } from "./render-message";
import { rendersInPlace } from "./renders-in-place";
import { isSideLeafKind } from "./side-leaf";
import { spineOf } from "./spine-of";
import { innerSummaryIds, isNestedSummary, turnsOf } from "./summary-turns";
import type { LedgerNode, SessionRecord, SummaryPolicy } from "./types";
import { versionPlaceWith, type VersionsLeftOut } from "./versions-left-out";

/** One node of the graph wire contract (compaction.md §6, product.md §4). */
export interface GraphRow extends LedgerNode {
  /** On HEAD's predecessor spine. A summary or any other side leaf never is. */
  readonly onHeadSpine: boolean;
  /**
   * This node's branch carries a capsule: a rendering from here admits an active summary
   * (or, where a nested one does not apply whole, a summary it names). Exactly the last
   * covered node of each such summary and its descendants (side leaves excluded).
   */
  readonly foldedIn: boolean;
  /**
   * The first node of a branch that leaves the capsule's covered segment and therefore
   * renders raw: graph.md draws its edge dashed, from a port at the fork position, with a
   * "raw context" marker.
   */
  readonly rawFork: boolean;
  /** Branch children (alternatives); side leaves and spawned branches not counted. */
  readonly childCount: number;
  /** Position among the predecessor's branch children, oldest first (for `< 2/3 >`). */
  readonly siblingIndex: number;
  /** How many branch children the predecessor has; 1 for ROOT, side leaves, spawned roots. */
  readonly siblingCount: number;
  /**
   * Capsule rows only — the active summaries and the summaries nested under them: what the
   * capsule folds (a nested one: the summaries it names).
   */
  readonly covers_ids?: readonly NodeId[];
  /** A summary nested under another (compaction.md §7): the capsule that folds its capsule. */
  readonly nestedIn?: NodeId;
  /** Summary rows that are neither active nor nested under an active one: inert relics. */
  readonly superseded_summary?: true;
  /** Capsule rows only: prompt tokens the substitution saves (negative if it costs). */
  readonly tokensSaved?: Tokens;
}

/** `GET .../graph`. */
export interface GraphView {
  readonly sessionId: SessionId;
  readonly headId: NodeId | null;
  /** The newest active summary, when the session has one that exists. */
  readonly activeSummaryId: NodeId | null;
  /** Every active summary that exists, in order (compaction.md §7): one capsule each. */
  readonly activeSummaryIds: readonly NodeId[];
  /** Every node of the session, in seq order. */
  readonly nodes: readonly GraphRow[];
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The descendants-or-self of `tipId`, except side leaves: the branches carrying a summary. */
function carriers(tipId: NodeId, index: LedgerIndex, into: Set<NodeId>): void {
  const stack: NodeId[] = [tipId];
  while (stack.length > 0) {
    const id = stack.pop();
    if (id === undefined) continue;
    const node = index.get(id);
    if (node === undefined || isSideLeafKind(node.kind) || into.has(id)) continue;
    into.add(id);
    for (const child of index.childrenOf(id)) stack.push(child.id);
  }
}

function tokensSaved(summary: LedgerNode, index: LedgerIndex): Tokens {
  let saved = 0;
  for (const id of turnsOf(summary, index.get) ?? []) {
    const node = index.get(id);
    const message = node !== undefined && rendersInPlace(node) ? renderMessage(node) : null;
    if (message !== null) saved += messageTokens(message);
  }
  const standIn = renderMessage(summary);
  return tokens(saved - (standIn === null ? 0 : messageTokens(standIn)));
}

/**
 * The graph of one session: every node as a row, plus what the capsule needs (compaction.md
 * §6, graph.md). Coverage restates covers_ids — no seq arithmetic, no head-dependent
 * filtering; only `onHeadSpine` depends on HEAD. Linear in the ledger for nodes in seq order.
 *
 * `leftOut`: the versions a near-first page does not hold ([R294]), counted in each
 * message's `siblingIndex` / `siblingCount` and its parent's `childCount` as if held.
 *
 * @throws EngineError `invalid_ledger` when a node belongs to another session, HEAD names
 *   a missing node or its spine is broken.
 */
export function buildGraph(
  session: SessionRecord,
  nodes: readonly LedgerNode[],
  policy: SummaryPolicy = summaryPolicyOf(session.meta),
  leftOut: VersionsLeftOut | null = null,
): GraphView {
  const foreign = nodes.find((node) => node.sessionId !== session.id);
  if (foreign !== undefined) {
    throw new EngineError("invalid_ledger", `Node ${foreign.id} is not in session ${session.id}.`);
  }
  const index = createLedgerIndex(nodes);

  const onHeadSpine = new Set<NodeId>();
  if (session.headId !== null) {
    if (index.get(session.headId) === undefined) {
      throw new EngineError("invalid_ledger", `HEAD ${session.headId} is not in the ledger.`);
    }
    for (const node of spineOf(session.headId, index.get)) {
      if (!isSideLeafKind(node.kind)) onHeadSpine.add(node.id);
    }
  }

  const active = activeSummaries(session.meta, index.get, policy);
  // One capsule per active summary, and one per summary nested under it (at any depth).
  const coverage = new Map<NodeId, CapsuleCoverage>();
  const nestedIn = new Map<NodeId, NodeId>();
  // Covered turn → the (plain) summary whose capsule folds it; segments are disjoint.
  const foldOwner = new Map<NodeId, NodeId>();
  const carrying = new Set<NodeId>();
  const addCapsule = (summary: LedgerNode, parent: NodeId | null): void => {
    if (coverage.has(summary.id)) return;
    const capsule = capsuleCoverage(summary, index);
    coverage.set(summary.id, capsule);
    if (parent !== null) nestedIn.set(summary.id, parent);
    if (capsule.tipId !== null) carriers(capsule.tipId, index, carrying);
    if (!isNestedSummary(summary)) {
      for (const id of capsule.coversIds) if (!foldOwner.has(id)) foldOwner.set(id, summary.id);
    }
    for (const id of innerSummaryIds(summary)) {
      const inner = index.get(id);
      if (inner !== undefined && inner.kind === "summary") addCapsule(inner, summary.id);
    }
  };
  for (const summary of active) addCapsule(summary, null);
  /** Whether `node` leaves the capsule folding its predecessor and renders that stretch raw. */
  const leavesCapsule = (node: LedgerNode): boolean => {
    if (node.predecessorId === null) return false;
    const owner = foldOwner.get(node.predecessorId);
    if (owner === undefined || foldOwner.get(node.id) === owner) return false;
    // A child of the segment's last node continues the branch that carries the capsule.
    return coverage.get(owner)?.tipId !== node.predecessorId;
  };

  // Branch children per node, in seq order: the alternatives a fork badge counts.
  const childCount = new Map<NodeId, number>();
  const siblingIndex = new Map<NodeId, number>();
  for (const node of index.nodes) {
    let count = 0;
    const left = leftOut?.get(node.id);
    for (const child of index.childrenOf(node.id)) {
      if (isAttachmentOf(child, node)) continue;
      const held = count++;
      // A near-first page's versions left out count where they stand ([R294]); no pair is
      // made for a ledger held whole (every build of a 100,000-node graph passes here).
      siblingIndex.set(
        child.id,
        left === undefined ? held : versionPlaceWith(held, 0, child.seq, left)[0],
      );
    }
    if (left !== undefined) count += left.before + left.after;
    if (count > 0) childCount.set(node.id, count);
  }

  const rows = index.nodes.map((node): GraphRow => {
    const sideLeaf = isSideLeafKind(node.kind);
    const position = siblingIndex.get(node.id);
    const capsule = coverage.get(node.id);
    // Fields copied by name, not spread: spreading 100k nodes is an order of magnitude slower.
    const row: Writable<GraphRow> = {
      id: node.id,
      sessionId: node.sessionId,
      predecessorId: node.predecessorId,
      seq: node.seq,
      kind: node.kind,
      content: node.content,
      status: node.status,
      callerId: node.callerId,
      metadata: node.metadata,
      reads: node.reads,
      tokenCount: node.tokenCount,
      createdAt: node.createdAt,
      onHeadSpine: onHeadSpine.has(node.id),
      foldedIn: carrying.has(node.id),
      rawFork: !sideLeaf && leavesCapsule(node),
      childCount: childCount.get(node.id) ?? 0,
      siblingIndex: position ?? 0,
      siblingCount:
        position === undefined || node.predecessorId === null
          ? 1
          : (childCount.get(node.predecessorId) ?? 1),
    };
    if (capsule !== undefined) {
      row.covers_ids = capsule.coversIds;
      const parent = nestedIn.get(node.id);
      if (parent !== undefined) row.nestedIn = parent;
      row.tokensSaved = tokensSaved(node, index);
    } else if (node.kind === "summary") {
      row.superseded_summary = true;
    }
    return row;
  });

  return {
    sessionId: session.id,
    headId: session.headId,
    activeSummaryId: active.at(-1)?.id ?? null,
    activeSummaryIds: active.map((summary) => summary.id),
    nodes: rows,
  };
}

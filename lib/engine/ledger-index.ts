import { EngineError } from "./errors";
import type { NodeId } from "./ids";
import type { LedgerNode, NodeLookup } from "./types";

/**
 * An in-memory index over one session's whole ledger, for the graph, branch deletion and
 * tests. Rendering never needs one: it walks a spine through a {@link NodeLookup}.
 */
export interface LedgerIndex {
  /** Every node, in seq order. */
  readonly nodes: readonly LedgerNode[];
  readonly byId: ReadonlyMap<NodeId, LedgerNode>;
  /** The session's ROOT, when the ledger has one. */
  readonly root: LedgerNode | undefined;
  /** A lookup suitable for {@link spineOf}. */
  readonly get: NodeLookup;
  /** The nodes whose predecessor is `id`, oldest (lowest seq) first. */
  childrenOf(id: NodeId): readonly LedgerNode[];
  /** The nodes whose callerId is `id` (tool results, spawned branches), in seq order. */
  calledBy(id: NodeId): readonly LedgerNode[];
}

const NONE: readonly LedgerNode[] = [];

function bySeq(a: LedgerNode, b: LedgerNode): number {
  return a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function isSortedBySeq(nodes: readonly LedgerNode[]): boolean {
  for (let i = 1; i < nodes.length; i += 1) {
    const prev = nodes[i - 1];
    const next = nodes[i];
    if (prev !== undefined && next !== undefined && bySeq(prev, next) > 0) return false;
  }
  return true;
}

function push(map: Map<NodeId, LedgerNode[]>, key: NodeId, node: LedgerNode): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [node]);
  else list.push(node);
}

/**
 * Indexes one session's nodes. Linear for input already in seq order (as the store returns
 * it); other input is sorted first.
 *
 * @throws EngineError `invalid_ledger` on duplicate ids, nodes of several sessions, or more
 *   than one ROOT.
 */
export function createLedgerIndex(nodes: readonly LedgerNode[]): LedgerIndex {
  const ordered = isSortedBySeq(nodes) ? nodes : [...nodes].sort(bySeq);
  const byId = new Map<NodeId, LedgerNode>();
  const children = new Map<NodeId, LedgerNode[]>();
  const callers = new Map<NodeId, LedgerNode[]>();
  let root: LedgerNode | undefined;
  const sessionId = ordered[0]?.sessionId;
  for (const node of ordered) {
    if (byId.has(node.id)) throw new EngineError("invalid_ledger", `Duplicate node ${node.id}.`);
    if (node.sessionId !== sessionId) {
      throw new EngineError("invalid_ledger", `Node ${node.id} belongs to another session.`);
    }
    byId.set(node.id, node);
    if (node.predecessorId === null) {
      if (root !== undefined) {
        throw new EngineError("invalid_ledger", `Two ROOTs: ${root.id} and ${node.id}.`);
      }
      root = node;
    } else {
      push(children, node.predecessorId, node);
    }
    if (node.callerId !== null) push(callers, node.callerId, node);
  }
  return {
    nodes: ordered,
    byId,
    root,
    get: (id) => byId.get(id),
    childrenOf: (id) => children.get(id) ?? NONE,
    calledBy: (id) => callers.get(id) ?? NONE,
  };
}

import { asNodeId, type NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { firstLine, type WireNode } from "@/lib/engine/wire-node";
import { diffMaps, inserted, PersistentMap } from "./persistent-map";

/**
 * The browser's copy of a session's ledger and the pure rules that change it: merging
 * copies of nodes by the never-regress rule ([R121]), streamed text at its offset, removal.
 * No network, no store: the session store applies what these return, the sync
 * (ledger-sync.ts) decides what to fetch.
 *
 * Two slices of nodes ([R120]): `nodes` changes only on a structural change — a node
 * appears, seals, is removed, or a fuller copy arrives — and then by a new persistent map
 * that shares all but the changed entries ([R289]); `live` holds the few streaming nodes'
 * latest copies, so a token copies O(streams), never the ledger.
 */
export interface Ledger {
  /** The ledger by id (a streaming node's entry keeps the text of its last structural change). */
  readonly nodes: PersistentMap<WireNode>;
  /** Children ids by predecessor id, in seq order ({@link childIds} reads an entry). */
  readonly children: PersistentMap<Children>;
  /** The streaming nodes' latest copies; its keys are the set of streaming ids. */
  readonly live: Readonly<Record<string, WireNode>>;
  /** The highest seq held. Never decreases. */
  readonly maxSeq: number;
}

/**
 * A parent's children in seq order: the child's id alone when it has one. Most parents
 * have one child, and a list of one costs an array and its store (28 bytes; 2 MB in a
 * 100,000-node page).
 */
export type Children = NodeId | readonly NodeId[];

const NO_IDS: readonly NodeId[] = Object.freeze([]);

/** The ids an entry of the children index names, in seq order. */
export function childIds(entry: Children | undefined): readonly NodeId[] {
  if (entry === undefined) return NO_IDS;
  return typeof entry === "string" ? [entry] : entry;
}

/** The index's entry for a list of children: the id alone for one. */
const childEntry = (list: readonly NodeId[]): Children =>
  list.length === 1 ? (list[0] as NodeId) : list;

/** What a change did besides giving a new ledger. */
export interface LedgerChange {
  readonly ledger: Ledger;
  /** `nodes` or `children` changed (the whole-ledger memos are keyed on them). */
  readonly structural: boolean;
  /** The graph could look different (a node appeared, sealed, or changed its card). */
  readonly graphChanged: boolean;
}

/** How complete a copy is: full 2, lean 1, skeleton 0. */
function rank(n: WireNode): number {
  return n.partial === undefined ? 2 : n.partial === "reads" ? 1 : 0;
}

/** A lean copy completed with a full copy's provenance (lean + reads = full). */
function withReads(lean: WireNode, from: WireNode): WireNode {
  if (rank(lean) !== 1 || rank(from) !== 2) return lean;
  const { partial, ...rest } = lean;
  void partial;
  return { ...rest, reads: from.reads };
}

/**
 * Of two copies of one node, the later one ([R121]). A node only ever moves forward —
 * streaming with more text, then sealed once, after which nothing about it changes — and a
 * copy only ever gets fuller: a sealed copy beats a streaming one, while streaming the longer
 * text wins, and of two sealed copies the fuller (full > lean > skeleton) wins. Returns `a`
 * itself when `b` adds nothing, so callers can tell "no change" by identity.
 */
export function newer(a: WireNode, b: WireNode): WireNode {
  const aSealed = a.status !== "streaming";
  const bSealed = b.status !== "streaming";
  if (aSealed && bSealed) return rank(b) > rank(a) ? b : a;
  if (aSealed) return a;
  if (bSealed) return withReads(b, a);
  if (b.content.length > a.content.length) return withReads(b, a);
  if (b.content.length === a.content.length && rank(b) > rank(a)) return b;
  return a;
}

/** The current copy of a node: a streaming node's live text first. */
export function nodeOf(ledger: Pick<Ledger, "nodes" | "live">, id: string): WireNode | undefined {
  return ledger.live[id] ?? ledger.nodes.get(id);
}

/** True when the record has a key: O(1), unlike `Object.keys(..).length`. */
export function hasAny(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/** The tool calls' names: all a card shows of a node's metadata (cardText). */
function callNames(n: WireNode): string {
  return (n.metadata.tool_calls ?? []).map((c) => c.name).join("\u0000");
}

/** Two sealed copies of one node whose graph card and place are the same. */
function sameCard(a: WireNode, b: WireNode): boolean {
  return (
    a.status === b.status &&
    a.status !== "streaming" &&
    a.kind === b.kind &&
    a.predecessorId === b.predecessorId &&
    a.tokenCount === b.tokenCount &&
    firstLine(a.content) === firstLine(b.content) &&
    callNames(a) === callNames(b)
  );
}

/** Two session records that show the same: the catch-up keeps the one it holds. */
export function sameRecord(a: SessionRecord, b: SessionRecord): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.updatedAt === b.updatedAt &&
      a.headId === b.headId &&
      a.title === b.title &&
      a.rootId === b.rootId &&
      JSON.stringify(a.meta) === JSON.stringify(b.meta))
  );
}

/** Inserts `id` (of `seq`) into a seq-ordered list; appends are the common case. */
function insertBySeq(
  list: readonly NodeId[],
  id: NodeId,
  seq: number,
  seqOf: (id: NodeId) => number,
): NodeId[] {
  let at = list.length;
  while (at > 0 && seqOf(list[at - 1] as NodeId) > seq) at--;
  // At its exact length: a list grown in place keeps room for 17 ids (5.4 MB of empty room
  // in the children of a 100,000-node page, measured in Chromium).
  return inserted(list, at, id);
}

/** A node carries its key: the ledger's node map holds each node bare, without a leaf. */
const nodeKey = (node: WireNode): string => node.id;

const EMPTY: Ledger = {
  nodes: PersistentMap.empty(nodeKey),
  children: PersistentMap.empty(),
  live: {},
  maxSeq: 0,
};

/** The ledger of these copies (in any order; several copies of one node merge). */
export function indexLedger(list: readonly WireNode[]): Ledger {
  const sorted = [...list].sort((a, b) => a.seq - b.seq);
  const ids = new Set(sorted.map((n) => n.id));
  if (sorted.length === 0 || ids.size !== sorted.length) {
    return mergeCopies(EMPTY, sorted)?.ledger ?? EMPTY;
  }
  // One copy of each node (a page's first ledger): the ledger merging them into nothing
  // makes, with both maps built at once instead of a path copied per node — 100,000 nodes
  // are indexed in a fraction of the time. Sorted by seq, each child list is in order.
  const children = new Map<NodeId, NodeId[]>();
  const live: Record<string, WireNode> = {};
  let maxSeq = 0;
  for (const n of sorted) {
    maxSeq = Math.max(maxSeq, n.seq);
    if (n.status === "streaming") live[n.id] = n;
    if (n.predecessorId) {
      const list = children.get(n.predecessorId);
      if (list === undefined) children.set(n.predecessorId, [n.id]);
      else list.push(n.id);
    }
  }
  return {
    nodes: PersistentMap.from(
      sorted.map((n) => [n.id, n] as const),
      nodeKey,
    ),
    // Lists grown by `push` keep spare room; the map keeps exact copies.
    children: PersistentMap.from(
      Array.from(children, ([id, list]) => [id, childEntry(list.slice())] as const),
    ),
    live,
    maxSeq,
  };
}

/**
 * Merges copies of nodes by the never-regress rule ([R121]); null when nothing changed.
 * Only the entries that change are written ([R289]); more streamed text of a node already
 * streaming touches `live` alone. `isRemoved` names ids deleted before: a copy of one
 * arriving later (a fetch answered before the delete) is a ghost and is dropped.
 */
export function mergeCopies(
  ledger: Ledger,
  incoming: readonly WireNode[],
  isRemoved: (id: string) => boolean = () => false,
): LedgerChange | null {
  let { nodes, children, maxSeq } = ledger;
  let live: Record<string, WireNode> | null = null;
  let graphChanged = false;
  const seqOf = (id: NodeId) => nodes.get(id)?.seq ?? 0;
  for (const n of incoming) {
    if (isRemoved(n.id)) continue;
    maxSeq = Math.max(maxSeq, n.seq);
    const held = nodes.get(n.id);
    const current = (live ?? ledger.live)[n.id] ?? held;
    const merged = current ? newer(current, n) : n;
    if (merged === current) continue;
    live ??= { ...ledger.live };
    if (merged.status === "streaming") live[n.id] = merged;
    else delete live[n.id];
    // Only more streamed text of the same copy is not structural.
    if (
      held &&
      merged.status === "streaming" &&
      held.status === "streaming" &&
      rank(merged) === rank(held)
    ) {
      continue;
    }
    nodes = nodes.set(n.id, merged);
    if (!held || !sameCard(held, merged)) graphChanged = true;
    if (!held && n.predecessorId) {
      children = children.set(
        n.predecessorId,
        childEntry(insertBySeq(childIds(children.get(n.predecessorId)), n.id, n.seq, seqOf)),
      );
    }
  }
  const structural = nodes !== ledger.nodes;
  if (!structural && live === null && maxSeq === ledger.maxSeq) return null;
  return {
    ledger: { nodes, children, live: live ?? ledger.live, maxSeq },
    structural,
    graphChanged,
  };
}

/** What became of a streamed chunk. */
export type DeltaResult =
  /** Applied, or already there (text this copy has is skipped: a chunk never lands twice). */
  | { readonly ok: true; readonly ledger: Ledger }
  /** The chunk starts past the end of this copy, or the node is unknown: refetch it. */
  | { readonly ok: false };

/**
 * Applies streamed text that starts at `offset` of the node's content. A node not streaming
 * here is either unknown (not ok: a catch-up brings its text so far) or already sealed
 * (ok: nothing to add).
 */
export function appendDelta(ledger: Ledger, id: NodeId, text: string, offset: number): DeltaResult {
  const node = ledger.live[id];
  if (!node) return ledger.nodes.has(id) ? { ok: true, ledger } : { ok: false };
  const have = node.content.length;
  if (offset > have) return { ok: false };
  if (offset + text.length <= have) return { ok: true, ledger };
  const content = node.content + text.slice(have - offset);
  return { ok: true, ledger: { ...ledger, live: { ...ledger.live, [id]: { ...node, content } } } };
}

/** The ledger without these ids (and their children lists); null when it held none. */
export function removeFromLedger(ledger: Ledger, ids: readonly NodeId[]): Ledger | null {
  let { nodes, children } = ledger;
  let live: Record<string, WireNode> | null = null;
  for (const id of ids) {
    const node = nodes.get(id);
    if (node === undefined) continue;
    const pred = node.predecessorId;
    const siblings = pred ? children.get(pred) : undefined;
    if (pred && siblings) {
      const rest = childIds(siblings).filter((c) => c !== id);
      children = rest.length > 0 ? children.set(pred, childEntry(rest)) : children.delete(pred);
    }
    children = children.delete(id);
    nodes = nodes.delete(id);
    if (ledger.live[id] !== undefined) {
      live ??= { ...ledger.live };
      delete live[id];
    }
  }
  if (nodes === ledger.nodes) return null;
  return { nodes, children, live: live ?? ledger.live, maxSeq: ledger.maxSeq };
}

/**
 * `result`, a ledger computed from `base` away from the store (a skeleton pass merged page
 * by page, [R294]), with what changed in `current` since `base` laid over it: the copies
 * `current` gained or changed merge by the never-regress rule ([R121]), the ids it lost are
 * removed, and the streaming copies are `current`'s. The walk follows what changed since
 * `base`, by the maps' shared structure ([R289]), not the ledger.
 */
export function rebase(result: Ledger, base: Ledger, current: Ledger): Ledger {
  let ledger = result;
  if (current.nodes !== base.nodes) {
    const changed: WireNode[] = [];
    const gone: NodeId[] = [];
    diffMaps(
      base.nodes,
      current.nodes,
      (_, node) => changed.push(node),
      (id) => gone.push(asNodeId(id)),
    );
    ledger = mergeCopies(ledger, changed)?.ledger ?? ledger;
    ledger = removeFromLedger(ledger, gone) ?? ledger;
  }
  // The streaming copies are `current`'s — and a stream only the pass saw (it began after
  // the page was rendered and the channel has not told of it yet) stays live, or its
  // tokens would have nowhere to land.
  let live: Record<string, WireNode> | null = null;
  for (const [id, copy] of Object.entries(result.live)) {
    if (
      current.live[id] === undefined &&
      !current.nodes.has(id) &&
      ledger.nodes.get(id)?.status === "streaming"
    ) {
      live ??= { ...current.live };
      live[id] = copy;
    }
  }
  return {
    ...ledger,
    live: live ?? current.live,
    maxSeq: Math.max(ledger.maxSeq, current.maxSeq),
  };
}

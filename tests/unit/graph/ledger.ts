import { PersistentMap } from "@/components/session/persistent-map";
import { buildGraph, type GraphView } from "@/lib/engine/build-graph";
import { asNodeId, asSessionId, tokens, type NodeId } from "@/lib/engine/ids";
import type { LedgerNode, NodeKind, NodeMetadata, SessionRecord } from "@/lib/engine/types";

const SESSION = asSessionId("g1");

export const nid = (value: string): NodeId => asNodeId(value);

export interface Extra {
  readonly callerId?: string;
  readonly content?: string;
  readonly metadata?: NodeMetadata;
  readonly reads?: readonly string[];
}

const KIND: Readonly<Record<string, NodeKind>> = {
  R: "root",
  u: "user",
  a: "assistant",
  t: "tool",
  n: "notice",
  S: "summary",
};

/** A session's nodes built by hand; a test id's first letter names its kind (u1 → user). */
export class TestLedger {
  readonly nodes: LedgerNode[] = [];

  constructor() {
    this.add("R", null);
  }

  add(id: string, predecessor: string | null, extra: Extra = {}): this {
    const kind = KIND[id[0] ?? ""];
    if (kind === undefined) throw new Error(`no kind for ${id}`);
    this.nodes.push({
      id: nid(id),
      sessionId: SESSION,
      predecessorId: predecessor === null ? null : nid(predecessor),
      seq: this.nodes.length,
      kind,
      content: extra.content ?? `${id} says hello\nsecond line`,
      status: "complete",
      callerId: extra.callerId === undefined ? null : nid(extra.callerId),
      metadata: extra.metadata ?? {},
      reads: (extra.reads ?? []).map(nid),
      tokenCount: tokens(10),
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    return this;
  }

  /** Replaces a node's copy (as a seal or a fuller copy does); the others keep theirs. */
  replace(id: string, change: Partial<Pick<LedgerNode, "content" | "status">>): this {
    const at = this.nodes.findIndex((n) => n.id === id);
    const node = this.nodes[at];
    if (node === undefined) throw new Error(`no node ${id}`);
    this.nodes[at] = { ...node, ...change };
    return this;
  }

  /** Removes nodes (a branch delete). */
  remove(...ids: string[]): this {
    for (const id of ids)
      this.nodes.splice(
        this.nodes.findIndex((n) => n.id === id),
        1,
      );
    return this;
  }

  /** A chain of nodes under `from`, e.g. `chain("R", "u1 a1 u2 a2")`. */
  chain(from: string, spec: string): this {
    let predecessor = from;
    for (const id of spec.split(" ")) {
      this.add(id, predecessor);
      predecessor = id;
    }
    return this;
  }

  summary(id: string, covers: readonly string[], predecessor = "R"): this {
    return this.add(id, predecessor, {
      content: `Summary ${id}: the user greeted\nmore detail`,
      metadata: { covers_ids: covers.map(nid) },
    });
  }

  graph(head: string | null, activeSummary?: string): GraphView {
    return buildGraph(this.session(head, activeSummary), this.nodes);
  }

  /** The session record these nodes belong to, HEAD and the active summary as given. */
  session(head: string | null, activeSummary?: string): SessionRecord {
    return {
      id: SESSION,
      title: "graph test",
      headId: head === null ? null : nid(head),
      rootId: nid("R"),
      meta: activeSummary === undefined ? {} : { _last_summary_id: nid(activeSummary) },
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
  }

  /** The nodes by id, as the session store holds them (a new map, as on a change). */
  record(): PersistentMap<LedgerNode> {
    return PersistentMap.from(this.nodes.map((n) => [n.id, n]));
  }
}

/**
 * R → u1 a1 u2 a2 u3 a3 (HEAD's branch). S covers u1..a2; S0 (a relic) covered u1 a1.
 * a2b is a retry of a2 forking from inside the covered segment (it renders raw).
 */
export function compacted(): TestLedger {
  return new TestLedger()
    .chain("R", "u1 a1 u2 a2 u3 a3")
    .summary("S0", ["u1", "a1"])
    .add("a2b", "u2")
    .summary("S", ["u1", "a1", "u2", "a2"]);
}

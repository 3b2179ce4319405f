import { afterEach, describe, expect, it, vi } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import { provenanceMarks } from "@/lib/engine/provenance-marks";
import type { GraphLayout } from "@/components/graph/flow-types";
import { layoutGraph } from "@/components/graph/layout";
import { LayoutClient, type WorkerLike } from "@/components/graph/layout-client";
import {
  answerRequest,
  toRequest,
  type LayoutReply,
  type LayoutRequest,
} from "@/components/graph/layout-wire";
import { LayoutCache } from "@/components/graph/tidy-tree";
import { compacted, nid, TestLedger } from "./ledger";

const FOLDED = { expanded: new Set<NodeId>(), showRelics: false };

/** A worker in this thread: messages are structured-cloned and answered a tick later. */
class FakeWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<LayoutReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly inbox: LayoutRequest[] = [];
  private readonly cache = new LayoutCache();
  terminated = false;

  postMessage(message: LayoutRequest): void {
    this.inbox.push(structuredClone(message));
  }

  /** Answers the oldest request, as the worker would. */
  answer(): void {
    const request = this.inbox.shift();
    if (request === undefined) throw new Error("nothing to answer");
    const reply = structuredClone(answerRequest(request, this.cache));
    this.onmessage?.({ data: reply } as MessageEvent<LayoutReply>);
  }

  terminate(): void {
    this.terminated = true;
  }
}

const sameLayout = (a: GraphLayout, b: GraphLayout) => {
  expect(a.nodes).toEqual(b.nodes);
  expect(a.edges).toEqual(b.edges);
  expect([...a.nav]).toEqual([...b.nav]);
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("the layout worker (issue 10)", () => {
  it("[R128] the worker's answer, through structured clone, is the in-place layout", () => {
    const l = compacted()
      .add("n1", "a3")
      .add("a3b", "u3", {
        content: "",
        metadata: { tool_calls: [{ id: "c1", name: "search", arguments: '{"q":"x"}' }] },
      });
    const graph = l.graph("a3", "S");
    const marks = provenanceMarks([nid("R"), nid("S"), nid("u3")], graph);
    for (const opts of [
      FOLDED,
      { expanded: new Set([nid("S")]), showRelics: true },
      { ...FOLDED, marks },
    ]) {
      const request = structuredClone(toRequest(1, graph, opts));
      const reply = structuredClone(answerRequest(request, new LayoutCache()));
      if ("error" in reply) throw new Error(reply.error);
      sameLayout(
        { nodes: reply.nodes, edges: reply.edges, nav: new Map(reply.nav) },
        layoutGraph(graph, opts),
      );
    }
  });

  it("[R128] rows travel slimmed: the card's first line, no reads, no tool arguments", () => {
    const l = new TestLedger()
      .add("u1", "R", { content: `${"long ".repeat(5000)}\nmore` })
      .add("a1", "u1", {
        content: "",
        reads: ["R", "u1"],
        metadata: { tool_calls: [{ id: "c1", name: "search", arguments: "x".repeat(9999) }] },
      });
    const request = toRequest(1, l.graph("a1"), FOLDED);
    const [, u1, a1] = request.view.nodes;
    expect(u1?.content.length).toBeLessThanOrEqual(90);
    expect(a1?.reads).toEqual([]);
    expect(a1?.metadata.tool_calls).toEqual([{ id: "c1", name: "search", arguments: "" }]);
    expect(JSON.stringify(request).length).toBeLessThan(3000);
  });

  it("[R128] one request in flight; stale replies are dropped, the newest is delivered", () => {
    const worker = new FakeWorker();
    const client = new LayoutClient(() => worker);
    const shown: GraphLayout[] = [];
    const l = new TestLedger().chain("R", "u1 a1");
    client.request(l.graph("a1"), FOLDED, (layout) => shown.push(layout));
    l.chain("a1", "u2");
    client.request(l.graph("u2"), FOLDED, (layout) => shown.push(layout));
    l.chain("u2", "a2");
    client.request(l.graph("a2"), FOLDED, (layout) => shown.push(layout));
    // Only the first went out; the second was replaced by the third while it waited.
    expect(client.posted).toBe(1);
    worker.answer();
    // The first reply is stale: nothing shown, the newest request goes out.
    expect(shown).toHaveLength(0);
    expect(client.posted).toBe(2);
    worker.answer();
    expect(shown).toHaveLength(1);
    expect(shown[0]?.nodes.map((n) => n.id)).toEqual(["R", "u1", "a1", "u2", "a2"]);
    client.dispose();
    expect(worker.terminated).toBe(true);
  });

  it("[R128] without a worker (or when it fails) the same layout is made in place", () => {
    const l = compacted();
    const graph = l.graph("a3", "S");
    const shown: GraphLayout[] = [];
    const none = new LayoutClient(() => {
      throw new Error("Worker is not defined");
    });
    none.request(graph, FOLDED, (layout) => shown.push(layout));
    expect(shown).toHaveLength(1);

    const worker = new FakeWorker();
    const failing = new LayoutClient(() => worker);
    failing.request(graph, FOLDED, (layout) => shown.push(layout));
    worker.onerror?.({} as ErrorEvent);
    expect(shown).toHaveLength(2);
    for (const layout of shown) sameLayout(layout, layoutGraph(graph, FOLDED));
  });

  it("[R128] the worker module answers messages with the shared pure function", async () => {
    const posted: unknown[] = [];
    const scope: {
      onmessage: ((event: { data: LayoutRequest }) => void) | null;
      postMessage: (message: unknown) => void;
    } = { onmessage: null, postMessage: (message) => posted.push(structuredClone(message)) };
    vi.stubGlobal("self", scope);
    await import("@/components/graph/layout.worker");
    const graph = compacted().graph("a3", "S");
    scope.onmessage?.({ data: structuredClone(toRequest(7, graph, FOLDED)) });
    const [reply] = posted as LayoutReply[];
    if (reply === undefined || "error" in reply) throw new Error("no layout");
    expect(reply.gen).toBe(7);
    sameLayout(
      { nodes: reply.nodes, edges: reply.edges, nav: new Map(reply.nav) },
      layoutGraph(graph, FOLDED),
    );
  });
});

import { childIds } from "@/components/session/ledger-merge";
import { describe, expect, it, vi } from "vitest";
import * as graphModule from "@/lib/engine/build-graph";
import {
  createSessionStore,
  newer,
  nodeOf,
  selectStreaming,
  withWholeLedger,
  cancelWaitingForRest,
  type LedgerRest,
} from "@/components/session/session-store";
import { versionCount, versionCountBelow, versionTip } from "@/components/session/versions";
import {
  childrenLookup,
  selectGraph,
  selectHeadView,
  selectNodeList,
} from "@/components/session/session-context";
import type { NodePage, NodeSource } from "@/components/session/node-source";
import { landBranchDeleted } from "@/components/session/land-delete";
import { followSessionEvents } from "@/components/chat/use-session-events";
import type { WireNode } from "@/lib/engine/wire-node";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { TEST_MODEL } from "../../support/model-info";

// Counts the graph builds the page does (the real function still runs).
vi.mock("@/lib/engine/build-graph", async (original) => {
  const real = await original<typeof import("@/lib/engine/build-graph")>();
  return { ...real, buildGraph: vi.fn(real.buildGraph) };
});

const S = asSessionId("S1");
const id = (x: string) => asNodeId(x);

function wire(
  x: string,
  pred: string | null,
  seq: number,
  extra: Partial<WireNode> = {},
): WireNode {
  return {
    id: id(x),
    sessionId: S,
    predecessorId: pred === null ? null : id(pred),
    seq,
    kind: pred === null ? "root" : seq % 2 === 1 ? "user" : "assistant",
    content: `text of ${x}`,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(1),
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}

function session(headId: string | null): SessionRecord {
  return {
    id: S,
    title: "t",
    headId: headId === null ? null : id(headId),
    rootId: id("R"),
    meta: {},
    createdAt: "2026-12-01T00:00:00.000Z",
    updatedAt: "2026-12-01T00:00:00.000Z",
  };
}

/** ROOT then a chain n1…n{count}; the last one optionally streaming. */
function chain(count: number, streamingTip = false): WireNode[] {
  const out = [wire("R", null, 0, { content: "system" })];
  for (let i = 1; i <= count; i++) {
    out.push(
      wire(
        `n${i}`,
        i === 1 ? "R" : `n${i - 1}`,
        i,
        streamingTip && i === count ? { status: "streaming", content: "" } : {},
      ),
    );
  }
  return out;
}

/** A fake `GET .../nodes` and session record: records every request it answers. */
function fakeSource(ledger: () => readonly WireNode[], record: () => SessionRecord) {
  const calls: { kind: "after" | "ids" | "session" | "skeleton"; arg: string }[] = [];
  const pageOf = (afterSeq: number, shape: (n: WireNode) => WireNode): NodePage => {
    const rest = ledger()
      .filter((n) => n.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq);
    const page = rest.slice(0, 2);
    return {
      nodes: page.map(shape),
      lastSeq: Math.max(...ledger().map((n) => n.seq)),
      nextAfterSeq: rest.length > 2 ? (page.at(-1)?.seq ?? null) : null,
      total: ledger().length,
    };
  };
  const source: NodeSource = {
    session: () => {
      calls.push({ kind: "session", arg: "" });
      return Promise.resolve(record());
    },
    after: (afterSeq) => {
      calls.push({ kind: "after", arg: String(afterSeq) });
      return Promise.resolve(pageOf(afterSeq, (n) => ({ ...n, reads: [], partial: "reads" })));
    },
    skeleton: (afterSeq) => {
      calls.push({ kind: "skeleton", arg: String(afterSeq) });
      return Promise.resolve(
        pageOf(afterSeq, (n) => ({ ...n, content: "label", reads: [], partial: "skeleton" })),
      );
    },
    byIds: (ids) => {
      calls.push({ kind: "ids", arg: ids.join(",") });
      return Promise.resolve(ledger().filter((n) => ids.includes(n.id)));
    },
  };
  return { source, calls };
}

const MODEL = TEST_MODEL;

function storeOf(
  nodes: readonly WireNode[],
  headId: string,
  source?: NodeSource,
  rest?: LedgerRest,
) {
  return createSessionStore({
    session: session(headId),
    nodes,
    model: MODEL,
    ...(source ? { source } : {}),
    ...(rest ? { rest } : {}),
  });
}

describe("[R120] a streamed token costs O(its node), not O(the ledger)", () => {
  it("[R120] appendDelta keeps the ledger, its indexes and the version; only the live copy moves", () => {
    const s = storeOf(chain(2000, true), "n2000");
    const before = s.getState();
    const structural = vi.fn();
    // A subscriber of whole-ledger state (what the graph and transcript read).
    s.subscribe((st, prev) => {
      if (st.nodes !== prev.nodes || st.children !== prev.children || st.session !== prev.session) {
        structural();
      }
    });
    for (let i = 0; i < 1000; i++) {
      expect(s.getState().appendDelta(id("n2000"), "x", i)).toBe(true);
    }
    const after = s.getState();
    expect(after.nodes).toBe(before.nodes);
    expect(after.children).toBe(before.children);
    expect(after.version).toBe(before.version);
    expect(structural).not.toHaveBeenCalled();
    expect(nodeOf(after, "n2000")?.content).toBe("x".repeat(1000));
  });

  it("[R120] the graph is built once per structural change, never per token", () => {
    const build = vi.mocked(graphModule.buildGraph);
    const s = storeOf(chain(300, true), "n300");
    build.mockClear();
    const first = selectGraph(s.getState());
    // However many components read it, the same state builds once.
    expect(selectGraph(s.getState())).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    const head = selectHeadView(s.getState());
    const list = selectNodeList(s.getState());
    for (let i = 0; i < 1000; i++) {
      s.getState().appendDelta(id("n300"), "y", i);
      expect(selectGraph(s.getState())).toBe(first);
      expect(selectHeadView(s.getState())).toBe(head);
      expect(selectNodeList(s.getState())).toBe(list);
    }
    expect(build).toHaveBeenCalledTimes(1);
    // Sealing is structural: one more build.
    s.getState().upsertNode(
      wire("n300", "n299", 300, { content: "y".repeat(1000), status: "complete" }),
    );
    expect(selectGraph(s.getState())).not.toBe(first);
    selectGraph(s.getState());
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("[R120] a skeleton's whole text landing on demand keeps the graph: same cards, no rebuild", async () => {
    const build = vi.mocked(graphModule.buildGraph);
    const ledger = chain(20).map((n) =>
      n.id === "n5" ? { ...n, content: "First line\nand the rest of the text" } : n,
    );
    const { source } = fakeSource(
      () => ledger,
      () => session("n20"),
    );
    const held = ledger.map((n) =>
      n.id === "n5" ? { ...n, content: "First line", reads: [], partial: "skeleton" as const } : n,
    );
    const s = storeOf(held, "n20", source);
    build.mockClear();
    const first = selectGraph(s.getState());
    await s.getState().ensureFull([id("n5")]);
    // The store holds the whole text now; the graph, whose card shows its first line, stays.
    expect(s.getState().nodes.get("n5")?.content).toBe("First line\nand the rest of the text");
    expect(s.getState().nodes.get("n5")?.partial).toBeUndefined();
    expect(selectGraph(s.getState())).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    // A change of what a card shows is a graph change.
    s.getState().merge([wire("n21", "n20", 21)]);
    expect(selectGraph(s.getState())).not.toBe(first);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("[R120] the streaming set answers selectStreaming without scanning the ledger", () => {
    const s = storeOf(chain(50), "n50");
    expect(selectStreaming(s.getState())).toBe(false);
    s.getState().upsertNode(wire("n51", "n50", 51, { status: "streaming", content: "" }));
    expect(Object.keys(s.getState().live)).toEqual(["n51"]);
    expect(selectStreaming(s.getState())).toBe(true);
    s.getState().upsertNode(wire("n51", "n50", 51, { status: "interrupted", content: "a" }));
    expect(selectStreaming(s.getState())).toBe(false);
    expect(s.getState().nodes.get("n51")?.status).toBe("interrupted");
  });

  it("[R120] children are indexed by predecessor in seq order, kept up to date incrementally", () => {
    const s = storeOf([wire("R", null, 0), wire("b", "R", 5), wire("a", "R", 2)], "a");
    expect(childIds(s.getState().children.get("R"))).toEqual(["a", "b"]);
    expect(s.getState().maxSeq).toBe(5);
    // An older sibling arriving late lands in its seq place; the others keep theirs.
    s.getState().merge([wire("c", "R", 9), wire("z", "R", 3)]);
    expect(childIds(s.getState().children.get("R"))).toEqual(["a", "z", "b", "c"]);
    expect(s.getState().maxSeq).toBe(9);
    const kids = childrenLookup(s.getState());
    expect(kids(id("R")).map((n) => n.id)).toEqual(["a", "z", "b", "c"]);
    s.getState().removeNodes([id("z"), id("c")]);
    expect(childIds(s.getState().children.get("R"))).toEqual(["a", "b"]);
    expect(s.getState().nodes.get("z")).toBeUndefined();
    // The highest seq held never goes back: a catch-up never asks for removed nodes again.
    expect(s.getState().maxSeq).toBe(9);
  });

  it("[R120] one merge of many nodes is one structural change", () => {
    const s = storeOf(chain(10), "n10");
    const v = s.getState().version;
    const notified = vi.fn();
    s.subscribe(notified);
    s.getState().merge(chain(40).slice(11));
    expect(notified).toHaveBeenCalledTimes(1);
    expect(s.getState().version).toBe(v + 1);
    // Copies that add nothing change nothing (and notify no one).
    s.getState().merge(chain(40).slice(1, 11));
    expect(notified).toHaveBeenCalledTimes(1);
  });
});

describe("[R121] a node never regresses, whatever order its copies arrive in", () => {
  const full = wire("A", "R", 1, { reads: [id("R")] });
  const lean = { ...full, reads: [], partial: "reads" as const };
  const skeleton = { ...full, content: "text of A", reads: [], partial: "skeleton" as const };

  it("[R121] full beats lean beats skeleton, from either side", () => {
    expect(newer(full, lean)).toBe(full);
    expect(newer(lean, full)).toBe(full);
    expect(newer(lean, skeleton)).toBe(lean);
    expect(newer(skeleton, lean)).toBe(lean);
    expect(newer(skeleton, full)).toBe(full);
    // An equal copy of a sealed node adds nothing: the held one stays (same identity).
    expect(newer(full, { ...full })).toBe(full);
  });

  it("[R121] sealed beats streaming; while streaming the longer text wins", () => {
    const s1 = { ...full, status: "streaming" as const, content: "Hello" };
    const s2 = { ...s1, content: "Hello world" };
    const sealed = { ...full, status: "complete" as const, content: "Hello world!" };
    expect(newer(s1, s2)).toBe(s2);
    expect(newer(s2, s1)).toBe(s2);
    expect(newer(sealed, s2)).toBe(sealed);
    expect(newer(s2, sealed)).toBe(sealed);
  });

  it("[R121] a lean copy that wins on text keeps the provenance the full copy had", () => {
    const streaming = { ...full, status: "streaming" as const, content: "Hel" };
    const leanSeal = { ...lean, content: "Hello" };
    const merged = newer(streaming, leanSeal);
    expect(merged.content).toBe("Hello");
    expect(merged.reads).toEqual([id("R")]);
    expect(merged.partial).toBeUndefined();
  });

  it("[R121] the store applies the rule: a late skeleton or lean copy never replaces a full one", () => {
    const s = storeOf([wire("R", null, 0), full], "A");
    const held = s.getState().nodes.get("A");
    s.getState().merge([lean, skeleton]);
    expect(s.getState().nodes.get("A")).toBe(held);
  });
});

describe("[R122] catching up asks for what came after, never the whole ledger", () => {
  it("[R122] follows nextAfterSeq pages from the highest seq held, lean, and merges", async () => {
    const ledger = chain(9);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n9"),
    );
    const s = storeOf(ledger.slice(0, 4), "n3", source);
    expect(s.getState().maxSeq).toBe(3);
    await s.getState().catchUp();
    expect(calls.filter((c) => c.kind === "after").map((c) => c.arg)).toEqual(["3", "5", "7"]);
    expect(calls.some((c) => c.kind === "ids")).toBe(false);
    expect(s.getState().nodes.keys()).toHaveLength(10);
    expect(s.getState().nodes.get("n9")?.partial).toBe("reads");
    expect(s.getState().session.headId).toBe("n9");
    expect(s.getState().maxSeq).toBe(9);
  });

  it("[R122] refetches whole the nodes it holds streaming and those a node_changed named", async () => {
    let ledger = chain(5, true);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n5"),
    );
    const s = storeOf(ledger, "n5", source);
    // The reply sealed while this tab was away; n2 changed.
    ledger = chain(5).map((n) => (n.id === "n5" ? { ...n, content: "done" } : n));
    expect(s.getState().apply({ type: "node_changed", id: id("n2") })).toBe(true);
    await s.getState().catchUp();
    const ids = calls.filter((c) => c.kind === "ids").map((c) => c.arg.split(",").sort());
    expect(ids).toEqual([["n2", "n5"]]);
    expect(s.getState().nodes.get("n5")?.status).toBe("complete");
    expect(s.getState().nodes.get("n5")?.content).toBe("done");
    expect(selectStreaming(s.getState())).toBe(false);
  });

  it("[R122] a failed catch-up keeps what it was to refetch for the next one", async () => {
    const ledger = chain(3);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n3"),
    );
    let down = true;
    const flaky: NodeSource = {
      ...source,
      session: () => (down ? Promise.reject(new Error("offline")) : source.session()),
    };
    const s = storeOf(ledger, "n3", flaky);
    s.getState().apply({ type: "node_changed", id: id("n2") });
    await expect(s.getState().catchUp()).rejects.toThrow("offline");
    down = false;
    await s.getState().catchUp();
    expect(calls.filter((c) => c.kind === "ids").map((c) => c.arg)).toEqual(["n2", "n2"]);
  });

  it("[R122] Stop waits for the reply's turn_finished, with no request at all", async () => {
    const ledger = chain(4, true);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n4"),
    );
    const s = storeOf(ledger, "n4", source);
    const settled = s.getState().awaitSeal(id("n4"), 60_000);
    s.getState().apply({
      type: "turn_finished",
      node: wire("n4", "n3", 4, { status: "interrupted", content: "so far" }),
    });
    await settled;
    expect(calls).toEqual([]);
    expect(s.getState().nodes.get("n4")?.status).toBe("interrupted");
  });

  it("[R122] if the seal does not come, Stop makes one bounded catch-up", async () => {
    vi.useFakeTimers();
    try {
      let ledger = chain(4, true);
      const { source, calls } = fakeSource(
        () => ledger,
        () => session("n4"),
      );
      const s = storeOf(ledger, "n4", source);
      ledger = chain(4);
      const settled = s.getState().awaitSeal(id("n4"), 4000);
      await vi.advanceTimersByTimeAsync(3999);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await settled;
      expect(calls.filter((c) => c.kind === "session")).toHaveLength(1);
      expect(calls.filter((c) => c.kind === "ids").map((c) => c.arg)).toEqual(["n4"]);
      expect(selectStreaming(s.getState())).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("[R122] concurrent catch-ups share a run", async () => {
    const ledger = chain(3);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n3"),
    );
    const s = storeOf(ledger, "n3", source);
    await Promise.all([s.getState().catchUp(), s.getState().catchUp(), s.getState().catchUp()]);
    // The first run, then one rerun for the calls that came while it ran.
    expect(calls.filter((c) => c.kind === "session")).toHaveLength(2);
  });

  it("[R122] nodes_removed drops the ids and their index entries", () => {
    const s = storeOf(chain(4), "n2");
    s.getState().select(id("n4"));
    s.getState().apply({ type: "nodes_removed", ids: [id("n3"), id("n4")] });
    expect(s.getState().nodes.get("n3")).toBeUndefined();
    expect(s.getState().children.get("n2")).toBeUndefined();
    expect(s.getState().selectedId).toBeNull();
  });

  it("[R122] a copy of a removed node arriving later does not bring it back", () => {
    const s = storeOf(chain(4), "n2");
    s.getState().apply({ type: "nodes_removed", ids: [id("n3"), id("n4")] });
    s.getState().merge(chain(4).slice(3));
    expect(s.getState().nodes.get("n3")).toBeUndefined();
    expect(s.getState().children.get("n2")).toBeUndefined();
  });

  it("[R122] during this tab's own turn, a catch-up's older session record keeps HEAD on the reply", async () => {
    const ledger = chain(4, true);
    const { source } = fakeSource(
      () => ledger,
      () => session("n3"),
    );
    const s = storeOf(ledger, "n4", source);
    s.getState().setOwnStream(id("n4"));
    await s.getState().catchUp();
    expect(s.getState().session.headId).toBe("n4");
  });

  it("[R122] a HEAD move heard while the catch-up's record was in flight is not undone by it", async () => {
    const ledger = chain(4);
    const noAnswer = () => undefined;
    let answer: (record: SessionRecord) => void = noAnswer;
    const { source } = fakeSource(
      () => ledger,
      () => session("n3"),
    );
    const s = storeOf(ledger, "n3", {
      ...source,
      // The record is read before another tab's send moves HEAD, and arrives after its event.
      session: () =>
        answer === noAnswer ? new Promise((resolve) => (answer = resolve)) : source.session(),
    });
    const running = s.getState().catchUp();
    s.getState().apply({
      type: "head_moved",
      headId: id("n4"),
      previousHeadId: id("n3"),
      move: "send",
    });
    answer(session("n3"));
    await running;
    expect(s.getState().session.headId).toBe("n4");
    // A later catch-up with no move in between takes the record's HEAD as it is.
    await s.getState().catchUp();
    expect(s.getState().session.headId).toBe("n3");
  });

  it("[R122] the first ready catches up even when nothing streams", () => {
    const s = storeOf(chain(3), "n3");
    const listeners = new Map<string, (e: MessageEvent<string>) => void>();
    const catchUp = vi.fn(() => Promise.resolve());
    const close = followSessionEvents(s, catchUp, () => ({
      addEventListener: (type, listener) => listeners.set(type, listener),
      close: () => undefined,
    }));
    expect(selectStreaming(s.getState())).toBe(false);
    listeners.get("ready")?.(new MessageEvent("ready", { data: "" }));
    expect(catchUp).toHaveBeenCalledTimes(1);
    expect(s.getState().channelOpen).toBe(true);
    listeners.get("ready")?.(new MessageEvent("ready", { data: "" }));
    expect(catchUp).toHaveBeenCalledTimes(2);
    close();
    expect(s.getState().channelOpen).toBe(false);
  });

  it("[R122] catch-up starts from the synced cursor, not from seqs this tab's own turn brought", async () => {
    // Channel down; another writer commits seq 3; this tab's own turn brings 4-5.
    let ledger = chain(2);
    const { source, calls } = fakeSource(
      () => ledger,
      () => session("n5"),
    );
    const s = storeOf(ledger, "n2", source);
    ledger = chain(5);
    s.getState().merge([wire("n4", "n3", 4), wire("n5", "n4", 5, { status: "streaming" })]);
    expect(s.getState().maxSeq).toBe(5);
    expect(s.getState().syncedSeq).toBe(2);
    await s.getState().catchUp();
    expect(calls.find((c) => c.kind === "after")?.arg).toBe("2");
    expect(s.getState().nodes.get("n3")).toBeDefined();
    expect(s.getState().syncedSeq).toBe(5);
  });

  it("[R122] the cursor advances on live events next to it, only while the channel is open", () => {
    const s = storeOf(chain(2), "n2");
    s.getState().apply({ type: "node_appended", node: wire("n3", "n2", 3) });
    expect(s.getState().syncedSeq).toBe(2);
    s.getState().setChannelOpen(true);
    s.getState().apply({ type: "node_appended", node: wire("n4", "n3", 4) });
    // Seq 3 came while the channel was closed: not heard live, the cursor waits for it.
    expect(s.getState().syncedSeq).toBe(2);
    const t = storeOf(chain(2), "n2");
    t.getState().setChannelOpen(true);
    t.getState().apply({ type: "node_appended", node: wire("n3", "n2", 3) });
    t.getState().apply({ type: "turn_finished", node: wire("n4", "n3", 4) });
    expect(t.getState().syncedSeq).toBe(4);
  });

  it("[R122] a delete this tab missed: a count that differs makes one skeleton pass that drops it", async () => {
    // The server deleted n3 (a leaf) while this tab was not listening.
    const ledger = chain(4).filter((n) => n.id !== "n4");
    const held = [...ledger, wire("n4", "n3", 4), wire("x5", "n2", 5)];
    const server = [...ledger, wire("x5", "n2", 5), wire("n6", "x5", 6)];
    const { source, calls } = fakeSource(
      () => server,
      () => session("n6"),
    );
    const s = storeOf(held, "n3", source);
    s.getState().setOwnStream(null);
    await s.getState().catchUp();
    expect(calls.filter((c) => c.kind === "skeleton").map((c) => c.arg)).toEqual(["-1", "1", "3"]);
    expect(s.getState().nodes.get("n4")).toBeUndefined();
    expect(s.getState().children.get("n3")).toBeUndefined();
    expect(s.getState().nodes.get("n6")).toBeDefined();
    // Held copies never regress to the pass's skeletons.
    expect(s.getState().nodes.get("n2")?.partial).toBeUndefined();
  });

  it("[R122] the missed-delete pass never drops this tab's own streaming reply", async () => {
    // Another writer's x5 is on the server's pages; this tab's reply n4 is not (yet).
    const server = [...chain(3), wire("x5", "n3", 5)];
    const { source } = fakeSource(
      () => server,
      () => session("n4"),
    );
    const behind: NodeSource = { ...source, byIds: () => Promise.resolve([]) };
    const reply = wire("n4", "n3", 4, { status: "streaming", content: "" });
    const s = storeOf([...chain(3), reply, wire("gone", "n1", 2.5)], "n4", behind);
    s.getState().setOwnStream(id("n4"));
    await s.getState().catchUp();
    expect(s.getState().nodes.get("n4")).toBeDefined();
    expect(s.getState().nodes.get("x5")).toBeDefined();
    expect(s.getState().nodes.get("gone")).toBeUndefined();
  });

  it("[R122] deleting tab: R-u1(HEAD)-a1-{u2-T, u2b}, deleting T removes what the server removed, keeps a1 and u2b", () => {
    const s = storeOf(
      [
        wire("R", null, 0),
        wire("u1", "R", 1),
        wire("a1", "u1", 2),
        wire("u2", "a1", 3),
        wire("T", "u2", 4),
        wire("u2b", "a1", 5),
      ],
      "u1",
    );
    const answer = { ...session("u1"), removed: [id("u2"), id("T")] };
    const kept = landBranchDeleted(s, answer);
    const st = s.getState();
    expect(st.nodes.get("a1")).toBeDefined();
    expect(st.nodes.get("u2b")).toBeDefined();
    expect(st.nodes.get("u2")).toBeUndefined();
    expect(st.nodes.get("T")).toBeUndefined();
    expect(childIds(st.children.get("a1"))).toEqual(["u2b"]);
    expect("removed" in st.session).toBe(false);
    expect(kept).toBe(st.session);
  });

  it("[R122] a catch-up that changes nothing keeps the session record", async () => {
    const ledger = chain(3);
    const { source } = fakeSource(
      () => ledger,
      () => session("n3"),
    );
    const s = storeOf(ledger, "n3", source);
    const before = s.getState();
    await s.getState().catchUp();
    expect(s.getState().session).toBe(before.session);
    expect(s.getState().nodes).toBe(before.nodes);
    expect(s.getState().version).toBe(before.version);
  });
});

describe("[R123] content and provenance on demand", () => {
  function partialLedger(count: number) {
    const full = chain(count);
    const held = full.map((n, i) =>
      i === 0
        ? n
        : { ...n, content: n.content.slice(0, 4), reads: [], partial: "skeleton" as const },
    );
    return { full, held };
  }

  it("[R123] fetches only partial nodes, at most 500 ids a request, calls in one tick coalesced", async () => {
    const { full, held } = partialLedger(1200);
    const { source, calls } = fakeSource(
      () => full,
      () => session("n1200"),
    );
    const s = storeOf(held, "n1200", source);
    const all = held.map((n) => n.id);
    await Promise.all([
      s.getState().ensureFull(all.slice(0, 700)),
      s.getState().ensureFull(all.slice(700)),
    ]);
    const sizes = calls.filter((c) => c.kind === "ids").map((c) => c.arg.split(",").length);
    // ROOT was full already: 1,200 ids in three requests of at most 500.
    expect(sizes).toEqual([500, 500, 200]);
    expect(
      s
        .getState()
        .nodes.values()
        .every((n) => n.partial === undefined),
    ).toBe(true);
    expect(s.getState().nodes.get("n7")?.content).toBe("text of n7");
    // Already full: nothing is asked again.
    await s.getState().ensureFull(all);
    expect(calls.filter((c) => c.kind === "ids")).toHaveLength(3);
  });

  it("[R123] an id already in flight is not asked for twice", async () => {
    const { full, held } = partialLedger(3);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { source, calls } = fakeSource(
      () => full,
      () => session("n3"),
    );
    const slow: NodeSource = {
      ...source,
      byIds: async (ids) => {
        await gate;
        return source.byIds(ids);
      },
    };
    const s = storeOf(held, "n3", slow);
    const first = s.getState().ensureFull([id("n1"), id("n2")]);
    await Promise.resolve();
    const second = s.getState().ensureFull([id("n2"), id("n1")]);
    release();
    await Promise.all([first, second]);
    expect(calls.filter((c) => c.kind === "ids").map((c) => c.arg)).toEqual(["n1,n2"]);
  });

  it("[R123] a failed fetch is quiet: the node stays partial, and a later ask retries", async () => {
    const { full, held } = partialLedger(2);
    let fail = true;
    const { source } = fakeSource(
      () => full,
      () => session("n2"),
    );
    const flaky: NodeSource = {
      ...source,
      byIds: (ids) => (fail ? Promise.reject(new Error("offline")) : source.byIds(ids)),
    };
    const s = storeOf(held, "n2", flaky);
    await s.getState().ensureFull([id("n1")]);
    expect(s.getState().nodes.get("n1")?.partial).toBe("skeleton");
    expect(s.getState().error).toBeNull();
    fail = false;
    await s.getState().ensureFull([id("n1")]);
    expect(s.getState().nodes.get("n1")?.partial).toBeUndefined();
  });

  it("[R123] selecting a node (for its provenance marks) fetches its reads", async () => {
    const full = chain(2).map((n) => (n.id === "n2" ? { ...n, reads: [id("R"), id("n1")] } : n));
    const held = full.map((n) =>
      n.id === "n2" ? { ...n, reads: [], partial: "reads" as const } : n,
    );
    const { source } = fakeSource(
      () => full,
      () => session("n2"),
    );
    const s = storeOf(held, "n2", source);
    s.getState().select(id("n2"));
    await vi.waitFor(() => expect(s.getState().nodes.get("n2")?.reads).toEqual(["R", "n1"]));
  });
});

describe("[R294] a near-first page: the part it opens on, then the rest in one fill", () => {
  /** R-n1-n2-n3-n4 (HEAD) with a version x5 of n2 under n1, and y6 below x5. */
  const server = [...chain(4), wire("x5", "n1", 5), wire("y6", "x5", 6)];
  // What the page is rendered with: the spine, its versions and ROOT; and a node deleted
  // since ("old"), which the fill finds gone.
  const near = () => [...chain(4), wire("x5", "n1", 5, { partial: "skeleton", reads: [] })];
  /** The near part's store at HEAD n4, its rest on the server. */
  const nearStore = () =>
    storeOf(
      near(),
      "n4",
      fakeSource(
        () => server,
        () => session("n4"),
      ).source,
      {
        total: 7,
        lastSeq: 6,
      },
    );

  it("[R294] catch-up leaves the rest to the fill; the fill brings it, drops what is gone, completes", async () => {
    const { source, calls } = fakeSource(
      () => server,
      () => session("n4"),
    );
    const s = storeOf([...near(), wire("old", "n3", 4.5)], "n4", source, {
      total: 8,
      lastSeq: 6,
    });
    expect(s.getState().complete).toBe(false);
    // Everything up to the server's highest seq is either held or in the rest.
    expect(s.getState().syncedSeq).toBe(6);
    await s.getState().catchUp();
    expect(calls.map((c) => c.kind)).not.toContain("skeleton");
    expect(s.getState().nodes.get("y6")).toBeUndefined();

    await s.getState().whenComplete();
    expect(calls.filter((c) => c.kind === "skeleton").map((c) => c.arg)).toEqual([
      "-1",
      "1",
      "3",
      "5",
    ]);
    expect(s.getState().complete).toBe(true);
    expect(s.getState().nodes.get("y6")?.partial).toBe("skeleton");
    expect(childIds(s.getState().children.get("x5"))).toEqual(["y6"]);
    expect(s.getState().nodes.get("old")).toBeUndefined();
    // The spine's lean copies never regress to the pass's skeletons.
    expect(s.getState().nodes.get("n3")?.partial).toBeUndefined();

    // Complete: no second pass, and a count that matches makes none either.
    await s.getState().whenComplete();
    await s.getState().catchUp();
    expect(calls.filter((c) => c.kind === "skeleton")).toHaveLength(4);
  });

  it("[R294] the versions the part leaves out count in ‹ i/n › until the rest lands, then the held ones do", async () => {
    // The server's rule: the part holds the spine (no x5), and counts x5 — one version of
    // n2 newer than it — under n1.
    const { source } = fakeSource(
      () => server,
      () => session("n4"),
    );
    const s = storeOf(chain(4), "n4", source, {
      total: 7,
      lastSeq: 6,
      leftOut: [["n1", 2, 0, 1]],
    });
    const n1 = () => nodeOf(s.getState(), id("n1"));
    const node = (x: string) => {
      const n = nodeOf(s.getState(), id(x));
      if (!n) throw new Error(`${x} is not held`);
      return n;
    };
    expect(s.getState().nodes.get("x5")).toBeUndefined();
    expect(versionCount(s.getState(), node("n2"))).toEqual([0, 2]);
    expect(versionCountBelow(s.getState(), n1() ?? node("R"))).toBe(2);
    // Messages without versions left out count what is held.
    expect(versionCount(s.getState(), node("n3"))).toEqual([0, 1]);
    // A retry written meanwhile is newer than every version left out: exact too.
    s.getState().merge([wire("z7", "n1", 7)]);
    expect(versionCount(s.getState(), node("n2"))).toEqual([0, 3]);
    expect(versionCount(s.getState(), node("z7"))).toEqual([2, 3]);

    await s.getState().whenComplete();
    expect(s.getState().complete).toBe(true);
    expect(s.getState().leftOut).toBeNull();
    expect(s.getState().nodes.get("x5")).toBeDefined();
    // The same numbers, now from the nodes themselves.
    expect(versionCount(s.getState(), node("n2"))).toEqual([0, 3]);
    expect(versionCount(s.getState(), node("x5"))).toEqual([1, 3]);
    expect(versionCount(s.getState(), node("z7"))).toEqual([2, 3]);
  });

  /** A near-first store whose fill calls `between` as it asks for each page. */
  function fillingStore(
    ledger: WireNode[],
    rest: LedgerRest,
    between: (after: number, store: ReturnType<typeof storeOf>) => void,
  ) {
    const { source } = fakeSource(
      () => ledger,
      () => session("n4"),
    );
    const held: { store?: ReturnType<typeof storeOf> } = {};
    const during: NodeSource = {
      ...source,
      skeleton: (after) => {
        if (held.store) between(after, held.store);
        return source.skeleton(after);
      },
    };
    held.store = storeOf(near(), "n4", during, rest);
    return held.store;
  }

  it("[R294] what the channel brings while the fill runs survives it; what it deletes stays gone", async () => {
    const ledger = [...server];
    const s = fillingStore(ledger, { total: 7, lastSeq: 6 }, (after, store) => {
      if (after !== 1) return;
      // Between two pages: a reply appended under HEAD, and y6 (on a later page) deleted.
      const reply = wire("z7", "n4", 7);
      ledger.push(reply);
      store.getState().apply({ type: "node_appended", node: reply });
      store.getState().apply({ type: "nodes_removed", ids: [id("y6")] });
    });
    const version = s.getState().version;
    await s.getState().whenComplete();
    const st = s.getState();
    expect(st.nodes.get("z7")?.partial).toBeUndefined();
    expect(childIds(st.children.get("n4"))).toEqual(["z7"]);
    expect(st.nodes.get("y6")).toBeUndefined();
    expect(st.children.get("x5")).toBeUndefined();
    // The append, then the fill's rest in one change (the delete found nothing held).
    expect(st.version).toBe(version + 2);
  });

  it("[R294] a copy the pass brought of a node deleted while it ran is dropped", async () => {
    // g, a version of n2 the near part does not hold, comes on the second page; asked for
    // the third, it has been merged, and is then deleted.
    const ledger = [...server, wire("g", "n1", 1.5, { kind: "user" })];
    const s = fillingStore(ledger, { total: 8, lastSeq: 6 }, (after, store) => {
      if (after === 2) store.getState().apply({ type: "nodes_removed", ids: [id("g")] });
    });
    await s.getState().whenComplete();
    expect(s.getState().nodes.get("g")).toBeUndefined();
    expect(childIds(s.getState().children.get("n1"))).toEqual(["n2", "x5"]);
    expect(s.getState().nodes.get("y6")).toBeDefined();
  });

  it("[R294] a version's branch tip is read only from the whole ledger", async () => {
    const s = nearStore();
    const tips: string[] = [];
    const x5 = s.getState().nodes.get("x5");
    if (!x5) throw new Error("x5 is near");
    withWholeLedger(s, "Switching", (st) => tips.push(versionTip(st, x5)));
    // On the near part alone, x5 would be its own tip.
    expect(tips).toEqual([]);
    await s.getState().whenComplete();
    expect(tips).toEqual(["y6"]);
    // Once complete, at once, and nothing is said to wait.
    withWholeLedger(s, "Switching", (st) => tips.push(versionTip(st, x5)));
    expect(tips).toEqual(["y6", "y6"]);
    expect(s.getState().waitingForRest).toBeNull();
  });

  it("[R294] a waiting action is shown in words; the last click wins; it runs once", async () => {
    const s = nearStore();
    const acted: string[] = [];
    withWholeLedger(s, "Switching to the other version", () => acted.push("switch"));
    expect(s.getState().waitingForRest).toEqual({
      label: "Switching to the other version",
      head: "n4",
    });
    withWholeLedger(s, "Opening the versions side by side", () => acted.push("compare"));
    expect(s.getState().waitingForRest?.label).toBe("Opening the versions side by side");
    await s.getState().whenComplete();
    await Promise.resolve();
    expect(acted).toEqual(["compare"]);
    expect(s.getState().waitingForRest).toBeNull();
  });

  it("[R294] a waiting action can be cancelled", async () => {
    const s = nearStore();
    const acted = vi.fn();
    withWholeLedger(s, "Switching to the other version", acted);
    cancelWaitingForRest(s);
    expect(s.getState().waitingForRest).toBeNull();
    await s.getState().whenComplete();
    await Promise.resolve();
    expect(acted).not.toHaveBeenCalled();
    // A later click waits (or runs) as usual.
    withWholeLedger(s, "Switching to the other version", acted);
    expect(acted).toHaveBeenCalledTimes(1);
  });

  it("[R294] clicks and cancels while waiting ask for the rest once; the action runs as it lands", async () => {
    const s = nearStore();
    const whole = s.getState().whenComplete;
    const asked = vi.fn(whole);
    s.setState({ whenComplete: asked });
    const acted: string[] = [];
    withWholeLedger(s, "Switching", () => acted.push("a"));
    cancelWaitingForRest(s);
    withWholeLedger(s, "Switching", () => acted.push("b"));
    cancelWaitingForRest(s);
    withWholeLedger(s, "Comparing", () => acted.push("c"));
    expect(asked).toHaveBeenCalledTimes(1);
    // Made whole by another caller: the waiting action runs then, once, and the notice goes.
    await whole();
    expect(acted).toEqual(["c"]);
    expect(s.getState().waitingForRest).toBeNull();
    withWholeLedger(s, "Switching", () => acted.push("d"));
    expect(acted).toEqual(["c", "d"]);
  });

  it("[R294] an action waiting for the rest is dropped when HEAD moved meanwhile", async () => {
    const { source } = fakeSource(
      () => server,
      () => session("n3"),
    );
    const s = storeOf(near(), "n4", source, { total: 7, lastSeq: 6 });
    const acted = vi.fn();
    withWholeLedger(s, "Switching to the other version", acted);
    s.getState().setHead(id("n3"));
    await s.getState().whenComplete();
    await Promise.resolve();
    expect(acted).not.toHaveBeenCalled();
    expect(s.getState().waitingForRest).toBeNull();
  });

  it("[R294] a stream only the pass saw stays live when the rest lands", async () => {
    const stream = wire("s7", "n4", 7, { status: "streaming", content: "so far" });
    const { source } = fakeSource(
      () => [...server, stream],
      () => session("n4"),
    );
    const s = storeOf(near(), "n4", source, { total: 8, lastSeq: 7 });
    await s.getState().whenComplete();
    // (The fake pages every node as "label"; the server sends a streaming one lean.)
    expect(s.getState().live["s7"]).toBeDefined();
    expect(s.getState().appendDelta(id("s7"), " and more", 5)).toBe(true);
    expect(nodeOf(s.getState(), "s7")?.content).toBe("label and more");
  });

  it("[R294] HEAD moved onto a node the near part lacks brings the rest at once", async () => {
    const { source, calls } = fakeSource(
      () => server,
      () => session("y6"),
    );
    const s = storeOf(near(), "n4", source, { total: 7, lastSeq: 6 });
    s.getState().apply({
      type: "head_moved",
      headId: id("y6"),
      previousHeadId: id("n4"),
      move: "checkout",
    });
    await vi.waitFor(() => expect(s.getState().complete).toBe(true));
    expect(calls.some((c) => c.kind === "skeleton")).toBe(true);
    expect(s.getState().nodes.get("y6")).toBeDefined();
  });

  it("[R294] a failed fill is tried again; the tab stays incomplete until one lands", async () => {
    vi.useFakeTimers();
    try {
      const { source } = fakeSource(
        () => server,
        () => session("n4"),
      );
      let failures = 5;
      const flaky: NodeSource = {
        ...source,
        skeleton: (after) =>
          failures-- > 0 ? Promise.reject(new Error("offline")) : source.skeleton(after),
      };
      const s = storeOf(near(), "n4", flaky, { total: 7, lastSeq: 6 });
      const done = s.getState().whenComplete();
      // Five failures: after 1, 2, 4, 8 and 16 s it tries again, saying so meanwhile.
      await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 15_999);
      expect(s.getState().complete).toBe(false);
      expect(s.getState().fillTrouble).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      await done;
      expect(s.getState().complete).toBe(true);
      expect(s.getState().fillTrouble).toBe(false);
      expect(s.getState().nodes.get("y6")).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("[R124] a token re-renders only the streaming message", () => {
  it("[R124] every other row's node keeps its identity while one streams", () => {
    const s = storeOf(chain(100, true), "n100");
    const rows = ["n1", "n50", "n99"].map((x) => nodeOf(s.getState(), x));
    const streamed = nodeOf(s.getState(), "n100");
    s.getState().appendDelta(id("n100"), "token", 0);
    expect(["n1", "n50", "n99"].map((x) => nodeOf(s.getState(), x))).toEqual(rows);
    for (const [i, x] of ["n1", "n50", "n99"].entries()) {
      expect(nodeOf(s.getState(), x)).toBe(rows[i]);
    }
    expect(nodeOf(s.getState(), "n100")).not.toBe(streamed);
  });
});

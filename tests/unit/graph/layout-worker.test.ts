import { afterEach, describe, expect, it, vi } from "vitest";
import type { NodeId } from "@/lib/engine/ids";
import type { GraphView } from "@/lib/engine/build-graph";
import { layoutGraph } from "@/components/graph/layout";
import { navigate } from "@/components/graph/nav";
import {
  GraphModelClient,
  type ModelInput,
  type WorkerLike,
} from "@/components/graph/layout-client";
import {
  GraphBuilder,
  SYNC_NODES,
  modelOf,
  type GraphModel,
  type GraphPatch,
  type GraphReply,
  type GraphRequest,
  type GraphSync,
  type ModelOptions,
  type WorkerMessage,
} from "@/components/graph/graph-model";
import { pageRow } from "@/components/graph/page-row";
import type { FlowEdge, FlowNode } from "@/components/graph/flow-types";
import { compacted, nid, TestLedger } from "./ledger";

const FOLDED: ModelOptions = { expanded: new Set<NodeId>(), showRelics: false, reads: null };

/**
 * A worker in this thread: messages are structured-cloned and answered when told — whole,
 * or, given a part size, in parts as the real worker posts them: the first at once, each
 * next one when the page has asked for it.
 */
class FakeWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  /** Arrow keys asked, answered from the model last answered (as the worker does). */
  asks = 0;
  readonly inbox: GraphSync[] = [];
  readonly replies: GraphReply[] = [];
  /** Parts of the answer being posted that have not been sent yet. */
  readonly outbox: GraphReply[] = [];
  /** Parts the page has asked for and not yet received. */
  asked = 0;
  private readonly builder = new GraphBuilder();
  terminated = false;

  constructor(private readonly partSize?: number) {}

  /** Messages with more of their change to come, taken at once as the worker takes them. */
  readonly staged: GraphSync[] = [];

  postMessage(message: GraphRequest): void {
    if ("ask" in message) {
      this.asks += 1;
      const move = structuredClone(this.builder.reply(message));
      queueMicrotask(() => this.onmessage?.({ data: move } as MessageEvent<WorkerMessage>));
    } else if ("next" in message) this.asked += 1;
    else if (message.more) {
      this.staged.push(message);
      this.builder.stage(structuredClone(message));
    } else this.inbox.push(structuredClone(message));
  }

  /** Answers the oldest request, as the worker would; `parts` of it arrive now, the rest later. */
  answer(parts = Infinity): void {
    const request = this.inbox.shift();
    if (request === undefined) throw new Error("nothing to answer");
    const [first, ...rest] =
      this.partSize === undefined
        ? [this.builder.answer(request)]
        : this.builder.answerInParts(request, this.partSize);
    this.outbox.push(...rest);
    if (first !== undefined && parts > 0) this.send(first);
    this.arrive(parts - 1);
  }

  /** Sends up to `parts` more parts, each one only once the page has asked for it. */
  arrive(parts = Infinity): void {
    for (let i = 0; i < parts && this.asked > 0 && this.outbox.length > 0; i++) {
      this.asked -= 1;
      this.send(this.outbox.shift() as GraphReply);
    }
  }

  private send(part: GraphReply): void {
    const reply = structuredClone(part);
    this.replies.push(reply);
    this.onmessage?.({ data: reply } as MessageEvent<GraphReply>);
  }

  terminate(): void {
    this.terminated = true;
  }
}

const input = (l: TestLedger, head: string, opts = FOLDED, summary?: string): ModelInput => ({
  ...opts,
  session: l.session(head, summary),
  leftOut: null,
  nodes: l.record(),
});

/** The first message a worker gets: the whole ledger, folded, nothing selected. */
const resetSync = (gen: number, l: TestLedger, head: string, summary?: string): GraphSync => ({
  gen,
  reset: true,
  redraw: false,
  more: false,
  session: l.session(head, summary),
  leftOut: null,
  upserts: l.nodes,
  removed: [],
  expanded: [],
  showRelics: false,
  reads: null,
  window: null,
});

/** A chat of `turns` turns, each reply with a dead retry beside it; `tip` is the last reply. */
function retriedChat(turns: number): { l: TestLedger; tip: string } {
  const l = new TestLedger();
  let tip = "R";
  for (let i = 0; i < turns; i++) {
    l.chain(tip, `u${i} a${i}`).add(`a${i}x`, `u${i}`);
    tip = `a${i}`;
  }
  return { l, tip };
}

/** A client whose worker answers each request whole when told; `shown` collects the models. */
function wholeClient() {
  const worker = new FakeWorker();
  const shown: GraphModel[] = [];
  const client = new GraphModelClient(
    () => worker,
    (m) => shown.push(m),
  );
  return { worker, shown, client };
}

/**
 * A client whose worker answers in parts of 100 items, asked for at once, for a 400 × 300
 * window; `shown` collects the models delivered.
 */
function partedClient() {
  const worker = new FakeWorker(100);
  const shown: GraphModel[] = [];
  const client = new GraphModelClient(
    () => worker,
    (m) => shown.push(m),
    () => ({ width: 400, height: 300 }),
    (ask) => ask(),
  );
  return { worker, shown, client };
}

/**
 * A card as the layout made it, as plain data — with a turn card's text left out (the page's
 * cards read the store's) and nothing the page's card holds beyond React Flow's fields (its
 * line rides on it).
 */
function laidOut(card: FlowNode): FlowNode {
  const { id, type, width, height } = card;
  const position = { x: card.position.x, y: card.position.y };
  if (type !== "turn") return { id, type, position, width, height, data: card.data } as FlowNode;
  const { text: _text, ...look } = card.data;
  return { id, type, position, width, height, data: look };
}

/** Every line of a model, by the card it leads into, in the cards' order. */
function linesIn(model: GraphModel): FlowEdge[] {
  return [...model.cards.values()].flatMap((card) => model.lines.into(card) ?? []);
}

/** What the worker's model must equal: the in-place one, with the summaries' rows as the page holds them. */
function expectModel(model: GraphModel | undefined, view: GraphView, opts: ModelOptions) {
  if (model === undefined) throw new Error("no model delivered");
  const want = modelOf(view, opts);
  expect(model.headId).toBe(want.headId);
  expect(model.activeSummaryId).toBe(want.activeSummaryId);
  expect(model.relics).toBe(want.relics);
  const sorted = <T>(m: ReadonlyMap<string, T>) =>
    [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  // The page's turn cards need no text (the card reads the store's); the worker's bring none.
  expect(sorted(model.cards).map(laidOut)).toEqual(sorted(want.cards).map(laidOut));
  const byTarget = (m: GraphModel) =>
    sorted(new Map(linesIn(m).map((e) => [e.target, e] as const)));
  expect(byTarget(model)).toEqual(byTarget(want));
  const summaries = view.nodes.filter((r) => r.kind === "summary");
  expect(sorted(model.summaries)).toEqual(
    sorted(new Map(summaries.map((r) => [r.id, pageRow(r)]))),
  );
}

/**
 * A client that has shown a chat of five turns (`before`), then asked for it grown to 700
 * turns ending at `tip`: more nodes than it held, so a redraw.
 */
function grownPastTheShown() {
  const { worker, shown, client } = partedClient();
  const l = new TestLedger();
  let tip = "R";
  const turns = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      l.chain(tip, `u${i} a${i}`);
      tip = `a${i}`;
    }
  };
  turns(0, 5);
  client.request(input(l, tip));
  worker.answer();
  const before = shown.at(-1);
  turns(5, 700);
  client.request(input(l, tip));
  return { worker, shown, client, l, tip, before };
}

/** Two models' maps hold the same entries, in the same order. */
function expectSameMaps(a: GraphModel | undefined, b: GraphModel | undefined) {
  if (a === undefined || b === undefined) throw new Error("no model delivered");
  for (const name of ["summaries", "cards"] as const) {
    expect([...a[name]]).toEqual([...b[name]]);
  }
  expect(linesIn(a)).toEqual(linesIn(b));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("[R138] the graph built in the worker from what changed", () => {
  it("[R138] the model patched change by change equals the model built whole", () => {
    const { worker, shown, client } = wholeClient();
    const l = compacted();
    const step = (head: string, opts: ModelOptions = FOLDED, summary = "S") => {
      client.request(input(l, head, opts, summary));
      worker.answer();
      expectModel(shown.at(-1), l.graph(head, summary), opts);
    };
    step("a3");
    l.add("u4", "a3").add("a4", "u4", { content: "" });
    step("a4");
    l.replace("a4", { content: "the sealed reply\nmore" });
    step("a4");
    step("a4", { expanded: new Set([nid("S")]), showRelics: true, reads: null });
    step("a4", { ...FOLDED, reads: [nid("R"), nid("S"), nid("u4")] });
    l.add("a2c", "u2");
    step("a2c");
    l.remove("a2c");
    step("a4");
  });

  it("[R138] a large graph's arrow keys are answered by the worker, as the layout leads them", async () => {
    const { worker, shown, client } = wholeClient();
    const l = compacted();
    l.add("a2c", "u2");
    const opts: ModelOptions = { ...FOLDED, expanded: new Set([nid("S")]) };
    client.request(input(l, "a3", opts));
    worker.answer();
    const model = shown.at(-1);
    if (model === undefined) throw new Error("no model delivered");
    // The page holds no arrows: it asks.
    expect(model).not.toHaveProperty("nav");
    const { nav } = layoutGraph(l.graph("a3", "S"), opts);
    const keys = ["up", "down", "left", "right"] as const;
    let moves = 0;
    for (const id of model.cards.keys()) {
      for (const key of keys) {
        const want = navigate(nav, id, key);
        expect(await model.navigate(id, key)).toBe(want);
        if (want !== null) moves += 1;
      }
    }
    expect(moves).toBeGreaterThan(10);
    expect(worker.asks).toBe(model.cards.size * keys.length);
    // An unknown card leads nowhere.
    expect(await model.navigate("nope", "up")).toBeNull();
  });

  it("[R138] an arrow key asked of a worker that then fails moves nothing, and waits for nothing", async () => {
    const { worker, shown, client } = wholeClient();
    const { l, tip } = retriedChat(3);
    client.request(input(l, tip));
    worker.answer();
    // The worker takes the ask and never answers it, then fails.
    worker.postMessage = () => undefined;
    const move = shown.at(-1)?.navigate(tip, "up");
    worker.onerror?.({} as ErrorEvent);
    expect(await move).toBeNull();
    // The builder here takes over: the arrows lead as before.
    expect(await shown.at(-1)?.navigate(tip, "up")).toBe("u2");
  });

  it("[R138] a change sends the nodes that changed, and the answer carries what changed", () => {
    const { worker, shown, client } = wholeClient();
    const { l, tip } = retriedChat(300);
    client.request(input(l, tip));
    worker.answer();
    expect(client.nodesSent).toBe(l.nodes.length);
    // One reply appended under HEAD, then sealed: one node sent each time.
    l.add("u300", tip);
    client.request(input(l, "u300"));
    worker.answer();
    expect(client.nodesSent).toBe(l.nodes.length);
    l.replace("u300", { content: "edited label" });
    client.request(input(l, "u300"));
    worker.answer();
    expect(client.nodesSent).toBe(l.nodes.length + 1);
    const last = worker.replies.at(-1) as GraphPatch;
    expect(last.cards.upserts.map((c) => c.id)).toEqual(["u300"]);
    // A new label changes the card, and no summary's row.
    expect(last.summaries.upserts).toEqual([]);
    expect(last.cards.removed).toEqual([]);
    expectModel(shown.at(-1), l.graph("u300"), FOLDED);
  });

  it("[R294] a near-first page's versions left out count in the cards' tags and fork marks", () => {
    const { worker, shown, client } = wholeClient();
    // The part: R, u0, a0 (HEAD). The whole: a0 has 3 older and 1 newer versions under u0.
    const part = new TestLedger().chain("R", "u0 a0");
    const at = part.nodes.find((n) => n.id === nid("a0"))?.seq ?? -1;
    const leftOut = new Map([[nid("u0"), { at, before: 3, after: 1 }]]);
    client.request({ ...input(part, "a0"), leftOut });
    worker.answer();
    const card = (model: GraphModel | undefined, id: string) => {
      const c = model?.cards.get(nid(id));
      if (c?.type !== "turn") throw new Error(`no turn card ${id}`);
      return c.data;
    };
    expect(card(shown.at(-1), "a0").sibling).toBe("4/5");
    expect(card(shown.at(-1), "u0").forks).toBe(5);
    // The same tags once the versions are held and nothing is left out.
    const whole = new TestLedger().chain("R", "u0");
    for (const v of ["a1", "a2", "a3"]) whole.add(v, "u0");
    whole.add("a0", "u0").add("a4", "u0");
    client.request({ ...input(whole, "a0"), leftOut: null });
    worker.answer();
    expect(card(shown.at(-1), "a0").sibling).toBe("4/5");
    expect(card(shown.at(-1), "u0").forks).toBe(5);
  });

  it("[R138] one request in flight; requests made meanwhile coalesce; the newest is shown", () => {
    const { worker, shown, client } = wholeClient();
    const l = new TestLedger().chain("R", "u1 a1");
    client.request(input(l, "a1"));
    l.chain("a1", "u2");
    client.request(input(l, "u2"));
    l.chain("u2", "a2");
    client.request(input(l, "a2"));
    expect(client.posted).toBe(1);
    worker.answer();
    // The first answer is applied but not shown: the newest request goes out at once.
    expect(shown).toHaveLength(0);
    expect(client.posted).toBe(2);
    expect(worker.inbox[0]?.upserts.map((n) => n.id)).toEqual(["u2", "a2"]);
    worker.answer();
    expect(shown).toHaveLength(1);
    expectModel(shown[0], l.graph("a2"), FOLDED);
    client.dispose();
    expect(worker.terminated).toBe(true);
  });

  it("[R138] without a worker, or when it fails, the same model is built in place", () => {
    const l = compacted();
    const shown: GraphModel[] = [];
    const none = new GraphModelClient(
      () => {
        throw new Error("Worker is not defined");
      },
      (m) => shown.push(m),
    );
    none.request(input(l, "a3", FOLDED, "S"));
    expect(shown).toHaveLength(1);
    expectModel(shown[0], l.graph("a3", "S"), FOLDED);

    const worker = new FakeWorker();
    const failing = new GraphModelClient(
      () => worker,
      (m) => shown.push(m),
    );
    failing.request(input(l, "a3", FOLDED, "S"));
    worker.answer();
    l.add("u4", "a3");
    failing.request(input(l, "u4", FOLDED, "S"));
    worker.onerror?.({} as ErrorEvent);
    expect(shown).toHaveLength(3);
    expectModel(shown[2], l.graph("u4", "S"), FOLDED);
  });

  it("[R138] a ledger mid-update keeps the model shown, and the next change mends it", () => {
    const { worker, shown, client } = wholeClient();
    const l = new TestLedger().chain("R", "u1 a1");
    client.request(input(l, "a1"));
    worker.answer();
    // A node whose predecessor has not arrived: HEAD on it cannot be built.
    const orphan = new TestLedger().chain("R", "u1 a1");
    orphan.add("a9", "u8");
    client.request(input(orphan, "a9"));
    worker.answer();
    expect("error" in (worker.replies.at(-1) as GraphReply)).toBe(true);
    expect(shown).toHaveLength(1);
    l.chain("a1", "u2");
    client.request(input(l, "u2"));
    worker.answer();
    expectModel(shown.at(-1), l.graph("u2"), FOLDED);
  });

  it("[R138] an answer that fails after a patch was held back shows that patch", () => {
    const { worker, shown, client } = wholeClient();
    const l = new TestLedger().chain("R", "u1 a1");
    client.request(input(l, "a1"));
    worker.answer();
    l.chain("a1", "u2");
    client.request(input(l, "u2"));
    const broken = new TestLedger().chain("R", "u1 a1 u2");
    broken.add("a9", "u8");
    client.request(input(broken, "a9"));
    worker.answer(); // u2 applied, held back: a newer request waits
    expect(shown).toHaveLength(1);
    worker.answer(); // the newer one cannot be built
    expect(shown).toHaveLength(2);
    expectModel(shown[1], l.graph("u2"), FOLDED);
  });

  it("[R138] a reset that fails is followed by another: no card outlives its node", () => {
    const { worker, shown, client } = wholeClient();
    const l = new TestLedger().chain("R", "u1 a1").add("a1x", "u1");
    client.request(input(l, "a1"));
    worker.answer();
    expect(shown[0]?.cards.has("a1x")).toBe(true);
    // The worker dies while the ledger is mid-update; the rebuild here fails at first.
    l.remove("a1x");
    const midUpdate = new TestLedger().chain("R", "u1 a1");
    midUpdate.add("a9", "u8");
    client.request(input(midUpdate, "a9"));
    worker.onerror?.({} as ErrorEvent);
    expect(shown).toHaveLength(1);
    client.request(input(l, "a1"));
    expect(shown).toHaveLength(2);
    expect(shown[1]?.cards.has("a1x")).toBe(false);
    expectModel(shown[1], l.graph("a1"), FOLDED);
  });

  it("[R138] a large answer comes in parts, HEAD's area first, and the parts make the whole", () => {
    const { l, tip } = retriedChat(150);
    const sync = { ...resetSync(1, l, tip), window: { width: 400, height: 300 } };
    const whole = new GraphBuilder().answer(sync);
    const parts = new GraphBuilder().answerInParts(sync, 100);
    if ("error" in whole) throw new Error(whole.error);
    const patches = parts.map((p) => {
      if ("error" in p) throw new Error(p.error);
      return p;
    });
    const items = (p: GraphPatch) =>
      p.summaries.upserts.length + p.cards.upserts.length + p.edges.upserts.length;
    expect(patches.length).toBeGreaterThan(8);
    // Only the last part says it is the last; only the first clears what the page held.
    expect(patches.map((p) => p.more === true)).toEqual(
      patches.map((_, i) => i < patches.length - 1),
    );
    expect(patches.map((p) => p.reset)).toEqual(patches.map((_, i) => i === 0));
    for (const p of patches.slice(1)) expect(items(p)).toBeLessThanOrEqual(100);
    // The first part: HEAD's card and its neighbours within three windows, not the far root.
    const first = patches[0] as GraphPatch;
    const near = first.cards.upserts.map((c) => c.id);
    expect(near).toContain(tip);
    expect(near).toContain("u149");
    expect(near).not.toContain("R");
    expect(first.edges.upserts.some((e) => e.target === tip)).toBe(true);
    // Applied in order, the parts give exactly the whole answer's items.
    const byId = <T extends { readonly id: string }>(pick: (p: GraphPatch) => readonly T[]) =>
      new Map(patches.flatMap((p) => pick(p).map((x) => [x.id, x] as const)));
    const wholeById = <T extends { readonly id: string }>(xs: readonly T[]) =>
      new Map(xs.map((x) => [x.id, x] as const));
    expect(byId((p) => p.cards.upserts)).toEqual(wholeById(whole.cards.upserts));
    expect(byId((p) => p.edges.upserts)).toEqual(wholeById(whole.edges.upserts));
    expect(byId((p) => p.summaries.upserts)).toEqual(wholeById(whole.summaries.upserts));
    // A small answer is one message.
    expect(new GraphBuilder().answerInParts(sync)).toHaveLength(1);
  });

  it("[R138] HEAD folded inside a capsule: the first part is the capsule's area", () => {
    const l = compacted();
    const sync: GraphSync = {
      ...resetSync(1, l, "a1", "S"),
      session: l.session("a1", "S"),
      // A window so small that the cards below the capsule fall outside its area.
      window: { width: 20, height: 20 },
    };
    const [first] = new GraphBuilder().answerInParts(sync, 1);
    if (first === undefined || "error" in first) throw new Error("no answer");
    expect(first.more).toBe(true);
    expect(first.cards.upserts.map((c) => c.id)).toContain("S");
  });

  it("[R138] a reset in parts shows HEAD's area at once; the next request waits for the last part", () => {
    const { worker, shown, client } = partedClient();
    const { l, tip } = retriedChat(150);
    client.request(input(l, tip));
    worker.answer(1);
    // The first part is shown: HEAD's card, not yet the far end of the graph.
    expect(shown).toHaveLength(1);
    expect(shown[0]?.cards.has(tip)).toBe(true);
    expect(shown[0]?.cards.has("R")).toBe(false);
    // A change meanwhile waits for the answer's last part, then goes out.
    l.add("u150", tip);
    client.request(input(l, "u150"));
    worker.arrive(3);
    expect(client.posted).toBe(1);
    expect(shown).toHaveLength(1);
    worker.arrive();
    expect(client.posted).toBe(2);
    expect(worker.outbox).toHaveLength(0);
    worker.answer();
    expectModel(shown.at(-1), l.graph("u150"), FOLDED);
  });

  it("[R138] a line that comes before the card it leads into is drawn once the card comes", () => {
    const { worker, shown, client } = partedClient();
    const { l } = retriedChat(150);
    // HEAD mid-chain: the first part holds the lines from its area's lowest cards into the
    // cards below, which come in later parts.
    client.request(input(l, "a40"));
    worker.answer(1);
    const first = worker.replies[0] as GraphPatch;
    const ahead = first.edges.upserts.filter(
      (e) => !first.cards.upserts.some((card) => card.id === e.target),
    );
    expect(ahead.length).toBeGreaterThan(0);
    worker.arrive();
    expectModel(shown.at(-1), l.graph("a40"), FOLDED);
    const model = shown.at(-1) as GraphModel;
    for (const e of ahead) {
      const card = model.cards.get(e.target) as FlowNode;
      expect(model.lines.sourceOf(card)).toBe(e.source);
      // One line object per card while the card is.
      expect(model.lines.into(card)).toBe(model.lines.into(card));
    }
  });

  it("[R294] the client is idle only once the newest request is answered whole", () => {
    const { worker, client } = partedClient();
    const idle = vi.fn();
    client.onIdle = idle;
    const { l, tip } = retriedChat(150);
    client.request(input(l, tip));
    worker.answer(1);
    // HEAD's area is shown, the rest of the answer is still coming.
    expect(idle).not.toHaveBeenCalled();
    l.add("u150", tip);
    client.request(input(l, "u150"));
    worker.arrive();
    // The first answer is whole, but a newer request went out: still busy.
    expect(idle).not.toHaveBeenCalled();
    worker.answer();
    expect(idle).toHaveBeenCalledTimes(1);
  });

  it("[R294] a change bringing more nodes than the page held is redrawn: HEAD's area first", () => {
    const { worker, shown, client } = partedClient();
    const l = new TestLedger();
    let tip = "R";
    const turns = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        l.chain(tip, `u${i} a${i}`).add(`a${i}x`, `u${i}`);
        tip = `a${i}`;
      }
    };
    turns(0, 5);
    client.request(input(l, tip));
    worker.answer();
    // A near-first page's rest: 1,185 nodes more than the 16 it held.
    turns(5, 400);
    client.request(input(l, tip));
    expect(worker.inbox[0]).toMatchObject({ reset: false, redraw: true });
    worker.answer(1);
    // Shown at once, like a first answer: HEAD's area of the new layout, not the far end.
    expect(shown.at(-1)?.cards.has(tip)).toBe(true);
    expect(shown.at(-1)?.cards.has("R")).toBe(false);
    worker.arrive();
    expectModel(shown.at(-1), l.graph(tip), FOLDED);
    // A change of a few nodes is a patch again.
    turns(400, 401);
    client.request(input(l, tip));
    expect(worker.inbox[0]).toMatchObject({ reset: false, redraw: false });
    worker.answer();
    expectModel(shown.at(-1), l.graph(tip), FOLDED);
  });

  it("[R138] a model kept past a redraw reads the maps shown, not the ones it was made over", () => {
    const { worker, shown, l, tip, before } = grownPastTheShown();
    expect(before?.cards.size).toBe(11);
    expect(worker.inbox[0]).toMatchObject({ redraw: true });
    worker.answer(1);
    // Until the redraw is shown, the model before it reads its own maps; once it is, that
    // generation forwards to the new one (a closure keeping the old model keeps no old map).
    const after = shown.at(-1);
    expect(after).not.toBe(before);
    expect(before?.cards.has(tip)).toBe(true);
    worker.arrive();
    expect(before?.cards.size).toBe(after?.cards.size);
    expect(before?.cards.get("a3")).toBe(after?.cards.get("a3"));
    expectModel(shown.at(-1), l.graph(tip), FOLDED);
    expectSameMaps(before, after);
  });

  it("[R138] a redraw answered while a newer request waits changes nothing shown until delivered", () => {
    const { worker, shown, client, l, tip, before } = grownPastTheShown();
    // A newer request waits while the redraw is answered: the redraw is applied, not shown.
    l.add("u700", tip);
    client.request(input(l, "u700"));
    worker.answer(1);
    worker.arrive();
    expect(shown.at(-1)).toBe(before);
    expect(before?.cards.size).toBe(11);
    expect(before?.cards.has(tip)).toBe(false);
    // Once the newest answer is shown, the old model reads it too.
    worker.answer();
    expectModel(shown.at(-1), l.graph("u700"), FOLDED);
    expectSameMaps(before, shown.at(-1));
  });

  it("[R138] many nodes travel in messages of at most 5,000, one per task; the last is answered", () => {
    const worker = new FakeWorker(100);
    const shown: GraphModel[] = [];
    const tasks: (() => void)[] = [];
    const client = new GraphModelClient(
      () => worker,
      (m) => shown.push(m),
      () => ({ width: 400, height: 300 }),
      (ask) => tasks.push(ask),
    );
    const { l, tip } = retriedChat(1_700);
    expect(l.nodes.length).toBeGreaterThan(SYNC_NODES);
    client.request(input(l, tip));
    // The first message carries the reset; the next waits for a later task.
    expect(worker.staged.map((m) => [m.reset, m.upserts.length])).toEqual([[true, SYNC_NODES]]);
    expect(worker.inbox).toHaveLength(0);
    tasks.shift()?.();
    // The last asks for the answer, as a redraw.
    expect(worker.inbox).toHaveLength(1);
    expect(worker.inbox[0]).toMatchObject({ reset: false, redraw: true, more: false });
    expect(worker.inbox[0]?.upserts).toHaveLength(l.nodes.length - SYNC_NODES);
    worker.answer(1);
    // Each next part is asked for in a later task.
    for (let task = tasks.shift(); task; task = tasks.shift()) {
      task();
      worker.arrive(1);
    }
    expectModel(shown.at(-1), l.graph(tip), FOLDED);
    expect(client.posted).toBe(1);
  });

  it("[R138] a change in parts is shown whole, at its last part — never half applied", () => {
    const { worker, shown, client } = partedClient();
    const { l, tip } = retriedChat(150);
    client.request(input(l, tip));
    worker.answer();
    const before = shown.length;
    const glow = (m: GraphModel | undefined, id: string) => {
      const card = m?.cards.get(id);
      return card?.type === "turn" ? card.data.glow : undefined;
    };
    expect(glow(shown.at(-1), "u0")).toBeNull();
    // What a reply read glows and dims the rest — nearly every card and edge changes — and a
    // dead retry goes: one change, many parts.
    l.remove("a0x");
    const marked: ModelOptions = { ...FOLDED, reads: [nid("u149")] };
    client.request(input(l, tip, marked));
    worker.answer(3);
    expect(worker.outbox.length).toBeGreaterThan(0);
    // The model shown is still the one before the change, in every card.
    expect(shown).toHaveLength(before);
    expect(glow(shown.at(-1), "u0")).toBeNull();
    expect(shown.at(-1)?.cards.has("a0x")).toBe(true);
    worker.arrive();
    expect(shown).toHaveLength(before + 1);
    expect(glow(shown.at(-1), "u0")).toBe("dim");
    expectModel(shown.at(-1), l.graph(tip), marked);
  });

  it("[R138] the next part is asked for in a task after the ones queued, not at once", async () => {
    const worker = new FakeWorker(100);
    const client = new GraphModelClient(
      () => worker,
      () => undefined,
      () => ({ width: 400, height: 300 }),
    );
    const { l, tip } = retriedChat(150);
    client.request(input(l, tip));
    worker.answer(1);
    // Not from inside the message: what the part set off (React's render) runs first.
    expect(worker.asked).toBe(0);
    for (let i = 0; i < 100 && worker.asked === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(worker.asked).toBe(1);
    client.dispose();
  });

  it("[R138] the worker module answers messages with the shared builder", async () => {
    const posted: unknown[] = [];
    const scope: {
      onmessage: ((event: { data: GraphRequest }) => void) | null;
      postMessage: (message: unknown) => void;
    } = { onmessage: null, postMessage: (message) => posted.push(structuredClone(message)) };
    vi.stubGlobal("self", scope);
    await import("@/components/graph/layout.worker");
    const l = compacted();
    scope.onmessage?.({
      data: resetSync(7, l, "a3", "S"),
    });
    const [reply] = posted as GraphReply[];
    if (reply === undefined || "error" in reply) throw new Error("no model");
    expect(reply.gen).toBe(7);
    expect(reply.cards.upserts).toEqual(layoutGraph(l.graph("a3", "S"), FOLDED).nodes);
    // A large answer: the first part at once, each next one when asked for, for its answer.
    const { l: big, tip } = retriedChat(1000);
    posted.length = 0;
    scope.onmessage?.({ data: { ...resetSync(8, big, tip), window: { width: 800, height: 600 } } });
    expect(posted).toHaveLength(1);
    expect((posted[0] as GraphPatch).more).toBe(true);
    scope.onmessage?.({ data: { next: 7 } });
    expect(posted).toHaveLength(1);
    while ((posted.at(-1) as GraphPatch).more === true) {
      scope.onmessage?.({ data: { next: 8 } });
    }
    const cards = (posted as GraphPatch[]).flatMap((p) => p.cards.upserts);
    expect(cards).toHaveLength(layoutGraph(big.graph(tip), FOLDED).nodes.length);
  });

  it("[R138] the page holds one data object per look of an edge, not one per edge", () => {
    const { worker, shown, client } = wholeClient();
    const { l, tip } = retriedChat(30);
    client.request(input(l, tip));
    worker.answer();
    const model = shown.at(-1);
    const edges = model === undefined ? [] : linesIn(model);
    expect(edges.length).toBeGreaterThan(60);
    const looks = new Map<string, FlowEdge["data"]>();
    for (const e of edges) {
      const key = JSON.stringify(e.data);
      const seen = looks.get(key);
      if (seen === undefined) looks.set(key, e.data);
      else expect(e.data).toBe(seen);
    }
    // The spine's and the dead retries' edges look different, and keep their looks.
    expect(looks.size).toBeGreaterThan(1);
    expect(edges.some((e) => e.data.spine)).toBe(true);
    expect(edges.some((e) => !e.data.spine)).toBe(true);
  });

  it("[R138] the page's turn cards carry no text and share one data object per look", () => {
    const { worker, shown, client } = wholeClient();
    const { l, tip } = retriedChat(30);
    client.request(input(l, tip));
    worker.answer();
    const turns = [...(shown.at(-1)?.cards.values() ?? [])].filter((c) => c.type === "turn");
    expect(turns.length).toBeGreaterThan(60);
    const looks = new Map<string, unknown>();
    for (const card of turns) {
      expect(card.data).not.toHaveProperty("text");
      const key = JSON.stringify(card.data);
      const seen = looks.get(key);
      if (seen === undefined) looks.set(key, card.data);
      else expect(card.data).toBe(seen);
    }
    // Far fewer looks than cards, and HEAD's card keeps a look of its own.
    expect(looks.size).toBeLessThan(turns.length / 4);
    expect(turns.filter((c) => c.data.head)).toHaveLength(1);
    expect(turns.find((c) => c.id === tip)?.data.head).toBe(true);
  });

  it("[R138] rows come back without their nodes: no text, reads, metadata or time (the store has them)", () => {
    const l = new TestLedger()
      .add("u1", "R", { content: `${"long ".repeat(5000)}\nmore` })
      .add("a1", "u1", {
        content: "",
        reads: ["R", "u1"],
        metadata: { tool_calls: [{ id: "c1", name: "search", arguments: "x".repeat(9999) }] },
      });
    const builder = new GraphBuilder();
    const reply = builder.answer(resetSync(1, l, "a1"));
    if ("error" in reply) throw new Error(reply.error);
    // The page is sent the summaries' rows only; any other row when it asks for it.
    expect(reply.summaries.upserts).toEqual([]);
    const rowOf = (id: string) => {
      const answer = builder.reply({ ask: 1, row: id });
      return "row" in answer ? answer.row : undefined;
    };
    const rows = ["R", "u1", "a1"].map(rowOf);
    expect(Object.keys(rows[1] ?? {})).not.toContain("content");
    for (const row of rows) {
      expect(row).not.toHaveProperty("content");
      expect(row).not.toHaveProperty("reads");
      expect(row).not.toHaveProperty("metadata");
      expect(row).not.toHaveProperty("createdAt");
    }
    expect(rowOf("a1")).toMatchObject({ kind: "assistant", onHeadSpine: true });
    expect(rowOf("nope")).toBeNull();
    // The card still says what the node is: its first line, its tool call's name.
    const card = reply.cards.upserts.find((c) => c.id === "a1");
    expect(card?.type === "turn" ? card.data.text : null).toContain("search");
    expect(JSON.stringify(rows).length).toBeLessThan(600);
  });

  it("[R138] a large graph's rows stay in the worker: the page holds the summaries' and asks for any other", async () => {
    const { worker, shown, client } = wholeClient();
    const l = compacted();
    client.request(input(l, "a3", FOLDED, "S"));
    worker.answer();
    const model = shown.at(-1);
    if (model === undefined) throw new Error("no model delivered");
    const view = l.graph("a3", "S");
    expect([...model.summaries.keys()]).toEqual(
      view.nodes.filter((r) => r.kind === "summary").map((r) => r.id),
    );
    for (const row of view.nodes) expect(await model.rowOf(row.id)).toEqual(pageRow(row));
    expect(await model.rowOf(nid("nope"))).toBeNull();
    // The row asked for uses the store's copy of its id, not the message's.
    const held = l.nodes.find((n) => n.id === "a3");
    expect((await model.rowOf(nid("a3")))?.id).toBe(held?.id);
  });
});

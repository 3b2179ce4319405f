import type { NodeId } from "@/lib/engine/ids";
import { pageRow, type PageRow } from "./page-row";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import type { VersionsLeftOut } from "@/lib/engine/versions-left-out";
import { edge } from "./flow-elements";
import {
  SIZE,
  type EdgeData,
  type FlowEdge,
  type FlowNode,
  type Lines,
  type Point,
  type SideFlowNode,
  type TurnData,
  type TurnFlowNode,
  type TurnLook,
} from "./flow-types";
import { diffMaps, type PersistentMap } from "@/components/session/persistent-map";
import type { NavKey } from "./nav";
import {
  GraphBuilder,
  SYNC_NODES,
  type GraphModel,
  type GraphAnswer,
  type GraphAsk,
  type GraphPatch,
  type GraphReply,
  type GraphRequest,
  type GraphSync,
  type WorkerMessage,
  type ModelOptions,
  type Patch,
  type WindowSize,
} from "./graph-model";

/** What the client needs of a Worker (a fake one in tests). */
export interface WorkerLike {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror?: ((event: MessageEvent) => void) | null;
  postMessage(message: GraphRequest): void;
  terminate(): void;
}

/** The page's state a model is built from: the store's ledger record as it is held. */
export interface ModelInput extends ModelOptions {
  readonly session: SessionRecord;
  /** A near-first page's versions left out ([R294]); null when it holds them all. */
  readonly leftOut: VersionsLeftOut | null;
  readonly nodes: PersistentMap<LedgerNode>;
}

/** A node as the worker gets it: no `reads` (the marks travel as the selection's reads). */
const withoutReads = (node: LedgerNode): LedgerNode =>
  node.reads.length === 0 ? node : { ...node, reads: [] };

/**
 * Runs `fn` in a task after those already queued — React's render of a part just shown
 * among them (its scheduler posts to a MessageChannel too, and such tasks run in order).
 * Not a timer: a hidden tab throttles timers to one a second or slower, which would stall
 * the parts of an answer there.
 */
function afterQueuedTasks(fn: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    fn();
  };
  channel.port2.postMessage(null);
}

const windowSize = (): WindowSize | null =>
  typeof window === "undefined" ? null : { width: window.innerWidth, height: window.innerHeight };

/**
 * The maps of one generation of the model: a reset (or redraw) starts a new one. Once a
 * newer generation is shown, the old one forwards to it and lets its maps go: a view of it
 * kept by a closure that outlived its render (an effect's cleanup holds the scope of the
 * render that ran the effect) holds no old map. At 100,000 nodes the near-first page's
 * generation, kept that way, was 28,717 rows, cards and edges (about 9 MB) for good.
 *
 * A line is held on the card it leads into ({@link HeldCard}); `loose` holds the lines whose
 * card has not come yet (a part of a large answer brings the lines from its cards, and the
 * cards they lead to may come in a later part).
 */
class Generation {
  summaries = new Map<string, PageRow>();
  cards = new Map<string, FlowNode>();
  loose = new Map<string, HeldLine>();
  private next: Generation | null = null;

  /** The generation this one forwards to, or itself. */
  live(): Generation {
    if (this.next === null) return this;
    let g = this.next;
    while (g.next !== null) g = g.next;
    this.next = g;
    return g;
  }

  retire(next: Generation): void {
    this.next = next;
    this.summaries = new Map();
    this.cards = new Map();
    this.loose = new Map();
  }
}

type MapName = "summaries" | "cards";

/**
 * A read-only view of one of a generation's maps, which the client changes in place, made
 * anew for every model it delivers: O(1), and a new identity for React's memos whenever
 * the model changed. A view of a retired generation reads the live one's.
 */
class MapView<
  N extends MapName,
  V = Generation[N] extends Map<string, infer T> ? T : never,
> implements ReadonlyMap<string, V> {
  constructor(
    private readonly generation: Generation,
    private readonly name: N,
  ) {}
  private get map(): ReadonlyMap<string, V> {
    return this.generation.live()[this.name] as unknown as ReadonlyMap<string, V>;
  }
  get size() {
    return this.map.size;
  }
  get(key: string) {
    return this.map.get(key);
  }
  has(key: string) {
    return this.map.has(key);
  }
  forEach(fn: (value: V, key: string, map: ReadonlyMap<string, V>) => void) {
    this.map.forEach((value, key) => fn(value, key, this));
  }
  entries() {
    return this.map.entries();
  }
  keys() {
    return this.map.keys();
  }
  values() {
    return this.map.values();
  }
  [Symbol.iterator]() {
    return this.map[Symbol.iterator]();
  }
}

function applyPatch<T>(held: Map<string, T>, change: Patch<T>, key: (item: T) => string): void {
  for (const id of change.removed) held.delete(id);
  for (const item of change.upserts) held.set(key(item), item);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The one copy `table` holds under `key`, else `make()`'s, kept for the next asker while the
 * table holds fewer than `most` (a flood of distinct ones is made, not kept).
 */
function interned<T>(table: Map<string, T>, most: number, key: string, make: () => T): T {
  const known = table.get(key);
  if (known !== undefined) return known;
  const made = make();
  if (table.size < most) table.set(key, made);
  return made;
}

/** The small strings every message repeats (kinds, statuses, types, handles), one copy each. */
const constants = new Map<string, string>();
/** Enough for every kind, status, type, variant and handle; a flood of others is not kept. */
const MOST_CONSTANTS = 256;

const constant = <S extends string>(text: S): S =>
  interned(constants, MOST_CONSTANTS, text, () => text) as S;

/**
 * How a line looks, apart from its ends: its handles and its data (four words,
 * {@link EdgeData}). A graph draws only a handful of combinations of them, so each is one
 * frozen object shared by every line that looks alike, never changed in place.
 */
interface LineLook {
  readonly handles: { readonly source: string; readonly target: string };
  readonly data: EdgeData;
}

/** A line as the page holds it for a card not held yet: where it comes from, and its look. */
interface HeldLine {
  readonly source: string;
  readonly look: LineLook;
}

const lineLooks = new Map<string, LineLook>();

function sharedLineLook(e: FlowEdge): LineLook {
  const d = e.data;
  const key = `${e.sourceHandle}>${e.targetHandle}:${d.variant}:${Number(d.spine)}${Number(d.dim)}${Number(d.faded)}`;
  return interned(lineLooks, MOST_CONSTANTS, key, () =>
    Object.freeze({
      handles: Object.freeze({
        source: constant(e.sourceHandle),
        target: constant(e.targetHandle),
      }),
      data: Object.freeze({
        variant: constant(d.variant),
        spine: d.spine,
        dim: d.dim,
        faded: d.faded,
      }),
    }),
  );
}

/** Looks kept for sharing: far more than a session shows; a flood of others is not kept. */
const MOST_LOOKS = 4_096;
const turnLooks = new Map<string, TurnLook>();

/**
 * A card as the page holds it: the line into it (where it comes from, and its look) rides
 * on the card. A large graph's page drew every line as an object of its own in a map of its
 * own (about 6 MB at 100,000 cards); React Flow is given line objects only for the cards
 * drawn ({@link heldLines}).
 */
type HeldCard = FlowNode & {
  readonly source?: string | null;
  readonly look?: LineLook | null;
};

/**
 * A turn card as the page holds it: six fields. Kind, width and height are its class's; its
 * position is itself (its `x` and `y`), so no point object per card. A class of its own,
 * not a literal: a `{ x, y }` point shares its shape with every point React Flow makes,
 * fractional ones among them, and V8 then boxes every literal point's coordinates (2.4 MB at
 * 100,000 cards, measured). The layout places cards on whole pixels; `| 0` keeps the
 * coordinates small integers.
 */
class TurnCard implements TurnFlowNode {
  declare readonly type: "turn";
  declare readonly width: number;
  declare readonly height: number;
  readonly id: string;
  readonly data: TurnData;
  readonly x: number;
  readonly y: number;
  readonly source: string | null;
  readonly look: LineLook | null;
  constructor(id: string, at: Point, data: TurnData, line: HeldLine | null) {
    this.id = id;
    this.data = data;
    this.x = at.x | 0;
    this.y = at.y | 0;
    this.source = line === null ? null : line.source;
    this.look = line === null ? null : line.look;
  }
  get position(): Point {
    return this;
  }
}
Object.defineProperties(TurnCard.prototype, {
  type: { value: "turn" },
  width: { value: SIZE.turn.width },
  height: { value: SIZE.turn.height },
});

/** The line a held card carries, or null. */
function lineOn(card: FlowNode | undefined): HeldLine | null {
  const held = card as HeldCard | undefined;
  return held?.source == null || held.look == null
    ? null
    : { source: held.source, look: held.look };
}

/** `card` as the page holds it, carrying `line`. */
function holding(card: FlowNode, line: HeldLine | null): FlowNode {
  if (card.type === "turn") return new TurnCard(card.id, card.position, card.data, line);
  const held: HeldCard = {
    ...card,
    source: line === null ? null : line.source,
    look: line === null ? null : line.look,
  };
  return held;
}

const madeLines = new WeakMap<FlowNode, FlowEdge>();

/**
 * The lines of the page's model: each read off the card it leads into, its object made when
 * first asked for (the cards drawn) and kept while the card is — a held card never changes,
 * a changed line comes on a new card.
 */
const heldLines: Lines = {
  sourceOf: (card) => (card as HeldCard).source ?? null,
  into(card) {
    const made = madeLines.get(card);
    if (made !== undefined) return made;
    const { source, look } = card as HeldCard;
    if (source == null || look == null) return null;
    const e = edge(source, card.id, look.handles, look.data);
    madeLines.set(card, e);
    return e;
  },
};

/**
 * One object per look of a turn card, as for lines ({@link sharedLineLook}): without its
 * text (the card reads it from the store), a turn card's data is ten small values, and a
 * large graph's far cards look alike — one copy each, not one per card (5.6 MB at 100,000
 * nodes). Never changed in place.
 */
function sharedTurnLook(d: TurnLook): TurnLook {
  const key = [
    d.kind,
    d.status,
    Number(d.head),
    Number(d.spine),
    d.forks,
    d.sibling ?? "",
    Number(d.spawned),
    Number(d.covered),
    d.glow ?? "",
    d.attachments,
  ].join(":");
  return interned(turnLooks, MOST_LOOKS, key, () =>
    Object.freeze({
      kind: constant(d.kind),
      status: constant(d.status),
      head: d.head,
      spine: d.spine,
      forks: d.forks,
      sibling: d.sibling === null ? null : constant(d.sibling),
      spawned: d.spawned,
      covered: d.covered,
      glow: d.glow,
      attachments: d.attachments,
    }),
  );
}

/** A change of fewer nodes is a patch applied whole, however many nodes the page held. */
const REDRAW_FROM = 1_000;

/**
 * The graph model of a large session, built in a worker from what changed ([R138]). Each
 * request sends the nodes whose copies changed since the previous one (by identity: the
 * store replaces a node's copy when it changes) and the ids removed; the worker answers
 * what changed in the cards, edges and summaries, and this applies it to the model it
 * holds — the page's work per change follows the change, not the ledger.
 *
 * At most one request is in flight; requests made meanwhile coalesce into one, sent when
 * the answer arrives (every answer is applied: each is a patch on the one before). The
 * model is delivered once it answers the newest request. When the worker cannot start or
 * fails, the same builder runs here, from a reset.
 */
export class GraphModelClient {
  private worker: WorkerLike | null = null;
  private broken = false;
  private local: GraphBuilder | null = null;
  private gen = 0;
  private inFlight = false;
  private wanted: ModelInput | null = null;
  private synced: ModelInput | null = null;
  /** The request in flight resets the builder (its failure must be followed by another). */
  private resetting = false;
  /**
   * The answer arriving in parts: its generation, whether it is a reset, and the parts of a
   * change held until its last part.
   */
  private arriving: { gen: number; reset: boolean; held: GraphPatch[] } | null = null;
  /** A patch applied but not yet delivered (a newer request was waiting). */
  private undelivered: GraphPatch | null = null;
  // Replaced, not cleared, by a reset: the model shown reads the maps it was made over, so
  // a reset (or a redraw) arriving while a newer request waits changes nothing on screen
  // until it is delivered.
  private held = new Generation();
  /** The generation of the model last delivered. */
  private shown: Generation | null = null;
  /**
   * Called when the newest request has been answered whole (or failed) and nothing is in
   * flight: the model shown is the ledger's as the page last asked for it.
   */
  onIdle: (() => void) | null = null;
  /** Questions asked of the worker and not yet answered, by number ({@link ask}). */
  private readonly answers = new Map<number, (answer: GraphAnswer | null) => void>();
  private asks = 0;
  /** Requests posted to the worker, and nodes sent in all (structural counters for tests). */
  posted = 0;
  nodesSent = 0;

  constructor(
    private readonly spawn: () => WorkerLike,
    private readonly deliver: (model: GraphModel) => void,
    /** The page's window, for the first part of a large answer ({@link GraphSync.window}). */
    private readonly window: () => WindowSize | null = windowSize,
    /**
     * When to ask for the next part of an answer: after the tasks already queued, so a
     * part shown is rendered before the next one is read.
     */
    private readonly later: (ask: () => void) => void = afterQueuedTasks,
  ) {}

  request(input: ModelInput): void {
    this.wanted = input;
    if (!this.inFlight) this.post();
  }

  dispose(): void {
    this.dropAsks();
    this.worker?.terminate();
    this.worker = null;
    this.wanted = null;
  }

  private post(): void {
    const input = this.wanted;
    if (input === null) return;
    this.wanted = null;
    const sync = this.syncOf(input);
    this.synced = input;
    this.resetting = sync.reset;
    const worker = this.broken ? null : this.start();
    if (worker === null) {
      this.local ??= new GraphBuilder();
      this.settle(this.local.answer(sync), true);
      this.idleIfDone();
      return;
    }
    this.inFlight = true;
    this.posted += 1;
    this.send(worker, sync, 0);
  }

  /**
   * Posts message `i` of a sync: its nodes in messages of at most {@link SYNC_NODES}, the
   * next one in a later task (copying 70,000 nodes into a message was one 450 ms task).
   * The first carries the reset and the removed ids; the last asks for the answer, which
   * is a redraw when the sync was a reset (the worker's ledger was cleared by the first).
   */
  private send(worker: WorkerLike, sync: GraphSync, i: number): void {
    const count = Math.max(1, Math.ceil(sync.upserts.length / SYNC_NODES));
    if (count === 1) {
      worker.postMessage(sync);
      return;
    }
    const last = i === count - 1;
    const message: GraphSync = {
      ...sync,
      reset: i === 0 && sync.reset,
      redraw: last && (sync.reset || sync.redraw),
      more: !last,
      upserts: sync.upserts.slice(i * SYNC_NODES, (i + 1) * SYNC_NODES),
      removed: i === 0 ? sync.removed : [],
    };
    worker.postMessage(message);
    if (!last) {
      this.later(() => {
        if (this.worker === worker) this.send(worker, sync, i + 1);
      });
    }
  }

  /** The change since the last sync; a reset (the whole ledger) when there was none. */
  private syncOf(input: ModelInput): GraphSync {
    const before = this.synced?.nodes ?? null;
    const upserts: LedgerNode[] = [];
    const removed: string[] = [];
    if (before === null) {
      input.nodes.forEach((node) => upserts.push(withoutReads(node)));
    } else {
      // The maps share what did not change: the walk follows the change, not the ledger.
      diffMaps(
        before,
        input.nodes,
        (_, node) => upserts.push(withoutReads(node)),
        (id) => removed.push(id),
      );
    }
    this.nodesSent += upserts.length;
    this.gen += 1;
    return {
      gen: this.gen,
      reset: before === null,
      // More new nodes than the page held (a near-first page's rest, [R294]): answered as
      // a redraw, shown part by part like the first answer.
      redraw: before !== null && upserts.length > REDRAW_FROM && upserts.length > before.size,
      more: false,
      session: input.session,
      leftOut: input.leftOut,
      upserts,
      removed,
      expanded: [...input.expanded],
      showRelics: input.showRelics,
      reads: input.reads === null ? null : [...input.reads],
      window: this.window(),
    };
  }

  private start(): WorkerLike | null {
    if (this.worker !== null) return this.worker;
    try {
      const worker = this.spawn();
      worker.onmessage = (event) => {
        const reply = event.data;
        if ("ask" in reply) {
          this.answered(reply);
          return;
        }
        if (!("error" in reply) && reply.more === true) {
          this.part(reply);
          return;
        }
        this.inFlight = false;
        this.settle(reply);
        this.post();
        this.idleIfDone();
      };
      worker.onerror = () => this.fail();
      // A message that cannot be read would leave the request in flight forever.
      worker.onmessageerror = () => this.fail();
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return null;
    }
  }

  private idleIfDone(): void {
    if (!this.inFlight && this.wanted === null) this.onIdle?.();
  }

  /**
   * `local`: the answer is the builder's here, whose items already hold the page's strings
   * (it built them from the store's nodes): they are held as they are, not copied.
   */
  private settle(reply: GraphReply, local = false): void {
    if ("error" in reply) {
      this.arriving = null;
      // A ledger mid-update (a node whose predecessor has not arrived) is built next time.
      // A failed reset left the builder empty: the next request must reset it again.
      if (this.resetting) this.synced = null;
      // What was applied but held back for this request is shown now (the maps hold it).
      if (this.wanted === null && this.undelivered !== null) {
        this.deliver(this.model(this.undelivered));
        this.undelivered = null;
      }
      return;
    }
    const held = this.arriving?.gen === reply.gen ? this.arriving.held : [];
    this.arriving = null;
    for (const part of held) this.take(part, true);
    this.take(reply, local);
    if (this.wanted === null) {
      this.deliver(this.model(reply));
      this.undelivered = null;
    } else {
      this.undelivered = reply;
    }
  }

  /**
   * A part of an answer with more to come, and the next one asked for. A reset's parts are
   * applied as they come and its first part (the cards around HEAD) is shown at once, so a
   * large session's graph appears before the rest has come; the page held nothing, so a
   * partial reset only lacks far cards. A change's parts are held and applied with its last.
   */
  private part(reply: GraphPatch): void {
    if (this.arriving?.gen !== reply.gen) {
      this.arriving = { gen: reply.gen, reset: reply.reset, held: [] };
    }
    if (this.arriving.reset) {
      this.take(reply);
      if (reply.reset && this.wanted === null) this.deliver(this.model(reply));
    } else {
      // A change is applied whole, at its last part: the model shown until then stays the
      // one before it (whose maps the views read), never some cards moved and some not.
      this.shareAll(reply);
      this.arriving.held.push(reply);
    }
    const worker = this.worker;
    this.later(() => {
      if (this.worker === worker) worker?.postMessage({ next: reply.gen });
    });
  }

  /**
   * Applies an answer (or a part of one); `shared`: its items are already as the page holds
   * them (shared earlier, or the local builder's own).
   */
  private take(reply: GraphPatch, shared = false): void {
    if (reply.reset) {
      this.held = new Generation();
    }
    const { summaries, cards, loose } = this.held;
    if (!shared) this.shareAll(reply);
    applyPatch(summaries, reply.summaries, (row) => row.id);
    // The lines first, by the card each leads into (null: removed), so that each card is
    // made once, with its line. A card removed takes its line with it: the worker's lines
    // all lead into its cards, so that line is removed too.
    const lines = new Map<string, HeldLine | null>();
    for (const id of reply.edges.removed) lines.set(id, null);
    for (const e of reply.edges.upserts) {
      lines.set(e.target, { source: this.idOf(e.source), look: sharedLineLook(e) });
    }
    for (const id of reply.cards.removed) cards.delete(id);
    for (const card of reply.cards.upserts) {
      const line = lines.has(card.id)
        ? (lines.get(card.id) ?? null)
        : (lineOn(cards.get(card.id)) ?? loose.get(card.id) ?? null);
      lines.delete(card.id);
      loose.delete(card.id);
      cards.set(card.id, holding(card, line));
    }
    // Lines changed on cards that did not, and lines whose card is still to come.
    for (const [id, line] of lines) {
      const card = cards.get(id);
      if (card !== undefined) cards.set(id, holding(card, line));
      else if (line === null) loose.delete(id);
      else loose.set(id, line);
    }
  }

  /**
   * Every row and card of an answer sharing the page's strings ({@link shareCard}); its
   * lines are read into the cards they lead into when it is applied ({@link take}).
   */
  private shareAll(reply: GraphPatch): void {
    (reply.summaries as Writable<Patch<PageRow>>).upserts = reply.summaries.upserts.map((row) =>
      this.shareRow(row),
    );
    (reply.cards as Writable<Patch<FlowNode>>).upserts = reply.cards.upserts.map((card) =>
      this.shareCard(card),
    );
  }

  /** A row read from a message, as a literal sharing the page's strings ({@link shareCard}). */
  private shareRow(row: PageRow): PageRow {
    const slim = pageRow(row) as Writable<PageRow>;
    slim.id = this.idOf(slim.id);
    slim.kind = constant(slim.kind);
    return slim;
  }

  /**
   * The copy of a node's id the store holds (or, for a node it no longer holds, a summary row's):
   * one string per id, not one per mention — also in a reset, whose rows are new.
   */
  private idOf<S extends string | null>(id: S): S {
    if (id === null) return id;
    return (this.synced?.nodes.get(id)?.id ?? this.held.summaries.get(id)?.id ?? id) as S;
  }

  /**
   * A card read from a message, sharing the strings the page already holds; a turn card is
   * made the page's own when it is applied ({@link take}, {@link TurnCard}).
   *
   * A message brings its own copy of every string in it: at 100,000 nodes, each node's
   * 26-character id came eight times (card, edges, arrows, row) and each card and edge its
   * own "assistant", "complete", "turn", "out"… — 16 MB of copies of nine words and 25 MB of
   * ids, a third of the page's heap — and each card its label, which for a node the page
   * holds as a skeleton is the very text the store holds (19 MB then, when a label cut with
   * "…" was a two-byte string).
   */
  private shareCard(card: FlowNode): FlowNode {
    const other = card as Writable<FlowNode>;
    other.id = this.idOf(card.id);
    other.type = constant(other.type);
    if (other.type === "turn") {
      // Its text stays out: the card reads it from the store (a skeleton's content is its
      // label), and the rest is shared by every card that looks the same.
      other.data = sharedTurnLook(other.data);
    } else if (other.type === "side") {
      const data = other.data as Writable<SideFlowNode["data"]>;
      data.kind = constant(data.kind);
      data.status = constant(data.status);
      data.text = this.heldText(other.id, data.text);
    }
    return other;
  }

  /** The store's copy of a node's content when it is `text` (a skeleton's label), else `text`. */
  private heldText(id: string, text: string): string {
    const held = this.synced?.nodes.get(id)?.content;
    return held === text ? held : text;
  }

  /**
   * The model over the maps held, to be delivered: they change in place, the views over
   * them are new. A generation shown before is retired: it forwards to this one.
   */
  private model(reply: GraphPatch): GraphModel {
    const held = this.held;
    if (this.shown !== null && this.shown !== held) this.shown.retire(held);
    this.shown = held;
    return {
      headId: reply.headId,
      activeSummaryId: reply.activeSummaryId,
      relics: reply.relics,
      summaries: new MapView(held, "summaries") as ReadonlyMap<string, PageRow> as ReadonlyMap<
        NodeId,
        PageRow
      >,
      rowOf: this.rowOf,
      cards: new MapView(held, "cards"),
      lines: heldLines,
      navigate: this.navigate,
    };
  }

  /**
   * Where an arrow key leads from card `from`: the worker holds the arrows of a large graph
   * and answers in order, after any change it is laying out.
   */
  private readonly navigate = async (from: string, key: NavKey): Promise<string | null> => {
    const answer = await this.ask({ ask: 0, from, key });
    return answer !== null && "to" in answer && answer.to !== null ? this.idOf(answer.to) : null;
  };

  /** A node's graph row, as the worker holds it (the page holds only the summaries'). */
  private readonly rowOf = async (id: NodeId): Promise<PageRow | null> => {
    const answer = await this.ask({ ask: 0, row: id });
    return answer !== null && "row" in answer && answer.row !== null
      ? this.shareRow(answer.row)
      : null;
  };

  /**
   * Asks the worker about the model it last answered; null when it will not answer (it
   * failed or was stopped). Without a worker, the builder here answers.
   */
  private ask(question: GraphAsk): Promise<GraphAnswer | null> {
    const worker = this.worker;
    if (worker === null) return Promise.resolve(this.local?.reply(question) ?? null);
    this.asks += 1;
    const ask = this.asks;
    return new Promise((resolve) => {
      this.answers.set(ask, resolve);
      worker.postMessage({ ...question, ask });
    });
  }

  private answered(answer: GraphAnswer): void {
    const resolve = this.answers.get(answer.ask);
    this.answers.delete(answer.ask);
    resolve?.(answer);
  }

  /** Questions whose answers will not come (the worker failed or was stopped). */
  private dropAsks(): void {
    for (const resolve of this.answers.values()) resolve(null);
    this.answers.clear();
  }

  private fail(): void {
    this.dropAsks();
    this.arriving = null;
    this.broken = true;
    this.inFlight = false;
    this.worker?.terminate();
    this.worker = null;
    // The builder here starts empty: the next sync is a reset from the newest input.
    const input = this.wanted ?? this.synced;
    this.synced = null;
    this.wanted = input;
    this.post();
  }
}

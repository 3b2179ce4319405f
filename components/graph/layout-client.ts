import type { GraphView } from "@/lib/engine/build-graph";
import type { GraphLayout } from "./flow-types";
import { layoutGraph, type LayoutOptions } from "./layout";
import { fromReply, toRequest, type LayoutReply, type LayoutRequest } from "./layout-wire";
import { LayoutCache } from "./tidy-tree";

/** What the client needs of a Worker (a fake one in tests). */
export interface WorkerLike {
  onmessage: ((event: MessageEvent<LayoutReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: LayoutRequest): void;
  terminate(): void;
}

interface Pending {
  readonly view: GraphView;
  readonly opts: LayoutOptions;
  readonly deliver: (layout: GraphLayout) => void;
}

/**
 * Lays graphs out in a worker, newest first. At most one request is in flight; a request
 * made meanwhile waits, and a newer one replaces it, so a burst of changes costs one layout
 * after the one running. A reply is delivered only if it answers the latest request
 * (a generation counter), so a stale layout never replaces a newer one; until then the
 * canvas keeps what it shows. When the worker cannot start or fails, the same pure
 * function runs here instead, with a cache of its own.
 */
export class LayoutClient {
  private worker: WorkerLike | null = null;
  private broken = false;
  private gen = 0;
  private inFlight = false;
  private queued: Pending | null = null;
  private latest: Pending | null = null;
  private readonly local = new LayoutCache();
  /** Requests posted to the worker (a structural counter for tests). */
  posted = 0;

  constructor(private readonly spawn: () => WorkerLike) {}

  request(view: GraphView, opts: LayoutOptions, deliver: (layout: GraphLayout) => void): void {
    const pending = { view, opts, deliver };
    this.latest = pending;
    if (this.inFlight) {
      this.queued = pending;
      return;
    }
    this.post(pending);
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.queued = null;
    this.latest = null;
  }

  private post(pending: Pending): void {
    const worker = this.broken ? null : this.start();
    if (worker === null) {
      pending.deliver(layoutGraph(pending.view, pending.opts, this.local));
      return;
    }
    this.gen += 1;
    this.inFlight = true;
    this.posted += 1;
    worker.postMessage(toRequest(this.gen, pending.view, pending.opts));
  }

  private start(): WorkerLike | null {
    if (this.worker !== null) return this.worker;
    try {
      const worker = this.spawn();
      worker.onmessage = (event) => this.settle(event.data);
      worker.onerror = () => this.fail();
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return null;
    }
  }

  private settle(reply: LayoutReply): void {
    this.inFlight = false;
    const next = this.queued;
    this.queued = null;
    if (next !== null) {
      // Superseded while it ran: drop it, lay out the newest instead.
      this.post(next);
      return;
    }
    const latest = this.latest;
    if (reply.gen !== this.gen || latest === null) return;
    if ("error" in reply) {
      latest.deliver(layoutGraph(latest.view, latest.opts, this.local));
      return;
    }
    latest.deliver(fromReply(reply));
  }

  private fail(): void {
    this.broken = true;
    this.inFlight = false;
    this.worker?.terminate();
    this.worker = null;
    this.queued = null;
    const latest = this.latest;
    if (latest !== null) latest.deliver(layoutGraph(latest.view, latest.opts, this.local));
  }
}

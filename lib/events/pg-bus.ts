import pg from "pg";
import { asSessionId, type NodeId, type SessionId } from "../engine/ids";
import { LocalBus } from "./local-bus";
import type { EventBus, SessionEvent, SessionEventListener } from "./session-event";

const CHANNEL = "spindle_events";
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; stay clear of it. */
const MAX_PAYLOAD = 7_500;

interface Envelope {
  readonly o: string;
  readonly s: string;
  readonly e: SessionEvent;
}

/**
 * Events across app instances through LISTEN/NOTIFY, with no other broker. Each instance
 * delivers its own events locally at once and ignores its own echoes from the channel.
 */
export class PgBus implements EventBus {
  private readonly local = new LocalBus();
  private readonly origin = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private listener: pg.Client | undefined;
  private readonly pool: pg.Pool;
  private closed = false;
  private sending: Promise<void> = Promise.resolve();

  private constructor(private readonly url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 1, allowExitOnIdle: true });
    // PostgreSQL may end an idle connection (a restart, a failover, an administrator): the
    // pool drops it and opens another for the next NOTIFY. Without a listener the pool's
    // `error` event would be thrown, and would end the whole process.
    this.pool.on("error", (e) => {
      if (!this.closed) console.error("[spindle] event bus connection lost:", e.message);
    });
  }

  static async connect(url: string): Promise<PgBus> {
    const bus = new PgBus(url);
    await bus.listen();
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (msg) => this.receive(msg.payload));
    const lost = (why: string) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      if (!this.closed) {
        console.error(`[spindle] event listener connection lost (${why}); reconnecting`);
        void this.reconnect();
      }
    };
    client.on("error", (e) => lost(e.message));
    client.on("end", () => lost("closed"));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  /**
   * Re-LISTENs with backoff until it succeeds, then tells local subscribers to refetch:
   * events published while the channel was down are not replayed.
   */
  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)));
      try {
        await this.listen();
        for (const sessionId of this.local.sessions()) {
          this.local.publish(sessionId, { type: "session_changed" });
        }
        return;
      } catch (e) {
        console.error("[spindle] event listener reconnect failed:", (e as Error).message);
      }
    }
  }

  private receive(payload: string | undefined): void {
    if (!payload) return;
    let env: Envelope;
    try {
      env = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (env.o === this.origin) return;
    this.local.publish(asSessionId(env.s), env.e);
  }

  publish(sessionId: SessionId, event: SessionEvent): void {
    this.local.publish(sessionId, event);
    for (const payload of payloads(this.origin, sessionId, event)) this.notify(payload);
  }

  private notify(payload: string): void {
    // One NOTIFY at a time: concurrent pool queries would let a later event overtake an
    // earlier one (a `delta` arriving before its `node_appended`).
    this.sending = this.sending
      .then(() => this.pool.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]))
      .then(
        () => undefined,
        (e: Error) => {
          console.error("[spindle] could not publish an event to other instances:", e.message);
        },
      );
  }

  subscribe(sessionId: SessionId, listener: SessionEventListener): () => void {
    return this.local.subscribe(sessionId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.sending;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
    await this.local.close();
  }
}

/**
 * The NOTIFY payloads of one event, each within the limit. A `nodes_removed` too large for
 * one (a big branch delete) is split into several `nodes_removed`, so other instances'
 * tabs still drop exactly those ids ([R122]); any other event too large is slimmed.
 */
export function payloads(origin: string, sessionId: string, event: SessionEvent): string[] {
  const envelope = (e: SessionEvent) =>
    JSON.stringify({ o: origin, s: sessionId, e } satisfies Envelope);
  const whole = envelope(event);
  if (Buffer.byteLength(whole) <= MAX_PAYLOAD) return [whole];
  if (event.type !== "nodes_removed") return [envelope(slimmed(event))];
  const out: string[] = [];
  const room = MAX_PAYLOAD - Buffer.byteLength(envelope({ type: "nodes_removed", ids: [] }));
  let chunk: NodeId[] = [];
  let used = 0;
  for (const id of event.ids) {
    // The id as a JSON string, plus the comma before it.
    const size = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (chunk.length > 0 && used + size > room) {
      out.push(envelope({ type: "nodes_removed", ids: chunk }));
      chunk = [];
      used = 0;
    }
    chunk.push(id);
    used += size;
  }
  if (chunk.length > 0) out.push(envelope({ type: "nodes_removed", ids: chunk }));
  return out;
}

/**
 * A small stand-in for an event too large for NOTIFY: other instances refetch. Nodes travel
 * lean ([R115]), so only a node whose own text is near the limit (a long message or reply)
 * becomes `node_changed`, and the browser then asks for that node alone
 * (`GET .../nodes?ids=<id>`), never the ledger.
 */
function slimmed(event: SessionEvent): SessionEvent {
  switch (event.type) {
    case "node_appended":
    case "turn_finished":
      return { type: "node_changed", id: event.node.id };
    case "delta":
      return { type: "node_changed", id: event.id };
    default:
      // Anything else too large: other instances refetch the session.
      return { type: "session_changed" };
  }
}

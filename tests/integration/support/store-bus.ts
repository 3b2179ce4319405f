import { LocalBus } from "@/lib/events/local-bus";
import { newNodeId, newSessionId } from "@/lib/ids";
import { openSessionStore, type SessionStore, type StoreDeps } from "@/lib/store/session-store";

/** The bus each test store announces its committed writes on. */
const buses = new WeakMap<SessionStore, LocalBus>();

/**
 * A session store for a test, on the real clock unless `deps` says otherwise. It announces
 * its writes on its own LocalBus — the one {@link busOf} gives the dispatcher and compactor
 * wired over it, as lib/server/services.ts gives them the store's bus — or on `deps.events`.
 */
export function openTestSessionStore(
  deps: Pick<StoreDeps, "database"> & Partial<StoreDeps>,
): SessionStore {
  const bus = new LocalBus();
  const store = openSessionStore({
    now: () => new Date(),
    newNodeId: () => newNodeId(),
    newSessionId: () => newSessionId(),
    events: bus,
    ...deps,
  });
  if (deps.events === undefined) buses.set(store, bus);
  return store;
}

/** The bus `store` announces on (a fresh one for a stand-in that announces nothing). */
export function busOf(store: SessionStore): LocalBus {
  return buses.get(store) ?? new LocalBus();
}

import { createProviders, type Providers } from "@/lib/llm/provider-factory";
import { countTokens } from "@/lib/llm/tokens";
import { busOf } from "./store-bus";
import { Dispatcher, type DispatcherDeps } from "@/lib/dispatcher/dispatcher";
import type { SessionStore } from "@/lib/store/session-store";
import type { EventBus, SessionEvent } from "@/lib/events/session-event";
import type { SessionId } from "@/lib/engine/ids";

/** A dispatcher over `store` with the offline model (no delay) unless providers are given. */
export function testDispatcher(
  store: SessionStore,
  overrides: Partial<DispatcherDeps> & { providers?: Providers } = {},
) {
  const bus = overrides.bus ?? busOf(store);
  const providers =
    overrides.providers ??
    createProviders({
      openai: undefined,
      model: undefined,
      summaryModel: undefined,
      offlineDelayMs: 0,
      contextWindow: undefined,
    });
  const dispatcher = new Dispatcher({
    store,
    bus,
    providers,
    config: { maxMessageChars: 200_000 },
    count: (text, model) => countTokens(text, model),
    flushMs: 20,
    ...overrides,
  });
  return { dispatcher, bus, providers };
}

/** Records every event of one session's channel. */
export function recordEvents(
  bus: Pick<EventBus, "subscribe">,
  sessionId: SessionId,
): SessionEvent[] {
  const events: SessionEvent[] = [];
  bus.subscribe(sessionId, (e) => events.push(e));
  return events;
}

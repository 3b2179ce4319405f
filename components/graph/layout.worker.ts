import { answerRequest, type LayoutRequest } from "./layout-wire";
import { LayoutCache } from "./tidy-tree";

/**
 * The graph's layout, off the main thread (graph.md: large sessions stay fluid). One
 * request at a time: the page keeps at most one in flight, so nothing here queues. The
 * cache lives as long as the worker, so an appended node re-lays out only its path.
 */
const cache = new LayoutCache();

// Typed by hand: the project compiles against the DOM library, not the worker one.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = (event) => {
  scope.postMessage(answerRequest(event.data, cache));
};

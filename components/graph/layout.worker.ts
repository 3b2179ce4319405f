import { GraphBuilder, type GraphSync } from "./graph-model";

/**
 * The graph, off the main thread (graph.md: large sessions stay fluid): the worker holds
 * the ledger as the page syncs it, builds the graph contract, lays it out and answers what
 * changed ([R138]). One request at a time: the page keeps at most one in flight, so nothing
 * here queues. The layout cache lives as long as the worker, so an appended node re-lays
 * out only its path.
 */
const builder = new GraphBuilder();

// Typed by hand: the project compiles against the DOM library, not the worker one.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<GraphSync>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = (event) => {
  scope.postMessage(builder.answer(event.data));
};

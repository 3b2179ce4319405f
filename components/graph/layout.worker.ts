import { GraphBuilder, type GraphReply, type GraphRequest } from "./graph-model";

/**
 * The graph, off the main thread (graph.md: large sessions stay fluid): the worker holds
 * the ledger as the page syncs it, builds the graph contract, lays it out and answers what
 * changed ([R138]). One request at a time: the page keeps at most one in flight, so nothing
 * here queues; a large answer is posted in parts (`inParts`). The layout cache lives as long as the worker, so an appended node re-lays
 * out only its path.
 */
const builder = new GraphBuilder();

// Typed by hand: the project compiles against the DOM library, not the worker one.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<GraphRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

/** The parts of the latest answer the page has not asked for yet. */
let rest: GraphReply[] = [];

scope.onmessage = (event) => {
  const message = event.data;
  // An arrow key pressed, or a node selected, on the page: answered from the model last
  // answered, which is the one the page shows or the one whose parts it is taking.
  if ("ask" in message) {
    scope.postMessage(builder.reply(message));
    return;
  }
  if ("next" in message) {
    // The page took the part before: the next one, if it belongs to the answer asked about.
    const part = rest[0];
    if (part === undefined || part.gen !== message.next) return;
    rest.shift();
    scope.postMessage(part);
    return;
  }
  // A change of many nodes comes in several messages: answered at its last.
  if (message.more) {
    builder.stage(message);
    return;
  }
  // A large answer goes in parts, HEAD's area first: the page shows it while the rest comes.
  const [first, ...others] = builder.answerInParts(message);
  rest = others;
  scope.postMessage(first);
};

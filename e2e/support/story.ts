import { expect, type APIRequestContext } from "@playwright/test";

/**
 * A realistic session for the graph's flows and screenshots (issue 20): a week in Portugal
 * planned over 14 exchanges, with a retried answer (two versions that differ in a few
 * words), an edited question with its own continuation, a dead branch, and a long
 * itinerary. Imported as a ledger (so the replies read like answers, with their model and
 * the ids each one read), then compacted through the API so the graph carries a capsule,
 * and continued by one real turn of the offline model: 40 nodes.
 */

interface StoryNode {
  id: string;
  predecessorId: string | null;
  seq: number;
  kind: "root" | "user" | "assistant";
  content: string;
  status: "complete";
  callerId: null;
  metadata: Record<string, unknown>;
  reads: string[];
  createdAt: string;
}

const ITINERARY = `Here is a seven-day plan that keeps the travel light and leaves room for slow evenings.

| Day | Where | Highlights |
| --- | --- | --- |
| 1 | Lisbon | Alfama on foot, the Miradouro de Santa Luzia at sunset |
| 2 | Lisbon | Belém in the morning, LX Factory for lunch, fado in the evening |
| 3 | Sintra | Pena Palace early, Quinta da Regaleira, back by train |
| 4 | Lisbon → Porto | The Alfa Pendular (about 3 hours), a walk along the Ribeira |
| 5 | Porto | Livraria Lello at opening time, port cellars in Gaia |
| 6 | Douro Valley | A day trip by train to Pinhão, a quinta tasting |
| 7 | Porto | Foz do Douro by tram 1, a last francesinha |

A few practical notes:

- Buy the Lisbon–Porto tickets a week ahead: the cheaper fares go first.
- The Viva Viagem card works on Lisbon's metro, trams and the Sintra train.
- In Porto, the Andante card covers the metro and most buses.
- Book Pena Palace for the first slot; the queue grows quickly after ten.
- Sundays are quiet in the Baixa: plan the museums for the weekdays.

If you would rather skip the Douro day, a half day in Aveiro on the way back south fits well.`;

/** The conversation: each entry a user turn and its reply, on HEAD's branch. */
const EXCHANGES: readonly (readonly [string, string])[] = [
  [
    "I have a week in Portugal in May. Where should I start?",
    "Start in Lisbon: most international flights land there, and it makes a gentle first day.",
  ],
  [
    "How many days does Lisbon need?",
    "Three days covers the old quarters, Belém and a day trip to Sintra without rushing.",
  ],
  [
    "What is the best way to get from Lisbon to Porto?",
    "Take the train: the Alfa Pendular runs from Santa Apolónia to Campanhã in about three hours.",
  ],
  [
    "Is it worth renting a car at all?",
    "Not for the cities. A car only pays off if you want the Alentejo coast or remote quintas.",
  ],
  [
    "What should I eat in Lisbon?",
    "Pastéis de nata in Belém, grilled sardines in Alfama, and a bifana from a corner tasca.",
  ],
  [
    "And in Porto?",
    "A francesinha at least once, tripas à moda do Porto if you are brave, and port in Gaia.",
  ],
  [
    "Can I visit the Douro Valley without a tour?",
    "Yes: the train to Pinhão follows the river, and several quintas welcome walk-in tastings.",
  ],
  [
    "Which neighbourhood should I stay in, in Lisbon?",
    "Chiado or Príncipe Real: central, walkable, and quieter at night than Bairro Alto.",
  ],
  ["Write me the whole itinerary, day by day.", ITINERARY],
  [
    "How much should I budget per day?",
    "About 90 to 120 euros a day for a mid-range hotel share, meals out and transport.",
  ],
  [
    "Do I need cash?",
    "Cards work almost everywhere; keep 20 euros for small cafés, markets and the trams.",
  ],
  [
    "What about the weather in May?",
    "Warm days around 22 °C, cool evenings; pack a light jacket for the Atlantic wind.",
  ],
  [
    "Any phrases I should learn?",
    "Obrigado (or obrigada), por favor, bom dia, and a conta, por favor for the bill.",
  ],
  [
    "Thanks! One last thing: is Sintra crowded?",
    "It is busy from ten: arrive for the first entry at Pena, then walk down to Regaleira.",
  ],
];

/** Another version of exchange 3's reply: a retry that says nearly the same. */
const RETRIED =
  "Take the train: the Alfa Pendular runs from Oriente to Campanhã in under three hours, and the views are better on the left.";

/** Builds the ledger file: ids are local to the file (the import gives new ones). */
export function storyLedger(title: string) {
  const nodes: StoryNode[] = [];
  const byId = new Map<string, StoryNode>();
  const add = (
    kind: StoryNode["kind"],
    predecessorId: string | null,
    content: string,
  ): StoryNode => {
    const id = `s${nodes.length}`;
    // What a reply read: the branch above it, ROOT first (no summary yet when it was made).
    const reads: string[] = [];
    if (kind === "assistant") {
      for (let at = predecessorId; at !== null; at = byId.get(at)?.predecessorId ?? null) {
        reads.unshift(at);
      }
    }
    const node: StoryNode = {
      id,
      predecessorId,
      seq: nodes.length,
      kind,
      content,
      status: "complete",
      callerId: null,
      metadata: kind === "assistant" ? { model: "gpt-4o-mini" } : {},
      reads,
      createdAt: new Date(Date.UTC(2026, 4, 1, 9, nodes.length)).toISOString(),
    };
    nodes.push(node);
    byId.set(id, node);
    return node;
  };
  const root = add("root", null, "You are a helpful travel assistant.");
  let tip = root.id;
  const users: string[] = [];
  const replies: string[] = [];
  for (const [question, answer] of EXCHANGES) {
    const user = add("user", tip, question);
    const reply = add("assistant", user.id, answer);
    users.push(user.id);
    replies.push(reply.id);
    tip = reply.id;
  }
  // A retry of the train answer (exchange 3): version 2 of 2, on a dead branch.
  add("assistant", users[2] ?? root.id, RETRIED);
  // An edited question (exchange 5) with its answer and one more exchange.
  const edited = add("user", replies[3] ?? root.id, "What should I eat in Lisbon on a budget?");
  const editedReply = add(
    "assistant",
    edited.id,
    "Prato do dia at a tasca (about 10 euros with a drink), bifanas, and market stalls at Ribeira.",
  );
  const follow = add("user", editedReply.id, "Where is the Time Out Market?");
  add("assistant", follow.id, "At Cais do Sodré, in the old Mercado da Ribeira hall by the river.");
  // A retry of the budget answer (exchange 10).
  add(
    "assistant",
    users[9] ?? root.id,
    "Plan on 100 euros a day: rooms are the largest part, food and trains are cheap.",
  );
  // A dead branch under the neighbourhood answer (exchange 8).
  const dead = add("user", replies[7] ?? root.id, "Is Alfama too hilly with luggage?");
  add("assistant", dead.id, "It is steep and cobbled: take a taxi to the door with suitcases.");
  return {
    format: "spindle.ledger" as const,
    version: 1 as const,
    session: { title, headId: tip, meta: {} },
    nodes,
  };
}

/**
 * Imports the story, compacts its oldest turns into a capsule and adds one real turn:
 * the session's id, ready for the page.
 */
export async function storySession(
  request: APIRequestContext,
  baseURL: string | undefined,
  title: string,
): Promise<string> {
  const headers = { origin: baseURL ?? "" };
  const imported = await request.post("/api/import", { data: storyLedger(title), headers });
  expect(imported.status(), await imported.text()).toBe(201);
  const { id } = (await imported.json()) as { id: string };
  const patched = await request.patch(`/api/sessions/${id}`, {
    data: { settings: { keepRecentTokens: 260 } },
    headers,
  });
  expect(patched.ok()).toBe(true);
  const compacted = await request.post(`/api/sessions/${id}/compact`, { data: {}, headers });
  expect(compacted.status(), await compacted.text()).toBe(200);
  const turn = await request.post(`/api/sessions/${id}/turns`, {
    data: { content: "Could you summarise the plan in three lines?", stream: false },
    headers,
  });
  expect(turn.status(), await turn.text()).toBe(200);
  const nodes = (await (await request.get(`/api/sessions/${id}/nodes`)).json()) as {
    nodes: unknown[];
  };
  expect(nodes.nodes).toHaveLength(40);
  return id;
}

import { expect, type APIRequestContext } from "@playwright/test";

/**
 * Sessions for the compaction policies' graph flow (issue 23): a renovation planned over
 * several exchanges with the offline model, compacted through the API under `segmented`
 * (two capsules on one trunk) or `nested` (a summary of two summaries, then a third).
 */

const EXCHANGES = [
  "We are renovating the kitchen in our 1930s flat. The budget is 18,000 euros and the work has to finish before the end of March. Where do we start?",
  "The electrician, Marta Quintela, quoted 2,400 euros for rewiring and six new sockets. Is that reasonable for a flat of 70 square metres?",
  "We chose oak worktops over quartz because of the price. How should we seal them so that they survive a busy kitchen?",
  "The plumber needs to move the sink 80 centimetres to the left, under the window. What does that change for the drain and the dishwasher?",
  "Our landlord's association wants the plans filed by 14 February. Which drawings do they usually ask for?",
  "The tiler can only come in the second week of March. Can the cabinets go in before the tiles, or must we wait?",
  "We found asbestos in the old floor tiles under the lino. What are the rules for removing it, and who may do it?",
  "If the asbestos removal costs 1,900 euros, where should we cut the budget to stay under 18,000?",
  "Please list what is still open, with the dates we agreed, so that I can send it to the contractor.",
] as const;

type Headers = Record<string, string>;

async function say(
  request: APIRequestContext,
  headers: Headers,
  id: string,
  content: string,
): Promise<void> {
  const res = await request.post(`/api/sessions/${id}/turns`, {
    data: { content, stream: false },
    headers,
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function compact(request: APIRequestContext, headers: Headers, id: string): Promise<void> {
  const res = await request.post(`/api/sessions/${id}/compact`, { data: {}, headers });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A session under `policy` with a compaction after the 3rd, 5th and (nested only) 7th
 * exchange; its id and the active set at the end.
 */
export async function policySession(
  request: APIRequestContext,
  baseURL: string | undefined,
  policy: "segmented" | "nested",
  title: string,
): Promise<{ id: string; active: string[] }> {
  const headers = { origin: baseURL ?? "" };
  const made = await request.post("/api/sessions", {
    headers,
    data: {
      title,
      settings: {
        policy,
        autoCompact: false,
        keepRecentTokens: 120,
        // Small enough that, under `nested`, two summaries outgrow a quarter of it.
        contextWindow: policy === "nested" ? 1024 : 16_384,
      },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const id = ((await made.json()) as { id: string }).id;
  const stops = policy === "nested" ? [3, 5, 7] : [3, 5];
  for (const [i, content] of EXCHANGES.entries()) {
    await say(request, headers, id, content);
    if (stops.includes(i + 1)) await compact(request, headers, id);
  }
  const session = await request.get(`/api/sessions/${id}`);
  const active = ((await session.json()) as { activeSummaryIds: string[] }).activeSummaryIds;
  return { id, active };
}

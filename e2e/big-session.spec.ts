import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { bigLedger, bigLedgerId } from "../tests/support/big-ledger";
import { saveScreenshot } from "./support/screenshots";
import { send } from "./support/session";
import { CUT_MARK } from "../lib/engine/wire-node";

const DEAD = "A dead branch to check out and delete";

/**
 * Issue 10's flow: a 10,000-node session imported as a user would, opened, a reply
 * streamed, a dead branch checked out from the graph and deleted — all at the speed of a
 * small session (the page loads HEAD's spine and a skeleton of the rest).
 */
test("a 10,000-node session opens, streams, checks out a dead branch from the graph and deletes it", async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  // A 201-node spine padded with dead forks; one more reply beside HEAD is the dead branch.
  const file = bigLedger({ total: 9_999, words: 5, title: "E2E big session" });
  const head = file.session.headId;
  const headText = file.nodes.find((n) => n.id === head)!.content.slice(0, 30);
  const beforeHead = bigLedgerId(199);
  const ledger = {
    ...file,
    nodes: [
      ...file.nodes,
      {
        ...file.nodes[1]!,
        id: "dead",
        predecessorId: beforeHead,
        seq: file.nodes.length,
        kind: "assistant" as const,
        content: DEAD,
      },
    ],
  };
  expect(ledger.nodes).toHaveLength(10_000);
  const imported = await page.request.post("/api/import", {
    data: ledger,
    headers: { origin: baseURL ?? "" },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const { id } = (await imported.json()) as { id: string };

  await page.goto(`/s/${id}`);
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  // Only what is on screen is mounted, not 10,000 cards.
  expect(await graph.locator(".react-flow__node").count()).toBeLessThanOrEqual(300);
  await expect(page.locator("article.msg-assistant").last()).toContainText(headText);

  await send(page, "Hello to a big session");
  // The branch is 200 turns, so the transcript is virtualised: it stayed at the bottom.
  await expect(page.locator("article.msg-assistant").last()).toBeInViewport();
  // The graph follows: HEAD's card is the new reply once the worker's layout lands.
  await expect(graph.locator('[aria-current="true"]')).toContainText("offline model");
  await saveScreenshot(page, testInfo, "big-session");

  // The dead reply is the newest of the old HEAD reply's versions: select that card in the
  // graph, walk right with the arrow keys (each step brings the selection into view, so
  // its card mounts), and check it out with a double-click.
  const pane = graph.locator(".react-flow");
  const headCard = graph.locator(".react-flow__node", { hasText: headText });
  // Once the rest of the ledger is laid out ([R294]), so the arrows below walk the whole
  // graph (a selection made before keeps its place: the last test of this file).
  await expect(graph.locator('[aria-label="Conversation graph"][aria-busy="false"]')).toBeAttached({
    timeout: 60_000,
  });
  await headCard.click();
  // The detail panel opened below the graph and took some of its height: the selected card
  // stays in the pane, clear of the minimap and "Back to HEAD" ([R183]).
  await expect.poll(() => insidePane(pane, headCard)).toBe(true);
  await headCard.click({ trial: true, timeout: 2_000 });
  await saveScreenshot(page, testInfo, "big-session-selected");
  const card = graph.locator(".react-flow__node", { hasText: DEAD });
  for (let i = 0; i < 60 && !(await card.isVisible()); i++) await page.keyboard.press("ArrowRight");
  await expect(card).toBeVisible();
  await expect.poll(() => insidePane(pane, card)).toBe(true);
  await card.dblclick();
  const tip = page.locator("article.msg-assistant").last();
  await expect(tip).toContainText(DEAD);

  page.once("dialog", (d) => void d.accept());
  await tip.hover();
  await tip.getByRole("button", { name: "Delete branch" }).click();
  await expect(graph.locator(".react-flow__node", { hasText: DEAD })).toHaveCount(0);
  await expect(page.locator("article.msg-assistant", { hasText: DEAD })).toHaveCount(0);
  // HEAD fell back to the fork point and on to its newest surviving version (the rule of a
  // delete in a small session): one version fewer than the 16 there were.
  await expect(page.locator("article .siblings-count").last()).toHaveText("15/15");

  // Jumping to an early turn (a search result's link) scrolls its row into view.
  const early = file.nodes[5]!.content;
  const page0 = await page.request.get(`/api/sessions/${id}/nodes?view=skeleton&limit=20`);
  const { nodes } = (await page0.json()) as { nodes: { id: string; content: string }[] };
  const label = (text: string) =>
    text.endsWith(CUT_MARK) ? text.slice(0, -CUT_MARK.length) : text;
  const target = nodes.find((n) => early.startsWith(label(n.content)));
  expect(target).toBeDefined();
  await page.goto(`/s/${id}?node=${target!.id}`);
  await expect(page.locator("article", { hasText: early.slice(0, 30) })).toBeInViewport();
});

/** Whether a card lies wholly inside the graph's pane (not under the detail panel below it). */
async function insidePane(pane: Locator, card: Locator): Promise<boolean> {
  const [p, c] = await Promise.all([pane.boundingBox(), card.boundingBox()]);
  if (p === null || c === null) return false;
  return (
    c.x >= p.x && c.y >= p.y && c.x + c.width <= p.x + p.width && c.y + c.height <= p.y + p.height
  );
}

/**
 * [R294] On a long session that opened near-first, a version switch waits for the older
 * branches: the page says so beside the transcript (on every screen size), the click can be
 * taken back, and the last one asked for happens when they arrive.
 */
test("a version switch on a long session still loading says it waits, and happens once loaded", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The older branches are held back until the clicks below are made.
  const { id, release } = await openHoldingRest(page, baseURL, "E2E waiting for the rest");
  // A message with versions, and the way to another one of them.
  const row = page
    .locator("article")
    .filter({ has: page.locator(".siblings-count") })
    .last();
  await expect(row).toBeVisible();
  const headOf = async () =>
    ((await (await page.request.get(`/api/sessions/${id}`)).json()) as { headId: string }).headId;
  const head = await headOf();
  const prev = row.getByRole("button", { name: "Previous version" });
  const step = (await prev.isDisabled()) ? row.getByRole("button", { name: "Next version" }) : prev;

  await row.hover();
  await step.click();
  const waiting = page.getByRole("status").filter({ hasText: "Switching to the other version" });
  await expect(waiting).toContainText("still loading its older branches");
  await waiting.getByRole("button", { name: "Cancel" }).click();
  await expect(waiting).toHaveCount(0);
  expect(await headOf()).toBe(head);

  // Asked again, then the rest arrives: the switch happens, and the notice goes.
  await row.hover();
  await step.click();
  await expect(waiting).toBeVisible();
  release();
  await expect(waiting).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(headOf, { timeout: 20_000 }).not.toBe(head);
});

/**
 * [R294] A long session's page opens on HEAD's spine and counts the other versions of each
 * message instead of carrying them: the `‹ i/n ›` a message shows, and its card's tag in
 * the graph, are the same before the older branches arrive as after.
 */
test("a long session's version counts are right before its older branches arrive", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { release } = await openHoldingRest(page, baseURL, "E2E counts before the rest");
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  const row = page
    .locator("article")
    .filter({ has: page.locator(".siblings-count") })
    .last();
  await expect(row).toBeVisible();
  const nodeId = await row.getAttribute("data-node-id");
  const count = row.locator(".siblings-count");
  const before = (await count.textContent()) ?? "";
  // Many versions, counted although not one of them is on the page yet.
  expect(Number(/^\d+\/(\d+)$/.exec(before)?.[1])).toBeGreaterThan(2);
  const tag = graph.locator(`.react-flow__node[data-id="${nodeId}"]`).getByTitle(/^Version /);
  await expect(tag).toHaveText(before);

  release();
  await expect(graph.locator('[aria-label="Conversation graph"][aria-busy="false"]')).toBeAttached({
    timeout: 60_000,
  });
  await expect(page.locator(`article[data-node-id="${nodeId}"] .siblings-count`)).toHaveText(
    before,
  );
  await expect(
    graph.locator(`.react-flow__node[data-id="${nodeId}"]`).getByTitle(/^Version /),
  ).toHaveText(before);
});

/**
 * [R294] The card the user selected while a long session's older branches are still
 * coming stays where it is on screen when they land and the graph is laid out again —
 * the view neither loses it nor jumps to HEAD.
 */
test("a card selected while the rest loads stays in place when the rest lands", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { release } = await openHoldingRest(page, baseURL, "E2E selection across the rest");
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  // A card other than HEAD's (the view would follow HEAD anyway): the nearest above it, in
  // full view (the ones further up pass under the toolbar).
  const picked = graph.locator('.react-flow__node:not(:has([aria-current="true"]))').last();
  await expect(picked).toBeVisible();
  const card = graph.locator(
    `.react-flow__node[data-id="${await picked.getAttribute("data-id")}"]`,
  );
  await card.click();
  await expect(page.getByRole("region", { name: "Selected node" })).toBeVisible();
  // Where it settled once the detail panel opened below the graph.
  let before = await card.boundingBox();
  await expect
    .poll(async () => {
      const was = before;
      before = await card.boundingBox();
      return was !== null && before !== null && was.x === before.x && was.y === before.y;
    })
    .toBe(true);

  release();
  await expect(graph.locator('[aria-label="Conversation graph"][aria-busy="false"]')).toBeAttached({
    timeout: 60_000,
  });
  const still = async () => {
    const [was, now] = [before, await card.boundingBox()];
    if (was === null || now === null) return false;
    return Math.abs(now.x - was.x) <= 2 && Math.abs(now.y - was.y) <= 2;
  };
  await expect.poll(still).toBe(true);
});

/**
 * Imports a 6,000-node session (it opens near-first, [R294]) and opens its page with the
 * older branches held back until `release` is called.
 */
async function openHoldingRest(
  page: Page,
  baseURL: string | undefined,
  title: string,
): Promise<{ id: string; release: () => void }> {
  const imported = await page.request.post("/api/import", {
    data: bigLedger({ total: 6_000, words: 5, title }),
    headers: { origin: baseURL ?? "" },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const { id } = (await imported.json()) as { id: string };
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/nodes\?.*form=columns/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/s/${id}`);
  return { id, release };
}

import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { expectAccessible } from "./support/axe";
import { saveScreenshot } from "./support/screenshots";
import { storySession } from "./support/story";

/**
 * Issue 20: the graph one can read and steer, on a realistic 40-node session with a
 * capsule — the opening view, a capsule unfolding in place, "What did it read?", a
 * checked-out message of one's own, and (in the second flow) branches side by side and
 * versions that keep their place.
 */

/** On-screen size of a card's text: its computed font size times the canvas zoom. */
async function shownTextPx(card: Locator): Promise<number> {
  return card
    .locator("div[class*='text']")
    .first()
    .evaluate((el) => {
      const size = parseFloat(getComputedStyle(el).fontSize);
      const box = el.getBoundingClientRect();
      const html = el as HTMLElement;
      return size * (html.offsetWidth > 0 ? box.width / html.offsetWidth : 0);
    });
}

/** Whether a box lies inside another (the graph pane). */
async function inside(el: Locator, pane: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([el.boundingBox(), pane.boundingBox()]);
  if (a === null || b === null) return false;
  return (
    a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height
  );
}

/** axe in the light and the dark theme, as the page stands. */
async function expectAccessibleBoth(page: Page, what: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expectAccessible(page, `${what} (${theme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

async function openStory(page: Page, id: string): Promise<Locator> {
  await page.goto(`/s/${id}`);
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  await expect(graph.locator('.react-flow__node [aria-current="true"]')).toBeVisible();
  return graph;
}

test("graph: opens on HEAD at reading size, unfolds a capsule in place, frames what a reply read, offers a reply under a checked-out message", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.slow();
  const id = await storySession(request, baseURL, "A week in Portugal");
  const graph = await openStory(page, id);
  const pane = graph.locator(".react-flow");

  // (1) HEAD's card is in view, its text at 12 px or more on screen; the map is there.
  const head = graph.locator('.react-flow__node:has([aria-current="true"])');
  await expect.poll(() => inside(head, pane)).toBe(true);
  // Once the view has settled: it may still be zooming when the card is first inside.
  await expect.poll(() => shownTextPx(head)).toBeGreaterThanOrEqual(12);
  await expect(graph.getByRole("img", { name: /Overview of the graph/ })).toBeVisible();
  await saveScreenshot(page, testInfo, "graph-opening");

  // The arrows move the selection along the edges: up from HEAD to the message it answers,
  // and down again.
  await head.click();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("region", { name: "Selected node" })).toContainText(
    "Could you summarise the plan in three lines?",
  );
  await expect(head.locator("[class*='selected']")).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await expect(head.locator("[class*='selected']")).toHaveCount(1);

  // (2) The capsule says what it is; unfolding keeps it in view with its originals, readable.
  const capsule = graph.locator(".react-flow__node-capsule");
  await graph.getByRole("button", { name: "Fit all" }).click();
  await expect(capsule).toContainText(/Summary of \d+ earlier turns/);
  await expect(capsule).toContainText("the model reads this instead");
  // The story's forks from inside the summary leave the capsule dashed, each labelled by
  // the card it leads into: no two labels overlap (at the edges' midpoints they did).
  const labels = await graph.getByText("reads the originals").evaluateAll((els) =>
    els
      .filter((el) => el.closest(".react-flow__edgelabel-renderer") !== null)
      .map((el) => el.getBoundingClientRect())
      .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })),
  );
  expect(labels.length).toBeGreaterThanOrEqual(2);
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      const apart =
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      expect(apart, `labels at ${a.left} and ${b.left} overlap`).toBe(true);
    }
  }
  await capsule.click();
  const frame = graph.locator(".react-flow__node-frame");
  await expect(frame).toBeVisible();
  const folded = frame.getByText(/Summary of \d+ earlier turns/);
  const original = graph.locator(".react-flow__node-turn", { hasText: "original" }).first();
  await expect.poll(() => inside(folded, pane)).toBe(true);
  await expect.poll(() => inside(original, pane)).toBe(true);
  await expect.poll(() => shownTextPx(original)).toBeGreaterThanOrEqual(12);
  await saveScreenshot(page, testInfo, "graph-capsule");
  await frame.getByRole("button", { name: "Fold" }).click();
  await expect(frame).toHaveCount(0);

  // "What did it read?": the reply's reads glow, the inspector lists the prompt in order.
  const last = page.locator("article.msg-assistant").last();
  await last.hover();
  await last.getByRole("button", { name: "What did it read?" }).click();
  const detail = page.getByRole("region", { name: "Selected node" });
  const prompt = detail.getByRole("list", { name: "What it read" });
  await expect(prompt.getByRole("listitem").first()).toContainText("System");
  await expect(prompt).toContainText("Summary");
  await expect(graph.locator(".react-flow__node [class*='glow']").first()).toBeVisible();
  await saveScreenshot(page, testInfo, "graph-reads");
  // A line of the prompt is a link into the graph.
  await prompt.getByRole("button").nth(1).click();
  await expect(capsule).toBeInViewport();

  // (5) Checking out one of your messages offers "Generate a reply", which adds one reply.
  const question = "Thanks! One last thing: is Sintra crowded?";
  await graph.getByRole("button", { name: "Fit all" }).click();
  await graph.locator(".react-flow__node-turn", { hasText: question }).click();
  await detail.getByRole("button", { name: "Continue from here" }).click();
  const bar = page.getByRole("status", { name: "Where you are" });
  await expect(bar).toContainText("You are at your message");
  await expect(bar).toContainText("send a message to add it after this one");
  await expect(page.locator("article.msg-user").last()).toContainText(question);
  const before = await request.get(`/api/sessions/${id}/nodes`);
  const count = ((await before.json()) as { nodes: unknown[] }).nodes.length;
  await bar.getByRole("button", { name: "Generate a reply" }).click();
  await expect(bar).toHaveCount(0);
  await expect(page.locator("article.msg-assistant").last()).toContainText("offline model");
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
  await expect(page.locator("article.msg-assistant .siblings-count").last()).toHaveText("2/2");
  const after = await request.get(`/api/sessions/${id}/nodes`);
  expect(((await after.json()) as { nodes: unknown[] }).nodes).toHaveLength(count + 1);

  // On a phone the graph is a drawer, and it opens just as readable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/s/${id}`);
  // The phone's header keeps the graph toggle in the session menu.
  await page.getByRole("button", { name: "Session menu" }).click();
  await page.getByRole("menuitem", { name: "Show graph" }).click();
  const drawer = page.getByRole("dialog", { name: "Conversation graph" });
  const phoneHead = drawer.locator('.react-flow__node:has([aria-current="true"])');
  await expect.poll(() => inside(phoneHead, drawer.locator(".react-flow"))).toBe(true);
  expect(await shownTextPx(phoneHead)).toBeGreaterThanOrEqual(12);
  // The drawer is too narrow for the map beside the cards: it is off until asked for.
  const map = drawer.getByRole("img", { name: /Overview of the graph/ });
  await expect(map).toHaveCount(0);
  await saveScreenshot(page, testInfo, "graph-phone");
  await drawer.getByRole("button", { name: "Map" }).click();
  await expect(map).toBeVisible();
});

test("graph: branches side by side with word marks, continue from either; versions keep their place; axe on the graph and the comparison", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.slow();
  const id = await storySession(request, baseURL, "Portugal, compared");
  await openStory(page, id);

  // (4) Switching versions of an early message keeps that message where it was.
  const train = page.locator("article.msg-assistant", { hasText: "Alfa Pendular" }).first();
  await train.scrollIntoViewIfNeeded();
  await expect(train.locator(".siblings-count")).toHaveText("1/2");
  const top = (await train.boundingBox())?.y ?? 0;
  await train.getByRole("button", { name: "Next version" }).click();
  const switched = page.locator("article.msg-assistant", { hasText: "from Oriente" });
  await expect(switched.locator(".siblings-count")).toHaveText("2/2");
  const moved = (await switched.boundingBox())?.y ?? Infinity;
  expect(Math.abs(moved - top)).toBeLessThanOrEqual(40);

  // (3) The two versions side by side, marked word by word; continue from the right one.
  await switched.getByRole("button", { name: "Previous version" }).click();
  const back = page.locator("article.msg-assistant", { hasText: "from Santa Apolónia" });
  await expect(back.locator(".siblings-count")).toHaveText("1/2");
  await back.getByRole("button", { name: "Compare branches" }).click();
  const dialog = page.getByRole("dialog", { name: "Compare branches" });
  await expect(dialog).toBeVisible();
  const cells = dialog.locator("article[data-node-id]");
  await expect(cells.filter({ hasText: "Santa Apolónia" })).toHaveCount(1);
  await expect(cells.filter({ hasText: "Oriente" })).toHaveCount(1);
  await expect(dialog.locator("del").first()).toBeVisible();
  await expect(dialog.locator("ins").first()).toBeVisible();
  await expect(
    dialog.getByText(/gpt-4o-mini · \d+ tokens · read \d+ messages/).first(),
  ).toBeVisible();
  await saveScreenshot(page, testInfo, "compare");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, testInfo, "compare-phone");
  await page.setViewportSize({ width: 1400, height: 900 });
  await expectAccessibleBoth(page, "comparison");
  const right = dialog.getByRole("button", { name: "Continue from here" });
  await expect(right).toHaveCount(1);
  await right.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator("article.msg-assistant", { hasText: "from Oriente" })).toBeVisible();
  const session = (await (await request.get(`/api/sessions/${id}`)).json()) as { headId: string };
  const nodes = (await (await request.get(`/api/sessions/${id}/nodes`)).json()) as {
    nodes: { id: string; content: string }[];
  };
  expect(nodes.nodes.find((n) => n.id === session.headId)?.content).toContain("from Oriente");

  // (6) The graph, with a node's details open, passes axe in both themes.
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  await graph.locator(".react-flow__node-turn", { hasText: "from Oriente" }).click();
  await expect(page.getByRole("region", { name: "Selected node" })).toBeVisible();
  await expectAccessibleBoth(page, "graph");
});

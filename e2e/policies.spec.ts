import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { saveScreenshot } from "./support/screenshots";
import { policySession } from "./support/policy-story";

/**
 * Issue 23, the graph under an active set ([R249]): two capsules on one trunk under
 * `segmented`; under `nested`, a capsule that unfolds to the capsules of the summaries it
 * names, and one of those to its original turns — two steps.
 */

async function openGraph(page: Page, id: string): Promise<Locator> {
  await page.goto(`/s/${id}`);
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  await expect(graph.locator('.react-flow__node [aria-current="true"]')).toBeVisible();
  await graph.getByRole("button", { name: "Fit all" }).click();
  return graph;
}

const card = (graph: Locator, id: string) => graph.locator(`.react-flow__node[data-id="${id}"]`);

async function box(el: Locator) {
  const b = await el.boundingBox();
  if (b === null) throw new Error("not laid out");
  return b;
}

/** Whether `a` lies inside `b` on screen. */
async function inside(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await box(a), await box(b)];
  return (
    x.x >= y.x - 1 &&
    x.y >= y.y - 1 &&
    x.x + x.width <= y.x + y.width + 1 &&
    x.y + x.height <= y.y + y.height + 1
  );
}

test("policies: segmented draws two capsules on one trunk; a nested capsule unfolds to its summaries, then to the originals", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.slow();

  // Segmented: two summaries over disjoint segments, both on HEAD's trunk, one under the other.
  const seg = await policySession(request, baseURL, "segmented", "Kitchen renovation");
  expect(seg.active).toHaveLength(2);
  const [s1, s2] = seg.active as [string, string];
  let graph = await openGraph(page, seg.id);
  await expect(graph.locator(".react-flow__node-capsule")).toHaveCount(2);
  const first = card(graph, s1);
  const second = card(graph, s2);
  await expect(first).toContainText("Summary of 4 earlier turns");
  await expect(second).toContainText("Summary of 4 earlier turns");
  const [a, b] = [await box(first), await box(second)];
  expect(Math.abs(a.x + a.width / 2 - (b.x + b.width / 2))).toBeLessThan(2);
  expect(a.y + a.height).toBeLessThan(b.y);
  await expect(
    graph.locator(`.react-flow__edge[aria-label="Edge from ${s1} to ${s2}"]`),
  ).toHaveCount(1);
  // The transcript shows a card for each summary the model reads.
  await expect(page.locator(".summary-card")).toHaveCount(2);
  await saveScreenshot(page, testInfo, "policy-segmented");

  // Nested: S1 and S2 were summarised into N; N and S3 are active.
  const nest = await policySession(request, baseURL, "nested", "Kitchen renovation, nested");
  expect(nest.active).toHaveLength(2);
  const [n] = nest.active as [string, string];
  const rows = (await (await request.get(`/api/sessions/${nest.id}/graph`)).json()) as {
    nodes: { id: string; covers_ids?: string[] }[];
  };
  const inner = rows.nodes.find((r) => r.id === n)?.covers_ids ?? [];
  expect(inner).toHaveLength(2);
  const [i1, i2] = inner as [string, string];
  graph = await openGraph(page, nest.id);
  const outer = card(graph, n);
  await expect(outer).toContainText("Summary of 2 summaries");
  await expect(graph.locator(".react-flow__node-capsule")).toHaveCount(2);
  await expect(card(graph, i1)).toHaveCount(0);

  // Step 1: N opens to the capsules of the two summaries it names — no original turn yet.
  await outer.click();
  const frame = graph.locator(`.react-flow__node-frame[data-id="${n}"]`);
  await expect(frame).toContainText("The 2 summaries inside");
  await expect(card(graph, i1)).toHaveClass(/react-flow__node-capsule/);
  await expect(card(graph, i2)).toHaveClass(/react-flow__node-capsule/);
  await expect.poll(() => inside(card(graph, i1), frame)).toBe(true);
  await expect.poll(() => inside(card(graph, i2), frame)).toBe(true);
  const original = graph.locator(".react-flow__node-turn", { hasText: "1930s flat" });
  await expect(original).toHaveCount(0);
  await saveScreenshot(page, testInfo, "policy-nested-step1");

  // Step 2: the first inner capsule opens to its original turns, inside both frames.
  await card(graph, i1).click();
  const innerFrame = graph.locator(`.react-flow__node-frame[data-id="${i1}"]`);
  await expect(innerFrame).toContainText("The 4 original turns");
  await expect(original).toHaveCount(1);
  await expect.poll(() => inside(original, innerFrame)).toBe(true);
  await expect.poll(() => inside(original, frame)).toBe(true);
  await saveScreenshot(page, testInfo, "policy-nested-step2");
  // Seen whole: S2 is still a capsule beside S1's frame, inside N's.
  await graph.getByRole("button", { name: "Fit all" }).click();
  await expect(card(graph, i2)).toHaveClass(/react-flow__node-capsule/);
  await expect.poll(() => inside(card(graph, i2), innerFrame)).toBe(false);
  await expect.poll(() => inside(card(graph, i2), frame)).toBe(true);

  // Folding N folds everything inside it back into one capsule.
  await frame.getByRole("button", { name: "Fold" }).first().click();
  await expect(graph.locator(".react-flow__node-frame")).toHaveCount(0);
  await expect(original).toHaveCount(0);

  // On a phone the graph is a drawer with the same capsules.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/s/${seg.id}`);
  // The phone's header keeps the graph toggle in the session menu.
  await page.getByRole("button", { name: "Session menu" }).click();
  await page.getByRole("menuitem", { name: "Show graph" }).click();
  const drawer = page.getByRole("dialog", { name: "Conversation graph" });
  await expect(drawer.locator('.react-flow__node [aria-current="true"]')).toBeVisible();
  await drawer.getByRole("button", { name: "Fit all" }).click();
  await expect(drawer.locator(".react-flow__node-capsule")).toHaveCount(2);
  await saveScreenshot(page, testInfo, "policy-segmented-phone");
});

import { expect, test } from "./support/test";
import { saveScreenshot } from "./support/screenshots";
import { storySession } from "./support/story";

/**
 * "Audit this summary" (issue 22) with the offline model: the fact-retention check runs
 * from the capsule's details and its figure shows on the capsule.
 */
test("[R238] audit: a summary audited from the graph shows its score on the capsule", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.slow();
  const id = await storySession(request, baseURL, "Audited week");
  await page.goto(`/s/${id}`);
  const graph = page.getByRole("complementary", { name: "Conversation graph" });
  await expect(graph.locator('.react-flow__node [aria-current="true"]')).toBeVisible();
  await graph.getByRole("button", { name: "Fit all" }).click();
  const capsule = graph.locator(".react-flow__node-capsule");
  await capsule.click();
  const detail = page.getByRole("region", { name: "Selected node" });
  await detail.getByRole("button", { name: "Audit this summary" }).click();
  await expect(detail.getByLabel("Latest audit")).toContainText(/audit: \d+ of \d+ facts kept/);
  const tag = graph.locator(".capsule-audit");
  await expect(tag).toContainText(/audit: \d+ of \d+ facts kept/);
  await saveScreenshot(page, testInfo, "audit-capsule");
  // It is stored: a reload shows it again.
  await page.reload();
  await expect(graph.locator(".capsule-audit")).toContainText(/audit: \d+ of \d+ facts kept/);
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, testInfo, "audit-capsule-narrow");
});

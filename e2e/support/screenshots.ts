import type { Page, TestInfo } from "@playwright/test";

/**
 * Saves a screenshot both as the test's attachment and at a stable path,
 * `test-results/screenshots/<name>.png`, which every run of the test command refreshes
 * (the README's pictures in docs/screenshots are copies of these).
 */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = `test-results/screenshots/${name}.png`;
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

import { expect, type Locator, type Page } from "@playwright/test";

/** `el` lies wholly inside the viewport and a click would land on it (nothing covers it). */
export async function expectReachable(page: Page, el: Locator, what: string): Promise<void> {
  const box = await el.boundingBox();
  const view = page.viewportSize();
  expect(box, `${what} has a box`).not.toBeNull();
  expect(view).not.toBeNull();
  if (!box || !view) return;
  expect(box.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what} top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right edge`).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height, `${what} bottom edge`).toBeLessThanOrEqual(view.height);
  // A trial click: visible, stable, enabled and not covered by anything else.
  await el.click({ trial: true, timeout: 2_000 });
}

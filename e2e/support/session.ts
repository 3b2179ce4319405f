import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** Creates a session from the home page and waits for its page; its id. */
export async function newSession(page: Page, title: string): Promise<string> {
  await page.goto("/");
  await page.getByLabel("New session title").fill(title);
  await page.getByRole("button", { name: "New session" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);
  return page.url().split("/s/")[1] ?? "";
}

/**
 * Sends a message and waits until the reply is sealed and the page has caught up. With the
 * offline model the reply quotes the last user message, which is how it is recognised.
 */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  await expect(page.locator("article.msg-assistant").last()).toContainText(text.slice(0, 30));
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
  // The turn is over once the composer offers Send again.
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
}

/**
 * Opens the search dialog with Ctrl-K. The shortcut is listened for once the page has
 * hydrated, which can come after `goto` resolves: press again until the dialog shows.
 */
export async function openSearch(page: Page): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: "Search conversations" });
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.keyboard.press("Control+k");
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return dialog;
}

/** Every session of the signed-in account, through the paged API. */
export async function countSessions(request: APIRequestContext): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const res = await request.get(`/api/sessions${cursor ? `?cursor=${cursor}` : ""}`);
    const page = (await res.json()) as { sessions: unknown[]; nextCursor: string | null };
    n += page.sessions.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return n;
}

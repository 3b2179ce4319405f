import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { scriptBehaviours as script } from "./support/scripted";
import { expectAccessible } from "./support/axe";
import { saveScreenshot } from "./support/screenshots";
import { newSession } from "./support/session";

// Reading long chats (issue 21), against the scripted OpenAI-protocol server: a reply long
// enough to scroll, one that keeps streaming until stopped, and math.

const LONG = Array.from(
  { length: 40 },
  (_, i) =>
    `${i + 1}. Step ${i + 1} of the plan: read the chapter, write down the two ideas that ` +
    `matter most, and check them against the notes from the step before.`,
).join("\n\n");

/** How far the transcript is from its end (px). */
const gapToEnd = (page: Page) =>
  page.getByLabel("Transcript").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

test("[R206] [R207] reading: scroll-to-bottom (marked while a reply streams below), Esc closes a panel opened over a stream and then stops it, `?` lists the chat's keys", async ({
  page,
}, testInfo) => {
  test.slow();
  await script([
    { kind: "reply", text: LONG },
    { kind: "hang", text: "Still thinking about the next step of the plan" },
  ]);
  await newSession(page, "A long plan");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Give me a forty-step reading plan.");
  await box.press("Enter");
  const replies = page.locator("article.msg-assistant");
  // Forty paragraphs streamed word by word: on a busy machine this takes a while.
  await expect(replies.last()).toContainText("Step 40 of the plan", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);

  // At the end there is no button; scrolled up, it shows and brings the view back.
  const toEnd = page.getByRole("button", { name: /^Scroll to bottom/ });
  await expect(toEnd).toHaveCount(0);
  await page.getByLabel("Transcript").evaluate((el) => (el.scrollTop = 0));
  await expect(toEnd).toBeVisible();
  await expect(toEnd).toHaveAccessibleName("Scroll to bottom");
  await expectAccessible(page, "scroll-to-bottom");
  await toEnd.click();
  await expect.poll(() => gapToEnd(page)).toBeLessThan(48);
  await expect(toEnd).toHaveCount(0);

  // A reply that keeps streaming: scrolled away, the button says so.
  await box.fill("And then?");
  await box.press("Enter");
  await expect(replies.last()).toContainText("Still thinking");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.getByLabel("Transcript").evaluate((el) => (el.scrollTop = 0));
  await expect(
    page.getByRole("button", { name: "Scroll to bottom (a reply is streaming)" }),
  ).toBeVisible();
  await saveScreenshot(page, testInfo, "scroll-to-bottom-streaming");
  await page.getByRole("button", { name: "Scroll to bottom (a reply is streaming)" }).click();
  await expect.poll(() => gapToEnd(page)).toBeLessThan(48);

  // A panel opened while it streams takes the first Esc: the panel closes, the reply goes on.
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("form", { name: "Session settings" });
  await expect(settings).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(settings).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(page.locator(".msg-status.streaming")).toHaveCount(1);

  // The next Esc stops it: the composer offers Send again and the partial text stays.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(replies.last()).toContainText("Still thinking");
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);

  // `?` outside a text field lists the chat's keys, Esc among them.
  await page.locator("h1").click();
  await page.keyboard.press("?");
  const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(keys).toBeVisible();
  await expect(keys.getByRole("heading", { name: /^Chat/ })).toBeVisible();
  await expect(keys).toContainText("Stop the reply that is streaming");
  await page.keyboard.press("Escape");
  await expect(keys).toBeHidden();
});

test("[R208] reading: inline $…$ and display $$…$$ math render", async ({ page }, testInfo) => {
  await script([
    {
      kind: "reply",
      text:
        "Binary search runs in $O(\\log n)$ time, and the sum is\n\n" +
        "$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$\n\nas Gauss noticed.",
    },
  ]);
  await newSession(page, "Math");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("How fast is binary search?");
  await box.press("Enter");
  const reply = page.locator("article.msg-assistant").last();
  await expect(reply).toContainText("as Gauss noticed");
  await expect(reply.locator(".katex-display")).toHaveCount(1);
  // The inline formula is typeset in the running text, not shown as `$O(\log n)$`.
  await expect(reply.locator("p .katex").first()).toBeVisible();
  await expect(reply).not.toContainText("$O(");
  await expect(reply).not.toContainText("$$");
  await saveScreenshot(page, testInfo, "math");
});

import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { scriptBehaviours, scriptReplies as script } from "./support/scripted";
import { saveScreenshot } from "./support/screenshots";
import { newSession } from "./support/session";

/**
 * Issue 22 against the scripted OpenAI-protocol server: a reply replayed on another model,
 * seen beside the original with its diff marks; one message asked of two models at once,
 * continued from the second.
 */

async function sendAndWait(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
}

test("[R235] replay: a reply replayed on another model shows beside the original, with diff marks", async ({
  page,
}, testInfo) => {
  await newSession(page, "E2E replay");
  await script(
    "We launch the billing cutover on Friday at 09:00, after the invoice run finishes.",
    "The title",
  );
  await sendAndWait(page, "When do we launch the billing cutover?");
  const reply = page.locator("article.msg-assistant").last();
  await expect(reply).toContainText("on Friday at 09:00");

  await script(
    "We launch the billing cutover on Monday at 09:00, once the invoice run and the checks finish.",
  );
  await reply.getByRole("button", { name: "Replay…" }).click();
  await reply.getByLabel("Replay on model").fill("spindle-other-model");
  await reply.getByRole("button", { name: "Replay", exact: true }).click();

  const dialog = page.getByRole("dialog", { name: "Replies side by side" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Reply · spindle-test-model")).toBeVisible();
  await expect(dialog.getByText("Replay · spindle-other-model")).toBeVisible();
  await expect(dialog.locator("ins").first()).toContainText(/Monday|checks/);
  await expect(dialog.locator("del").first()).toContainText(/Friday|finishes/);
  await expect(dialog.getByText(/\d+ prompt · \d+ reply tokens/).first()).toBeVisible();
  await expect(dialog.getByText(/in all/).first()).toBeVisible();
  await saveScreenshot(page, testInfo, "replay-side-by-side");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, testInfo, "replay-side-by-side-narrow");
  await page.setViewportSize({ width: 1400, height: 900 });
  await dialog.getByRole("button", { name: "Close the comparison" }).click();

  // HEAD stayed on the original: the transcript still shows it, and it has two versions.
  await expect(page.locator("article.msg-assistant").last()).toContainText("on Friday at 09:00");
  await expect(page.locator("article.msg-assistant").last()).toContainText("1/2");
});

test("[R237] several models: one message asked of two models, continued from the second", async ({
  page,
}, testInfo) => {
  // Two turns, two slow streams and four screenshots.
  test.slow();
  await newSession(page, "E2E several models");
  await script("Hello there.", "The title");
  await sendAndWait(page, "Hello");

  // From the header's model picker: this chat's model starts ticked, one more is added.
  await page.getByRole("button", { name: /^Model: spindle-test-model/ }).click();
  await saveScreenshot(page, testInfo, "model-picker-ask-several");
  await page.getByRole("button", { name: "Ask several models…" }).click();
  const picker = page.getByRole("group", { name: "Models to ask" });
  await expect(picker.getByLabel("spindle-test-model")).toBeChecked();
  await expect(picker.getByLabel("spindle-test-model")).toBeFocused();
  await picker.getByLabel("spindle-other-model").check();
  await picker.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Asking" })).toContainText(
    "spindle-test-model, spindle-other-model",
  );

  // Slow replies: the two columns open at send and fill in while both stream.
  await scriptBehaviours(
    [
      "Blue, because the sky over Lisbon is blue in June.",
      "Green, because the hills of Sintra are green in June.",
    ].map((text) => ({ kind: "reply", text, chunkDelayMs: 500 })),
  );
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Name a colour and say why.");
  await box.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Replies side by side" });
  await expect(dialog.getByText("streaming…")).toHaveCount(2);
  await saveScreenshot(page, testInfo, "several-models-streaming");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(dialog.getByText("streaming…")).toHaveCount(0);
  const cells = dialog.locator("article[data-node-id]");
  await expect(cells).toHaveCount(2);
  await expect(dialog.locator("ins, del").first()).toBeVisible();
  await saveScreenshot(page, testInfo, "several-models");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, testInfo, "several-models-narrow");
  await page.setViewportSize({ width: 1400, height: 900 });

  const second = (await cells.nth(1).locator("div").last().innerText()).trim();
  expect(second).toMatch(/because the/);
  await dialog.getByRole("button", { name: "Continue from here" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator("article.msg-assistant").last()).toContainText(second.slice(0, 20));
  await expect(page.locator("article.msg-assistant").last()).toContainText("2/2");
});

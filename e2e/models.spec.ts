import { expect, test } from "./support/test";
import { expectAccessible } from "./support/axe";
import { expectReachable } from "./support/reachable";
import { FAKE_OPENAI_URL } from "./support/servers";
import { saveScreenshot } from "./support/screenshots";
import { newSession } from "./support/session";

// Models within reach (issue 21), against the scripted OpenAI-protocol server, which lists
// two models: the server default `spindle-test-model` and `spindle-other-model`.

async function reset(): Promise<void> {
  await fetch(`${FAKE_OPENAI_URL}/_control/reset`, { method: "POST" });
}

interface Recorded {
  path: string;
  body?: { model?: string; messages?: { role: string; content: unknown }[] };
}

/** The model of each chat request whose last message is `question`, in order. */
async function modelsAsked(question: string): Promise<string[]> {
  const res = await fetch(`${FAKE_OPENAI_URL}/_control/requests`);
  const requests = (await res.json()) as Recorded[];
  return requests
    .filter((r) => r.path.endsWith("/chat/completions"))
    .filter((r) => r.body?.messages?.at(-1)?.content === question)
    .map((r) => r.body?.model ?? "");
}

test("[R203] [R210] models: the badge's picker changes the next replies' model, shown on each reply; Retry with… adds a sibling by another model", async ({
  page,
}, testInfo) => {
  test.slow();
  await reset();
  await newSession(page, "Two models");
  const box = page.getByRole("textbox", { name: "Message" });
  const replies = page.locator("article.msg-assistant");

  await box.fill("First question");
  await box.press("Enter");
  await expect(replies.last()).toContainText("You said: First question");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  // The reply says which model wrote it, and its tokens.
  await expect(replies.last().locator(".reply-facts")).toContainText("spindle-test-model");
  await expect(replies.last().locator(".msg-usage")).toContainText(/\d+ in · \d+ out/);

  // The badge opens the picker: searchable, each model with its window and tools.
  await page.getByRole("button", { name: /^Model: spindle-test-model/ }).click();
  const picker = page.getByRole("dialog", { name: "Model for this session's next turns" });
  await expect(picker.getByRole("button", { name: /spindle-other-model/ })).toBeVisible();
  await expect(picker.getByRole("button", { name: /spindle-test-model/ })).toContainText(
    /window.*(calls tools|no tools)/,
  );
  await picker.getByRole("searchbox", { name: "Search models" }).fill("other");
  await expect(picker.getByRole("button", { name: /spindle-test-model/ })).toHaveCount(0);
  await expectAccessible(page, "model picker");
  await saveScreenshot(page, testInfo, "model-picker");
  // A name the provider does not list: the picker says so.
  await picker.getByRole("searchbox", { name: "Search models" }).fill("no-such-model");
  await expect(picker).toContainText("Not listed by the provider");
  await picker.getByRole("searchbox", { name: "Search models" }).fill("other");
  await picker.getByRole("button", { name: /spindle-other-model/ }).click();
  await expect(picker).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Model: spindle-other-model/ })).toBeVisible();

  await box.fill("Second question");
  await box.press("Enter");
  await expect(replies.last()).toContainText("You said: Second question");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(replies.last().locator(".reply-facts")).toContainText("spindle-other-model");

  // Retry with… the default model: a sibling written by it; the session keeps its choice.
  await replies.last().hover();
  await replies.last().getByRole("button", { name: "Retry with another model" }).click();
  const retry = page.getByRole("dialog", { name: "Retry this reply with" });
  await retry.getByRole("button", { name: /spindle-test-model/ }).click();
  await expect(page.locator("article.msg-assistant .siblings-count").last()).toHaveText("2/2");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(replies.last().locator(".reply-facts")).toContainText("spindle-test-model");
  await expect(page.getByRole("button", { name: /^Model: spindle-other-model/ })).toBeVisible();
  expect(await modelsAsked("First question")).toEqual(["spindle-test-model"]);
  expect(await modelsAsked("Second question")).toEqual([
    "spindle-other-model",
    "spindle-test-model",
  ]);

  // On a phone the same picker opens inside the screen, every model in it reachable.
  await page.setViewportSize({ width: 390, height: 844 });
  await replies.last().scrollIntoViewIfNeeded();
  await replies.last().getByRole("button", { name: "Retry with another model" }).click();
  await expectReachable(page, retry, "the Retry with… picker");
  const other = retry.getByRole("button", { name: /spindle-other-model/ });
  await expectReachable(page, other, "a model in the picker");
  await expectAccessible(page, "Retry with… on a phone");
  await saveScreenshot(page, testInfo, "retry-with-phone");
  await other.click();
  await expect(page.locator("article.msg-assistant .siblings-count").last()).toHaveText("3/3");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(replies.last().locator(".reply-facts")).toContainText("spindle-other-model");
  expect(await modelsAsked("Second question")).toEqual([
    "spindle-other-model",
    "spindle-test-model",
    "spindle-other-model",
  ]);
});

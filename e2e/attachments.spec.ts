import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { scriptReplies as script } from "./support/scripted";
import { expectAccessible } from "./support/axe";
import { FAKE_OPENAI_URL } from "./support/servers";
import { saveScreenshot } from "./support/screenshots";
import { newSession, openSearch } from "./support/session";

/**
 * Attachments in the browser (issue 24), against the scripted OpenAI-protocol server: its
 * model is unknown to the registry, so it reads no images until the session's "Images"
 * setting says it does — which is how the image path is driven here (the offline model
 * never reads images). The app under test caps one file at 1,000,000 bytes
 * (`SPINDLE_MAX_ATTACHMENT_BYTES`, playwright.config.ts), so the page's check is seen to
 * follow the server's setting, not the default.
 */

interface Recorded {
  path: string;
  body?: { messages?: { role: string; content: unknown }[] };
}

/** The chat requests the scripted server received, oldest first. */
async function chatRequests(): Promise<Recorded[]> {
  const res = await fetch(`${FAKE_OPENAI_URL}/_control/requests`);
  return ((await res.json()) as Recorded[]).filter((r) => r.path.endsWith("/chat/completions"));
}

/** Pastes a PNG drawn in the page (480×320) into `target`, as a screenshot paste does. */
async function pasteImage(target: Locator, name: string): Promise<void> {
  await target.evaluate(async (el, fileName) => {
    const canvas = document.createElement("canvas");
    canvas.width = 480;
    canvas.height = 320;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    // A small diagram: two boxes and an arrow.
    ctx.fillStyle = "#f8f9fa";
    ctx.fillRect(0, 0, 480, 320);
    ctx.fillStyle = "#3b5bdb";
    ctx.fillRect(40, 110, 140, 100);
    ctx.fillStyle = "#ffd43b";
    ctx.fillRect(300, 110, 140, 100);
    ctx.strokeStyle = "#343a40";
    ctx.lineWidth = 6;
    ctx.beginPath();
    ctx.moveTo(190, 160);
    ctx.lineTo(290, 160);
    ctx.moveTo(270, 145);
    ctx.lineTo(290, 160);
    ctx.lineTo(270, 175);
    ctx.stroke();
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("no PNG"))), "image/png"),
    );
    const data = new DataTransfer();
    data.items.add(new File([blob], fileName, { type: "image/png" }));
    el.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, name);
}

/** Drops a text file onto `target` (dragenter, dragover, drop), as a file manager does. */
async function dropTextFile(target: Locator, name: string, text: string): Promise<void> {
  await target.evaluate(
    (el, file) => {
      const data = new DataTransfer();
      data.items.add(new File([file.text], file.name, { type: "text/plain" }));
      for (const type of ["dragenter", "dragover", "drop"]) {
        el.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      }
    },
    { name, text },
  );
}

/** The graph draws once the page has hydrated: the composer takes files from then on. */
async function hydrated(page: Page): Promise<void> {
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
}

async function turnOver(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
}

test("[R280] [R282] [R283] [R285] [R286] [R287] attachments: a pasted image and a dropped file are sent, shown as a thumbnail and a file card (also after a reload), the thumbnail opens a lightbox that Escape closes, search names the file", async ({
  page,
}, testInfo) => {
  test.slow();
  await script(
    "The diagram shows a blue box with an arrow to a yellow one; the notes have two lines.",
    "A diagram and notes",
  );
  await newSession(page, "Attachments");
  await hydrated(page);
  const box = page.getByRole("textbox", { name: "Message" });
  const chips = page.getByRole("list", { name: "Attached files" });

  // A pasted screenshot becomes a chip and is uploaded at once; the model cannot read it.
  await pasteImage(box, "diagram.png");
  await expect(chips.getByRole("listitem")).toHaveCount(1);
  await expect(chips.getByRole("listitem").first()).toHaveAttribute("data-status", "ready");
  await expect(chips).toContainText("diagram.png");
  await expect(page.getByRole("status").filter({ hasText: "cannot read images" })).toContainText(
    "spindle-test-model cannot read images (diagram.png)",
  );

  // The session's "Images" setting says this model reads them: the warning goes.
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel(/^Images/).selectOption("on");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("cannot read images")).toHaveCount(0);

  // A text file dropped on the transcript joins it.
  await dropTextFile(page.locator(".chat-pane"), "notes.txt", "line one of the notes\nline two\n");
  await expect(chips.getByRole("listitem")).toHaveCount(2);
  await expect(chips.locator('[data-status="ready"]')).toHaveCount(2);
  await expect(chips).toContainText(/notes\.txt\s*31 B/);
  await expect(page.getByRole("button", { name: "Remove notes.txt" })).toBeVisible();
  await box.fill("What is in these?");
  await saveScreenshot(page, testInfo, "attachments-composer");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("button", { name: "Remove diagram.png" })).toBeInViewport();
  await saveScreenshot(page, testInfo, "attachments-composer-phone");
  await page.setViewportSize({ width: 1400, height: 900 });

  // Sent: the chips go, the message shows the image and the file, the model got both.
  await box.press("Enter");
  await expect(chips).toHaveCount(0);
  await turnOver(page);
  const message = page.locator("article.msg-user").last();
  const thumb = message.getByRole("button", { name: "Open image diagram.png" });
  await expect(thumb).toBeVisible();
  const card = message.getByRole("link", { name: /notes\.txt/ });
  await expect(card).toContainText("Text file · 31 B");
  // (The title request comes after; the turn's is the one whose message has parts.)
  const request = (await chatRequests()).find((r) =>
    Array.isArray(r.body?.messages?.at(-1)?.content),
  );
  const parts = request?.body?.messages?.at(-1)?.content as { type: string; text?: string }[];
  expect(parts.map((p) => p.type)).toEqual(["text", "image_url"]);
  expect(parts[0]?.text).toContain("File: notes.txt");

  // The graph's card of that message carries the paperclip mark.
  await expect(page.getByRole("img", { name: "2 attachments" })).toBeVisible();

  // After a reload: the thumbnail loads from the session's route, the card downloads.
  await page.reload();
  const img = page.locator("article.msg-user").last().getByRole("img", { name: "diagram.png" });
  await expect(img).toHaveAttribute("loading", "lazy");
  // Scaled into 240×180 from the metadata's 480×320, before the image loads.
  await expect(img).toHaveAttribute("width", "240");
  await expect(img).toHaveAttribute("height", "160");
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(480);
  const href = await page
    .locator("article.msg-user")
    .last()
    .getByRole("link", { name: /notes\.txt/ })
    .getAttribute("href");
  const download = await page.request.get(href ?? "");
  expect(await download.text()).toBe("line one of the notes\nline two\n");
  expect(download.headers()["content-disposition"]).toMatch(/^attachment/);
  await saveScreenshot(page, testInfo, "attachments-transcript");

  // The lightbox: the image whole, closed with Escape; focus goes back to the thumbnail.
  await page.getByRole("button", { name: "Open image diagram.png" }).click();
  const lightbox = page.getByRole("dialog", { name: "Image diagram.png" });
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByRole("link", { name: "Download" })).toBeVisible();
  await expectAccessible(page, "lightbox");
  await saveScreenshot(page, testInfo, "attachments-lightbox");
  await page.keyboard.press("Escape");
  await expect(lightbox).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Open image diagram.png" })).toBeFocused();

  // Search finds the message by its file's text, and says which file matched.
  const search = await openSearch(page);
  await search.getByRole("combobox", { name: "Search conversations" }).fill("txt");
  await expect(search.getByRole("option").filter({ hasText: "in notes.txt" })).not.toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Open image diagram.png" }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("button", { name: "Open image diagram.png" })).toBeInViewport();
  await saveScreenshot(page, testInfo, "attachments-transcript-phone");
});

test("[R281] [R283] a file over the server's cap or of a refused type is said before anything is sent; a message may be only files", async ({
  page,
}) => {
  await newSession(page, "Refused files");
  await hydrated(page);
  const input = page.locator('input[type="file"]');
  const chips = page.getByRole("list", { name: "Attached files" });
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/attachments")) uploads.push(r.url());
  });

  // Over the 1,000,000-byte cap this server is configured with: refused, never uploaded.
  await input.setInputFiles({
    name: "big.log",
    mimeType: "text/plain",
    buffer: Buffer.alloc(1_000_001, "a"),
  });
  await expect(page.getByRole("alert").filter({ hasText: "big.log" })).toContainText(
    "one file may be at most 977 KB",
  );
  expect(uploads).toEqual([]);

  // Binary data: the server refuses it (415) and the chip says what it accepts.
  await input.setInputFiles({
    name: "tool.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7, 8, 0, 0]),
  });
  await expect(page.getByRole("alert").filter({ hasText: "tool.bin" })).toContainText("Accepted:");
  expect(uploads).toHaveLength(1);

  // Send is held while a refused file remains; nothing is written.
  await page.getByRole("textbox", { name: "Message" }).fill("Here you go");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "first" })).toContainText(
    "Remove big.log, tool.bin first",
  );
  await expect(page.locator("article.msg-user")).toHaveCount(0);

  // Removed (by keyboard), and a good file added: a message of only that file is sent.
  await page.getByRole("button", { name: "Remove big.log" }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Remove tool.bin" }).click();
  await expect(chips).toHaveCount(0);
  await page.getByRole("textbox", { name: "Message" }).fill("");
  await input.setInputFiles({
    name: "main.ts",
    mimeType: "video/mp2t",
    buffer: Buffer.from("export const answer = 42;\n"),
  });
  await expect(chips.locator('[data-status="ready"]')).toHaveCount(1);
  await page.getByRole("button", { name: "Send" }).click();
  await turnOver(page);
  const message = page.locator("article.msg-user").last();
  await expect(message.getByRole("link", { name: /main\.ts/ })).toBeVisible();
  await expect(message.locator(".msg-body")).toHaveCount(0);
  await expect(page.getByRole("img", { name: "1 attachment" })).toBeVisible();
});

test("[R284] a new chat holds its files until the first message, then sends them with it", async ({
  page,
}) => {
  await page.goto("/new");
  // Typed once the page has hydrated (Send reacts to the text then); files are taken from then.
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(async () => {
    await box.fill("What is left?");
    await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.locator('input[type="file"]').setInputFiles({
    name: "todo.md",
    mimeType: "text/markdown",
    buffer: Buffer.from("- write the tests\n- ship\n"),
  });
  const chips = page.getByRole("list", { name: "Attached files" });
  await expect(chips.locator('[data-status="held"]')).toHaveCount(1);
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);
  await turnOver(page);
  const message = page.locator("article.msg-user").last();
  await expect(message).toContainText("What is left?");
  await expect(message.getByRole("link", { name: /todo\.md/ })).toBeVisible();
});

import { expect, test } from "./support/test";
import { expectAccessible } from "./support/axe";
import { newSession, openSearch } from "./support/session";

test("[R112] accessibility: home, session, settings and search pass axe in both themes", async ({
  page,
}) => {
  // Eight axe scans and a turn: on two busy cores that is more than the default 30 s.
  test.slow();
  await newSession(page, "Accessible session");
  const session = page.url();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Is this readable with a screen reader?");
  await box.press("Enter");
  await expect(page.locator("article.msg-assistant")).toContainText("offline model");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);

  // The context meter speaks its value.
  const meter = page.getByRole("meter", { name: "Context usage" });
  await expect(meter).toHaveAttribute("aria-valuenow", /^[1-9]\d*$/);
  await expect(meter).toHaveAttribute("aria-valuemax", /^[1-9]\d*$/);

  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expectAccessible(page, `home (${theme})`);

    const search = await openSearch(page);
    await search.getByRole("combobox").fill("screen reader");
    await expect(search.getByRole("option").first()).toBeVisible();
    await expectAccessible(page, `search (${theme})`);
    await page.keyboard.press("Escape");
    await expect(search).toHaveCount(0);

    await page.goto(session);
    await expect(page.locator(".react-flow__node").first()).toBeVisible();
    await expectAccessible(page, `session (${theme})`);

    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("form", { name: "Session settings" })).toBeVisible();
    await expectAccessible(page, `settings (${theme})`);
    // Closed like any popover: Escape (focus back on its button), or a press outside it.
    await page.keyboard.press("Escape");
    await expect(page.getByRole("form", { name: "Session settings" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Settings" })).toBeFocused();
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("form", { name: "Session settings" })).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).click();
    await expect(page.getByRole("form", { name: "Session settings" })).toHaveCount(0);
  }
});

/** A 1×1 PNG: an image the offline model cannot read, so its warning shows. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("[R112] [R281] [R282] the composer's files — chips, a refused file's reason, the no-vision warning — pass axe in both themes", async ({
  page,
}) => {
  test.slow();
  await newSession(page, "Accessible files");
  // The graph draws once the page has hydrated: the file input listens from then on.
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await page.locator('input[type="file"]').setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("some notes\n") },
    { name: "dot.png", mimeType: "image/png", buffer: PNG },
    { name: "raw.bin", mimeType: "application/octet-stream", buffer: Buffer.from([0, 1, 0, 2]) },
  ]);
  const chips = page.getByRole("list", { name: "Attached files" });
  await expect(chips.locator('[data-status="ready"]')).toHaveCount(2);
  await expect(chips.locator('[data-status="refused"]')).toHaveCount(1);
  await expect(page.getByText("offline model cannot read images (dot.png)")).toBeVisible();
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expectAccessible(page, `composer with files (${theme})`);
  }
});

test("[R112] narrow screens: the graph is a drawer and the transcript takes the width", async ({
  page,
}) => {
  await page.setViewportSize({ width: 640, height: 900 });
  await newSession(page, "Narrow screen");

  const graph = page.getByRole("dialog", { name: "Conversation graph" });
  await expect(graph).toHaveCount(0);
  const transcript = await page.locator(".chat-pane").boundingBox();
  expect(transcript?.width).toBeGreaterThan(600);

  // Under 720 px the graph toggle is in the session menu (issue 21).
  await page.getByRole("button", { name: "Session menu" }).click();
  await page.getByRole("menuitem", { name: "Show graph" }).click();
  await expect(graph).toBeVisible();
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(graph).toHaveCount(0);
});

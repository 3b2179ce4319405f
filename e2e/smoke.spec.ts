import { countSessions } from "./support/session";
import { expect, test } from "./support/test";

test("health reports SQLite, migrated, offline model", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.ok()).toBe(true);
  expect(await res.json()).toEqual({
    ok: true,
    db: "sqlite",
    migrations: "up to date",
    model: "offline",
    modelLabel: "offline model",
  });
});

test("home lists sessions and creates one", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Spindle" })).toBeVisible();
  const title = `Smoke ${Date.now()}`;
  await page.getByLabel("New session title").fill(title);
  await page.getByRole("button", { name: "New session" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Sessions" }).getByText(title)).toBeVisible();
  const shot = testInfo.outputPath("home.png");
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach("home", { path: shot, contentType: "image/png" });

  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: `Delete ${title}` }).click({ force: true });
  await expect(page.getByRole("list", { name: "Sessions" }).getByText(title)).toHaveCount(0);
});

test("New session with nothing set opens a new chat and writes nothing until it is used", async ({
  page,
  request,
}) => {
  const before = await countSessions(request);
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  await page.waitForURL(/\/new$/);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await page.goto("/");
  expect(await countSessions(request)).toBe(before);
});

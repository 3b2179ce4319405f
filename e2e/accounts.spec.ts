import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { ADMIN, ADMIN_STATE } from "./support/admin";

/** For what waits on a password hash (scrypt): seconds on two shared cores. */
const afterHash = expect.configure({ timeout: 20_000 });

const BOB = { name: "Bob", email: "bob@example.com", password: "bobs-password-1" };

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("first run: sign-up, chat, sign-out; another account cannot open the session", async ({
  page,
  browser,
}, testInfo) => {
  // Several password hashes (scrypt) and a turn: on two shared cores more than 30 s.
  test.slow();
  // A fresh server sends its first visitor to create the admin account.
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole("heading", { name: "Create the admin account" })).toBeVisible();
  const shot = testInfo.outputPath("sign-up.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("sign-up", { path: shot, contentType: "image/png" });
  await page.getByLabel("Name").fill(ADMIN.name);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await afterHash(page.getByRole("navigation", { name: "Account" })).toContainText(ADMIN.name);

  // Chat.
  await page.getByLabel("New session title").fill("Private thoughts");
  await page.getByRole("button", { name: "New session" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);
  const sessionUrl = page.url();
  const box = page.getByLabel("Message");
  await box.fill("Only I may read this");
  await box.press("Enter");
  await expect(page.locator("article.msg-assistant").last()).toContainText("Only I may read this");
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);

  // The admin creates a second account (sign-up is closed after the first).
  await page.goto("/admin");
  await page.getByLabel("Name").fill(BOB.name);
  await page.getByLabel("Email").fill(BOB.email);
  await page.getByLabel("Initial password").fill(BOB.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await afterHash(page.getByRole("cell", { name: BOB.email, exact: true })).toBeVisible();

  // Sign out: the session URL now shows the sign-in page.
  await page.getByRole("button", { name: "Sign out" }).click();
  await afterHash(page).toHaveURL(/\/sign-in/);
  await page.goto(sessionUrl);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByText("Only I may read this")).toHaveCount(0);

  // A wrong password is told plainly.
  await signIn(page, ADMIN.email, "not the password");
  await afterHash(page.locator(".auth-error")).toHaveText(/invalid email or password/i);

  // Bob, in another browser, gets the not-found page for the admin's session.
  const other = await browser.newContext();
  const bob = await other.newPage();
  await bob.goto("/sign-in");
  await signIn(bob, BOB.email, BOB.password);
  await afterHash(bob.getByRole("navigation", { name: "Account" })).toContainText(BOB.name);
  const res = await bob.goto(sessionUrl);
  expect(res?.status()).toBe(404);
  await expect(bob.getByText("Only I may read this")).toHaveCount(0);
  await expect(bob.getByRole("heading", { level: 1 })).toContainText(/not found/i);
  await other.close();

  // Signing back in returns to the session; that sign-in is kept for the other flows.
  await page.goto(sessionUrl);
  await signIn(page, ADMIN.email, ADMIN.password);
  await afterHash(page).toHaveURL(sessionUrl);
  await expect(page.locator("article.msg-assistant").last()).toContainText("Only I may read this");
  await page.context().storageState({ path: ADMIN_STATE });
});

test("[R202] passwords: change yours and sign in with it; an admin's reset forces a new one", async ({
  browser,
}) => {
  // Eight password hashes: more than 30 s on two shared cores.
  test.slow();
  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await bob.goto("/sign-in");
  await signIn(bob, BOB.email, BOB.password);
  await afterHash(bob.getByRole("navigation", { name: "Account" })).toContainText(BOB.name);

  // Bob changes his password on the Account page, signs out, and signs in with the new one.
  await bob.goto("/account");
  const change = bob.getByRole("region", { name: "Change password" });
  await change.getByLabel("Current password").fill("not bobs password");
  await change.getByLabel("New password", { exact: true }).fill("bobs-second-password");
  await change.getByLabel("New password again").fill("bobs-second-password");
  await change.getByRole("button", { name: "Change password" }).click();
  await afterHash(change.getByRole("alert")).toHaveText("The current password is not correct.");
  await change.getByLabel("Current password").fill(BOB.password);
  await change.getByRole("button", { name: "Change password" }).click();
  await afterHash(change.getByRole("status")).toContainText("Password changed");
  await bob.getByRole("button", { name: "Sign out" }).click();
  await afterHash(bob).toHaveURL(/\/sign-in/);
  await signIn(bob, BOB.email, BOB.password);
  await afterHash(bob.locator(".auth-error")).toHaveText(/invalid email or password/i);
  await signIn(bob, BOB.email, "bobs-second-password");
  await afterHash(bob.getByRole("navigation", { name: "Account" })).toContainText(BOB.name);

  // He forgets it; the admin sets a temporary one, which ends his sign-in.
  const adminContext = await browser.newContext({ storageState: ADMIN_STATE });
  const admin = await adminContext.newPage();
  await admin.goto("/admin");
  await admin.getByRole("button", { name: `Set a new password for ${BOB.email}` }).click();
  const dialog = admin.getByRole("dialog", { name: `New password for ${BOB.email}` });
  await dialog.getByLabel(/Temporary password/).fill("temporary-for-bob");
  await dialog.getByRole("button", { name: "Set password" }).click();
  await afterHash(admin.getByRole("status")).toContainText(`Password set for ${BOB.email}`);
  await expect(admin.getByRole("row", { name: new RegExp(BOB.email) })).toContainText("temporary");
  // On a phone each account is a card, each value labelled: nothing scrolls sideways and
  // the actions stay on screen.
  await admin.setViewportSize({ width: 390, height: 844 });
  const table = admin.getByRole("region", { name: "Accounts table" });
  expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  const reset = admin.getByRole("button", { name: `Set a new password for ${BOB.email}` });
  await reset.scrollIntoViewIfNeeded();
  const box = await reset.boundingBox();
  expect((box?.x ?? 390) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  const email = admin.getByRole("cell", { name: BOB.email, exact: true });
  await expect(email).toBeVisible();
  // Each value shows its column's name beside it (generated content, not read twice).
  expect(await email.evaluate((el) => getComputedStyle(el, "::before").content)).not.toBe("none");
  await adminContext.close();

  await bob.goto("/");
  await expect(bob).toHaveURL(/\/sign-in/);
  await signIn(bob, BOB.email, "temporary-for-bob");
  // Every page sends him to choose his own before anything else.
  await afterHash(bob).toHaveURL(/\/account\/password$/);
  await bob.goto("/");
  await expect(bob).toHaveURL(/\/account\/password$/);
  const forced = bob.getByRole("region", { name: "Choose a new password" });
  await forced.getByLabel("Current password").fill("temporary-for-bob");
  await forced.getByLabel("New password", { exact: true }).fill("bobs-own-password");
  await forced.getByLabel("New password again").fill("bobs-own-password");
  await forced.getByRole("button", { name: "Change password" }).click();
  await afterHash(bob).toHaveURL(/\/$/);
  await expect(bob.getByRole("navigation", { name: "Account" })).toContainText(BOB.name);
  await bobContext.close();
});

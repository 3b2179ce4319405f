import { expect, test } from "./support/test";
import { FAKE_OPENAI_URL } from "./support/servers";
import { saveScreenshot } from "./support/screenshots";
import { newSession } from "./support/session";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const CODE =
  'def fib(n: int) -> int:\n    """The n-th Fibonacci number."""\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a';

const REPLY = [
  "Here is an iterative **Fibonacci** in Python:",
  "",
  "```python",
  CODE,
  "```",
  "",
  "| n | fib(n) |",
  "|---|---|",
  "| 10 | 55 |",
  "| 20 | 6765 |",
  "",
  "It runs in $$O(n)$$ time; see [the docs](https://docs.python.org/3/).",
].join("\n");

test("[R111] markdown: a code reply is highlighted and its copy button puts the code on the clipboard", async ({
  page,
}, testInfo) => {
  await fetch(`${FAKE_OPENAI_URL}/_control/reset`, { method: "POST" });
  const scripted = await fetch(`${FAKE_OPENAI_URL}/_control/enqueue`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ behaviours: [{ kind: "reply", text: REPLY }] }),
  });
  expect(scripted.ok).toBe(true);

  await newSession(page, "Fibonacci in Python");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Write fib in Python, with a table of values.");
  await box.press("Enter");

  const reply = page.locator("article.msg-assistant").last();
  const block = reply.locator('[data-streamdown="code-block"]');
  await expect(block).toHaveAttribute("data-language", "python");
  // Shiki has coloured the tokens: the keyword `def` carries a theme colour.
  await expect(block.locator("span", { hasText: /^def$/ }).first()).toHaveAttribute(
    "style",
    /--sdm-c/,
  );
  await expect(reply.locator("table")).toContainText("6765");
  await expect(reply.locator(".katex").first()).toBeVisible();
  const link = reply.getByRole("link", { name: "the docs" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener noreferrer/);

  await block.getByRole("button", { name: "Copy Code" }).click();
  // The block's text exactly (a final newline is the only thing allowed to differ).
  await expect
    .poll(async () => (await page.evaluate(() => navigator.clipboard.readText())).trimEnd())
    .toBe(CODE);

  // The page is rendered on the server: the code block is in the HTML before any script runs.
  const html = await (await page.request.get(page.url())).text();
  expect(html).toContain('data-streamdown="code-block"');

  await saveScreenshot(page, testInfo, "session-code");
});

test("[R112] dark mode: the toggle switches the theme, the graph and the code follow, and it survives a reload", async ({
  page,
}, testInfo) => {
  await fetch(`${FAKE_OPENAI_URL}/_control/reset`, { method: "POST" });
  await fetch(`${FAKE_OPENAI_URL}/_control/enqueue`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ behaviours: [{ kind: "reply", text: REPLY }] }),
  });
  await newSession(page, "Dark mode");
  await page.getByRole("textbox", { name: "Message" }).fill("Fibonacci, in the dark.");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(page.locator('[data-streamdown="code-block"]')).toBeVisible();

  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "light");
  const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const def = page.locator('[data-streamdown="code-block"] span', { hasText: /^def$/ }).first();
  const tokenColour = () => def.evaluate((e) => getComputedStyle(e).color);
  const lightToken = await tokenColour();
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.locator(".react-flow.dark")).toBeVisible();

  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
  const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(darkBg).not.toBe(lightBg);
  // Code tokens take the dark theme's colour.
  expect(await tokenColour()).not.toBe(lightToken);
  await saveScreenshot(page, testInfo, "session-dark");

  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(html).toHaveAttribute("data-theme", "light");
});

import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Playwright's `test`, with one guard every spec runs under ([R149]): a page of the app that
 * breaks its Content Security Policy — an inline script without the response's nonce, an
 * injected handler, a resource from elsewhere — fails the test that opened it. Chromium
 * reports each violation on the console; the guard collects them from every page of the
 * test's browser context. Specs import `test` from here (an ESLint rule says so).
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ context }, use, testInfo) => {
      const violations: string[] = [];
      context.on("console", (message) => {
        if (message.type() !== "error" || !message.text().includes("Content Security Policy")) {
          return;
        }
        violations.push(`${message.location().url}: ${message.text()}`);
      });
      await use();
      if (violations.length > 0) {
        testInfo.annotations.push({ type: "csp", description: violations.join("\n") });
        throw new Error(`Content Security Policy violations:\n${violations.join("\n")}`);
      }
    },
    { auto: true },
  ],
});

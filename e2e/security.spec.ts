import { expect, test } from "./support/test";

const API_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** One directive of a policy, e.g. `script-src`. */
function directive(policy: string | undefined, name: string): string {
  const found = (policy ?? "").split(";").find((d) => d.trim().startsWith(`${name} `));
  return found?.trim() ?? "";
}

function nonceOf(policy: string | undefined): string {
  return /'nonce-([^']+)'/.exec(directive(policy, "script-src"))?.[1] ?? "";
}

test("[R149] every page has a fresh script nonce, on each of its scripts, and no 'unsafe-inline' script", async ({
  request,
}) => {
  const first = await request.get("/");
  const second = await request.get("/");
  const policy = first.headers()["content-security-policy"];
  const scripts = directive(policy, "script-src");
  expect(scripts).toContain("'strict-dynamic'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  const nonce = nonceOf(policy);
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(nonceOf(second.headers()["content-security-policy"])).not.toBe(nonce);
  expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");

  // Next's bootstrap and chunks and the theme's pre-hydration script all carry it.
  const tags = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(tags.length).toBeGreaterThan(3);
  for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);

  // Data answers may run nothing at all; a file opened on its own is sandboxed.
  const health = await request.get("/api/health");
  expect(health.headers()["content-security-policy"]).toBe(API_POLICY);
});

test("[R149] [R269] an attachment opened on its own is sandboxed, whatever it holds", async ({
  request,
  baseURL,
}) => {
  const created = await request.post("/api/sessions", {
    data: { title: "CSP of a file" },
    headers: { origin: baseURL ?? "" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const upload = await request.post(`/api/sessions/${id}/attachments`, {
    multipart: {
      file: { name: "page.html", mimeType: "text/html", buffer: Buffer.from("<script>1</script>") },
    },
    headers: { origin: baseURL ?? "" },
  });
  expect(upload.status()).toBe(201);
  const file = (await upload.json()) as { id: string };
  const served = await request.get(`/api/sessions/${id}/attachments/${file.id}`);
  expect(served.headers()["content-security-policy"]).toBe(API_POLICY);
  expect(served.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(served.headers()["content-disposition"]).toMatch(/^attachment;/);
  await request.delete(`/api/sessions/${id}`, { headers: { origin: baseURL ?? "" } });
});

test("[R149] markup injected into a page cannot run script, and the guard sees the attempt", async ({
  browser,
}) => {
  // A context of its own: this test breaks the policy on purpose, which the guard of the
  // test's own context would (rightly) fail.
  const context = await browser.newContext();
  const page = await context.newPage();
  const reports: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") reports.push(m.text());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Spindle" })).toBeVisible();
  // What a sanitiser slip would let through: an inline handler and an inline script.
  await page.evaluate(() => {
    const host = document.createElement("div");
    host.innerHTML = `<img src="/no-such-image" onerror="window.__injected = 'handler'">`;
    document.body.append(host);
  });
  await expect.poll(() => reports.some((r) => r.includes("Content Security Policy"))).toBe(true);
  expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBeUndefined();
  await context.close();
});

import { expect, test } from "./support/test";
import { ADMIN_STATE } from "./support/admin";
import { newSession, send } from "./support/session";

test("chat: send, stream, retry with sibling navigation, edit, graph and provenance", async ({
  page,
}, testInfo) => {
  await newSession(page, "E2E chat");
  await expect(page.getByText("Send a message to start the conversation.")).toBeVisible();

  await send(page, "What is a spindle?");
  const reply = page.locator("article.msg-assistant").last();
  await expect(reply).toContainText("offline model");
  await expect(reply).toContainText('"What is a spindle?"');

  // Retry: a sibling reply, HEAD follows it; the version switcher shows 2/2.
  await reply.hover();
  await reply.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveText("2/2");
  await page.getByRole("button", { name: "Previous version" }).click();
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveText("1/2");

  // Edit the user message: a fork; the user turn shows 2/2.
  const user = page.locator("article.msg-user").first();
  await user.hover();
  await user.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Edit message").fill("What is a spindle, really?");
  await page.getByRole("button", { name: "Save & submit" }).click();
  await expect(page.locator("article.msg-assistant").last()).toContainText(
    "What is a spindle, really?",
  );
  await expect(page.locator("article.msg-user .siblings-count")).toHaveText("2/2");

  // Model output is rendered as sanitised Markdown: markup quoted back by the offline model
  // never runs, and the user's own text is shown as plain text.
  const hostile =
    "Say <script>window.__pwned=1</script> and <img src=x onerror=window.__pwned=2> **bold**";
  await page.getByLabel("Message").fill(hostile);
  await page.getByLabel("Message").press("Enter");
  await expect(page.locator("article.msg-user").last()).toContainText(
    "<script>window.__pwned=1</script>",
  );
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
  await expect(page.locator("article.msg-assistant").last()).toContainText("Last user message");
  expect(
    await page.locator("article.msg-assistant script, article.msg-assistant img[onerror]").count(),
  ).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();

  // The graph shows the DAG.
  await expect(page.getByRole("complementary", { name: "Conversation graph" })).toBeVisible();
  await expect(page.locator(".react-flow__node").first()).toBeVisible();

  const shot = testInfo.outputPath("chat.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("chat", { path: shot, contentType: "image/png" });
});

test("[R200] [R201] compaction: /compact in a six-message chat folds all but the latest exchange", async ({
  page,
  request,
}, testInfo) => {
  // Three turns and a compaction, each a round trip the page waits for.
  test.slow();
  const id = await newSession(page, "E2E compaction");
  const compact = page.getByRole("button", { name: "Compact" });
  await send(page, "First: apples?");
  // One exchange: nothing to compact, and the button says so before any click.
  await expect(compact).toHaveAttribute("aria-disabled", "true");
  await expect(compact).toHaveAttribute("title", /Not enough conversation/);
  for (const q of ["Second: bananas?", "Third: cherries?"]) await send(page, q);
  await expect(compact).not.toHaveAttribute("aria-disabled", "true");

  // The ordinary kept window would hold all six messages; /compact asks for it anyway.
  await page.getByLabel("Message").fill("/compact");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByRole("status")).toContainText(/Compacted 4 turns/);
  await expect(
    page.locator(".react-flow__node", { hasText: "Summary of 4 earlier turns" }),
  ).toBeVisible();
  // Only the summary and the latest exchange are read now: nothing more to do.
  await expect(compact).toHaveAttribute("aria-disabled", "true");
  await expect(page.locator(".summary-card")).toContainText(
    "The model reads a summary instead of the",
  );
  await expect(page.locator("article.msg-covered").first()).toBeVisible();

  await send(page, "Fourth: dates?");
  await expect(page.locator("article.msg-assistant").last()).toContainText("a summary stands in");
  // [R182] The graph followed HEAD and kept the capsule its branch reads in sight, whole.
  const flow = page.locator(".react-flow");
  const capsule = page.locator(".react-flow__node", { hasText: "Summary of 4 earlier turns" });
  await expect
    .poll(async () => {
      const [p, c] = await Promise.all([flow.boundingBox(), capsule.boundingBox()]);
      return p !== null && c !== null && c.y >= p.y && c.y + c.height <= p.y + p.height;
    })
    .toBe(true);

  const context = await (await request.get(`/api/sessions/${id}/context`)).json();
  expect(context.messages[1].kind).toBe("summary");

  const shot = testInfo.outputPath("compacted.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("compacted", { path: shot, contentType: "image/png" });
});

test("bad input: an unknown session is a 404 page and an empty message is refused", async ({
  page,
  request,
  baseURL,
}) => {
  const res = await page.goto("/s/01UNKNOWNSESSION00000000000");
  expect(res?.status()).toBe(404);
  // The signed-in browser's cookie, sent the way the page sends it: from its own origin.
  const headers = { origin: baseURL ?? "" };
  const s = await (await request.post("/api/sessions", { data: {}, headers })).json();
  const empty = await request.post(`/api/sessions/${s.id}/turns`, {
    data: { content: "  " },
    headers,
  });
  expect(empty.status()).toBe(400);
  expect((await empty.json()).error.code).toBe("empty_content");
  // [R87] The edge answers odd requests with clear 4xx, never a 500.
  const undecodable = await request.get("/api/sessions/%ff%fe");
  expect(undecodable.status()).toBe(400);
  expect((await undecodable.json()).error.code).toBe("invalid_request");
  expect((await request.get("/s/%ff")).status()).toBe(400);
  expect((await request.fetch("/api/sessions", { method: "TRACE" })).status()).toBe(405);
  const rebound = await request.get("/", { headers: { host: "attacker.example" } });
  expect(rebound.status()).toBe(421);
  // The API too, though the pages' proxy does not run for it: the server's edge refuses it.
  const reboundApi = await request.get("/api/sessions", { headers: { host: "attacker.example" } });
  expect(reboundApi.status()).toBe(421);
});

test("[R295] [R297] a double-clicked Send sends once and lets the reply finish; a mistyped command is refused", async ({
  page,
}) => {
  await newSession(page, "Double click");
  await page.getByLabel("Message").fill("Tell me about spindles");
  // The second click lands where Send was, on Stop: it must not stop the reply just sent.
  await page.getByRole("button", { name: "Send" }).dblclick();
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
  await expect(page.locator("article.msg-assistant .msg-status.interrupted")).toHaveCount(0);
  await expect(page.locator("article.msg-user")).toHaveCount(1);
  await expect(page.locator("article.msg-assistant").last()).toContainText(
    '"Tell me about spindles"',
  );
  // A typo of /compact is refused instead of going to the model as a message.
  await page.getByLabel("Message").fill("/compcat");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByText("There is no command /compcat")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("/compcat");
  await expect(page.locator("article.msg-user")).toHaveCount(1);
});

test("two tabs: a turn sent in one appears live in the other", async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const a = await context.newPage();
  const id = await newSession(a, "E2E two tabs");
  const b = await context.newPage();
  // Tab B's event stream must be connected before tab A writes.
  const subscribed = b.waitForResponse((r) => r.url().includes(`/api/sessions/${id}/events`));
  await b.goto(`/s/${id}`);
  await subscribed;
  await expect(b.getByText("Send a message to start the conversation.")).toBeVisible();

  await send(a, "Hello from tab A");
  await expect(b.locator("article.msg-user").last()).toContainText("Hello from tab A");
  await expect(b.locator("article.msg-assistant").last()).toContainText('"Hello from tab A"');
  await expect(b.locator(".msg-status.streaming")).toHaveCount(0);
  await context.close();
});

test("delete branch: removing a retried reply falls back to the other version", async ({
  page,
}) => {
  await newSession(page, "E2E delete branch");
  await send(page, "Keep or drop?");
  const reply = page.locator("article.msg-assistant").last();
  await reply.hover();
  await reply.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveText("2/2");
  page.once("dialog", (d) => void d.accept());
  const tip = page.locator("article.msg-assistant").last();
  await tip.hover();
  await tip.getByRole("button", { name: "Delete branch" }).click();
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveCount(0);
  await expect(page.locator("article.msg-assistant")).toHaveCount(1);
});

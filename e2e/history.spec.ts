import { readFileSync } from "node:fs";
import { expect, test } from "./support/test";
import { saveScreenshot } from "./support/screenshots";
import { newSession, openSearch, send } from "./support/session";

/** A ledger's shape without its ids: each node's kind, status, content and parent's seq. */
function shape(ledger: {
  nodes: {
    id: string;
    seq: number;
    kind: string;
    status: string;
    content: string;
    predecessorId: string | null;
  }[];
}) {
  const seqOf = new Map(ledger.nodes.map((n) => [n.id, n.seq]));
  return ledger.nodes
    .map((n) => ({
      seq: n.seq,
      kind: n.kind,
      status: n.status,
      content: n.content,
      parent: n.predecessorId === null ? null : seqOf.get(n.predecessorId),
    }))
    .sort((a, b) => a.seq - b.seq);
}

test("[R104] search: a word from an old session, on a dead branch, opens the session at that node", async ({
  page,
}, testInfo) => {
  // Two sessions, four turns and three page loads.
  test.slow();
  const id = await newSession(page, "Ferry planning");
  await send(page, "Which pelican ferry leaves Zanzibar at dawn?");
  // Edit the question: the pelican question is now on a dead branch.
  const user = page.locator("article.msg-user").first();
  await user.hover();
  await user.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Edit message").fill("Which ferry leaves Stone Town at noon?");
  await page.getByRole("button", { name: "Save & submit" }).click();
  await expect(page.locator("article.msg-user .siblings-count")).toHaveText("2/2");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await newSession(page, "Something else");

  await page.goto("/");
  const dialog = await openSearch(page);
  await dialog.getByRole("combobox", { name: "Search conversations" }).fill("pelican");
  const hit = dialog.getByRole("option").filter({ hasText: "Ferry planning" }).first();
  await expect(hit).toContainText("dead branch");
  await expect(hit.locator("mark").first()).toHaveText(/pelican/i);
  await saveScreenshot(page, testInfo, "search");

  await hit.click();
  await page.waitForURL(new RegExp(`/s/${id}`));
  // That branch is checked out: the pelican question is in the transcript, version 1/2.
  await expect(page.locator("article.msg-user").first()).toContainText("pelican ferry");
  await expect(page.locator("article.msg-user .siblings-count")).toHaveText("1/2");
  await expect(page).not.toHaveURL(/node=/);

  // Punctuation only: a clear empty result, not an error.
  await openSearch(page);
  await page.getByRole("combobox", { name: "Search conversations" }).fill('"*:(-)&|!"');
  await expect(page.getByRole("dialog").getByRole("status")).toHaveText("No matches.");
});

test("history: rename, export and re-import give the same graph", async ({ page, baseURL }) => {
  const id = await newSession(page, "To be renamed");
  await send(page, "First question about spindles");
  const reply = page.locator("article.msg-assistant").last();
  await reply.hover();
  await reply.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveText("2/2");
  // The retried reply streams; the composer takes the next message once it is sealed.
  await expect(page.locator(".msg-status.streaming")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await send(page, "Second question on the retried branch");

  await page.getByRole("button", { name: "Session menu" }).click();
  await page.getByRole("menuitem", { name: "Rename…" }).click();
  await page.getByRole("textbox", { name: "Title" }).fill("Spindles, renamed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Spindles, renamed" })).toBeVisible();

  // The menu's export is a download of the JSON ledger.
  await page.getByRole("button", { name: "Session menu" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export JSON" }).click();
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, "utf8"));
  expect(exported.session.title).toBe("Spindles, renamed");

  await page.goto("/import");
  await page.getByLabel("File to import").setInputFiles(file);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Imported 1 of 1");
  await page.getByRole("link", { name: "Spindles, renamed" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);
  const copy = page.url().split("/s/")[1] ?? "";
  expect(copy).not.toBe(id);
  await expect(page.locator("article.msg-assistant .siblings-count")).toHaveText("2/2");

  const headers = { origin: baseURL ?? "" };
  const again = await (await page.request.get(`/api/sessions/${copy}/export`, { headers })).json();
  expect(shape(again)).toEqual(shape(exported));
  const [a, b] = await Promise.all(
    [id, copy].map(async (s) => (await page.request.get(`/api/sessions/${s}/graph`)).json()),
  );
  // The same graph: row for row, the same kind, place among siblings, children and HEAD.
  type Row = Record<
    "kind" | "seq" | "siblingIndex" | "siblingCount" | "childCount" | "onHeadSpine",
    unknown
  >;
  const rows = (g: { nodes: Row[] }) =>
    g.nodes.map(({ kind, siblingIndex, siblingCount, childCount, onHeadSpine }) => ({
      kind,
      siblingIndex,
      siblingCount,
      childCount,
      onHeadSpine,
    }));
  expect(rows(b)).toEqual(rows(a));
});

test("[R94] history: a ChatGPT export imports with its edits and regenerations as branches", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Import" }).click();
  await page
    .getByLabel("File to import")
    .setInputFiles("tests/fixtures/chatgpt/conversations.json");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Imported 2 of 2");
  await page.getByRole("link", { name: "Weekend in Lisbon" }).click();
  await page.waitForURL(/\/s\/[0-9A-Z]+$/);

  // HEAD is the export's current_node: the pastéis answer, on the second regeneration of the
  // first reply and the first of two versions of the follow-up question.
  await expect(page.locator("article.msg-assistant").last()).toContainText("pastéis de nata");
  await expect(page.locator("article.msg-assistant .siblings-count").first()).toHaveText("2/2");
  await expect(page.locator("article.msg-user .siblings-count")).toHaveText("1/2");
  await page.getByRole("button", { name: "Next version" }).last().click();
  await expect(page.locator("article.msg-user").last()).toContainText("[image]");
  await expect(page.locator("article.msg-assistant").last()).toContainText("bifana");
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await saveScreenshot(page, testInfo, "chatgpt-import");

  // The home page lists the imports with their counts.
  await page.goto("/");
  const row = page.getByRole("list", { name: "Sessions" }).getByRole("listitem").filter({
    hasText: "Weekend in Lisbon",
  });
  await expect(row).toContainText("3 branches");
  await saveScreenshot(page, testInfo, "home");
});

test("[R107] history: a new session from this branch under another system prompt", async ({
  page,
}) => {
  const id = await newSession(page, "Herons");
  await send(page, "Tell me about herons");
  await page.getByRole("button", { name: "Session menu" }).click();
  await page.getByRole("menuitem", { name: "New session with another prompt…" }).click();
  const dialog = page.getByRole("dialog", { name: "New session with another system prompt" });
  await expect(dialog.getByRole("textbox", { name: "System prompt" })).toHaveValue(
    "You are a helpful assistant.",
  );
  await dialog.getByRole("textbox", { name: "System prompt" }).fill("You answer like a pirate.");
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(
    (url) => /\/s\/[0-9A-Z]+$/.test(url.pathname) && !url.pathname.endsWith(id),
  );
  // The branch came along under the new ROOT; the original session is unchanged.
  await expect(page.locator("article.msg-user")).toContainText("Tell me about herons");
  await page.getByRole("button", { name: "Show system prompt" }).click();
  await expect(page.locator("pre", { hasText: "You answer like a pirate." })).toBeVisible();
  const original = await (await page.request.get(`/api/sessions/${id}/nodes`)).json();
  expect(original.nodes[0].content).toBe("You are a helpful assistant.");
});

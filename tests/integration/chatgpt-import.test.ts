import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import type { ChatGptImportResult } from "@/lib/http/schemas";
import { services } from "@/lib/server/services";
import { describeEachDatabase } from "./support/databases";
import { useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";

/**
 * Issue 12 through the real route handlers on SQLite and PostgreSQL: a ChatGPT export
 * imported one session per conversation (branches and HEAD kept, a broken conversation
 * refused on its own with nothing written), and a branch exported as Markdown.
 */

const fixture = (name: string) => readFileSync(`tests/fixtures/chatgpt/${name}.json`, "utf8");

interface WireNode {
  id: string;
  predecessorId: string | null;
  kind: string;
  content: string;
}

describeEachDatabase("[R94] ChatGPT import and Markdown export", (kind) => {
  let routes: Routes;
  useApp(kind, { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));
  const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);

  /** The Lisbon conversation's session (edits, regenerations, HEAD on an older branch). */
  let lisbon: string;
  let python: string;
  let imported: ChatGptImportResult;

  const nodesOf = async (id: string) =>
    (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as WireNode[];
  const rowCounts = async () => {
    const { database } = await services();
    return [await database.db.session.count(), await database.db.node.count()];
  };

  beforeAll(async () => {
    const res = await call("POST", "/api/import/chatgpt", fixture("conversations"));
    expect(res.status).toBe(200);
    imported = res.json as unknown as ChatGptImportResult;
    [lisbon, python] = imported.imported.map((i) => i.sessionId) as [string, string];
  });

  it("[R94] each conversation becomes one session; the answer lists them", () => {
    expectSchema("ChatGptImportResult", imported);
    expect(imported.failed).toEqual([]);
    expect(imported.imported).toEqual([
      { index: 0, sessionId: lisbon, title: "Weekend in Lisbon", nodes: 8 },
      { index: 1, sessionId: python, title: "Sum with Python", nodes: 5 },
    ]);
  });

  it("[R94] branches are preserved: sibling replies and sibling edits", async () => {
    const graph = (await call("GET", `/api/sessions/${lisbon}/graph`)).json[
      "nodes"
    ] as (WireNode & {
      siblingCount: number;
      childCount: number;
    })[];
    const row = (text: string) => graph.find((n) => n.content.startsWith(text));
    expect(row("Plan a weekend")?.childCount).toBe(2);
    expect(row("Day 1")?.siblingCount).toBe(2);
    expect(row("Saturday")?.siblingCount).toBe(2);
    expect(row("Saturday")?.childCount).toBe(2);
    expect(row("What should I eat?")?.siblingCount).toBe(2);
    expect(row("[image]")?.kind).toBe("user");
    expect(graph.filter((n) => n.kind === "root")).toHaveLength(1);
  });

  it("[R94] HEAD is at current_node, and the conversation can go on from there", async () => {
    const session = (await call("GET", `/api/sessions/${lisbon}`)).json;
    const head = (await nodesOf(lisbon)).find((n) => n.id === session["headId"]);
    expect(head?.content).toBe("Try pastéis de nata in Belém.");
    const context = (await call("GET", `/api/sessions/${lisbon}/context`)).json;
    expect((context["messages"] as { role: string }[]).map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const turn = await call("POST", `/api/sessions/${lisbon}/turns`, {
      content: "And for dinner?",
      stream: false,
    });
    expect(turn.status).toBe(200);

    const pySession = (await call("GET", `/api/sessions/${python}`)).json;
    const pyHead = (await nodesOf(python)).find((n) => n.id === pySession["headId"]);
    expect(pyHead?.content).toContain("Two plus three is five.");
  });

  it("[R95] a broken conversation is refused on its own; the others are imported and nothing is half-written", async () => {
    const [sessionsBefore, nodesBefore] = await rowCounts();
    const res = await call("POST", "/api/import/chatgpt", fixture("broken"));
    expect(res.status).toBe(200);
    const result = res.json as unknown as ChatGptImportResult;
    expectSchema("ChatGptImportResult", result);
    expect(result.imported.map((i) => [i.index, i.title, i.nodes])).toEqual([
      [0, "Fine one", 3],
      [6, "Also fine", 3],
    ]);
    expect(result.failed.map((f) => [f.index, f.title, f.error.code])).toEqual([
      [1, "Orphan", "invalid_request"],
      [2, "Loop", "invalid_request"],
      [3, "Hologram", "invalid_request"],
      [4, "Critic", "invalid_request"],
      [5, null, "invalid_request"],
    ]);
    expect(result.failed[0]?.error.message).toMatch(/parent "o-missing" that is not in it/);
    expect(result.failed[1]?.error.message).toMatch(/cycle/);
    expect(result.failed[2]?.error.message).toMatch(/type "hologram"/);
    expect(result.failed[3]?.error.message).toMatch(/author\.role/);
    // Exactly the two good sessions were written, every one of their nodes, and nothing else
    // (no staged session of a failed conversation is left behind).
    const [sessionsAfter, nodesAfter] = await rowCounts();
    expect(sessionsAfter).toBe((sessionsBefore ?? 0) + 2);
    expect(nodesAfter).toBe((nodesBefore ?? 0) + 6);
    const titles = (
      (await call("GET", "/api/sessions?limit=100")).json["sessions"] as {
        title: string;
      }[]
    ).map((s) => s.title);
    expect(titles).toEqual(expect.arrayContaining(["Fine one", "Also fine"]));
    expect(titles).not.toContain("Orphan");
  });

  it("[R95] a body that is not an array of conversations is refused whole", async () => {
    const [sessionsBefore] = await rowCounts();
    for (const body of [{ mapping: {} }, [], "null"]) {
      const res = await call("POST", "/api/import/chatgpt", body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: { code: "invalid_request" } });
    }
    const res = await call("POST", "/api/import/chatgpt", { title: "one conversation" });
    expect((res.json["error"] as { message: string }).message).toMatch(
      /JSON array of conversations/,
    );
    expect((await rowCounts())[0]).toBe(sessionsBefore);
  });

  it("[R96] a branch exports as Markdown: title, collapsed system prompt, role headings, HEAD's branch only", async () => {
    const md = await call("GET", `/api/sessions/${python}/export?format=markdown`);
    expect(md.status).toBe(200);
    expect(md.type).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("content-disposition")).toBe(
      "attachment; filename=\"Sum with Python.md\"; filename*=UTF-8''Sum%20with%20Python.md",
    );
    expect(md.text).toMatch(/^# Sum with Python\n/);
    expect(md.text).toContain(
      "<details>\n<summary>System prompt</summary>\n\n> You are a careful maths tutor.\n\n</details>",
    );
    const headings = [...md.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["User", "Assistant", "User", "Assistant"]);
    expect(md.text).toContain("## Assistant\n\n[call to python]\n```python\nprint(2 + 3)\n```");

    const head = await call("GET", `/api/sessions/${lisbon}/export?format=markdown`);
    expect(head.text).toContain("Saturday: Baixa and Chiado.");
    expect(head.text).toContain("Try pastéis de nata");
    expect(head.text).not.toContain("bifana");
    expect(head.text).not.toContain("Day 1: Alfama");
    const budget = (await nodesOf(lisbon)).find((n) => n.content.includes("bifana")) as WireNode;
    const other = await call(
      "GET",
      `/api/sessions/${lisbon}/export?format=markdown&head=${budget.id}`,
    );
    expect(other.text).toContain("bifana");
    expect(other.text).toContain("[image]");
    expect(other.text).not.toContain("pastéis");
    // The older spelling still works.
    expect((await call("GET", `/api/sessions/${lisbon}/export?format=md`)).text).toBe(head.text);
  });

  it("[R96] a head from another session is 404, and an unknown format 400", async () => {
    const foreign = (await nodesOf(python)).at(-1) as WireNode;
    const res = await call(
      "GET",
      `/api/sessions/${lisbon}/export?format=markdown&head=${foreign.id}`,
    );
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: { code: "node_not_found" } });
    const bad = await call("GET", `/api/sessions/${lisbon}/export?format=pdf`);
    expect(bad.status).toBe(400);
  });

  it("[R96] the filename is the title with only safe characters", async () => {
    const created = await call("POST", "/api/sessions", { title: 'Q3 "plan" / Ünïcode: a\\b' });
    const id = created.json["id"] as string;
    const md = await call("GET", `/api/sessions/${id}/export?format=markdown`);
    expect(md.headers.get("content-disposition")).toBe(
      "attachment; filename=\"Q3 plan Unicode a b.md\"; filename*=UTF-8''Q3%20plan%20%C3%9Cn%C3%AFcode%20a%20b.md",
    );
    const json = await call("GET", `/api/sessions/${id}/export?format=json`);
    expect(json.headers.get("content-disposition")).toMatch(/filename="Q3 plan Unicode a b\.json"/);
  });

  it("[R96] where a summary stands in for the branch's earlier messages, the export says so", async () => {
    const created = await call("POST", "/api/sessions", { title: "Long" });
    const id = created.json["id"] as string;
    for (let i = 0; i < 5; i++) {
      const turn = await call("POST", `/api/sessions/${id}/turns`, {
        content: `Question ${i}: ${"tell me about the history of the river and its bridges ".repeat(20)}`,
        stream: false,
      });
      expect(turn.status).toBe(200);
    }
    await call("PATCH", `/api/sessions/${id}`, { settings: { keepRecentTokens: 0 } });
    const compact = await call("POST", `/api/sessions/${id}/compact`);
    expect(compact.status).toBe(200);
    const summary = compact.json["summary"] as { content: string } | null;
    expect(summary).not.toBeNull();
    const covered = compact.json["coveredCount"] as number;
    const md = (await call("GET", `/api/sessions/${id}/export?format=markdown`)).text;
    // Every message is still there; the note follows the last one the summary covers.
    expect([...md.matchAll(/^## (User|Assistant)$/gm)]).toHaveLength(10);
    const note = md.indexOf("> **Summarised.**");
    expect(note).toBeGreaterThan(-1);
    expect(md).toContain(`in place of the ${covered} message${covered === 1 ? "" : "s"} above.`);
    expect(md.slice(note)).toContain(summary?.content.trim().slice(0, 40));
    expect([...md.slice(0, note).matchAll(/^## (User|Assistant)$/gm)]).toHaveLength(covered);
  });
});

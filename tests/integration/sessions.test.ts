import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { asOwnerId, type SessionId } from "@/lib/engine/ids";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import type { SessionEvent } from "@/lib/events/session-event";
import { services } from "@/lib/server/services";
import type { SessionListItem } from "@/lib/engine/types";
import { behaviours } from "../support/recording-behaviours";
import { startRecordingServer } from "../support/recording-server";
import { describeEachDatabase } from "./support/databases";
import { useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";

/**
 * Issue 12, through the route handlers on SQLite and PostgreSQL: automatic titles (offline
 * model, and the summary model via the recording server) and the user's title winning over
 * them; a system prompt at creation; a new session from a branch under another system
 * prompt; the session list's keyset paging, title filter and DAG counts.
 */

const server = await startRecordingServer();
afterAll(() => server.close());

type WireMessage = { role: string; content: string };

/** Resolves with the next event of `type` on the session's channel. */
async function nextEvent(id: string, type: SessionEvent["type"]): Promise<SessionEvent> {
  const { bus } = await services();
  return new Promise((resolve) => {
    const off = bus.subscribe(id as SessionId, (e) => {
      if (e.type !== type) return;
      off();
      resolve(e);
    });
  });
}

/** Waits until no title is being written. */
const titlesSettled = async () => (await services()).titler.idle();

describeEachDatabase("[R105–R109] sessions: titles, system prompts, the list", (kind) => {
  describe("with the offline model", () => {
    let routes: Routes;
    useApp(kind, { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));
    const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);

    async function create(body: Record<string, unknown> = {}): Promise<SessionRecord> {
      const res = await call("POST", "/api/sessions", body);
      expect(res.status, res.text).toBe(201);
      return res.json as unknown as SessionRecord;
    }
    const get = async (id: string) =>
      (await call("GET", `/api/sessions/${id}`)).json as unknown as SessionRecord;
    const nodes = async (id: string) =>
      (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as LedgerNode[];
    async function send(id: string, content: string, extra: Record<string, unknown> = {}) {
      const res = await call("POST", `/api/sessions/${id}/turns`, {
        content,
        stream: false,
        ...extra,
      });
      expect(res.status, res.text).toBe(200);
      return res.json as { user: LedgerNode; reply: LedgerNode };
    }
    async function list(query: string): Promise<{ sessions: SessionListItem[]; next: string }> {
      const res = await call("GET", `/api/sessions?${query}`);
      expect(res.status, res.text).toBe(200);
      expectSchema("SessionPage", res.json);
      return {
        sessions: res.json["sessions"] as SessionListItem[],
        next: res.json["nextCursor"] as string,
      };
    }

    it("[R105] an untitled session is titled from its first message after the first reply", async () => {
      const s = await create();
      expect(s.title).toBe("New chat");
      expect(s.meta.titleSource).toBeUndefined();
      const changed = nextEvent(s.id, "session_changed");
      await send(
        s.id,
        "  \nPlan a three-day trip to Lisbon with a focus on food, museums and the old tram lines\nDetails follow.",
      );
      await changed;
      const titled = await get(s.id);
      expect(titled.title).toBe("Plan a three-day trip to Lisbon with a focus on food…");
      expect(titled.meta.titleSource).toBe("auto");
      // Only the first reply titles a session.
      await send(s.id, "Something else entirely");
      await titlesSettled();
      expect((await get(s.id)).title).toBe(titled.title);
    });

    it("[R105] a title given at creation, a rename and an import are never replaced", async () => {
      const named = await create({ title: "  My plans  " });
      expect(named.title).toBe("My plans");
      expect(named.meta.titleSource).toBe("user");
      await send(named.id, "Hello there");
      await titlesSettled();
      expect((await get(named.id)).title).toBe("My plans");

      const renamed = await create();
      await call("PATCH", `/api/sessions/${renamed.id}`, { title: "Renamed first" });
      await send(renamed.id, "Hello again");
      await titlesSettled();
      expect(await get(renamed.id)).toMatchObject({
        title: "Renamed first",
        meta: { titleSource: "user" },
      });

      // The compare-and-swap itself: an automatic title lands only while none is set.
      const { store } = await services();
      const racing = await create();
      await store.renameSession(racing.id, "The user's");
      expect(await store.setAutoTitle(racing.id, "Too late")).toBeNull();
      expect((await store.getSession(racing.id)).title).toBe("The user's");
      const once = await create();
      expect((await store.setAutoTitle(once.id, "First"))?.title).toBe("First");
      expect(await store.setAutoTitle(once.id, "Second")).toBeNull();

      const exported = await call("GET", `/api/sessions/${named.id}/export?format=json`);
      const file = exported.json as { session: { title: string; meta: object } };
      file.session.meta = {};
      const imported = await call("POST", "/api/import", file);
      expect(imported.status, imported.text).toBe(201);
      const id = imported.json["id"] as string;
      await send(id, "After the import");
      await titlesSettled();
      expect(await get(id)).toMatchObject({ title: "My plans", meta: { titleSource: "user" } });

      // A session titled before `titleSource` existed has no marker: its title is kept too.
      const older = await create({ title: "Tax 2025" });
      await store.updateMeta(older.id, ({ titleSource: _dropped, ...meta }) => meta);
      expect((await get(older.id)).meta.titleSource).toBeUndefined();
      await send(older.id, "A question for an old session");
      await titlesSettled();
      expect((await get(older.id)).title).toBe("Tax 2025");
      expect(await store.setAutoTitle(older.id, "Not this")).toBeNull();
    });

    it("[R106] a system prompt given at creation is the ROOT the model reads; bad input is 400", async () => {
      const s = await create({ systemPrompt: "  You answer in haiku.  " });
      const [root] = await nodes(s.id);
      expect(root).toMatchObject({ kind: "root", content: "You answer in haiku." });
      expect(root?.tokenCount).toBeGreaterThan(0);
      const context = await call("GET", `/api/sessions/${s.id}/context`);
      expect((context.json["messages"] as WireMessage[])[0]).toMatchObject({
        role: "system",
        content: "You answer in haiku.",
      });
      const plain = await create();
      expect((await nodes(plain.id))[0]?.content).toBe("You are a helpful assistant.");

      for (const body of [
        { systemPrompt: "   " },
        { systemPrompt: "x".repeat(32_001) },
        { systemPrompt: 42 },
        { system_prompt: "typo" },
        { title: "x".repeat(201) },
      ]) {
        const res = await call("POST", "/api/sessions", body);
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(res.json).toMatchObject({ error: { code: "invalid_request" } });
      }
    });

    it("[R107] fork copies HEAD's branch under a new ROOT and leaves the source untouched", async () => {
      const src = await create({ title: "Source", systemPrompt: "Old prompt." });
      const first = await send(src.id, "First question about apples?");
      await send(src.id, "Second question about bananas?");
      await send(src.id, "Third question about cherries?");
      const main = await send(src.id, "Fourth question about dates?");
      // An alternative branch from the first reply; HEAD goes back to the main branch.
      const other = await send(src.id, "A side question", { parentId: first.reply.id });
      await call("POST", `/api/sessions/${src.id}/head`, { nodeId: main.reply.id });
      await call("PATCH", `/api/sessions/${src.id}`, { settings: { keepRecentTokens: 160 } });
      const compacted = await call("POST", `/api/sessions/${src.id}/compact`);
      expect(compacted.status, compacted.text).toBe(200);
      expect(compacted.json["summary"]).not.toBeNull();
      const before = JSON.stringify([await get(src.id), await nodes(src.id)]);
      const sourceNodes = await nodes(src.id);
      const byId = new Map<string, LedgerNode>(sourceNodes.map((n) => [n.id, n]));
      const spine: LedgerNode[] = [];
      for (let n = byId.get(main.reply.id); n; n = byId.get(n.predecessorId ?? "")) {
        spine.unshift(n);
      }

      const res = await call("POST", `/api/sessions/${src.id}/fork`, {
        systemPrompt: "New prompt.",
      });
      expect(res.status, res.text).toBe(201);
      expectSchema("Session", res.json);
      const fork = res.json as unknown as SessionRecord;
      expect(fork.id).not.toBe(src.id);
      expect(fork.title).toBe("Source");
      expect(fork.meta).toMatchObject({
        titleSource: "user",
        forkedFrom: { sessionId: src.id, nodeId: main.reply.id },
        settings: { keepRecentTokens: 160 },
      });
      expect(fork.meta._last_summary_id).toBeUndefined();
      const copied = await nodes(fork.id);
      expect(copied[0]).toMatchObject({ kind: "root", content: "New prompt." });
      expect(copied.slice(1).map((n) => [n.kind, n.content])).toEqual(
        spine.slice(1).map((n) => [n.kind, n.content]),
      );
      expect(copied.some((n) => n.kind === "summary")).toBe(false);
      copied.slice(1).forEach((n, i) => {
        expect(n.predecessorId).toBe(copied[i]?.id);
        expect(n.reads).toEqual([]);
        expect(n.metadata["copied_from"]).toBe(spine[i + 1]?.id);
      });
      expect(fork.headId).toBe(copied.at(-1)?.id);
      expect(fork.rootId).toBe(copied[0]?.id);
      // What the fork's next turn reads: the new prompt, then the branch raw.
      const context = await call("GET", `/api/sessions/${fork.id}/context`);
      expect((context.json["messages"] as WireMessage[]).map((m) => m.content)).toEqual([
        "New prompt.",
        ...spine.slice(1).map((n) => n.content),
      ]);
      await send(fork.id, "Continue in the copy");
      expect(JSON.stringify([await get(src.id), await nodes(src.id)])).toBe(before);

      // Another branch by its tip, with a title of its own.
      const side = await call("POST", `/api/sessions/${src.id}/fork`, {
        systemPrompt: "Side prompt.",
        headId: other.reply.id,
        title: "Side copy",
      });
      expect(side.status, side.text).toBe(201);
      expect(side.json).toMatchObject({ title: "Side copy", meta: { titleSource: "user" } });
      expect((await nodes(side.json["id"] as string)).map((n) => n.content)).toEqual([
        "Side prompt.",
        "First question about apples?",
        first.reply.content,
        "A side question",
        other.reply.content,
      ]);
    });

    it("[R107] fork refuses what it cannot copy, with 4xx and nothing written", async () => {
      const src = await create();
      const { reply } = await send(src.id, "First question about apples?");
      const elsewhere = await create();
      const { reply: foreign } = await send(elsewhere.id, "Elsewhere");
      await call("PATCH", `/api/sessions/${src.id}`, { settings: { keepRecentTokens: 160 } });
      for (const q of ["Second question about bananas?", "Third about cherries?", "Fourth?"]) {
        await send(src.id, q);
      }
      const compacted = await call("POST", `/api/sessions/${src.id}/compact`);
      expect(compacted.status, compacted.text).toBe(200);
      const summary = compacted.json["summary"] as LedgerNode;
      const { database } = await services();
      const count = await database.db.session.count();
      const cases: [string, Record<string, unknown>, number, string][] = [
        [src.id, { systemPrompt: "x", headId: foreign.id }, 404, "node_not_found"],
        [src.id, { systemPrompt: "x", headId: "../../etc" }, 404, "node_not_found"],
        ["01NOSUCHSESSION0000000000", { systemPrompt: "x" }, 404, "session_not_found"],
        [src.id, {}, 400, "invalid_request"],
        [src.id, { systemPrompt: "" }, 400, "invalid_request"],
        [src.id, { systemPrompt: "x", extra: 1 }, 400, "invalid_request"],
        [src.id, { systemPrompt: "x", headId: summary.id }, 409, "node_not_checkoutable"],
      ];

      for (const [id, body, status, code] of cases) {
        const res = await call("POST", `/api/sessions/${id}/fork`, body);
        expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(status);
        expect(res.json).toMatchObject({ error: { code } });
      }
      expect(await database.db.session.count()).toBe(count);
      expect(reply.status).toBe("complete");
    });

    it("[R108] 65 sessions page back exactly once each, newest activity first", async () => {
      const created: string[] = [];
      for (let i = 0; i < 65; i++) created.push((await create({ title: `Paged ${i}` })).id);
      const { database } = await services();
      const expected = (
        await database.db.session.findMany({
          orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
          select: { id: true },
        })
      ).map((r) => r.id);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(`limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.sessions.length).toBeLessThanOrEqual(7);
        seen.push(...page.sessions.map((s) => s.id));
        cursor = page.next;
        pages++;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(created));
      expect(pages).toBe(Math.ceil(expected.length / 7));

      // The default page is 30; the row that ended a page may be deleted before the next.
      const first = await list("");
      expect(first.sessions).toHaveLength(30);
      const last = first.sessions.at(-1)!;
      await call("DELETE", `/api/sessions/${last.id}`);
      const second = await list(`cursor=${encodeURIComponent(first.next)}`);
      expect(second.sessions.map((s) => s.id)).toEqual(
        expected.filter((id) => id !== last.id).slice(29, 59),
      );
    });

    it("[R108] a turn, a rename or a settings change brings a session to the top", async () => {
      const older = await create({ title: "Older" });
      const newer = await create({ title: "Newer" });
      const top = async () => (await list("limit=1")).sessions[0]?.id;
      expect(await top()).toBe(newer.id);
      await send(older.id, "Wake up");
      await titlesSettled();
      expect(await top()).toBe(older.id);
      expect(Date.parse((await get(older.id)).updatedAt)).toBeGreaterThan(
        Date.parse(older.updatedAt),
      );
      await call("PATCH", `/api/sessions/${newer.id}`, { title: "Newer renamed" });
      expect(await top()).toBe(newer.id);
      await call("PATCH", `/api/sessions/${older.id}`, { settings: { autoCompact: false } });
      expect(await top()).toBe(older.id);
    });

    it("[R108] q keeps titles containing it, case-insensitively, with % _ and \\ literal", async () => {
      const titles = [
        "Filter 100% sure",
        "Filter 1000 sure",
        "Filter a_b",
        "Filter axb",
        "Filter back\\slash",
        "Filter MiXeD Case",
      ];
      const ids = new Map<string, string>();
      for (const title of titles) ids.set(title, (await create({ title })).id);
      const titlesFor = async (q: string) =>
        (await list(`limit=100&q=${encodeURIComponent(q)}`)).sessions.map((s) => s.title).sort();
      expect(await titlesFor("0%")).toEqual(["Filter 100% sure"]);
      expect(await titlesFor("%")).toEqual(["Filter 100% sure"]);
      expect(await titlesFor("a_b")).toEqual(["Filter a_b"]);
      expect(await titlesFor("_")).toEqual(["Filter a_b"]);
      expect(await titlesFor("\\")).toEqual(["Filter back\\slash"]);
      expect(await titlesFor("mixed case")).toEqual(["Filter MiXeD Case"]);
      expect(await titlesFor("FILTER")).toEqual([...titles].sort());
      expect(await titlesFor("no such title")).toEqual([]);
      // A blank filter is no filter; paging keeps the filter.
      expect((await list("limit=1&q=%20%20")).sessions).toHaveLength(1);
      const one = await list("limit=4&q=filter");
      const rest = await list(`limit=4&q=filter&cursor=${encodeURIComponent(one.next)}`);
      expect([...one.sessions, ...rest.sessions].map((s) => s.title).sort()).toEqual(
        [...titles].sort(),
      );
      expect(rest.next).toBeNull();
    });

    it("[R109] each row counts its nodes and its branch tips, forks and side leaves included", async () => {
      const s = await create({ title: "Counted" });
      const row = async () =>
        (await list("limit=100&q=Counted")).sessions.find((r) => r.id === s.id)!;
      expect(await row()).toMatchObject({ nodeCount: 1, branchCount: 1 });
      const first = await send(s.id, "First question about apples?");
      await send(s.id, "Second question about bananas?");
      await send(s.id, "Third question about cherries?");
      const main = await send(s.id, "Fourth question about dates?");
      expect(await row()).toMatchObject({ nodeCount: 9, branchCount: 1 });
      const fork = await send(s.id, "fork", { parentId: first.reply.id });
      expect(await row()).toMatchObject({ nodeCount: 11, branchCount: 2 });
      await call("POST", `/api/sessions/${s.id}/turns`, {
        mode: "retry",
        targetId: fork.reply.id,
        stream: false,
      });
      expect(await row()).toMatchObject({ nodeCount: 12, branchCount: 3 });
      // A summary hangs off a node without making a branch.
      await call("POST", `/api/sessions/${s.id}/head`, { nodeId: main.reply.id });
      await call("PATCH", `/api/sessions/${s.id}`, { settings: { keepRecentTokens: 160 } });
      const compact = await call("POST", `/api/sessions/${s.id}/compact`);
      expect(compact.status, compact.text).toBe(200);
      expect(compact.json["summary"]).not.toBeNull();
      expect(await row()).toMatchObject({ nodeCount: 13, branchCount: 3 });
      // Deleting a branch removes its nodes and its tip.
      const removed = await call("DELETE", `/api/sessions/${s.id}/branches/${fork.reply.id}`);
      expect(removed.status, removed.text).toBe(200);
      expect(await row()).toMatchObject({ nodeCount: 12, branchCount: 2 });
    });

    it("[R108] bad paging input is 400, never 500", async () => {
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=abc",
        "cursor=garbage",
        "cursor=zz.",
        `cursor=${"a".repeat(101)}`,
        "cursor=1.!!",
        `q=${"q".repeat(201)}`,
      ]) {
        const res = await call("GET", `/api/sessions?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.json).toMatchObject({ error: { code: "invalid_request" } });
      }
    });

    it("[R141] a cursor naming another account's session answers exactly as a made-up one", async () => {
      const { store } = await services();
      const theirs = await store.createSession({ ownerId: asOwnerId("someone-else") });
      const at = Date.parse(theirs.updatedAt) + 60_000;
      const foreign = `${at.toString(36)}.${theirs.id}`;
      // The same position with an id nobody has (same shape, last character changed).
      const madeUpId = `${theirs.id.slice(0, -1)}${theirs.id.endsWith("0") ? "1" : "0"}`;
      const madeUp = `${at.toString(36)}.${madeUpId}`;
      const a = await call("GET", `/api/sessions?cursor=${encodeURIComponent(foreign)}`);
      const b = await call("GET", `/api/sessions?cursor=${encodeURIComponent(madeUp)}`);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.text).toBe(b.text);
      // Nobody's list shows another's session.
      const everything = await list("limit=100");
      expect(everything.sessions.map((r) => r.id)).not.toContain(theirs.id);
      expect((a.json["sessions"] as { id: string }[]).map((r) => r.id)).not.toContain(theirs.id);
    });
  });

  describe("with a real model (the recording server)", () => {
    let routes: Routes;
    useApp(
      kind,
      {
        SPINDLE_AUTH: "off",
        OPENAI_BASE_URL: server.url,
        SPINDLE_MODEL: "chat-model",
        SPINDLE_SUMMARY_MODEL: "title-model",
      },
      (app) => ({ routes } = app),
    );
    const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);
    beforeEach(() => server.reset());

    async function create(body: Record<string, unknown> = {}) {
      const res = await call("POST", "/api/sessions", body);
      expect(res.status, res.text).toBe(201);
      return res.json["id"] as string;
    }
    const get = async (id: string) =>
      (await call("GET", `/api/sessions/${id}`)).json as unknown as SessionRecord;
    const messages = (n: number) =>
      (server.chatRequests[n]?.body?.["messages"] ?? []) as WireMessage[];

    it("[R105] the summary model writes the title, trimmed and unquoted", async () => {
      const id = await create();
      server.enqueue(
        behaviours.reply("Quantum physics studies the very small."),
        behaviours.reply('"Quantum Physics Basics."\n'),
      );
      const changed = nextEvent(id, "session_changed");
      const turn = await call("POST", `/api/sessions/${id}/turns`, {
        content: "Explain quantum physics to me",
        stream: false,
      });
      expect(turn.status, turn.text).toBe(200);
      await changed;
      expect(await get(id)).toMatchObject({
        title: "Quantum Physics Basics",
        meta: { titleSource: "auto" },
      });
      expect(server.chatRequests).toHaveLength(2);
      const request = server.chatRequests[1]?.body;
      expect(request?.["model"]).toBe("title-model");
      expect(request?.["tools"]).toBeUndefined();
      const [system, user] = messages(1);
      expect(system?.role).toBe("system");
      expect(system?.content).toMatch(/six words/);
      expect(user?.content).toContain("Explain quantum physics to me");
      expect(user?.content).toContain("Quantum physics studies the very small.");
      // The title call wrote nothing to the ledger.
      const nodes = (await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as LedgerNode[];
      expect(nodes.map((n) => n.kind)).toEqual(["root", "user", "assistant"]);
    });

    it("[R105] a failing or empty title answer falls back to the first message", async () => {
      const id = await create();
      server.enqueue(behaviours.reply("Sure."), behaviours.reply('""'));
      await call("POST", `/api/sessions/${id}/turns`, { content: "Name my cat", stream: false });
      await titlesSettled();
      expect((await get(id)).title).toBe("Name my cat");

      const other = await create();
      server.enqueue(behaviours.reply("Sure."), behaviours.unauthorized());
      await call("POST", `/api/sessions/${other}/turns`, { content: "Name my dog", stream: false });
      await titlesSettled();
      expect((await get(other)).title).toBe("Name my dog");
    });

    it("[R105] a rename made while the title is being generated wins", async () => {
      const id = await create();
      server.enqueue(behaviours.reply("An answer."), behaviours.hang("Generated Title"));
      const turn = await call("POST", `/api/sessions/${id}/turns`, {
        content: "Something to title",
        stream: false,
      });
      // The reply is not held up by the title, which is still being generated.
      expect(turn.status).toBe(200);
      await server.waitForChatRequest(2);
      const renamed = await call("PATCH", `/api/sessions/${id}`, { title: "The user's title" });
      expect(renamed.status).toBe(200);
      expect(server.interrupt("error_event")).toBe(1);
      await titlesSettled();
      expect(await get(id)).toMatchObject({
        title: "The user's title",
        meta: { titleSource: "user" },
      });
    });

    it("[R106] an explicit title makes no title call; the system prompt is what the model receives", async () => {
      const id = await create({ title: "Pirates", systemPrompt: "You are a pirate." });
      server.enqueue(behaviours.reply("Arr."));
      await call("POST", `/api/sessions/${id}/turns`, { content: "Hello", stream: false });
      await titlesSettled();
      expect(server.chatRequests).toHaveLength(1);
      expect(messages(0)[0]).toMatchObject({ role: "system", content: "You are a pirate." });
      expect((await get(id)).title).toBe("Pirates");

      // A fork's next turn is sent under the fork's prompt.
      const fork = await call("POST", `/api/sessions/${id}/fork`, {
        systemPrompt: "You are a librarian.",
      });
      expect(fork.status, fork.text).toBe(201);
      server.enqueue(behaviours.reply("Shh."));
      await call("POST", `/api/sessions/${fork.json["id"] as string}/turns`, {
        content: "Hello again",
        stream: false,
      });
      expect(messages(1).map((m) => [m.role, m.content])).toEqual([
        ["system", "You are a librarian."],
        ["user", "Hello"],
        ["assistant", "Arr."],
        ["user", "Hello again"],
      ]);
    });
  });
});

import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { migrationPaths } from "@/lib/db/paths";
import { migrationState } from "@/lib/db/migration-status";
import { asNodeId, asOwnerId, asSessionId, tokens } from "@/lib/engine/ids";
import { services } from "@/lib/server/services";
import { accountActor } from "@/lib/auth/actor";
import { SearchStore } from "@/lib/store/search-store";
import { applyMigrations, migrationFactory, schemaDrift, status } from "@/scripts/schema-engine";
import { createDatabase, describeEachDatabase } from "./support/databases";
import { openReply } from "./support/replies";
import { cookieOf, ORIGIN, useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";
import { fileForm } from "../support/files";
import { makePdf } from "../support/pdf";

/**
 * Search across sessions (docs/spec.md, "Search (issue 12)"), through the real route and
 * the real indexes on SQLite (FTS5) and PostgreSQL (tsvector): two accounts, sealed-only
 * indexing, deletes, imports, hostile queries and the migrations' status.
 */

const PASSWORD = "correct horse battery";

type Hit = {
  kind: string;
  sessionId: string;
  sessionTitle: string;
  nodeId: string | null;
  seq: number | null;
  snippet: { text: string; hit: boolean }[];
  onHeadSpine: boolean;
  attachment?: { id: string; name: string };
};

describeEachDatabase("[R100] search across sessions", (kind) => {
  let routes: Routes;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  useApp(kind, { SPINDLE_ALLOW_SIGNUP: "true" }, (app) => ({ routes } = app));

  const account = async (email: string, name: string) => {
    const res = await routes.call(
      "POST",
      "/api/auth/sign-up/email",
      { email, password: PASSWORD, name },
      { headers: { origin: ORIGIN } },
    );
    expect(res.status).toBe(200);
    return { origin: ORIGIN, cookie: cookieOf(res.headers) };
  };
  const session = async (who: Record<string, string>, title: string) => {
    const res = await routes.call("POST", "/api/sessions", { title }, { headers: who });
    expect(res.status).toBe(201);
    return res.json["id"] as string;
  };
  const send = async (
    who: Record<string, string>,
    id: string,
    content: string,
    parentId?: string,
  ) => {
    const res = await routes.call(
      "POST",
      `/api/sessions/${id}/turns`,
      { content, stream: false, ...(parentId ? { parentId } : {}) },
      { headers: who },
    );
    expect(res.status, res.text).toBe(200);
    return res.json as { user: { id: string }; reply: { id: string } };
  };
  const search = async (who: Record<string, string>, q: string, extra = "") => {
    const res = await routes.call(
      "GET",
      `/api/search?q=${encodeURIComponent(q)}${extra}`,
      undefined,
      { headers: who },
    );
    if (res.status === 200) expectSchema("SearchPage", res.json);
    return res;
  };
  const hits = async (who: Record<string, string>, q: string) => {
    const res = await search(who, q);
    expect(res.status, res.text).toBe(200);
    return res.json["results"] as Hit[];
  };
  const text = (h: Hit) => h.snippet.map((s) => s.text).join("");

  beforeAll(async () => {
    alice = await account("alice@example.com", "Alice");
    bob = await account("bob@example.com", "Bob");
  });

  it("[R100] a word from an old session is found, with its snippet marked", async () => {
    const trip = await session(alice, "Trip planning");
    const sent = await send(alice, trip, "Which ferry reaches Zanzibar from Dar es Salaam?");
    await send(alice, await session(alice, "Later chat"), "Something else entirely.");

    const found = await hits(alice, "zanzibar");
    const user = found.find((h) => h.kind === "user");
    expect(user).toMatchObject({
      sessionId: trip,
      sessionTitle: "Trip planning",
      nodeId: sent.user.id,
      onHeadSpine: true,
    });
    expect(user?.snippet).toContainEqual({ text: "Zanzibar", hit: true });
    expect(text(user as Hit)).toBe("Which ferry reaches Zanzibar from Dar es Salaam?");
    // The offline model quotes the question, so the sealed reply is found too.
    expect(found.find((h) => h.kind === "assistant")?.nodeId).toBe(sent.reply.id);
    // Every word must occur; the last one also as a prefix.
    expect((await hits(alice, "ferry zanz")).length).toBeGreaterThan(0);
    expect(await hits(alice, "ferry helicopter")).toEqual([]);
  });

  it("[R100] session titles match too, ahead of the text", async () => {
    const found = await hits(alice, "planning");
    expect(found[0]).toMatchObject({
      kind: "title",
      sessionTitle: "Trip planning",
      nodeId: null,
      snippet: [
        { text: "Trip ", hit: false },
        { text: "planning", hit: true },
      ],
    });
    const id = found[0]?.sessionId as string;
    await routes.call(
      "PATCH",
      `/api/sessions/${id}`,
      { title: "Island hopping" },
      { headers: alice },
    );
    expect((await hits(alice, "planning")).filter((h) => h.kind === "title")).toEqual([]);
    expect((await hits(alice, "hopping"))[0]).toMatchObject({ kind: "title", sessionId: id });
  });

  it("[R101] another account never sees a session's text or title", async () => {
    expect(await hits(bob, "zanzibar")).toEqual([]);
    expect(await hits(bob, "hopping")).toEqual([]);
    const own = await session(bob, "Bob's notes");
    await send(bob, own, "Zanzibar spices are my topic.");
    const found = await hits(bob, "zanzibar");
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((h) => h.sessionId))).toEqual(new Set([own]));
    expect((await hits(alice, "spices")).length).toBe(0);
  });

  it("[R100] a streaming reply is found only once it is sealed; an error reply never", async () => {
    const { store } = await services();
    const id = asSessionId(await session(alice, "Streams"));
    const node = await openReply(store, id);
    await store.appendStreaming(id, node.id, "The wombat");
    await store.appendStreaming(id, node.id, " burrows");
    expect(await hits(alice, "wombat")).toEqual([]);
    await store.seal(id, node.id, {
      status: "complete",
      content: "The wombat burrows at night.",
      tokenCount: tokens(7),
    });
    expect((await hits(alice, "wombat")).map((h) => h.nodeId)).toEqual([node.id]);

    // Interrupted replies keep (and are found by) their partial text; failed ones are not.
    for (const [status, word] of [
      ["interrupted", "platypus"],
      ["error", "echidna"],
    ] as const) {
      const open = await store.appendNode({
        sessionId: id,
        predecessorId: node.id,
        kind: "assistant",
        content: "",
        status: "streaming",
        tokenCount: tokens(0),
        advanceHead: false,
      });
      await store.appendStreaming(id, open.node.id, `A ${word} appears`);
      await store.seal(id, open.node.id, {
        status,
        content: `A ${word} appears`,
        tokenCount: tokens(3),
      });
      expect((await hits(alice, word)).map((h) => h.nodeId)).toEqual(
        status === "interrupted" ? [open.node.id] : [],
      );
    }
  });

  it("[R100] a deleted branch leaves the index; a dead branch is marked off HEAD", async () => {
    const id = await session(alice, "Branches");
    const first = await send(alice, id, "Tell me about the quokka.");
    const rootId = (await routes.call("GET", `/api/sessions/${id}`, undefined, { headers: alice }))
      .json["rootId"] as string;
    // A send under ROOT forks: the quokka branch is now dead.
    await send(alice, id, "Tell me about the axolotl instead.", rootId);

    const dead = (await hits(alice, "quokka")).filter((h) => h.sessionId === id);
    expect(dead.map((h) => h.nodeId).sort()).toEqual([first.user.id, first.reply.id].sort());
    expect(dead.every((h) => !h.onHeadSpine)).toBe(true);
    expect((await hits(alice, "axolotl")).every((h) => h.onHeadSpine)).toBe(true);

    const removed = await routes.call(
      "DELETE",
      `/api/sessions/${id}/branches/${first.reply.id}`,
      undefined,
      { headers: alice },
    );
    expect(removed.status).toBe(200);
    expect(await hits(alice, "quokka")).toEqual([]);

    const gone = await routes.call("DELETE", `/api/sessions/${id}`, undefined, { headers: alice });
    expect(gone.status).toBe(204);
    expect(await hits(alice, "axolotl")).toEqual([]);
    expect(await hits(alice, "branches")).toEqual([]);
    const { database } = await services();
    const left =
      kind === "sqlite"
        ? await database.db.$queryRaw<{ n: number | bigint }[]>`
            SELECT count(*) AS n FROM "node_fts" WHERE "node_id" NOT IN (SELECT "id" FROM "Node")`
        : await database.db.$queryRaw<{ n: number | bigint }[]>`
            SELECT count(*) AS n FROM "node_search" WHERE "nodeId" NOT IN (SELECT "id" FROM "Node")`;
    expect(Number(left[0]?.n)).toBe(0);
  });

  /** Uploads `files` to the session and sends them with `content`. */
  const sendFiles = async (
    who: Record<string, string>,
    id: string,
    content: string,
    files: readonly (readonly [Uint8Array | string, string])[],
    parentId?: string,
  ) => {
    const ids: string[] = [];
    for (const [bytes, name] of files) {
      const up = await routes.call("POST", `/api/sessions/${id}/attachments`, undefined, {
        form: fileForm(bytes, name),
        headers: who,
      });
      expect(up.status, up.text).toBe(201);
      ids.push(up.json["id"] as string);
    }
    const res = await routes.call(
      "POST",
      `/api/sessions/${id}/turns`,
      { content, attachments: ids, stream: false, ...(parentId ? { parentId } : {}) },
      { headers: who },
    );
    expect(res.status, res.text).toBe(200);
    return { ...(res.json as { user: { id: string }; reply: { id: string } }), ids };
  };
  const userHits = async (who: Record<string, string>, q: string) =>
    (await hits(who, q)).filter((h) => h.kind === "user");

  it("[R279] a word in a text attachment or a PDF's text is found, the hit on the user node that carries it, the snippet cut from the file", async () => {
    const id = await session(alice, "Files");
    const notes = "Shopping list\nbread, milk and a wombat-shaped cake tin\n";
    const sent = await sendFiles(alice, id, "Two files for you", [
      [notes, "notes.txt"],
      [makePdf(["Annual report", "The okapi budget grew."]), "report.pdf"],
    ]);

    const wombat = await userHits(alice, "wombat");
    expect(wombat).toHaveLength(1);
    expect(wombat[0]).toMatchObject({
      sessionId: id,
      nodeId: sent.user.id,
      onHeadSpine: true,
      attachment: { id: sent.ids[0], name: "notes.txt" },
    });
    expect(wombat[0]?.snippet).toContainEqual({ text: "wombat", hit: true });
    expect(text(wombat[0] as Hit)).toBe(
      "notes.txt Shopping list bread, milk and a wombat-shaped cake tin",
    );
    const okapi = await userHits(alice, "okapi budget");
    expect(okapi.map((h) => [h.nodeId, h.attachment?.name])).toEqual([
      [sent.user.id, "report.pdf"],
    ]);
    // The file name is part of what is indexed; the message's own words still find it.
    expect((await userHits(alice, "notes")).map((h) => h.nodeId)).toEqual([sent.user.id]);
    const own = await userHits(alice, "two files");
    expect(own.map((h) => [h.nodeId, h.attachment])).toEqual([[sent.user.id, undefined]]);
    // A node matched in its text and in a file is one hit.
    const both = await sendFiles(alice, id, "The wombat again", [["wombat facts", "w.txt"]]);
    expect((await userHits(alice, "wombat")).filter((h) => h.nodeId === both.user.id)).toHaveLength(
      1,
    );
    expect(await userHits(bob, "wombat")).toEqual([]);
  });

  it("[R279] an upload never sent is not found; a deleted branch and a deleted session take their files out of the index", async () => {
    const id = await session(alice, "Unsent");
    const up = await routes.call("POST", `/api/sessions/${id}/attachments`, undefined, {
      form: fileForm("The capybara waits here.", "wait.txt"),
      headers: alice,
    });
    expect(up.status).toBe(201);
    expect(await userHits(alice, "capybara")).toEqual([]);

    const rootId = (await routes.call("GET", `/api/sessions/${id}`, undefined, { headers: alice }))
      .json["rootId"] as string;
    const a = await sendFiles(alice, id, "Branch A", [["A pangolin file", "a.txt"]]);
    const b = await sendFiles(alice, id, "Branch B", [["A narwhal file", "b.txt"]], rootId);
    expect((await userHits(alice, "pangolin")).map((h) => [h.nodeId, h.onHeadSpine])).toEqual([
      [a.user.id, false],
    ]);
    const removed = await routes.call(
      "DELETE",
      `/api/sessions/${id}/branches/${a.reply.id}`,
      undefined,
      { headers: alice },
    );
    expect(removed.status).toBe(200);
    expect(await userHits(alice, "pangolin")).toEqual([]);
    expect((await userHits(alice, "narwhal")).map((h) => h.nodeId)).toContain(b.user.id);
    const gone = await routes.call("DELETE", `/api/sessions/${id}`, undefined, { headers: alice });
    expect(gone.status).toBe(204);
    expect((await userHits(alice, "narwhal")).filter((h) => h.sessionId === id)).toEqual([]);
    const { database } = await services();
    const left =
      kind === "sqlite"
        ? await database.db.$queryRaw<{ n: number | bigint }[]>`
            SELECT count(*) AS n FROM "attachment_fts"
             WHERE "attachment_id" NOT IN (SELECT "id" FROM "Attachment")`
        : await database.db.$queryRaw<{ n: number | bigint }[]>`
            SELECT count(*) AS n FROM "attachment_search"
             WHERE "attachmentId" NOT IN (SELECT "id" FROM "Attachment")`;
    expect(Number(left[0]?.n)).toBe(0);
  });

  it("[R279] an imported session's files are found by the account that imported it, on the copy's user node", async () => {
    const id = await session(alice, "Export files");
    await sendFiles(alice, id, "Keep this", [[makePdf(["The tapir manual"]), "tapir.pdf"]]);
    const exported = await routes.call("GET", `/api/sessions/${id}/export?format=json`, undefined, {
      headers: alice,
    });
    const imported = await routes.call("POST", "/api/import", exported.text, { headers: bob });
    expect(imported.status, imported.text).toBe(201);
    const copy = imported.json["id"] as string;
    const found = await userHits(bob, "tapir");
    expect(found.map((h) => [h.sessionId, h.attachment?.name])).toEqual([[copy, "tapir.pdf"]]);
    const nodes = (
      await routes.call("GET", `/api/sessions/${copy}/nodes`, undefined, { headers: bob })
    ).json["nodes"] as { id: string; kind: string }[];
    expect(found[0]?.nodeId).toBe(nodes.find((n) => n.kind === "user")?.id);
  });

  it("[R104][R119] opening a result checks out its branch only when HEAD is elsewhere", async () => {
    const { database, workspaceFor } = await services();
    const actorOf = async (email: string) => {
      const user = await database.db.user.findUnique({ where: { email } });
      if (!user) throw new Error(`no user ${email}`);
      return workspaceFor(accountActor(user, "cookie"));
    };
    const ws = await actorOf("alice@example.com");
    const id = await session(alice, "Reveal");
    const old = await send(alice, id, "The ibis branch.");
    await send(alice, id, "More about the ibis.");
    const rootId = (await routes.call("GET", `/api/sessions/${id}`, undefined, { headers: alice }))
      .json["rootId"] as string;
    const now = await send(alice, id, "The heron branch.", rootId);
    const sid = asSessionId(id);

    const [hit] = (await hits(alice, "heron")).filter((h) => h.kind === "user");
    const here = await ws.reveal(sid, asNodeId(hit?.nodeId ?? ""));
    expect(here).toMatchObject({ focusId: now.user.id, session: { headId: now.reply.id } });
    expect(here.movedFrom).toBeNull();

    // A dead-branch hit: HEAD moves to that branch's latest leaf, the hit is the focus.
    const there = await ws.reveal(sid, asNodeId(old.reply.id));
    const tip = (await ws.nodes(sid)).filter((n) => n.kind === "assistant").at(-2);
    expect(there.focusId).toBe(old.reply.id);
    expect(there.session.headId).not.toBe(now.reply.id);
    expect(there.session.headId).toBe(tip?.id);
    // Where HEAD was: the page offers to compare the two branches.
    expect(there.movedFrom).toBe(now.reply.id);
    expect((await hits(alice, "ibis")).every((h) => h.onHeadSpine)).toBe(true);

    // A stale link opens the session as it is; another account's session is not found.
    const stale = await ws.reveal(sid, asNodeId("01ZZZZZZZZZZZZZZZZZZZZZZZZ"));
    expect(stale).toMatchObject({ focusId: null, session: { headId: there.session.headId } });
    const other = await actorOf("bob@example.com");
    await expect(other.reveal(sid, asNodeId(old.user.id))).rejects.toMatchObject({
      code: "session_not_found",
    });
  });

  it("[R102] punctuation, operators, quotes and huge queries: empty or 400, never 5xx", async () => {
    const id = await session(alice, "Syntax");
    await send(alice, id, 'Meet me NEAR the "old" mill: a*b & c|d !e (f) {g} ^h');
    const hostile = [
      "",
      "   ",
      "!!!",
      '"',
      '""',
      "'",
      "\\",
      "*",
      ":",
      "&|!",
      "()",
      "NEAR(",
      "NEAR(a b, 2)",
      'title:"x"',
      "{content}: mill",
      "^mill",
      "mill*",
      "a AND NOT",
      "-mill",
      '\'; DROP TABLE "Node"; --',
      "%_",
      "😀",
      "x".repeat(500),
      "mill ".repeat(99),
    ];
    for (const q of hostile) {
      const res = await search(alice, q);
      expect(res.status, `${JSON.stringify(q)} → ${res.text}`).toBe(200);
    }
    // Operators are words: "near" finds the message that says NEAR, quotes and stars are gone.
    expect((await hits(alice, "NEAR")).some((h) => h.sessionId === id)).toBe(true);
    expect((await hits(alice, '"mill" NEAR*')).some((h) => h.sessionId === id)).toBe(true);
    expect((await hits(alice, "^mill:")).some((h) => h.sessionId === id)).toBe(true);

    for (const [q, extra] of [
      ["x".repeat(10_000), ""],
      ["x".repeat(501), ""],
      ["mill\u0000", ""],
      ["mill", "&cursor=abc"],
      ["mill", "&cursor=99999"],
      ["mill", "&limit=0"],
      ["mill", "&limit=51"],
    ] as const) {
      const res = await search(alice, q, extra);
      expect(res.status, `${q.slice(0, 20)}${extra}`).toBe(400);
      expect(res.json).toMatchObject({ error: { code: "invalid_request" } });
    }
    const missing = await routes.call("GET", "/api/search", undefined, { headers: alice });
    expect(missing.status).toBe(400);
  });

  it("[R103] results page with a cursor, each hit once", async () => {
    const id = await session(alice, "Pages");
    for (let i = 0; i < 3; i++) await send(alice, id, `Capybara fact number ${i}.`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(alice, "capybara", `&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const results = res.json["results"] as Hit[];
      expect(results.length).toBeLessThanOrEqual(2);
      seen.push(...results.map((h) => h.nodeId ?? `title:${h.sessionId}`));
      cursor = res.json["nextCursor"] as string | null;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it("[R101] an imported session is searchable once its import has landed", async () => {
    const id = await session(alice, "Export me");
    await send(alice, id, "The narwhal tusk is a tooth.");
    const exported = await routes.call("GET", `/api/sessions/${id}/export?format=json`, undefined, {
      headers: alice,
    });
    const imported = await routes.call("POST", "/api/import", exported.text, { headers: bob });
    expect(imported.status, imported.text).toBe(201);
    const found = await hits(bob, "narwhal");
    expect(new Set(found.map((h) => h.sessionId))).toEqual(new Set([imported.json["id"]]));
    expect(found.map((h) => h.kind).sort()).toEqual(["assistant", "user"]);
    // A half-written import belongs to a staging owner nobody is.
    const { database } = await services();
    const search = new SearchStore(database);
    expect(
      (await search.search(asOwnerId("importing:x"), "narwhal", { limit: 5 })).results,
    ).toEqual([]);
  });

  it("[R101] a session that changes hands is found by its new owner only", async () => {
    const { database, store } = await services();
    const search = new SearchStore(database);
    const made = await store.createSession({
      title: "Kingfisher sightings",
      ownerId: asOwnerId("local"),
    });
    expect(
      (await search.search(asOwnerId("local"), "kingfisher", { limit: 5 })).results,
    ).toHaveLength(1);
    // The first account adopts the single-user sessions.
    await store.adoptLocalSessions(asOwnerId("adopter-1"));
    const found = await search.search(asOwnerId("adopter-1"), "kingfisher", { limit: 5 });
    expect(found.results.map((h) => h.sessionId)).toEqual([made.id]);
    expect((await search.search(asOwnerId("local"), "kingfisher", { limit: 5 })).results).toEqual(
      [],
    );
  });
});

describeEachDatabase("[R100] the search migration", (kind) => {
  it("[R100][R279] rows written before it are indexed, sent attachments too; status and the drift check stay clean", async () => {
    const db = await createDatabase(kind, false);
    const { schemaPath, migrationsDir } = migrationPaths(db.url);
    // The migrations as they were before search (of nodes, then of attachments).
    const before = mkdtempSync(path.join(tmpdir(), "spindle-migrations-"));
    for (const entry of readdirSync(migrationsDir).filter((e) => !e.endsWith("_search"))) {
      cpSync(path.join(migrationsDir, entry), path.join(before, entry), { recursive: true });
    }
    const factory = () => migrationFactory(db.url);
    try {
      await applyMigrations({ schemaPath, migrationsDir: before, factory: factory() });
      // The schema engine needs the SQLite file to itself: the app's connection closes first.
      const old = await openDatabase(db.url);
      try {
        const at = new Date();
        await old.db.session.create({
          data: { id: "S1", title: "Old pelican notes", headId: "N1", rootId: "N0", updatedAt: at },
        });
        const node = (
          id: string,
          seq: number,
          kind: string,
          content: string,
          status = "complete",
        ) => ({
          id,
          sessionId: "S1",
          predecessorId: seq ? `N${seq - 1}` : null,
          seq,
          kind,
          content,
          status,
        });
        await old.db.node.createMany({
          data: [
            node("N0", 0, "root", "pelican root"),
            node("N1", 1, "user", "A pelican flew by."),
            node("N2", 2, "assistant", "pelican, streaming", "streaming"),
          ],
        });
        const file = (id: string, sha256: string, nodeId: string | null) => ({
          id,
          sessionId: "S1",
          sha256,
          name: `${id}.txt`,
          mime: "text/plain",
          kind: "text",
          size: 5,
          tokens: 9,
          nodeId,
        });
        await old.db.blob.createMany({
          data: [
            {
              sessionId: "S1",
              sha256: "a1",
              size: 5,
              data: new Uint8Array(5),
              text: "pelican heron",
            },
            {
              sessionId: "S1",
              sha256: "b2",
              size: 5,
              data: new Uint8Array(5),
              text: "pelican egret",
            },
          ],
        });
        // One sent with N1, one still waiting for its turn.
        await old.db.attachment.createMany({
          data: [file("sent", "a1", "N1"), file("waiting", "b2", null)],
        });
      } finally {
        await old.close();
      }
      const applied = await applyMigrations({ schemaPath, migrationsDir, factory: factory() });
      expect(applied.appliedMigrationNames).toEqual(
        readdirSync(migrationsDir)
          .filter((e) => e.endsWith("_search"))
          .sort(),
      );
      const history = await status({ schemaPath, migrationsDir, factory: factory() });
      expect(history).toMatchObject({
        failedMigrationNames: [],
        editedMigrationNames: [],
        history: null,
      });
      // What `migrate.ts create` would write: nothing (the index tables are external).
      expect(await schemaDrift({ schemaPath, migrationsDir, factory: factory() })).toBeNull();

      const database = await openDatabase(db.url);
      try {
        expect(await migrationState(database)).toBe("up to date");
        const page = await new SearchStore(database).search(asOwnerId("local"), "pelican", {
          limit: 10,
        });
        expect(page.results.map((h) => h.nodeId ?? h.kind)).toEqual(["title", asNodeId("N1")]);
        const files = await new SearchStore(database).search(asOwnerId("local"), "heron", {
          limit: 10,
        });
        expect(files.results).toMatchObject([
          { nodeId: asNodeId("N1"), attachment: { id: "sent", name: "sent.txt" } },
        ]);
        expect(
          (await new SearchStore(database).search(asOwnerId("local"), "egret", { limit: 10 }))
            .results,
        ).toEqual([]);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
      await db.drop();
    }
  });
});

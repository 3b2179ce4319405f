-- Full-text search (docs/spec.md [R100]–[R104]), written by hand: Prisma's schema cannot
-- express FTS5 (lib/db/external-tables.ts tells the schema engine to leave these tables
-- alone). Triggers keep the index current, so every writer (turns, seals, imports,
-- compaction, branch and session deletes) is covered without a code path to forget.
--
-- Indexed: user, assistant and summary nodes once sealed: `complete`, or `interrupted`
-- with the partial text the transcript shows. A `streaming` reply is rewritten several
-- times a second and is indexed once, when its status leaves `streaming`; `error` nodes,
-- tool results, notices and ROOT are never indexed. Session titles have their own table.
-- The first 100,000 characters of a text are indexed (the PostgreSQL twin's bound).
--
-- `node_key` / `session_key` repeat the id as an indexed column: an FTS5 table is reached
-- by its own rowid or through MATCH, so deleting by id is an index lookup, not a scan.
-- `owner_key` is the owning account's id in hex (one token): a search matches it together
-- with its words, so FTS5 narrows to the caller's rows before it ranks anything — the cost
-- of a query follows the caller's text, not every account's. (The owner is also compared
-- exactly in the query's join; the key only narrows.) Searches always name their columns.

CREATE VIRTUAL TABLE "node_fts" USING fts5(
    node_key,
    session_key,
    owner_key,
    node_id UNINDEXED,
    content,
    tokenize = 'unicode61'
);

CREATE VIRTUAL TABLE "session_fts" USING fts5(
    session_key,
    owner_key,
    session_id UNINDEXED,
    title,
    tokenize = 'unicode61'
);

CREATE TRIGGER "node_fts_insert" AFTER INSERT ON "Node"
WHEN new."kind" IN ('user', 'assistant', 'summary')
 AND new."status" IN ('complete', 'interrupted')
BEGIN
    INSERT INTO "node_fts" (node_key, session_key, owner_key, node_id, content)
    VALUES (new."id", new."sessionId",
            hex((SELECT "ownerId" FROM "Session" WHERE "id" = new."sessionId")),
            new."id", substr(new."content", 1, 100000));
END;

-- A fill of a streaming reply changes `content` but not its status: both conditions are
-- false and nothing is written. The seal (status leaves `streaming`) inserts the entry.
CREATE TRIGGER "node_fts_update" AFTER UPDATE OF "kind", "status", "content" ON "Node"
WHEN (old."kind" IN ('user', 'assistant', 'summary') AND old."status" IN ('complete', 'interrupted'))
  OR (new."kind" IN ('user', 'assistant', 'summary') AND new."status" IN ('complete', 'interrupted'))
BEGIN
    DELETE FROM "node_fts"
     WHERE "node_fts" MATCH '{node_key} : "' || replace(old."id", '"', '""') || '"'
       AND node_id = old."id";
    INSERT INTO "node_fts" (node_key, session_key, owner_key, node_id, content)
    SELECT new."id", new."sessionId",
           hex((SELECT "ownerId" FROM "Session" WHERE "id" = new."sessionId")),
           new."id", substr(new."content", 1, 100000)
     WHERE new."kind" IN ('user', 'assistant', 'summary')
       AND new."status" IN ('complete', 'interrupted');
END;

-- Also fires for the nodes a session delete cascades to.
CREATE TRIGGER "node_fts_delete" AFTER DELETE ON "Node"
WHEN old."kind" IN ('user', 'assistant', 'summary')
 AND old."status" IN ('complete', 'interrupted')
BEGIN
    DELETE FROM "node_fts"
     WHERE "node_fts" MATCH '{node_key} : "' || replace(old."id", '"', '""') || '"'
       AND node_id = old."id";
END;

CREATE TRIGGER "session_fts_insert" AFTER INSERT ON "Session"
BEGIN
    INSERT INTO "session_fts" (session_key, owner_key, session_id, title)
    VALUES (new."id", hex(new."ownerId"), new."id", substr(new."title", 1, 100000));
END;

CREATE TRIGGER "session_fts_update" AFTER UPDATE OF "title", "ownerId" ON "Session"
BEGIN
    DELETE FROM "session_fts"
     WHERE "session_fts" MATCH '{session_key} : "' || replace(old."id", '"', '""') || '"'
       AND session_id = old."id";
    INSERT INTO "session_fts" (session_key, owner_key, session_id, title)
    VALUES (new."id", hex(new."ownerId"), new."id", substr(new."title", 1, 100000));
END;

-- A session changes hands (an import leaving its staging owner, the first account adopting
-- the single-user sessions): its nodes' entries are written again under the new owner.
CREATE TRIGGER "node_fts_owner" AFTER UPDATE OF "ownerId" ON "Session"
WHEN old."ownerId" IS NOT new."ownerId"
BEGIN
    DELETE FROM "node_fts"
     WHERE "node_fts" MATCH '{session_key} : "' || replace(new."id", '"', '""') || '"';
    INSERT INTO "node_fts" (node_key, session_key, owner_key, node_id, content)
    SELECT n."id", n."sessionId", hex(new."ownerId"), n."id", substr(n."content", 1, 100000)
      FROM "Node" n
     WHERE n."sessionId" = new."id"
       AND n."kind" IN ('user', 'assistant', 'summary')
       AND n."status" IN ('complete', 'interrupted');
END;

CREATE TRIGGER "session_fts_delete" AFTER DELETE ON "Session"
BEGIN
    DELETE FROM "session_fts"
     WHERE "session_fts" MATCH '{session_key} : "' || replace(old."id", '"', '""') || '"'
       AND session_id = old."id";
END;

-- Backfill what was written before this migration.
INSERT INTO "node_fts" (node_key, session_key, owner_key, node_id, content)
SELECT n."id", n."sessionId", hex(s."ownerId"), n."id", substr(n."content", 1, 100000)
  FROM "Node" n JOIN "Session" s ON s."id" = n."sessionId"
 WHERE n."kind" IN ('user', 'assistant', 'summary') AND n."status" IN ('complete', 'interrupted');

INSERT INTO "session_fts" (session_key, owner_key, session_id, title)
SELECT "id", hex("ownerId"), "id", "title" FROM "Session";

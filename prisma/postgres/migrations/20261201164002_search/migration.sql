-- Full-text search (docs/spec.md [R100]–[R104]), the PostgreSQL twin of
-- prisma/migrations/20261201164000_search, written by hand: Prisma's schema cannot express
-- it. "node_search" and "session_search" hold one `tsvector` per indexed node / session
-- title under a GIN index; triggers keep them current, so every writer (turns, seals,
-- imports, compaction) is covered without a code path to forget, and the foreign keys
-- remove an entry with its node or session (branch delete, session delete cascade).
--
-- Indexed: user, assistant and summary nodes once sealed — `complete`, or `interrupted`
-- with the partial text the transcript shows. A `streaming` reply is rewritten several
-- times a second and is indexed once, when its status leaves `streaming`; `error` nodes,
-- tool results, notices and ROOT are never indexed.
--
-- The 'simple' configuration (no stemming, no stop words: safe for any language) over the
-- text with ASCII punctuation turned into spaces, so words split where SQLite's unicode61
-- splits them ("github.com" is "github" and "com" on both). The first 100,000 characters
-- are indexed, which keeps every document well under the 1 MB `tsvector` limit: indexing
-- can never make a write fail.

CREATE TABLE "node_search" (
    "nodeId" TEXT NOT NULL PRIMARY KEY REFERENCES "Node" ("id") ON DELETE CASCADE,
    "document" TSVECTOR NOT NULL
);
CREATE INDEX "node_search_document_idx" ON "node_search" USING GIN ("document");

CREATE TABLE "session_search" (
    "sessionId" TEXT NOT NULL PRIMARY KEY REFERENCES "Session" ("id") ON DELETE CASCADE,
    "document" TSVECTOR NOT NULL
);
CREATE INDEX "session_search_document_idx" ON "session_search" USING GIN ("document");

CREATE FUNCTION "search_document"(body TEXT) RETURNS TSVECTOR
LANGUAGE SQL IMMUTABLE PARALLEL SAFE
RETURN to_tsvector('simple', regexp_replace(left(body, 100000), '[[:punct:]]+', ' ', 'g'));

CREATE FUNCTION "node_search_sync"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."kind" IN ('user', 'assistant', 'summary')
       AND NEW."status" IN ('complete', 'interrupted') THEN
        INSERT INTO "node_search" ("nodeId", "document")
        VALUES (NEW."id", "search_document"(NEW."content"))
        ON CONFLICT ("nodeId") DO UPDATE SET "document" = EXCLUDED."document";
    ELSE
        DELETE FROM "node_search" WHERE "nodeId" = NEW."id";
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "node_search_insert" AFTER INSERT ON "Node"
FOR EACH ROW
WHEN (NEW."kind" IN ('user', 'assistant', 'summary')
      AND NEW."status" IN ('complete', 'interrupted'))
EXECUTE FUNCTION "node_search_sync"();

-- A fill of a streaming reply changes `content` but not its status: the condition is false
-- and the function never runs. The seal (status leaves `streaming`) writes the entry.
CREATE TRIGGER "node_search_update" AFTER UPDATE OF "kind", "status", "content" ON "Node"
FOR EACH ROW
WHEN ((OLD."kind" IN ('user', 'assistant', 'summary')
       AND OLD."status" IN ('complete', 'interrupted'))
   OR (NEW."kind" IN ('user', 'assistant', 'summary')
       AND NEW."status" IN ('complete', 'interrupted')))
EXECUTE FUNCTION "node_search_sync"();

CREATE FUNCTION "session_search_sync"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "session_search" ("sessionId", "document")
    VALUES (NEW."id", "search_document"(NEW."title"))
    ON CONFLICT ("sessionId") DO UPDATE SET "document" = EXCLUDED."document";
    RETURN NULL;
END;
$$;

CREATE TRIGGER "session_search_insert" AFTER INSERT ON "Session"
FOR EACH ROW EXECUTE FUNCTION "session_search_sync"();

CREATE TRIGGER "session_search_update" AFTER UPDATE OF "title" ON "Session"
FOR EACH ROW EXECUTE FUNCTION "session_search_sync"();

-- Backfill what was written before this migration.
INSERT INTO "node_search" ("nodeId", "document")
SELECT "id", "search_document"("content") FROM "Node"
 WHERE "kind" IN ('user', 'assistant', 'summary') AND "status" IN ('complete', 'interrupted');

INSERT INTO "session_search" ("sessionId", "document")
SELECT "id", "search_document"("title") FROM "Session";

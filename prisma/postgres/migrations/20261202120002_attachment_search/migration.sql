-- Search finds text attachments (docs/spec.md [R279]), the PostgreSQL twin of
-- prisma/migrations/20261202120000_attachment_search, written by hand like the search
-- migration whose `search_document` it uses: one `tsvector` per text attachment — a text
-- file, or the text of a PDF — once it is sent, under the user node that carries it, beside
-- (not inside) its node's entry, so each file has its own 100,000-character bound and no
-- document nears the 1 MB `tsvector` limit. Triggers keep it current: the append that claims
-- an upload (the UPDATE of "nodeId", in the append's transaction) and a ledger import (rows
-- inserted already claimed) write it; the foreign key removes it with its attachment (branch
-- delete, session delete). An upload never sent is not indexed.

CREATE TABLE "attachment_search" (
    "attachmentId" TEXT NOT NULL PRIMARY KEY REFERENCES "Attachment" ("id") ON DELETE CASCADE,
    "nodeId" TEXT NOT NULL,
    "document" TSVECTOR NOT NULL
);
CREATE INDEX "attachment_search_document_idx" ON "attachment_search" USING GIN ("document");

CREATE FUNCTION "attachment_search_sync"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "attachment_search" WHERE "attachmentId" = NEW."id";
    IF NEW."nodeId" IS NOT NULL AND NEW."kind" = 'text' THEN
        INSERT INTO "attachment_search" ("attachmentId", "nodeId", "document")
        SELECT NEW."id", NEW."nodeId", "search_document"(NEW."name" || E'\n' || b."text")
          FROM "Blob" b
         WHERE b."sessionId" = NEW."sessionId" AND b."sha256" = NEW."sha256"
           AND b."text" IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "attachment_search_insert" AFTER INSERT ON "Attachment"
FOR EACH ROW
WHEN (NEW."nodeId" IS NOT NULL AND NEW."kind" = 'text')
EXECUTE FUNCTION "attachment_search_sync"();

CREATE TRIGGER "attachment_search_claim" AFTER UPDATE OF "nodeId" ON "Attachment"
FOR EACH ROW
WHEN (OLD."nodeId" IS DISTINCT FROM NEW."nodeId")
EXECUTE FUNCTION "attachment_search_sync"();

-- Backfill what was sent before this migration.
INSERT INTO "attachment_search" ("attachmentId", "nodeId", "document")
SELECT a."id", a."nodeId", "search_document"(a."name" || E'\n' || b."text")
  FROM "Attachment" a
  JOIN "Blob" b ON b."sessionId" = a."sessionId" AND b."sha256" = a."sha256"
 WHERE a."nodeId" IS NOT NULL AND a."kind" = 'text' AND b."text" IS NOT NULL;

-- Search finds text attachments (docs/spec.md [R279]), written by hand like
-- 20261201164000_search, whose index it extends: a text attachment — a text file, or the text
-- of a PDF — is indexed once it is sent, under the user node that carries it. One entry per
-- attachment, apart from its node's: the first 100,000 characters of each file (the name,
-- then the text) are indexed, the node's text keeps its own bound, and the node's entry is
-- never rewritten. Triggers keep it current, so every writer is covered: the append that
-- claims an upload (the claim is the UPDATE of "nodeId", in the append's transaction), a
-- ledger import (rows inserted already claimed), a branch delete (its attachments are
-- deleted in the same transaction) and a session delete (they cascade). An upload never sent
-- is not indexed.
--
-- Keys as in "node_fts": `attachment_key` and `session_key` make deleting by id an index
-- lookup; `owner_key` is the owner's id in hex, matched with the words.

CREATE VIRTUAL TABLE "attachment_fts" USING fts5(
    attachment_key,
    session_key,
    owner_key,
    node_id UNINDEXED,
    attachment_id UNINDEXED,
    content,
    tokenize = 'unicode61'
);

CREATE TRIGGER "attachment_fts_insert" AFTER INSERT ON "Attachment"
WHEN new."nodeId" IS NOT NULL AND new."kind" = 'text'
BEGIN
    INSERT INTO "attachment_fts" (attachment_key, session_key, owner_key, node_id, attachment_id, content)
    SELECT new."id", new."sessionId", hex(s."ownerId"), new."nodeId", new."id",
           substr(new."name" || char(10) || b."text", 1, 100000)
      FROM "Blob" b JOIN "Session" s ON s."id" = b."sessionId"
     WHERE b."sessionId" = new."sessionId" AND b."sha256" = new."sha256" AND b."text" IS NOT NULL;
END;

CREATE TRIGGER "attachment_fts_claim" AFTER UPDATE OF "nodeId" ON "Attachment"
WHEN old."nodeId" IS NOT new."nodeId"
BEGIN
    DELETE FROM "attachment_fts"
     WHERE "attachment_fts" MATCH '{attachment_key} : "' || replace(old."id", '"', '""') || '"'
       AND attachment_id = old."id";
    INSERT INTO "attachment_fts" (attachment_key, session_key, owner_key, node_id, attachment_id, content)
    SELECT new."id", new."sessionId", hex(s."ownerId"), new."nodeId", new."id",
           substr(new."name" || char(10) || b."text", 1, 100000)
      FROM "Blob" b JOIN "Session" s ON s."id" = b."sessionId"
     WHERE b."sessionId" = new."sessionId" AND b."sha256" = new."sha256" AND b."text" IS NOT NULL
       AND new."nodeId" IS NOT NULL AND new."kind" = 'text';
END;

-- Also fires for the attachments a session delete cascades to.
CREATE TRIGGER "attachment_fts_delete" AFTER DELETE ON "Attachment"
WHEN old."nodeId" IS NOT NULL AND old."kind" = 'text'
BEGIN
    DELETE FROM "attachment_fts"
     WHERE "attachment_fts" MATCH '{attachment_key} : "' || replace(old."id", '"', '""') || '"'
       AND attachment_id = old."id";
END;

-- A session changes hands (an import landing, the first account adopting the single-user
-- sessions): its attachments' entries are written again under the new owner.
CREATE TRIGGER "attachment_fts_owner" AFTER UPDATE OF "ownerId" ON "Session"
WHEN old."ownerId" IS NOT new."ownerId"
BEGIN
    DELETE FROM "attachment_fts"
     WHERE "attachment_fts" MATCH '{session_key} : "' || replace(new."id", '"', '""') || '"';
    INSERT INTO "attachment_fts" (attachment_key, session_key, owner_key, node_id, attachment_id, content)
    SELECT a."id", a."sessionId", hex(new."ownerId"), a."nodeId", a."id",
           substr(a."name" || char(10) || b."text", 1, 100000)
      FROM "Attachment" a
      JOIN "Blob" b ON b."sessionId" = a."sessionId" AND b."sha256" = a."sha256"
     WHERE a."sessionId" = new."id" AND a."nodeId" IS NOT NULL AND a."kind" = 'text'
       AND b."text" IS NOT NULL;
END;

-- Backfill what was sent before this migration.
INSERT INTO "attachment_fts" (attachment_key, session_key, owner_key, node_id, attachment_id, content)
SELECT a."id", a."sessionId", hex(s."ownerId"), a."nodeId", a."id",
       substr(a."name" || char(10) || b."text", 1, 100000)
  FROM "Attachment" a
  JOIN "Blob" b ON b."sessionId" = a."sessionId" AND b."sha256" = a."sha256"
  JOIN "Session" s ON s."id" = a."sessionId"
 WHERE a."nodeId" IS NOT NULL AND a."kind" = 'text' AND b."text" IS NOT NULL;

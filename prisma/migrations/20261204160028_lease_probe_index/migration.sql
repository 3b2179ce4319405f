-- DropIndex
DROP INDEX "Node_status_idx";

-- CreateIndex
CREATE INDEX "Node_status_sessionId_idx" ON "Node"("status", "sessionId");

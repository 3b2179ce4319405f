import { z } from "zod";
import {
  createSessionSchema,
  forkSessionSchema,
  listSessionsQuerySchema,
  chatGptConversationSchema,
  chatGptImportResultSchema,
  exportQuerySchema,
  graphQuerySchema,
  compareQuerySchema,
  nodesQuerySchema,
  searchQuerySchema,
  sessionSettingsSchema,
  auditRequestSchema,
  auditsQuerySchema,
  replaySchema,
  summaryAuditSchema,
  turnSchema,
  modelsAnswerSchema,
  attachmentSchema,
} from "./schemas";
/**
 * The OpenAPI 3.1 description of Spindle's HTTP API (product.md §4), served at
 * GET /api/openapi.json. tests/integration/http-api.test.ts checks it against the route
 * files (every route and method documented, nothing documented that does not exist) and
 * validates real responses against these schemas.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A zod schema as JSON Schema (the draft marker belongs to whole documents); requests are
 * described by their input side, answers by their output side. */
function fromZod(schema: z.ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}
const settingsJsonSchema = fromZod(sessionSettingsSchema);
const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = (description: string, schema: unknown) => ({ description, content: json(schema) });
const errors = {
  "400": { description: "Invalid input", content: json(ref("Error")) },
  "401": { description: "Not signed in, or an invalid API key", content: json(ref("Error")) },
  "403": {
    description: "A cookie-authenticated write from another origin",
    content: json(ref("Error")),
  },
  "404": {
    description: "Unknown session or node (or another account's: never 403)",
    content: json(ref("Error")),
  },
  "413": { description: "Request body too large", content: json(ref("Error")) },
  "415": { description: "The body is not application/json", content: json(ref("Error")) },
};
/** Query parameters generated from the zod schema the route parses them with. */
function queryParameters(schema: z.ZodObject) {
  const { properties = {}, required = [] } = z.toJSONSchema(schema, { io: "input" });
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...schema } = typeof property === "object" ? property : {};
    return {
      name,
      in: "query",
      required: required.includes(name),
      ...(description ? { description } : {}),
      schema,
    };
  });
}
const publicRoute = { security: [] };
const sessionParam = { name: "id", in: "path", required: true, schema: { type: "string" } };
const nodeId = { type: "string", description: "A node id (ULID)" };
const nullableId = { type: ["string", "null"] };

const NodeSchema = {
  type: "object",
  required: [
    "id",
    "sessionId",
    "predecessorId",
    "seq",
    "kind",
    "content",
    "status",
    "callerId",
    "metadata",
    "reads",
    "createdAt",
  ],
  properties: {
    id: nodeId,
    sessionId: { type: "string" },
    predecessorId: nullableId,
    seq: { type: "integer", description: "Insertion order; display only" },
    kind: { enum: ["root", "user", "assistant", "tool", "summary", "notice"] },
    content: { type: "string" },
    status: { enum: ["complete", "streaming", "interrupted", "error"] },
    callerId: nullableId,
    metadata: {
      type: "object",
      description: "covers_ids on summaries; model, finish_reason, usage, tool_calls, error",
      properties: { covers_ids: { type: "array", items: { type: "string" } } },
    },
    reads: {
      type: "array",
      items: { type: "string" },
      description: "Provenance: ids that entered the prompt, in order",
    },
    tokenCount: { type: "integer" },
    createdAt: { type: "string", format: "date-time" },
  },
};

const SessionSchema = {
  type: "object",
  required: ["id", "title", "headId", "rootId", "createdAt", "updatedAt", "meta"],
  properties: {
    id: { type: "string" },
    title: { type: "string" },
    headId: nullableId,
    rootId: nullableId,
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
    meta: {
      type: "object",
      properties: {
        _last_summary_id: { type: "string" },
        _last_summary_text: { type: "string" },
        settings: ref("Settings"),
        titleSource: {
          enum: ["user", "auto"],
          description:
            "Who chose the title; absent while the session is untitled (an automatic title is written only then)",
        },
        forkedFrom: {
          type: "object",
          description: "Sessions made by POST /api/sessions/{id}/fork: the branch tip copied",
          required: ["sessionId", "nodeId"],
          properties: { sessionId: { type: "string" }, nodeId: { type: "string" } },
        },
      },
    },
  },
};

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Spindle API",
    version: "1",
    description:
      "Sessions are append-only DAGs of nodes. Errors are {error:{code,message}} with 4xx/5xx statuses. SSE endpoints stream `event:` / `data:` pairs. Requests authenticate with the browser's sign-in cookie or `Authorization: Bearer <key>` (a personal API key from POST /api/keys); accounts live under /api/auth/* (better-auth's email endpoints: sign-up/email, sign-in/email, sign-out). With SPINDLE_AUTH=off (single-user mode, loopback only) no credentials are needed. Another account's session or node is a 404 on every route.",
  },
  security: [{ cookieAuth: [] }, { bearerAuth: [] }],
  paths: {
    "/api/health": {
      get: {
        summary: "Health",
        ...publicRoute,
        responses: { "200": ok("Healthy", ref("Health")) },
      },
    },
    "/api/openapi.json": {
      get: {
        summary: "This document",
        ...publicRoute,
        responses: { "200": ok("OpenAPI document", { type: "object" }) },
      },
    },
    "/api/models": {
      get: {
        summary: "Configured provider and its models (never the key)",
        responses: { "200": ok("Models", ref("Models")) },
      },
    },
    "/api/keys": {
      get: {
        summary: "The caller's API keys (never the keys themselves)",
        responses: { "200": ok("Keys", ref("ApiKeyList")), ...errors },
      },
      post: {
        summary: "Create an API key (signed-in browser only); the key is shown once",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["name"],
            properties: { name: { type: "string", maxLength: 100 } },
          }),
        },
        responses: { "201": ok("The new key", ref("ApiKeyCreated")), ...errors },
      },
    },
    "/api/keys/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      delete: {
        summary: "Revoke an API key",
        responses: { "204": { description: "Revoked" }, ...errors },
      },
    },
    "/api/import": {
      post: {
        summary: "Import a JSON ledger as a new session",
        requestBody: { required: true, content: json(ref("LedgerFile")) },
        responses: { "201": ok("The new session", ref("Session")), ...errors },
      },
    },
    "/api/import/chatgpt": {
      post: {
        summary:
          "Import a ChatGPT conversations.json: one new session per conversation, each imported or refused on its own",
        requestBody: {
          required: true,
          content: json({ type: "array", minItems: 1, items: ref("ChatGptConversation") }),
        },
        responses: {
          "200": ok("Per-conversation results", ref("ChatGptImportResult")),
          "429": { description: "import_busy", content: json(ref("Error")) },
          ...errors,
        },
      },
    },
    "/api/search": {
      get: {
        summary:
          "Full-text search over the caller's sessions: sealed user, assistant and summary text, and titles",
        parameters: queryParameters(searchQuerySchema),
        responses: { "200": ok("A page of results", ref("SearchPage")), ...errors },
      },
    },
    "/api/sessions": {
      get: {
        summary:
          "List sessions, newest activity first, a page at a time (cursor = the previous page's nextCursor; q filters titles)",
        parameters: queryParameters(listSessionsQuerySchema),
        responses: { "200": ok("A page", ref("SessionPage")), ...errors },
      },
      post: {
        summary: "Create a session (systemPrompt becomes the ROOT; a title is kept as the user's)",
        requestBody: { content: json(fromZod(createSessionSchema)) },
        responses: { "201": ok("Created", ref("Session")), ...errors },
      },
    },
    "/api/sessions/{id}": {
      parameters: [sessionParam],
      get: {
        summary: "A session",
        responses: { "200": ok("The session", ref("Session")), ...errors },
      },
      patch: {
        summary: "Rename, change settings",
        requestBody: {
          content: json({
            type: "object",
            properties: { title: { type: "string" }, settings: ref("Settings") },
          }),
        },
        responses: { "200": ok("The session", ref("Session")), ...errors },
      },
      delete: {
        summary: "Delete a session",
        responses: { "204": { description: "Deleted" }, ...errors },
      },
    },
    "/api/sessions/{id}/fork": {
      parameters: [sessionParam],
      post: {
        summary:
          "New session from a branch (default: HEAD's) under a new system prompt; the source is not changed",
        requestBody: { required: true, content: json(fromZod(forkSessionSchema)) },
        responses: {
          "201": ok("The new session", ref("Session")),
          "409": { description: "headId is a summary or notice", content: json(ref("Error")) },
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/nodes": {
      parameters: [sessionParam],
      get: {
        summary:
          "The ledger a page at a time (afterSeq, limit, view=full|lean|skeleton), or the nodes named by ids (full)",
        parameters: queryParameters(nodesQuerySchema),
        responses: {
          "200": ok("Nodes in seq order", ref("NodesPage")),
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/context": {
      parameters: [sessionParam, { name: "head", in: "query", schema: { type: "string" } }],
      get: {
        summary: "What the model reads from a head",
        responses: { "200": ok("Rendering", ref("Context")), ...errors },
      },
    },
    "/api/sessions/{id}/graph": {
      parameters: [sessionParam],
      get: {
        summary:
          "Graph wire contract; afterSeq and limit page its rows (the graph is still built from the whole ledger)",
        parameters: queryParameters(graphQuerySchema),
        responses: { "200": ok("Graph", ref("Graph")), ...errors },
      },
    },
    "/api/sessions/{id}/compare": {
      parameters: [sessionParam],
      get: {
        summary:
          "Two nodes' branches side by side from their fork point (skeletons; fetch rows whole with GET .../nodes?ids=)",
        parameters: queryParameters(compareQuerySchema),
        responses: { "200": ok("The two columns", ref("Comparison")), ...errors },
      },
    },
    "/api/sessions/{id}/turns": {
      parameters: [sessionParam],
      post: {
        summary: "Send, retry or edit; SSE stream or {user, reply} with stream:false",
        requestBody: { required: true, content: json(ref("TurnRequest")) },
        responses: {
          "200": {
            description:
              'SSE (`node` {lean node}, `delta` {id,text,offset}, `done` {node: lean}, `error` {code,message,node?: lean}; lean: reads [] and partial "reads") or, with stream:false, the finished nodes (full)',
            content: {
              "text/event-stream": { schema: { type: "string" } },
              ...json(ref("TurnResult")),
            },
          },
          "409": { description: "turn_in_progress", content: json(ref("Error")) },
          ...errors,
          "413": {
            description: "content_too_large, or the body exceeds the server's cap",
            content: json(ref("Error")),
          },
          "502": {
            description: "The provider failed; the nodes are included",
            content: json(ref("Error")),
          },
        },
      },
    },
    "/api/sessions/{id}/replays": {
      parameters: [sessionParam],
      post: {
        summary:
          "Replay a reply: its recorded prompt (reads) sent again, to another model or with summaries expanded; a new sibling reply, HEAD unmoved",
        requestBody: { required: true, content: json(fromZod(replaySchema)) },
        responses: {
          "200": {
            description:
              "SSE, as a turn streams it (`node`, `delta`, `done` or `error`, lean nodes)",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          "201": {
            description: "With stream:false: the sealed replay ({reply}, full)",
            content: json({
              type: "object",
              required: ["reply"],
              properties: { reply: ref("Node") },
            }),
          },
          "409": {
            description:
              "not_a_reply (a user node, summary, notice or ROOT); reply_streaming; no_provenance (no recorded reads, or part of them is gone); prompt_too_large (the expanded prompt does not fit the model's window)",
            content: json(ref("Error")),
          },
          ...errors,
          "502": {
            description: "The provider failed; the failed replay is included ({error, reply})",
            content: json(ref("Error")),
          },
        },
      },
    },
    "/api/sessions/{id}/head": {
      parameters: [sessionParam],
      post: {
        summary: "Move HEAD (checkout or rewind)",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["nodeId"],
            properties: { nodeId: nodeId, move: { enum: ["checkout", "rewind"] } },
          }),
        },
        responses: {
          "200": ok("The session", ref("Session")),
          "409": {
            description: "node_not_on_spine / node_not_checkoutable",
            content: json(ref("Error")),
          },
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/branches/{nodeId}": {
      parameters: [
        sessionParam,
        { name: "nodeId", in: "path", required: true, schema: { type: "string" } },
      ],
      delete: {
        summary: "Delete the branch whose tip is nodeId",
        responses: {
          "200": ok("The session after the delete, and the removed ids", {
            allOf: [
              ref("Session"),
              {
                type: "object",
                required: ["removed"],
                properties: { removed: { type: "array", items: { type: "string" } } },
              },
            ],
          }),
          "409": { description: "Not a branch tip", content: json(ref("Error")) },
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/audits": {
      parameters: [sessionParam],
      get: {
        summary: "The session's audits of summaries, newest first",
        parameters: queryParameters(auditsQuerySchema),
        responses: {
          "200": ok("Audits", {
            type: "object",
            required: ["audits"],
            properties: { audits: { type: "array", items: ref("SummaryAudit") } },
          }),
          ...errors,
        },
      },
      post: {
        summary:
          "Audit a summary: probes of its originals answered with it and with them, judged 0–5 (or, offline, looked up in its text); stored append-only",
        requestBody: { required: true, content: json(fromZod(auditRequestSchema)) },
        responses: {
          "201": {
            description:
              "The stored audit ({audit}); with stream:true an SSE stream: `progress` {done, total}, then `done` {audit} or `error` {code, message}",
            content: {
              "text/event-stream": { schema: { type: "string" } },
              ...json({
                type: "object",
                required: ["audit"],
                properties: { audit: ref("SummaryAudit") },
              }),
            },
          },
          "409": {
            description:
              "not_a_summary; prompt_too_large (the originals do not fit the answering model's window)",
            content: json(ref("Error")),
          },
          ...errors,
          "502": {
            description: "A model call failed; nothing was stored",
            content: json(ref("Error")),
          },
        },
      },
    },
    "/api/sessions/{id}/compact": {
      parameters: [sessionParam],
      post: {
        summary: "Manual compaction",
        responses: { "200": ok("Result", ref("CompactResult")), ...errors },
      },
    },
    "/api/sessions/{id}/tasks": {
      parameters: [sessionParam],
      post: {
        summary: "Spawn a same-session sub-agent turn",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["prompt"],
            properties: { prompt: { type: "string" }, callerId: nodeId },
          }),
        },
        responses: { "200": ok("Result", ref("TaskResult")), ...errors },
      },
    },
    "/api/sessions/{id}/send": {
      parameters: [sessionParam],
      post: {
        summary: "Cross-session send (advances the target's HEAD)",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["targetSessionId", "content"],
            properties: { targetSessionId: { type: "string" }, content: { type: "string" } },
          }),
        },
        responses: { "200": ok("The target's turn", ref("TurnResult")), ...errors },
      },
    },
    "/api/sessions/{id}/events": {
      parameters: [sessionParam],
      get: {
        summary:
          "SSE: node_appended, delta, turn_finished, head_moved, compaction_started, compaction_finished, compaction_failed, notice (and node_changed, nodes_removed, session_changed)",
        responses: {
          "200": {
            description: "Event stream",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/export": {
      parameters: [
        sessionParam,
        { name: "format", in: "query", schema: fromZod(exportQuerySchema.shape.format, "input") },
        { name: "head", in: "query", schema: { type: "string" } },
      ],
      get: {
        summary:
          "Export the ledger (json) or one branch (markdown; md is an alias): HEAD's, or ?head=ID's",
        responses: {
          "200": {
            description: "The export",
            content: {
              ...json(ref("LedgerFile")),
              "text/markdown": { schema: { type: "string" } },
            },
          },
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/attachments": {
      parameters: [sessionParam],
      post: {
        summary:
          "Upload one file (multipart/form-data, field `file`) to send with the next message: PNG, JPEG, WebP or GIF images, UTF-8 text or source files; judged by content",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["file"],
                properties: { file: { type: "string", format: "binary" } },
              },
            },
          },
        },
        responses: {
          "201": ok("The stored attachment; name it in a turn's `attachments`", ref("Attachment")),
          ...errors,
          "413": {
            description: "The file is over SPINDLE_MAX_ATTACHMENT_BYTES (nothing is written)",
            content: json(ref("Error")),
          },
          "415": {
            description:
              "Not multipart/form-data, or a kind of file that is not accepted (the message lists the accepted kinds)",
            content: json(ref("Error")),
          },
        },
      },
    },
    "/api/sessions/{id}/attachments/{attachmentId}": {
      parameters: [
        sessionParam,
        { name: "attachmentId", in: "path", required: true, schema: { type: "string" } },
      ],
      get: {
        summary:
          "An attachment's bytes: its stored type, nosniff, inline only for PNG/JPEG/WebP/GIF, a download (Content-Disposition: attachment) otherwise",
        responses: {
          "200": {
            description: "The file",
            content: {
              "image/*": { schema: { type: "string", format: "binary" } },
              "text/plain": { schema: { type: "string" } },
            },
          },
          ...errors,
        },
      },
    },
  },
  components: {
    securitySchemes: {
      cookieAuth: {
        type: "apiKey",
        in: "cookie",
        name: "spindle.session_token",
        description: "The browser's sign-in (POST /api/auth/sign-in/email)",
      },
      bearerAuth: { type: "http", scheme: "bearer", description: "A personal API key (spk_…)" },
    },
    schemas: {
      ApiKeyInfo: {
        type: "object",
        required: ["id", "name", "prefix", "createdAt", "lastUsedAt"],
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          prefix: { type: "string" },
          createdAt: { type: "string", format: "date-time" },
          lastUsedAt: { type: ["string", "null"], format: "date-time" },
        },
      },
      ApiKeyList: {
        type: "object",
        required: ["keys"],
        properties: { keys: { type: "array", items: ref("ApiKeyInfo") } },
      },
      ApiKeyCreated: {
        allOf: [
          ref("ApiKeyInfo"),
          {
            type: "object",
            required: ["key"],
            properties: { key: { type: "string", description: "Shown once; store it" } },
          },
        ],
      },
      Error: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "string" }, message: { type: "string" } },
          },
        },
      },
      // Generated from the zod schema PATCH parses with: one schema, two uses.
      Settings: {
        ...settingsJsonSchema,
        description: "In a PATCH, null clears an override.",
      },
      Health: {
        type: "object",
        required: ["ok", "db", "migrations"],
        description:
          "`model` and `modelLabel` only for a signed-in caller (a cookie or a key); anyone else learns liveness, the database kind and the migration state.",
        properties: {
          ok: { type: "boolean" },
          db: { enum: ["sqlite", "postgresql"] },
          migrations: { enum: ["up to date", "pending", "unknown"] },
          model: { enum: ["offline", "openai-compatible"] },
          modelLabel: { type: "string" },
        },
      },
      Models: fromZod(modelsAnswerSchema, "output"),
      Attachment: fromZod(attachmentSchema, "output"),
      Session: SessionSchema,
      SessionListItem: {
        allOf: [
          ref("Session"),
          {
            type: "object",
            required: ["nodeCount", "branchCount"],
            properties: {
              nodeCount: {
                type: "integer",
                description: "Every node, ROOT and side leaves included",
              },
              branchCount: {
                type: "integer",
                description:
                  "Branch tips: nodes other than summaries and notices with no child but those",
              },
            },
          },
        ],
      },
      SessionPage: {
        type: "object",
        required: ["sessions", "nextCursor"],
        properties: {
          sessions: { type: "array", items: ref("SessionListItem") },
          nextCursor: { type: ["string", "null"], description: "Opaque; null on the last page" },
        },
      },
      Node: NodeSchema,
      WireNode: {
        allOf: [
          ref("Node"),
          {
            type: "object",
            properties: {
              partial: {
                enum: ["reads", "skeleton"],
                description:
                  "Absent on a full node. reads: reads left out ([]); skeleton: content is the card label (first non-empty line, ≤ 90 characters), no reads, tool-call arguments emptied",
              },
            },
          },
        ],
      },
      NodesPage: {
        type: "object",
        required: ["nodes", "lastSeq", "nextAfterSeq", "total"],
        properties: {
          nodes: { type: "array", items: ref("WireNode") },
          lastSeq: { type: "integer", description: "The session's highest seq" },
          nextAfterSeq: {
            type: ["integer", "null"],
            description: "The afterSeq of the next page; null when this page reached the end",
          },
          total: {
            type: "integer",
            minimum: 0,
            description:
              "The session's node count; a client holding a different number after catching up missed a delete",
          },
        },
      },
      SearchPage: {
        type: "object",
        required: ["results", "nextCursor"],
        properties: {
          results: { type: "array", items: ref("SearchHit") },
          nextCursor: {
            type: ["string", "null"],
            description: "Pass back as `cursor` for the next page",
          },
        },
      },
      SearchHit: {
        type: "object",
        description:
          "A node hit (kind user | assistant | summary) or a title hit (kind title, nodeId and seq null). Open it at /s/{sessionId}?node={nodeId}.",
        required: [
          "kind",
          "sessionId",
          "sessionTitle",
          "nodeId",
          "seq",
          "snippet",
          "onHeadSpine",
          "updatedAt",
        ],
        properties: {
          kind: { enum: ["user", "assistant", "summary", "title"] },
          sessionId: { type: "string" },
          sessionTitle: { type: "string" },
          nodeId: nullableId,
          seq: { type: ["integer", "null"] },
          snippet: {
            type: "array",
            description: "Plain-text pieces; the `hit` ones matched the query (never HTML)",
            items: {
              type: "object",
              required: ["text", "hit"],
              properties: { text: { type: "string" }, hit: { type: "boolean" } },
            },
          },
          onHeadSpine: {
            type: "boolean",
            description:
              "On the branch HEAD has checked out (a summary: the last node it covers is); false is a dead branch",
          },
          updatedAt: {
            type: "string",
            format: "date-time",
            description: "The session's last activity",
          },
        },
      },
      Context: {
        type: "object",
        required: ["headId", "ids", "messages"],
        properties: {
          headId: { type: "string" },
          ids: {
            type: "array",
            items: { type: "string" },
            description: "Prompt order; ids[0] is ROOT",
          },
          messages: {
            type: "array",
            items: {
              type: "object",
              required: ["id", "kind", "role", "content"],
              properties: {
                id: { type: "string" },
                kind: { type: "string" },
                role: { enum: ["system", "user", "assistant", "tool"] },
                content: { type: "string" },
              },
            },
          },
        },
      },
      Graph: {
        type: "object",
        required: ["sessionId", "headId", "activeSummaryId", "nodes", "lastSeq", "nextAfterSeq"],
        properties: {
          lastSeq: { type: "integer", description: "The session's highest seq" },
          nextAfterSeq: {
            type: ["integer", "null"],
            description:
              "The afterSeq of the next page of rows; null when this page reached the end",
          },
          sessionId: { type: "string" },
          headId: nullableId,
          activeSummaryId: nullableId,
          nodes: {
            type: "array",
            items: {
              allOf: [
                ref("Node"),
                {
                  type: "object",
                  required: ["onHeadSpine"],
                  properties: {
                    onHeadSpine: { type: "boolean" },
                    covers_ids: { type: "array", items: { type: "string" } },
                    superseded_summary: { const: true },
                  },
                },
              ],
            },
          },
        },
      },
      Comparison: {
        type: "object",
        required: ["forkId", "a", "b"],
        properties: {
          forkId: { type: "string", description: "The last node both branches share" },
          a: {
            type: "array",
            items: ref("WireNode"),
            description: "From the fork's child down to node a, in order; row i aligns with b's",
          },
          b: {
            type: "array",
            items: ref("WireNode"),
            description: "From the fork's child down to node b; empty when b is the fork",
          },
        },
      },
      TurnRequest: fromZod(turnSchema),
      TurnResult: {
        type: "object",
        required: ["user", "reply"],
        properties: {
          user: { oneOf: [ref("Node"), { type: "null" }] },
          reply: ref("Node"),
          replies: {
            type: "array",
            items: ref("Node"),
            description: "A turn of several models: every reply, in the order of `models`",
          },
        },
      },
      SummaryAudit: fromZod(summaryAuditSchema, "output"),
      CompactResult: {
        type: "object",
        required: ["summary", "notice", "coveredCount", "tokensBefore", "tokensAfter"],
        properties: {
          summary: { oneOf: [ref("Node"), { type: "null" }] },
          notice: { type: ["string", "null"] },
          coveredCount: { type: "integer" },
          tokensBefore: { type: "integer" },
          tokensAfter: { type: "integer" },
        },
      },
      TaskResult: {
        type: "object",
        required: ["caller", "branchRootId", "result"],
        properties: { caller: ref("Node"), branchRootId: { type: "string" }, result: ref("Node") },
      },
      ChatGptConversation: {
        ...fromZod(chatGptConversationSchema, "input"),
        description:
          "One element of ChatGPT's conversations.json; unknown fields are allowed and ignored.",
      },
      ChatGptImportResult: fromZod(chatGptImportResultSchema, "output"),
      LedgerFile: {
        type: "object",
        required: ["format", "version", "session", "nodes"],
        properties: {
          format: { const: "spindle.ledger" },
          version: { const: 1 },
          session: { type: "object" },
          nodes: { type: "array", items: { type: "object" } },
          blobs: {
            type: "array",
            description:
              "The attachments' bytes, once per SHA-256; import checks each hash and size and judges the content again",
            items: {
              type: "object",
              required: ["sha256", "size", "base64"],
              properties: {
                sha256: { type: "string" },
                size: { type: "integer" },
                base64: { type: "string" },
              },
            },
          },
        },
      },
    },
  },
} as const;

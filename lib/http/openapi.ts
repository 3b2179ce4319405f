import { z } from "zod";
import {
  apiKeyCreateSchema,
  createSessionSchema,
  forkSessionSchema,
  headMoveSchema,
  listSessionsQuerySchema,
  chatGptConversationSchema,
  contextQuerySchema,
  exportQuerySchema,
  graphQuerySchema,
  compareQuerySchema,
  nodesQuerySchema,
  searchQuerySchema,
  sendSchema,
  sessionPatchSchema,
  auditRequestSchema,
  auditsQuerySchema,
  replaySchema,
  taskSchema,
  turnSchema,
} from "./schemas";
import { answers } from "./answers";
import { ledgerFileSchema } from "../portability/ledger-file";

/**
 * The OpenAPI 3.1 description of Spindle's HTTP API (product.md §4), served at
 * GET /api/openapi.json. Every request and answer schema is generated from the zod schemas
 * the routes parse with (lib/http/schemas.ts) and the answers' zod descriptions
 * (lib/http/answers.ts); only the paths, their summaries and which status answers what are
 * written here. tests/integration/http-api.test.ts checks it against the route files (every
 * route and method documented, nothing documented that does not exist), and every JSON
 * answer a test receives is validated against it ([R276]).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A zod schema as JSON Schema (the draft marker belongs to whole documents); requests are
 * described by their input side, answers by their output side. */
function fromZod(schema: z.ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

/** Every registered answer as a component, its references to the others as `$ref`s. */
function answerComponents(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(answers, {
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _draft, $id: _id, ...rest } = schema;
      return [name, rest];
    }),
  );
}

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = (description: string, schema: unknown) => ({ description, content: json(schema) });
const body = (schema: z.ZodType, required = true) => ({
  ...(required ? { required: true } : {}),
  content: json(fromZod(schema)),
});
const errors = {
  "400": {
    description: "Invalid input, or a field the route does not take",
    content: json(ref("Error")),
  },
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
  default: { description: "Any other refusal (421, 429, 5xx)", content: json(ref("Error")) },
};
/** A turn's or a send's refusals: a provider failure carries the nodes that record it. */
const turnErrors = Object.fromEntries(
  Object.entries(errors).map(([status, { description }]) => [
    status,
    { description, content: json(ref("TurnFailure")) },
  ]),
);
/** Query parameters generated from the zod schema the route parses them with. */
function queryParameters(schema: z.ZodType) {
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

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Spindle API",
    version: "1",
    description:
      "Sessions are append-only DAGs of nodes. Errors are {error:{code,message}} with 4xx/5xx statuses; a body or query field a route does not take is a 400 naming it, and a path no route serves a 404 not_found. SSE endpoints stream `event:` / `data:` pairs. Requests authenticate with the browser's sign-in cookie or `Authorization: Bearer <key>` (a personal API key from POST /api/keys); accounts live under /api/auth/* (better-auth's email endpoints: sign-up/email, sign-in/email, sign-out). With SPINDLE_AUTH=off (single-user mode, loopback only) no credentials are needed. Another account's session or node is a 404 on every route.",
  },
  security: [{ cookieAuth: [] }, { bearerAuth: [] }],
  paths: {
    "/api/health": {
      get: {
        summary: "Health",
        ...publicRoute,
        responses: { "200": ok("Healthy", ref("Health")), default: errors.default },
      },
    },
    "/api/openapi.json": {
      get: {
        summary: "This document",
        ...publicRoute,
        responses: {
          "200": ok("OpenAPI document", { type: "object" }),
          default: errors.default,
        },
      },
    },
    "/api/models": {
      get: {
        summary: "Configured provider and its models (never the key)",
        responses: { "200": ok("Models", ref("Models")), ...errors },
      },
    },
    "/api/keys": {
      get: {
        summary: "The caller's API keys (never the keys themselves)",
        responses: { "200": ok("Keys", ref("ApiKeyList")), ...errors },
      },
      post: {
        summary: "Create an API key (signed-in browser only); the key is shown once",
        requestBody: body(apiKeyCreateSchema),
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
          "Full-text search over the caller's sessions: sealed user, assistant and summary text, the text attachments of messages, and titles",
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
        requestBody: body(createSessionSchema, false),
        responses: { "201": ok("Created", ref("Session")), ...errors },
      },
    },
    "/api/sessions/{id}": {
      parameters: [sessionParam],
      get: {
        summary: "A session",
        responses: { "200": ok("The session", ref("SessionWithSummaries")), ...errors },
      },
      patch: {
        summary: "Rename, change settings (null clears an override)",
        requestBody: body(sessionPatchSchema),
        responses: { "200": ok("The session", ref("SessionWithSummaries")), ...errors },
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
        requestBody: body(forkSessionSchema),
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
          "200": ok("Nodes in seq order: NodesPage, or PackedNodesPage with form=columns", {
            oneOf: [ref("NodesPage"), ref("PackedNodesPage")],
          }),
          ...errors,
        },
      },
    },
    "/api/sessions/{id}/context": {
      parameters: [sessionParam],
      get: {
        summary: "What the model reads from a head",
        parameters: queryParameters(contextQuerySchema),
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
          ...turnErrors,
          "413": {
            description: "content_too_large, or the body exceeds the server's cap",
            content: json(ref("Error")),
          },
          "502": {
            description: "The provider failed; the nodes are included",
            content: json(ref("TurnFailure")),
          },
        },
      },
    },
    "/api/sessions/{id}/replays": {
      parameters: [sessionParam],
      post: {
        summary:
          "Replay a reply: its recorded prompt (reads) sent again, to another model or with summaries expanded; a new sibling reply, HEAD unmoved",
        requestBody: body(replaySchema),
        responses: {
          "200": {
            description:
              "SSE, as a turn streams it (`node`, `delta`, `done` or `error`, lean nodes)",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          "201": ok("With stream:false: the sealed replay ({reply}, full)", ref("ReplayResult")),
          "409": {
            description:
              "not_a_reply (a user node, summary, notice or ROOT); reply_streaming; no_provenance (no recorded reads, or part of them is gone); prompt_too_large (the expanded prompt does not fit the model's window)",
            content: json(ref("Error")),
          },
          ...errors,
          "502": {
            description: "The provider failed; the failed replay is included ({error, reply})",
            content: json(ref("ReplayFailure")),
          },
          default: {
            description: "Any other refusal; a provider failure includes the failed replay",
            content: json(ref("ReplayFailure")),
          },
        },
      },
    },
    "/api/sessions/{id}/head": {
      parameters: [sessionParam],
      post: {
        summary: "Move HEAD (checkout or rewind)",
        requestBody: body(headMoveSchema),
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
          "200": ok("The session after the delete, and the removed ids", ref("BranchDeleted")),
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
        responses: { "200": ok("Audits", ref("AuditList")), ...errors },
      },
      post: {
        summary:
          "Audit a summary: probes of its originals answered with it and with them, judged 0–5 (or, offline, looked up in its text); stored append-only",
        requestBody: body(auditRequestSchema),
        responses: {
          "200": {
            description:
              "With stream:true, an SSE stream: `progress` {done, total}, then `done` {audit} or `error` {code, message}",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          "201": ok("The stored audit ({audit})", ref("AuditCreated")),
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
        requestBody: body(taskSchema),
        responses: { "200": ok("Result", ref("TaskResult")), ...errors },
      },
    },
    "/api/sessions/{id}/send": {
      parameters: [sessionParam],
      post: {
        summary: "Cross-session send (advances the target's HEAD)",
        requestBody: body(sendSchema),
        responses: { "200": ok("The target's turn", ref("TurnResult")), ...turnErrors },
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
      parameters: [sessionParam],
      get: {
        summary:
          "Export the ledger (json) or one branch (markdown; md is an alias): HEAD's, or ?head=ID's",
        parameters: queryParameters(exportQuerySchema),
        responses: {
          "200": {
            description: "The export",
            content: {
              ...json(ref("LedgerExport")),
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
          "Upload one file (multipart/form-data, field `file`) to send with the next message: PNG, JPEG, WebP or GIF images, PDFs (read as their text), UTF-8 text or source files; judged by content",
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
          "422": {
            description:
              "A PDF whose text cannot be read: `pdf_too_large` (past SPINDLE_MAX_PDF_PAGES, SPINDLE_PDF_TIMEOUT_MS or the memory limit), `pdf_encrypted` (a password), `pdf_unreadable` (corrupt, or no text); nothing is written",
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
      ...answerComponents(),
      TurnRequest: fromZod(turnSchema),
      ChatGptConversation: {
        ...fromZod(chatGptConversationSchema),
        description:
          "One element of ChatGPT's conversations.json; unknown fields are allowed and ignored.",
      },
      LedgerFile: {
        ...fromZod(ledgerFileSchema),
        description:
          "A ledger file as an import reads it (an export of this or an older version): fields it does not read are ignored; blobs carry the attachments' bytes, whose hash, size and kind are checked again",
      },
    },
  },
} as const;

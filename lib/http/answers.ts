import { z } from "zod";
import type { CompactResult } from "../compaction/compactor";
import type { SpawnResult, TurnResult, BranchDeleted } from "../dispatcher/dispatcher";
import type { GraphPage, NodesPage, PackedNodesPage } from "../dispatcher/workspace";
import type { PackedLedger } from "../engine/packed-ledger";
import type { BranchComparison } from "../engine/compare-branches";
import type { RenderedContext } from "../engine/render-context";
import type { RenderedMessage } from "../engine/render-message";
import type { GraphRow } from "../engine/build-graph";
import type { WireNode } from "../engine/wire-node";
import type { SummaryAudit } from "../engine/summary-audit";
import type {
  ApiKeyInfo,
  LedgerNode,
  NodeMetadata,
  SessionListItem,
  SessionMeta,
  SessionRecord,
} from "../engine/types";
import type { NodeId, SessionId, Tokens } from "../engine/ids";
import type { LedgerFile } from "../portability/ledger-file";
import type { SearchHit, SearchPage } from "../search/search-hit";
import type { SessionPage } from "../store/session-rows";
import type { SessionBody } from "./session-body";
import { SUMMARY_POLICIES } from "../engine/types";
import {
  attachmentSchema,
  chatGptImportResultSchema,
  modelsAnswerSchema,
  storedSettingsSchema,
  summaryAuditSchema,
} from "./schemas";

/**
 * The answers of the HTTP API in zod, once: the OpenAPI document's response schemas are
 * generated from them (lib/http/openapi.ts), and each is checked at compile time against
 * the TypeScript type the code answers with ({@link describes}), so the two cannot drift.
 * Objects are closed on output: a field the code adds without describing it here fails
 * the test that validates real answers against the document.
 */

/** What code may hand to `Response.json` as the answer `S`: its output, read-only all through. */
export type Answer<S extends z.ZodType> = DeepReadonly<z.output<S>>;

type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
type Keys<T> = keyof T & string;
type SameKeys<A, B> = [Keys<A>] extends [Keys<B>]
  ? [Keys<B>] extends [Keys<A>]
    ? true
    : false
  : false;
/** `S` describes `T`: exactly T's fields, and every T is a valid S (brands and readonly aside). */
type Describes<S extends z.ZodType, T> = [T] extends [DeepReadonly<z.output<S>>]
  ? SameKeys<T, z.output<S>> extends true
    ? S
    : never
  : never;

/**
 * `schema`, as the description of `T`: it compiles only when the schema has exactly T's
 * top-level fields and accepts every T.
 */
const describes =
  <T>() =>
  <S extends z.ZodType>(schema: S & Describes<S, T>): S =>
    schema;

/** The answers registered under their component name in the OpenAPI document. */
export const answers = z.registry<{ id: string }>();
const named = <S extends z.ZodType>(id: string, schema: S): S => {
  answers.add(schema, { id });
  return schema;
};

// Answers defined beside their requests (lib/http/schemas.ts), named here.
named("Settings", storedSettingsSchema);
named("Models", modelsAnswerSchema);
named("Attachment", attachmentSchema);
named("ChatGptImportResult", chatGptImportResultSchema);

/**
 * `schema`, whose output carries the engine's brand `B` (lib/engine/ids.ts): zod's own
 * `.brand()` is this same compile-time-only narrowing, but with zod's brand symbol, which
 * the engine (importing nothing) cannot name. Nothing changes at run time or in the
 * OpenAPI document; a client that parses an answer gets `NodeId`s, not bare strings.
 */
const branded =
  <B>() =>
  <S extends z.ZodType>(schema: S) =>
    schema as S & z.ZodType<B & z.output<S>, z.input<S>>;

const isoTime = () => z.string().meta({ format: "date-time" });
const nodeId = () => branded<NodeId>()(z.string().describe("A node id (ULID)"));
const sessionId = () => branded<SessionId>()(z.string());
const tokenCount = () => branded<Tokens>()(z.number().int());

/** `{error: {code, message}}`: every refusal. */
export const errorSchema = named(
  "Error",
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
);

export const healthSchema = named(
  "Health",
  z
    .object({
      ok: z.boolean(),
      db: z.enum(["sqlite", "postgresql"]),
      migrations: z.enum(["up to date", "pending", "unknown"]),
      model: z.enum(["offline", "openai-compatible"]).exactOptional(),
      modelLabel: z.string().exactOptional(),
    })
    .describe(
      "`model` and `modelLabel` only for a signed-in caller (a cookie or a key); anyone else learns liveness, the database kind and the migration state.",
    ),
);
export type Health = Answer<typeof healthSchema>;

const apiKeyInfoSchema = named(
  "ApiKeyInfo",
  describes<ApiKeyInfo>()(
    z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      createdAt: isoTime(),
      lastUsedAt: isoTime().nullable(),
    }),
  ),
);
export const apiKeyListSchema = named("ApiKeyList", z.object({ keys: z.array(apiKeyInfoSchema) }));
export const apiKeyCreatedSchema = named(
  "ApiKeyCreated",
  describes<ApiKeyInfo & { key: string }>()(
    apiKeyInfoSchema.extend({ key: z.string().describe("Shown once; store it") }),
  ),
);

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

const nodeMetadataSchema = describes<NodeMetadata>()(
  z
    .looseObject({
      covers_ids: z.array(nodeId()).exactOptional(),
      covers_summaries: z.boolean().exactOptional(),
      model: z.string().exactOptional(),
      finish_reason: z.string().exactOptional(),
      tool_calls: z.array(toolCallSchema).exactOptional(),
      tool_call_id: z.string().exactOptional(),
      usage: z
        .object({
          promptTokens: z.number().int(),
          completionTokens: z.number().int(),
          cachedTokens: z.number().int().exactOptional(),
        })
        .exactOptional(),
      error: z.object({ code: z.string(), message: z.string() }).exactOptional(),
      attachments: z.array(attachmentSchema.required({ tokens: true })).exactOptional(),
    })
    .describe(
      "covers_ids on summaries; model, finish_reason, usage, tool_calls, error, attachments; other keys as the engine wrote them",
    ),
);

const nodeFields = {
  id: nodeId(),
  sessionId: sessionId(),
  predecessorId: nodeId().nullable(),
  seq: z.number().int().describe("Insertion order; display only"),
  kind: z.enum(["root", "user", "assistant", "tool", "summary", "notice"]),
  content: z.string(),
  status: z.enum(["complete", "streaming", "interrupted", "error"]),
  callerId: nodeId().nullable(),
  metadata: nodeMetadataSchema,
  reads: z.array(nodeId()).describe("Provenance: ids that entered the prompt, in order"),
  tokenCount: tokenCount(),
  createdAt: isoTime(),
};

/** A ledger node, full. */
export const nodeSchema = named("Node", describes<LedgerNode>()(z.object(nodeFields)));

/** A node as the routes, the events and the turn stream carry it (docs/big-sessions.md). */
export const wireNodeSchema = named(
  "WireNode",
  describes<WireNode>()(
    z.object({
      ...nodeFields,
      partial: z
        .enum(["reads", "skeleton"])
        .exactOptional()
        .describe(
          "Absent on a full node. reads: reads left out ([]); skeleton: content is the card label (first non-empty line, ≤ 90 characters), no reads, tool-call arguments emptied",
        ),
    }),
  ),
);

const sessionMetaSchema = describes<SessionMeta>()(
  z.looseObject({
    _last_summary_id: nodeId().exactOptional(),
    _last_summary_text: z.string().exactOptional(),
    _active_summary_ids: z.array(nodeId()).exactOptional(),
    settings: storedSettingsSchema.exactOptional(),
    policy: z
      .enum(SUMMARY_POLICIES)
      .exactOptional()
      .describe("The older spelling of settings.policy"),
    titleSource: z
      .enum(["user", "auto"])
      .exactOptional()
      .describe(
        "Who chose the title; absent while the session is untitled (an automatic title is written only then)",
      ),
    forkedFrom: z
      .object({ sessionId: sessionId(), nodeId: nodeId() })
      .exactOptional()
      .describe("Sessions made by POST /api/sessions/{id}/fork: the branch tip copied"),
  }),
);

const sessionFields = {
  id: sessionId(),
  title: z.string(),
  headId: nodeId().nullable(),
  rootId: nodeId().nullable(),
  meta: sessionMetaSchema,
  createdAt: isoTime(),
  updatedAt: isoTime(),
};

const activeSummaryIds = () =>
  z
    .array(nodeId())
    .describe("The active summaries in order (compaction.md §7), whatever the policy");

/**
 * A session: as the writes that make or move one answer it, and (with `activeSummaryIds`)
 * as `GET` and `PATCH` do.
 */
export const sessionSchema = named(
  "Session",
  describes<SessionRecord & { readonly activeSummaryIds?: SessionBody["activeSummaryIds"] }>()(
    z.object({ ...sessionFields, activeSummaryIds: activeSummaryIds().exactOptional() }),
  ),
);

/** `GET` / `PATCH /api/sessions/:id`. */
export const sessionBodySchema = named(
  "SessionWithSummaries",
  describes<SessionBody>()(z.object({ ...sessionFields, activeSummaryIds: activeSummaryIds() })),
);

const sessionListItemSchema = named(
  "SessionListItem",
  describes<SessionListItem>()(
    z.object({
      ...sessionFields,
      nodeCount: z.number().int().describe("Every node, ROOT and side leaves included"),
      branchCount: z
        .number()
        .int()
        .describe("Branch tips: nodes other than summaries and notices with no child but those"),
    }),
  ),
);

export const sessionPageSchema = named(
  "SessionPage",
  describes<SessionPage>()(
    z.object({
      sessions: z.array(sessionListItemSchema),
      nextCursor: z.string().nullable().describe("Opaque; null on the last page"),
    }),
  ),
);

export const branchDeletedSchema = named(
  "BranchDeleted",
  describes<BranchDeleted>()(
    z.object({
      ...sessionFields,
      removed: z.array(nodeId()).describe("The ids the delete removed"),
    }),
  ),
);

const nextAfterSeq = () =>
  z
    .number()
    .int()
    .nullable()
    .describe("The afterSeq of the next page; null when this page reached the end");

export const nodesPageSchema = named(
  "NodesPage",
  describes<NodesPage>()(
    z.object({
      nodes: z.array(wireNodeSchema),
      lastSeq: z.number().int().describe("The session's highest seq"),
      nextAfterSeq: nextAfterSeq(),
      total: z
        .number()
        .int()
        .min(0)
        .describe(
          "The session's node count; a client holding a different number after catching up missed a delete",
        ),
    }),
  ),
);

/** Keys of a column that holds values only where a node has one: packed positions. */
const positionKey = () => z.string().regex(/^(0|[1-9]\d*)$/, "A packed position.");

export const packedLedgerSchema = named(
  "PackedLedger",
  describes<PackedLedger>()(
    z
      .object({
        sessionId: sessionId(),
        count: z.number().int().min(0).describe("How many nodes, packed and whole"),
        ids: z.string().describe("The packed nodes' ids in order, joined by commas"),
        predecessor: z
          .array(z.number().int().min(0))
          .describe(
            "Per packed node: 1 + its predecessor's position, or 0: its predecessor is in `outer`, or it has none",
          ),
        outer: z
          .record(positionKey(), nodeId())
          .describe("By packed position: a predecessor not among the packed nodes before it"),
        seq: z.array(z.number().int()).describe("Per packed node: seq minus the previous one's"),
        kind: z.string().describe("One letter per packed node: r u a t s n"),
        status: z.string().describe("One letter per packed node: c s i e"),
        partial: z.string().describe("One letter per packed node: - whole, r reads, s skeleton"),
        content: z
          .string()
          .describe("The packed nodes' contents of Latin-1 characters only, one after the other"),
        wide: z.string().describe("The packed nodes' other contents, one after the other"),
        contentLengths: z
          .array(z.number().int())
          .describe("Per packed node, its content's length; negated for a content in `wide`"),
        tokens: z.array(z.number().int().min(0)),
        time: z.array(z.number().int()).describe("createdAt in ms minus the previous one's"),
        metadata: z.record(positionKey(), nodeMetadataSchema),
        reads: z.record(positionKey(), z.array(nodeId())),
        caller: z.record(positionKey(), nodeId()),
        whole: z
          .array(z.tuple([z.number().int().min(0), wireNodeSchema]))
          .describe("Nodes carried whole, each with its position"),
      })
      .describe("The nodes of a WireNode list in columns ([R293], docs/big-sessions.md)"),
  ),
);

export const packedNodesPageSchema = named(
  "PackedNodesPage",
  describes<PackedNodesPage>()(
    z.object({
      ledger: packedLedgerSchema,
      lastSeq: z.number().int().describe("The session's highest seq"),
      nextAfterSeq: nextAfterSeq(),
      total: z.number().int().min(0).describe("The session's node count"),
    }),
  ),
);

const snippetSchema = z
  .array(z.object({ text: z.string(), hit: z.boolean() }))
  .describe("Plain-text pieces; the `hit` ones matched the query (never HTML)");
const hitBase = {
  sessionId: sessionId(),
  sessionTitle: z.string(),
  updatedAt: isoTime().describe("The session's last activity"),
  snippet: snippetSchema,
};

const searchHitSchema = named(
  "SearchHit",
  describes<SearchHit>()(
    z
      .discriminatedUnion("kind", [
        z.object({
          ...hitBase,
          kind: z.enum(["user", "assistant", "summary"]),
          nodeId: nodeId(),
          seq: z.number().int(),
          onHeadSpine: z
            .boolean()
            .describe(
              "On the branch HEAD has checked out (a summary: the last node it covers is); false is a dead branch",
            ),
          attachment: z
            .object({ id: z.string(), name: z.string() })
            .exactOptional()
            .describe(
              "Present when the match is in one of the message's text attachments (a text file, or a PDF's text): the snippet is cut from that file, its name first",
            ),
        }),
        z.object({
          ...hitBase,
          kind: z.literal("title"),
          nodeId: z.null(),
          seq: z.null(),
          onHeadSpine: z.literal(true),
        }),
      ])
      .describe(
        "A node hit (kind user | assistant | summary) or a title hit (kind title, nodeId and seq null). Open it at /s/{sessionId}?node={nodeId}.",
      ),
  ),
);

export const searchPageSchema = named(
  "SearchPage",
  describes<SearchPage>()(
    z.object({
      results: z.array(searchHitSchema),
      nextCursor: z.string().nullable().describe("Pass back as `cursor` for the next page"),
    }),
  ),
);

/** `GET .../context`: what the model reads from a head (attachments named by their node). */
export const contextSchema = named(
  "Context",
  describes<RenderedContext & { messages: readonly Omit<RenderedMessage, "attachments">[] }>()(
    z.object({
      headId: nodeId(),
      ids: z.array(nodeId()).describe("Prompt order; ids[0] is ROOT"),
      messages: z.array(
        z.object({
          id: nodeId(),
          kind: z.enum(["root", "user", "assistant", "tool", "summary"]),
          role: z.enum(["system", "user", "assistant", "tool"]),
          content: z.string(),
          tokenCount: z.number().int().describe("Tokens of content as sent"),
          toolCalls: z.array(toolCallSchema).exactOptional(),
          toolCallId: z.string().exactOptional(),
        }),
      ),
    }),
  ),
);
export type ContextAnswer = Answer<typeof contextSchema>;

const graphRowSchema = named(
  "GraphRow",
  describes<GraphRow>()(
    z.object({
      ...nodeFields,
      onHeadSpine: z.boolean().describe("On HEAD's predecessor spine; a side leaf never is"),
      foldedIn: z.boolean().describe("This node's branch carries a capsule"),
      rawFork: z
        .boolean()
        .describe("The first node of a branch that leaves a capsule's covered segment"),
      childCount: z.number().int().describe("Branch children (alternatives)"),
      siblingIndex: z.number().int().describe("Position among the predecessor's branch children"),
      siblingCount: z.number().int(),
      covers_ids: z
        .array(nodeId())
        .exactOptional()
        .describe("Capsule rows: what the capsule folds"),
      nestedIn: nodeId().exactOptional().describe("A nested summary: the capsule that folds it"),
      superseded_summary: z.literal(true).exactOptional(),
      tokensSaved: z.number().int().exactOptional().describe("Capsule rows: prompt tokens saved"),
    }),
  ),
);

export const graphSchema = named(
  "Graph",
  describes<GraphPage>()(
    z.object({
      sessionId: sessionId(),
      headId: nodeId().nullable(),
      activeSummaryId: nodeId().nullable(),
      activeSummaryIds: z.array(nodeId()),
      nodes: z.array(graphRowSchema),
      lastSeq: z.number().int().describe("The session's highest seq"),
      nextAfterSeq: nextAfterSeq(),
    }),
  ),
);

export const comparisonSchema = named(
  "Comparison",
  describes<BranchComparison<WireNode>>()(
    z.object({
      forkId: nodeId().describe("The last node both branches share"),
      a: z
        .array(wireNodeSchema)
        .describe("From the fork's child down to node a, in order; row i aligns with b's"),
      b: z
        .array(wireNodeSchema)
        .describe("From the fork's child down to node b; empty when b is the fork"),
    }),
  ),
);

const turnFields = {
  user: nodeSchema.nullable(),
  reply: nodeSchema,
  replies: z
    .array(nodeSchema)
    .exactOptional()
    .describe("A turn of several models: every reply, in the order of `models`"),
};

export const turnResultSchema = named("TurnResult", describes<TurnResult>()(z.object(turnFields)));

/**
 * A refused or failed turn: the error and, when the provider failed after the nodes were
 * written, the nodes that record the failure.
 */
export const turnFailureSchema = named(
  "TurnFailure",
  z.object({
    error: errorSchema.shape.error,
    user: turnFields.user.exactOptional(),
    reply: nodeSchema.exactOptional(),
    replies: turnFields.replies,
  }),
);

export const replayResultSchema = named("ReplayResult", z.object({ reply: nodeSchema }));
export const replayFailureSchema = named(
  "ReplayFailure",
  z.object({ error: errorSchema.shape.error, reply: nodeSchema.exactOptional() }),
);

export const compactResultSchema = named(
  "CompactResult",
  describes<CompactResult>()(
    z.object({
      summary: nodeSchema.nullable(),
      notice: z.string().nullable(),
      coveredCount: z.number().int(),
      tokensBefore: z.number().int(),
      tokensAfter: z.number().int(),
      nestedSummary: nodeSchema
        .exactOptional()
        .describe("nested: the summary of summaries this compaction also wrote"),
    }),
  ),
);

export const taskResultSchema = named(
  "TaskResult",
  describes<SpawnResult>()(
    z.object({ caller: nodeSchema, branchRootId: nodeId(), result: nodeSchema }),
  ),
);

const auditSchema = named("SummaryAudit", describes<SummaryAudit>()(summaryAuditSchema));
export const auditListSchema = named("AuditList", z.object({ audits: z.array(auditSchema) }));
export const auditCreatedSchema = named("AuditCreated", z.object({ audit: auditSchema }));

/** `GET .../export?format=json`: the whole ledger as this version writes it. */
export const ledgerExportSchema = named(
  "LedgerExport",
  describes<LedgerFile>()(
    z.object({
      format: z.literal("spindle.ledger"),
      version: z.literal(1),
      exportedAt: isoTime(),
      session: sessionSchema,
      nodes: z.array(nodeSchema),
      blobs: z
        .array(z.object({ sha256: z.string(), size: z.number().int(), base64: z.string() }))
        .exactOptional()
        .describe("The attachments' bytes, once per SHA-256"),
    }),
  ),
);

import { z } from "zod";
import { hasNul } from "./json-text";
import { nodeIdField, sessionIdField } from "./params";
import { SEARCH_QUERY_MAX_CHARS } from "../search/search-terms";
import { SUMMARY_POLICIES } from "../engine/types";
import { MAX_ATTACHMENTS_PER_MESSAGE, TOO_MANY_ATTACHMENTS } from "../files/limits";

/** Text that reaches the store: never a NUL character (server actions skip the JSON parser). */
const text = () =>
  z.string().refine((s) => !hasNul(s), "Text must not contain NUL (\\u0000) characters.");

/**
 * The request schemas shared by the route handlers (scripts) and the server actions (the
 * browser): one schema per operation, so both doors accept exactly the same input.
 */

/**
 * A model name a request names, as the provider spells it (`gpt-4o-mini`, `llama3.1:8b`,
 * `openai/gpt-4o`): settings, a turn's model, an audit's.
 */
const modelName = () => text().trim().min(1, "Name a model.").max(200);

/** Each per-session setting's value (meta.settings), written once for the two views below. */
const settingFields = {
  model: modelName(),
  contextWindow: z
    .number()
    .int()
    .min(256, "The context window must be at least 256 tokens.")
    .max(10_000_000, "The context window can be at most 10,000,000 tokens."),
  keepRecentTokens: z
    .number()
    .int()
    .min(0, "Keep recent cannot be negative.")
    .max(10_000_000, "Keep recent can be at most 10,000,000 tokens."),
  autoCompact: z.boolean(),
  tools: z.boolean(),
  vision: z.boolean(),
  toolRounds: z
    .number()
    .int()
    .min(1, "At least one tool round.")
    .max(32, "At most 32 tool rounds."),
  // How compaction keeps its summaries (compaction.md §7); switching rewrites nothing.
  policy: z.enum(SUMMARY_POLICIES, {
    error: `The policy must be one of ${SUMMARY_POLICIES.join(", ")}.`,
  }),
};
type SettingFields = typeof settingFields;

/**
 * The settings a request sets: every field optional, and null clears an override (the
 * server-wide default applies again).
 */
export const sessionSettingsSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingFields).map(([k, v]) => [k, v.nullable().optional()]),
    ) as { [K in keyof SettingFields]: z.ZodOptional<z.ZodNullable<SettingFields[K]>> },
  )
  .strict();

/**
 * The settings as stored and answered: the overrides a session has, never a null. Parsed in
 * the browser, it gives the engine's `SessionSettings` exactly.
 */
export const storedSettingsSchema = z.object(
  Object.fromEntries(Object.entries(settingFields).map(([k, v]) => [k, v.exactOptional()])) as {
    [K in keyof SettingFields]: z.ZodExactOptional<SettingFields[K]>;
  },
);

/** `POST /api/keys`: a new API key's name. */
export const apiKeyCreateSchema = z.object({ name: z.string().trim().min(1).max(100) }).strict();

/** Longest session title, in characters. */
export const TITLE_MAX_CHARS = 200;
/** Longest system prompt a session can be given, in characters. */
export const SYSTEM_PROMPT_MAX_CHARS = 32_000;
/** Sessions per page of the list: the default and the most one request may ask for. */
export const LIST_PAGE_DEFAULT = 30;
export const LIST_PAGE_MAX = 100;

const title = () => text().trim().min(1).max(TITLE_MAX_CHARS);
const systemPrompt = () =>
  text()
    .trim()
    .min(1, "The system prompt is empty.")
    .max(
      SYSTEM_PROMPT_MAX_CHARS,
      `The system prompt can be at most ${SYSTEM_PROMPT_MAX_CHARS} characters.`,
    );

/** `PATCH /api/sessions/:id`: rename and settings. */
export const sessionPatchSchema = z
  .object({
    title: title().optional(),
    settings: sessionSettingsSchema.optional(),
  })
  .strict();

/**
 * `POST /api/sessions/:id/turns`: send, retry or edit. `model` runs this one turn on another
 * model than the session's ("Retry with…", [R203]); the session's setting is unchanged.
 */
export const turnSchema = z
  .object({
    content: z.string().optional(),
    parentId: nodeIdField.optional(),
    mode: z.enum(["send", "retry", "edit"]).default("send"),
    targetId: nodeIdField.optional(),
    stream: z.boolean().default(true),
    model: modelName().optional().describe("This turn's model (default: the session's)"),
    models: z
      .array(modelName())
      .min(2, "Name 2 to 4 models.")
      .max(4, "Name 2 to 4 models.")
      .refine((names) => new Set(names).size === names.length, "Name each model once.")
      .optional()
      .describe(
        "Ask several models at once (2–4, no duplicates): one reply each, side by side; HEAD follows the first",
      ),
    attachments: z
      .array(
        z.string().regex(/^[0-9A-Za-z]{1,64}$/, "An attachment id is the id an upload answered."),
      )
      .max(MAX_ATTACHMENTS_PER_MESSAGE, TOO_MANY_ATTACHMENTS)
      .optional()
      .describe("Ids of uploads (POST .../attachments) sent with this message (send and edit)"),
  })
  .strict();

/** `POST /api/sessions/:id/attachments` answers this (201). */
export const attachmentSchema = z.object({
  id: z.string(),
  name: z.string().describe("The file name as sent, sanitised"),
  mime: z.string().describe("The type judged from the content"),
  size: z.number().int(),
  sha256: z.string(),
  tokens: z.number().int().describe("What the file costs in a prompt"),
  width: z.number().int().exactOptional(),
  height: z.number().int().exactOptional(),
});

/**
 * `POST /api/sessions/:id/replays` (docs/spec.md [R230]–[R233]): send reply `nodeId`'s
 * recorded prompt again, to `model` (default: the reply's), with `expand`ed summaries
 * rendered as their originals (`"all"`, or the ids of summaries the prompt read).
 */
export const replaySchema = z
  .object({
    nodeId: nodeIdField,
    model: modelName().optional().describe("Default: the model that wrote the reply"),
    expand: z
      .union([z.literal("all"), z.array(nodeIdField).min(1).max(64)])
      .optional()
      .describe('"all", or summaries of the prompt to render as their covered originals'),
    stream: z.boolean().default(true),
  })
  .strict();

/** `POST /api/sessions/:id/head`. */
export const headMoveSchema = z
  .object({
    nodeId: nodeIdField,
    move: z.enum(["checkout", "rewind"]).default("checkout"),
  })
  .strict();

/** `POST /api/sessions/:id/tasks`. */
export const taskSchema = z.object({ prompt: text(), callerId: nodeIdField.optional() }).strict();

/** `POST /api/sessions/:id/send`. */
export const sendSchema = z.object({ targetSessionId: sessionIdField, content: text() }).strict();

/**
 * `POST /api/sessions` and the home page's form. A blank title is no title (the session is
 * "New chat" until its first reply names it); `systemPrompt` becomes the ROOT.
 */
export const createSessionSchema = z
  .object({
    title: text().trim().max(TITLE_MAX_CHARS).optional(),
    systemPrompt: systemPrompt().optional(),
    // The settings of PATCH, from the start (the form picks the compaction policy).
    settings: sessionSettingsSchema.optional(),
  })
  .strict();

/** `POST /api/sessions/:id/fork`: a new session from a branch, under a new system prompt. */
export const forkSessionSchema = z
  .object({
    systemPrompt: systemPrompt(),
    title: title().optional(),
    /** The branch's tip; default: the session's HEAD. */
    headId: nodeIdField.optional(),
  })
  .strict();

/** `GET /api/sessions`'s query (and the home page's "load more"). */
export const listSessionsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(LIST_PAGE_MAX).default(LIST_PAGE_DEFAULT),
    cursor: z.string().min(1).max(100).optional(),
    // A blank filter is no filter.
    q: text()
      .trim()
      .max(TITLE_MAX_CHARS)
      .optional()
      .transform((q) => (q ? q : undefined)),
  })
  .strict();

/** `GET /api/sessions/:id/export`: the whole ledger as JSON, or one branch as Markdown. */
export const exportQuerySchema = z
  .object({
    // `md` is the older spelling of `markdown`; both stay accepted.
    format: z.enum(["json", "markdown", "md"]).default("json"),
    head: z.string().max(64).optional().describe("The branch's tip (default: HEAD)"),
  })
  .strict();

/**
 * One message of a ChatGPT export, as far as the importer reads it. Everything else the
 * export carries (weights, moderation, attachments' metadata) is allowed and ignored.
 */
const chatGptMessageSchema = z
  .object({
    id: z.string().optional(),
    author: z
      .object({
        role: z.enum(["system", "user", "assistant", "tool"]),
        name: z.string().nullish(),
      })
      .loose(),
    create_time: z.number().nullish(),
    content: z.object({ content_type: z.string() }).loose(),
    status: z.string().nullish(),
    recipient: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
  })
  .loose();

/**
 * One conversation of a ChatGPT `conversations.json` export: a tree of messages keyed by id
 * (`mapping`), each naming its `parent`; `current_node` is the message the ChatGPT UI shows
 * last. The importer checks each conversation with this schema on its own, so one malformed
 * conversation does not stop the others.
 */
export const chatGptConversationSchema = z
  .object({
    title: z.string().nullish(),
    create_time: z.number().nullish(),
    update_time: z.number().nullish(),
    current_node: z.string().nullish(),
    mapping: z.record(
      z.string(),
      z
        .object({
          id: z.string().optional(),
          message: chatGptMessageSchema.nullish(),
          parent: z.string().nullish(),
          children: z.array(z.string()).optional(),
        })
        .loose(),
    ),
  })
  .loose();

export type ChatGptConversation = z.infer<typeof chatGptConversationSchema>;

/** `POST /api/import/chatgpt`: the export's top level; each element is checked on its own. */
export const chatGptExportSchema = z
  .array(z.unknown(), {
    error: "A ChatGPT export is a JSON array of conversations (the conversations.json file).",
  })
  .min(1, "The export holds no conversations.");

/** What `POST /api/import/chatgpt` answers: one entry per conversation of the request. */
export const chatGptImportResultSchema = z.object({
  imported: z.array(
    z.object({
      /** The index of the conversation in the request's array. */
      index: z.number().int().min(0),
      sessionId: z.string(),
      title: z.string(),
      /** Nodes of the new session, ROOT included. */
      nodes: z.number().int().min(1),
    }),
  ),
  failed: z.array(
    z.object({
      index: z.number().int().min(0),
      /** The conversation's title when it has a readable one. */
      title: z.string().nullable(),
      error: z.object({ code: z.string(), message: z.string() }),
    }),
  ),
});

export type ChatGptImportResult = z.infer<typeof chatGptImportResultSchema>;

/**
 * `GET /api/search`: the query string. The OpenAPI document's parameters are generated from
 * this schema. A query longer than the cap is refused (400), never cut; one with no letter
 * or digit is an empty result ([R102]).
 */
export const searchQuerySchema = z
  .object({
    q: text()
      .max(
        SEARCH_QUERY_MAX_CHARS,
        `The query can be at most ${SEARCH_QUERY_MAX_CHARS} characters long.`,
      )
      .describe(
        "Words to find (every word must occur; the last also as a prefix). Punctuation and search operators are plain text.",
      ),
    limit: z.coerce.number().int().min(1).max(50).default(20).describe("Results per page"),
    cursor: z
      .string()
      .regex(/^\d{1,6}$/, "Unknown cursor.")
      .optional()
      .describe("The previous page's nextCursor"),
  })
  .strict();

/** The highest seq a query may name (a 32-bit signed column). */
export const SEQ_MAX = 2 ** 31 - 1;
/** Nodes per page of `GET .../nodes` and `GET .../graph`: the most one request may ask for. */
export const NODES_PAGE_MAX = 5000;
/** Ids one `GET .../nodes?ids=` may name. */
export const NODES_IDS_MAX = 500;

/** A non-negative integer in a query string: digits only (no sign, exponent, hex or blank). */
const seqParam = () =>
  z
    .string()
    .regex(/^\d{1,10}$/, "Expected a non-negative integer.")
    .transform(Number)
    .pipe(z.number().int().max(SEQ_MAX, `At most ${SEQ_MAX}.`));

/** `?afterSeq&limit`: a page of a session's rows in seq order (nodes and graph alike). */
const pageQuery = {
  afterSeq: seqParam()
    .optional()
    .describe("Only rows with seq > afterSeq (default: from the start)"),
  limit: seqParam()
    .pipe(z.number().min(1, "At least 1.").max(NODES_PAGE_MAX, `At most ${NODES_PAGE_MAX}.`))
    .optional()
    .describe(`At most this many rows, 1–${NODES_PAGE_MAX} (default: all)`),
};

/**
 * `GET /api/sessions/:id/nodes` (docs/big-sessions.md): a page after `afterSeq` in one of
 * three shapes, or the named `ids`, full. The OpenAPI parameters are generated from it.
 */
export const nodesQuerySchema = z
  .object({
    ...pageQuery,
    view: z
      .enum(["full", "lean", "skeleton"])
      .default("full")
      .describe("full; lean (reads left out); skeleton (the card label, no reads)"),
    form: z
      .enum(["list", "columns"])
      .default("list")
      .describe(
        "list: `nodes`, one object each; columns: `ledger`, the same nodes in columns (PackedLedger, [R293]), about a third of the bytes; not with ids",
      ),
    ids: z
      .string()
      .min(1, "Name at least one id.")
      .max(NODES_IDS_MAX * 65)
      .transform((s) => [...new Set(s.split(","))])
      .pipe(z.array(z.string()).max(NODES_IDS_MAX, `At most ${NODES_IDS_MAX} ids.`))
      .optional()
      .describe(
        `Comma-separated node ids (at most ${NODES_IDS_MAX}), answered full; not with afterSeq, limit or a view; ids of another session are left out`,
      ),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.ids !== undefined && (q.afterSeq !== undefined || q.limit !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["ids"],
        message: "ids does not page: drop afterSeq and limit.",
      });
    }
    if (q.ids !== undefined && q.form !== "list") {
      ctx.addIssue({ code: "custom", path: ["form"], message: "ids answers a list only." });
    }
    if (q.ids !== undefined && q.view !== "full") {
      ctx.addIssue({ code: "custom", path: ["ids"], message: "ids answers full nodes only." });
    }
  });

export type NodesQuery = z.infer<typeof nodesQuerySchema>;

/** `GET /api/sessions/:id/graph`: the rows after `afterSeq`, at most `limit`. */
export const graphQuerySchema = z.object(pageQuery).strict();

/** `GET /api/sessions/:id/compare`: the two nodes whose branches are lined up ([R181]). */
export const compareQuerySchema = z
  .object({
    a: nodeIdField.describe("A node id: the left column's end"),
    b: nodeIdField.describe("Another node id: the right column's end"),
  })
  .strict();

/** `GET /api/sessions/:id/context`: the head to render from. */
export const contextQuerySchema = z
  .object({
    head: z.string().optional().describe("A node id (default: HEAD)"),
  })
  .strict();

/** `POST /api/sessions/:id/audits`: audit one summary (docs/spec.md [R229]). */
export const auditRequestSchema = z
  .object({
    summaryId: nodeIdField,
    /** Default: `model` when a model is configured, else `offline`. */
    mode: z.enum(["model", "offline"]).optional(),
    /** Answers the probes; default the session's model. */
    model: modelName().optional(),
    /** Judges the answers; default the summary model. */
    judgeModel: modelName().optional(),
    /** SSE progress (`progress` {done, total}, then `done` {audit}) instead of one JSON answer. */
    stream: z.boolean().default(false),
  })
  .strict();

/** `GET /api/sessions/:id/audits?summaryId=`. */
export const auditsQuerySchema = z.object({ summaryId: nodeIdField.optional() }).strict();

const auditFigureSchema = z.object({
  found: z.number().int(),
  total: z.number().int(),
  score: z.number().nullable(),
});
const probeKindSchema = z.enum(["fact", "artifact", "decision", "pending"]);

/** A stored audit, as the audits routes answer it (`SummaryAudit`). */
export const summaryAuditSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  summaryId: z.string(),
  createdAt: z.string(),
  mode: z.enum(["model", "offline"]),
  model: z.string().nullable(),
  judgeModel: z.string().nullable(),
  score: z.number().min(0).max(5).nullable(),
  found: z.number().int(),
  total: z.number().int(),
  byKind: z.object({
    fact: auditFigureSchema,
    artifact: auditFigureSchema,
    decision: auditFigureSchema,
    pending: auditFigureSchema,
  }),
  coveredTurns: z.number().int(),
  probes: z.array(
    z.object({
      kind: probeKindSchema,
      sourceId: z.string(),
      question: z.string(),
      keys: z.array(z.string()),
      sentence: z.string(),
      found: z.boolean(),
      summaryAnswer: z.string().optional(),
      originalAnswer: z.string().optional(),
      score: z.number().int().min(0).max(5).nullable().optional(),
      reason: z.string().optional(),
    }),
  ),
});

/** One model the provider offers, as `GET /api/models` describes it ([R203]). */
export const modelEntrySchema = z.object({
  id: z.string(),
  /** The context window the model registry gives it (a conservative guess when unknown). */
  contextWindow: z.number().int(),
  /** Whether it calls functions (`task`, `send_message`), per the registry. */
  tools: z.boolean(),
  /** Whether it reads images (attachments), per the registry. */
  vision: z.boolean(),
  /** False when the registry does not know the model (window and tools are guesses). */
  known: z.boolean(),
  /** List price in USD per million tokens, only on OpenAI's own API. */
  price: z.object({ input: z.number(), output: z.number() }).nullable(),
});

/** `GET /api/models`: the configured provider (never its key) and the models it offers. */
export const modelsAnswerSchema = z.object({
  provider: z.object({
    kind: z.enum(["offline", "openai-compatible"]),
    label: z.string(),
    model: z.string(),
    summaryModel: z.string(),
    baseUrl: z.string().optional(),
  }),
  models: z.array(modelEntrySchema),
  /** Why the list is empty or stale: the provider did not answer. */
  error: z.string().nullable(),
  /** The server default model's window, and the notice when it is a guess. */
  contextWindow: z.number().int(),
  notice: z.string().nullable(),
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;
export type ModelsAnswer = z.infer<typeof modelsAnswerSchema>;

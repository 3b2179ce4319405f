import { z } from "zod";
import { hasNul } from "./json-text";
import { nodeIdField, sessionIdField } from "./params";
import { SEARCH_QUERY_MAX_CHARS } from "../search/search-terms";

/** Text that reaches the store: never a NUL character (server actions skip the JSON parser). */
const text = () =>
  z.string().refine((s) => !hasNul(s), "Text must not contain NUL (\\u0000) characters.");

/**
 * The request schemas shared by the route handlers (scripts) and the server actions (the
 * browser): one schema per operation, so both doors accept exactly the same input.
 */

export const sessionSettingsSchema = z
  .object({
    // null clears an override (the server-wide default applies again).
    model: text().trim().min(1).max(200).nullable().optional(),
    contextWindow: z
      .number()
      .int()
      .min(256, "The context window must be at least 256 tokens.")
      .max(10_000_000, "The context window can be at most 10,000,000 tokens.")
      .nullable()
      .optional(),
    keepRecentTokens: z
      .number()
      .int()
      .min(0, "Keep recent cannot be negative.")
      .max(10_000_000, "Keep recent can be at most 10,000,000 tokens.")
      .nullable()
      .optional(),
    autoCompact: z.boolean().nullable().optional(),
    tools: z.boolean().nullable().optional(),
    toolRounds: z
      .number()
      .int()
      .min(1, "At least one tool round.")
      .max(32, "At most 32 tool rounds.")
      .nullable()
      .optional(),
  })
  .strict();

/** `PATCH /api/sessions/:id`: rename and settings. */
export const sessionPatchSchema = z
  .object({
    title: text().trim().min(1).max(200).optional(),
    settings: sessionSettingsSchema.optional(),
  })
  .strict();

/** `POST /api/sessions/:id/head`. */
export const headMoveSchema = z.object({
  nodeId: nodeIdField,
  move: z.enum(["checkout", "rewind"]).default("checkout"),
});

/** `POST /api/sessions/:id/tasks`. */
export const taskSchema = z.object({ prompt: text(), callerId: nodeIdField.optional() });

/** `POST /api/sessions/:id/send`. */
export const sendSchema = z.object({ targetSessionId: sessionIdField, content: text() });

/** `POST /api/sessions`. */
export const createSessionSchema = z.object({ title: text().max(200).optional() });

/**
 * `GET /api/search`: the query string. The OpenAPI document's parameters are generated from
 * this schema. A query longer than the cap is refused (400), never cut; one with no letter
 * or digit is an empty result ([R102]).
 */
export const searchQuerySchema = z.object({
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
});

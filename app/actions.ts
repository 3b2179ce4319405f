"use server";

import type { z } from "zod";
import { createSessionSchema, listSessionsQuerySchema } from "@/lib/http/schemas";
import { runAction } from "@/lib/server/run-action";

/**
 * Creates a session (`title`, `systemPrompt`, both optional) with the schema of
 * POST /api/sessions; refused input comes back as a value the form shows.
 */
export async function newSessionAction(input: z.input<typeof createSessionSchema>) {
  return runAction(async (ws) => ws.create(createSessionSchema.parse(input)));
}

/**
 * One page of the viewer's sessions, newest activity first (the home page's "load more" and
 * its title filter): pass the previous page's `nextCursor`; `q` filters titles.
 */
export async function listSessionsPage(input: { cursor?: string | null; q?: string | null }) {
  return runAction(async (ws) =>
    ws.list(
      listSessionsQuerySchema.parse({
        cursor: input.cursor ?? undefined,
        q: input.q ?? undefined,
      }),
    ),
  );
}

"use server";

import { redirect } from "next/navigation";
import type { z } from "zod";
import { createSessionSchema, listSessionsQuerySchema } from "@/lib/http/schemas";
import { requireViewer } from "@/lib/server/page-auth";
import { runAction } from "@/lib/server/run-action";

/** A form field as text; a blank one is left out. */
function field(form: FormData, name: string): string | undefined {
  const raw = form.get(name);
  return typeof raw === "string" && raw.trim() !== "" ? raw : undefined;
}

/**
 * Creates a session from the home page's form (`title`, `systemPrompt`, both optional) and
 * opens it. Parsed with the schema of POST /api/sessions; input past its caps throws (give
 * the fields `maxLength` TITLE_MAX_CHARS / SYSTEM_PROMPT_MAX_CHARS).
 */
export async function createSessionAction(form: FormData): Promise<void> {
  const input = createSessionSchema.parse({
    title: field(form, "title"),
    systemPrompt: field(form, "systemPrompt"),
  });
  const workspace = await requireViewer("/");
  const session = await workspace.create(input);
  redirect(`/s/${session.id}`);
}

/** The same as a value: for a form that shows errors inline and navigates itself. */
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

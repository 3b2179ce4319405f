"use server";

import { redirect } from "next/navigation";
import { requireViewer } from "@/lib/server/page-auth";

/** Creates a session from the home page's form and opens it. */
export async function createSessionAction(form: FormData): Promise<void> {
  const raw = form.get("title");
  const title = typeof raw === "string" ? raw.replaceAll("\0", "").slice(0, 200) : "";
  const workspace = await requireViewer("/");
  const session = await workspace.create({ title });
  redirect(`/s/${session.id}`);
}

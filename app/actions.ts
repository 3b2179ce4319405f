"use server";

import { redirect } from "next/navigation";
import { services } from "@/lib/server/services";

/** Creates a session from the home page's form and opens it. */
export async function createSessionAction(form: FormData): Promise<void> {
  const raw = form.get("title");
  const title = typeof raw === "string" ? raw.slice(0, 200) : "";
  const { store } = await services();
  const session = await store.createSession({ title });
  redirect(`/s/${session.id}`);
}

"use server";

import { revalidatePath } from "next/cache";
import { services } from "@/lib/server/services";

/** Creates a session from the home page's form. */
export async function createSessionAction(form: FormData): Promise<void> {
  const raw = form.get("title");
  const title = typeof raw === "string" ? raw.slice(0, 200) : "";
  const { store } = await services();
  await store.createSession({ title });
  revalidatePath("/");
}

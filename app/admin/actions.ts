"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import { checkActionOrigin, viewer } from "@/lib/server/page-auth";
import { services } from "@/lib/server/services";

export interface AdminResult {
  readonly ok: boolean;
  readonly message: string;
}

function messageOf(e: unknown): string {
  const body = (e as { body?: { message?: unknown } }).body;
  if (typeof body?.message === "string") return body.message;
  return e instanceof Error ? e.message : "That did not work.";
}

/** What an action answers to input no form of the page sends (an object for an id…). */
const INVALID: AdminResult = { ok: false, message: "The request is invalid." };

function isUserId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 100;
}

/** Only the admin reaches these; anyone else gets the not-found page. */
async function requireAdmin() {
  // A forged Origin is refused like an outsider: the not-found page.
  await checkActionOrigin().catch(() => notFound());
  const actor = await viewer();
  if (!actor?.isAdmin || actor.via === "local" || actor.mustChangePassword) notFound();
}

/** Creates an account (sign-up may be closed; the admin can always add people). */
export async function createUserAction(
  _prev: AdminResult | null,
  form: FormData,
): Promise<AdminResult> {
  await requireAdmin();
  // Server actions receive whatever the caller sent, whatever the types say ([R143]).
  if (!(form instanceof FormData)) return INVALID;
  const { accounts } = await services();
  const email = String(form.get("email") ?? "").trim();
  const name = String(form.get("name") ?? "").trim() || email;
  const password = String(form.get("password") ?? "");
  try {
    await accounts.api.createUser({
      body: { email, name, password, role: "user" },
      headers: await headers(),
    });
  } catch (e) {
    return { ok: false, message: messageOf(e) };
  }
  revalidatePath("/admin");
  return { ok: true, message: `Created ${email}. Give them the password you chose.` };
}

/** Disables (or enables again) an account: it can no longer sign in, its keys stop. */
export async function setDisabledAction(userId: string, disabled: boolean): Promise<AdminResult> {
  await requireAdmin();
  if (!isUserId(userId) || typeof disabled !== "boolean") return INVALID;
  const { accounts, gate } = await services();
  try {
    if (disabled) {
      await accounts.api.banUser({ body: { userId }, headers: await headers() });
      // Its running turns and open streams stop, on every instance ([R147]).
      gate.revoke({ ownerId: userId });
    } else await accounts.api.unbanUser({ body: { userId }, headers: await headers() });
  } catch (e) {
    return { ok: false, message: messageOf(e) };
  }
  revalidatePath("/admin");
  return { ok: true, message: disabled ? "Account disabled." : "Account enabled." };
}

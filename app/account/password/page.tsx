import { redirect } from "next/navigation";
import { ForcedPasswordChange } from "@/components/account/forced-password-change";
import { viewer } from "@/lib/server/page-auth";
import a from "@/components/account/account.module.css";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

/**
 * Where a user whose password an admin set lands after signing in ([R202]): every other page
 * sends them here until they choose their own.
 */
export default async function ForcedPasswordPage() {
  const actor = await viewer();
  if (!actor) redirect("/sign-in");
  if (!actor.mustChangePassword) redirect("/account");
  return (
    <main className={a.authPage}>
      <h1 className={page.brand}>Spindle</h1>
      <p className={a.note} role="status">
        Signed in as {actor.email}. Your administrator set a temporary password for this account:
        choose your own to continue. Type the temporary one as the current password.
      </p>
      <ForcedPasswordChange />
    </main>
  );
}

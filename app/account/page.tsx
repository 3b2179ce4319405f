import { PageHeader } from "@/components/account/page-header";
import { redirect } from "next/navigation";
import { ApiKeys } from "@/components/account/api-keys";
import { ChangePassword } from "@/components/account/change-password";
import { requireViewer } from "@/lib/server/page-auth";
import { services } from "@/lib/server/services";
import a from "@/components/account/account.module.css";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

/** The signed-in user's account: who they are, their password and their API keys. */
export default async function AccountPage() {
  const { actor } = await requireViewer("/account");
  if (actor.via === "local") redirect("/");
  const { keys } = await services();
  return (
    <main className={page.narrow}>
      <PageHeader actor={actor} title="Account" />
      <section className={a.card} aria-labelledby="me-title">
        <h2 id="me-title">{actor.name}</h2>
        <p className={a.note}>
          {actor.email}
          {actor.isAdmin ? " · admin" : ""}
        </p>
      </section>
      <ChangePassword />
      <ApiKeys initial={await keys.list(actor.ownerId)} />
    </main>
  );
}

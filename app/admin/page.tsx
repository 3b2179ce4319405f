import { PageHeader } from "@/components/account/page-header";
import { notFound } from "next/navigation";
import { AdminUsers } from "@/components/account/admin-users";
import { requireViewer } from "@/lib/server/page-auth";
import { services } from "@/lib/server/services";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

/**
 * The admin's page: every account, create one, disable one, set a new password for one.
 * Others see not-found.
 */
export default async function AdminPage() {
  const { actor } = await requireViewer("/admin");
  if (!actor.isAdmin || actor.via === "local") notFound();
  const { database } = await services();
  const users = await database.db.user.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      name: true,
      email: true,
      role: true,
      banned: true,
      mustChangePassword: true,
      createdAt: true,
    },
  });
  return (
    <main className={page.narrow}>
      <PageHeader actor={actor} title="Admin" />
      <AdminUsers
        selfId={actor.ownerId}
        users={users.map((u) => ({
          id: u.id,
          name: u.name,
          email: u.email,
          role: u.role,
          disabled: u.banned === true,
          temporaryPassword: u.mustChangePassword,
          createdAt: u.createdAt.toISOString(),
        }))}
      />
    </main>
  );
}

import Link from "next/link";
import type { Actor } from "@/lib/auth/actor";
import { SearchButton } from "@/components/search/search-launcher";
import { AccountMenu } from "./account-menu";
import page from "@/components/ui/page.module.css";

/** The header of the account and admin pages: back to the sessions, and the account menu. */
export function PageHeader({ actor, title }: { actor: Actor; title: string }) {
  return (
    <header className={page.header}>
      <Link href="/" className="back-link">
        ← Sessions
      </Link>
      <h1 className={page.title}>{title}</h1>
      <SearchButton />
      <AccountMenu name={actor.name} accounts={actor.via !== "local"} isAdmin={actor.isAdmin} />
    </header>
  );
}

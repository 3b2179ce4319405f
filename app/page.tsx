import Link from "next/link";
import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import { AccountMenu } from "@/components/account/account-menu";
import { NewSessionForm } from "@/components/home/new-session-form";
import { SessionList } from "@/components/home/session-list";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import s from "@/components/home/home.module.css";
import { SearchButton } from "@/components/search/search-launcher";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

export default async function Home() {
  const workspace = await requireViewer("/");
  const { config } = await services();
  const first = await workspace.list({});
  const { actor } = workspace;
  return (
    <main className={s.home}>
      <div className={s.topbar}>
        <SearchButton />
        <Link className="btn btn-quiet" href="/import">
          Import
        </Link>
        <ThemeToggle />
        <AccountMenu name={actor.name} accounts={config.auth} isAdmin={actor.isAdmin} />
      </div>
      <header className={page.header}>
        <h1 className={page.brand}>Spindle</h1>
      </header>
      <p className={s.tagline}>Conversations that branch, fold and remember what the model read.</p>
      <NewSessionForm />
      <SessionList first={first} />
      <p className={s.statusLine}>
        Model:{" "}
        <span className="badge">
          {config.openai ? (config.model ?? "openai-compatible") : "offline model"}
        </span>
      </p>
    </main>
  );
}

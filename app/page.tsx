import Link from "next/link";
import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import { SYSTEM_PROMPT_MAX_CHARS, TITLE_MAX_CHARS } from "@/lib/http/schemas";
import { AccountMenu } from "@/components/account/account-menu";
import { SessionList } from "@/components/home/session-list";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import s from "@/components/home/home.module.css";
import { SearchButton } from "@/components/search/search-launcher";
import { createSessionAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function Home() {
  const workspace = await requireViewer("/");
  const { config } = await services();
  const first = await workspace.list({});
  const { actor } = workspace;
  return (
    <main className="home">
      <div className={s.topbar}>
        <SearchButton />
        <Link className="btn btn-quiet" href="/import">
          Import
        </Link>
        <ThemeToggle />
        <AccountMenu name={actor.name} accounts={config.auth} isAdmin={actor.isAdmin} />
      </div>
      <header className="home-header">
        <h1 className="brand">Spindle</h1>
      </header>
      <p className="tagline">Conversations that branch, fold and remember what the model read.</p>
      <form action={createSessionAction} className={s.create}>
        <input
          name="title"
          placeholder="Title (optional: named after the first reply)"
          aria-label="New session title"
          maxLength={TITLE_MAX_CHARS}
        />
        <button type="submit" className="btn btn-primary">
          New session
        </button>
        <details className={s.prompt}>
          <summary>System prompt</summary>
          <textarea
            name="systemPrompt"
            rows={4}
            maxLength={SYSTEM_PROMPT_MAX_CHARS}
            aria-label="System prompt"
            placeholder="You are a helpful assistant. (the default when left empty)"
          />
        </details>
      </form>
      <SessionList first={first} />
      <p className="status-line">
        Model:{" "}
        <span className="badge">
          {config.openai ? (config.model ?? "openai-compatible") : "offline model"}
        </span>
      </p>
    </main>
  );
}

import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import { AccountMenu } from "@/components/account/account-menu";
import { DeleteSessionButton } from "@/components/home/delete-session-button";
import { SearchButton } from "@/components/search/search-launcher";
import { createSessionAction } from "./actions";

export const dynamic = "force-dynamic";

const when = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

export default async function Home() {
  const workspace = await requireViewer("/");
  const { config } = await services();
  const { sessions } = await workspace.list({ limit: 100 });
  const { actor } = workspace;
  return (
    <main className="home">
      {config.auth && (
        <div className="home-topbar">
          <AccountMenu name={actor.name} accounts={config.auth} isAdmin={actor.isAdmin} />
        </div>
      )}
      <header className="home-header">
        <h1 className="brand">Spindle</h1>
        <SearchButton />
        <form action={createSessionAction} className="new-session">
          <input
            name="title"
            placeholder="Title (optional)"
            aria-label="New session title"
            maxLength={200}
          />
          <button type="submit" className="btn btn-primary">
            New session
          </button>
        </form>
      </header>
      <p className="tagline">Conversations that branch, fold and remember what the model read.</p>
      {sessions.length === 0 ? (
        <p className="empty">No sessions yet. Start one above.</p>
      ) : (
        <ul className="session-list" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} className="session-row">
              <a className="session-link" href={`/s/${s.id}`}>
                <span className="session-title">{s.title}</span>
                <span className="session-when">{when.format(new Date(s.updatedAt))}</span>
              </a>
              <DeleteSessionButton id={s.id} title={s.title} />
            </li>
          ))}
        </ul>
      )}
      <p className="status-line">
        Model:{" "}
        <span className="badge">
          {config.openai ? (config.model ?? "openai-compatible") : "offline model"}
        </span>
      </p>
    </main>
  );
}

"use client";

import { useCallback, useState } from "react";
import Link from "next/link";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { SessionGraph } from "@/components/graph/session-graph";
import {
  selectStreaming,
  SessionStoreProvider,
  useSession,
} from "@/components/session/session-context";
import type { ModelInfo } from "@/components/session/session-store";
import { AccountMenu, type AccountMenuProps } from "@/components/account/account-menu";
import { Composer } from "./composer";
import { SettingsPanel } from "./settings-panel";
import { ContextMeter } from "./context-meter";
import { Transcript } from "./transcript";
import { useSessionActions } from "./use-session-actions";
import { useSessionEvents } from "./use-session-events";

export interface ChatAppProps {
  readonly session: SessionRecord;
  readonly nodes: readonly LedgerNode[];
  readonly model: ModelInfo;
  readonly account: AccountMenuProps;
}

export function ChatApp(props: ChatAppProps) {
  return (
    <SessionStoreProvider session={props.session} nodes={props.nodes} model={props.model}>
      <ChatLayout account={props.account} />
    </SessionStoreProvider>
  );
}

function ChatLayout({ account }: { account: AccountMenuProps }) {
  const actions = useSessionActions();
  useSessionEvents(actions.refresh);
  const title = useSession((s) => s.session.title);
  const sessionModel = useSession((s) => s.session.meta.settings?.model);
  const model = useSession((s) => s.model);
  const error = useSession((s) => s.error);
  const notice = useSession((s) => s.notice);
  const busy = useSession((s) => s.busy);
  const streaming = useSession(selectStreaming);
  const setError = useSession((s) => s.setError);
  const setNotice = useSession((s) => s.setNotice);
  const [graphOpen, setGraphOpen] = useState(true);
  const checkout = useCallback((id: NodeId) => void actions.checkout(id), [actions]);

  return (
    <div className={`chat ${graphOpen ? "with-graph" : ""}`}>
      <header className="chat-header">
        <Link href="/" className="back" aria-label="All sessions">
          ← Sessions
        </Link>
        <h1 className="chat-title">{title}</h1>
        <span className="badge" title={model.offline ? "No language model is configured" : "Model"}>
          {sessionModel ?? model.label}
        </span>
        {model.notice && (
          <span className="badge badge-warn" title={model.notice}>
            window guessed
          </span>
        )}
        <ContextMeter />
        <button
          className="btn"
          onClick={() => void actions.compact()}
          disabled={busy !== null || streaming}
          title={
            streaming
              ? "Wait for the reply to finish"
              : "Summarise the oldest turns of this branch now"
          }
        >
          {busy === "compact" ? "Compacting…" : "Compact"}
        </button>
        <SettingsPanel />
        <button className="btn" onClick={() => setGraphOpen((v) => !v)} aria-pressed={graphOpen}>
          {graphOpen ? "Hide graph" : "Show graph"}
        </button>
        <AccountMenu {...account} />
      </header>
      <main className="chat-main">
        <section className="chat-pane">
          <Transcript actions={actions} />
          {error && (
            <div className="banner banner-error" role="alert">
              {error}
              <button className="icon-btn" aria-label="Dismiss" onClick={() => setError(null)}>
                ×
              </button>
            </div>
          )}
          {notice && (
            <div className="banner banner-notice" role="status">
              {notice}
              <button className="icon-btn" aria-label="Dismiss" onClick={() => setNotice(null)}>
                ×
              </button>
            </div>
          )}
          {busy === "task" && <div className="banner banner-notice">Sub-agent task running…</div>}
          {busy === "send" && (
            <div className="banner banner-notice">Sending to the other session…</div>
          )}
          <Composer actions={actions} />
        </section>
        {graphOpen && (
          <aside className="graph-pane" aria-label="Conversation graph">
            <SessionGraph onCheckout={checkout} />
          </aside>
        )}
      </main>
    </div>
  );
}

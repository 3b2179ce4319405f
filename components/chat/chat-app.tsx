"use client";

import { useCallback, useEffect, useState, type ReactNode } from "react";
import Link from "next/link";
import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { SessionGraph } from "@/components/graph/session-graph";
import {
  selectStreaming,
  SessionStoreProvider,
  useSession,
  useSessionStoreApi,
} from "@/components/session/session-context";
import type { ModelInfo } from "@/components/session/session-store";
import type { WireNode } from "@/lib/engine/wire-node";
import { SearchFocus } from "@/components/search/search-focus";
import { CompareProvider } from "@/components/compare/compare-context";
import { ShortcutsProvider } from "@/components/shortcuts/shortcuts-provider";
import { AccountMenu, type AccountMenuProps } from "@/components/account/account-menu";
import { Composer } from "./composer";
import { HeadBar } from "./head-bar";
import { BranchSwitchBar } from "./branch-switch-bar";
import { SettingsPanel } from "./settings-panel";
import { ContextMeter } from "./context-meter";
import { Transcript } from "./transcript";
import { useSessionActions } from "./use-session-actions";
import { useSessionEvents } from "./use-session-events";
import { useNarrowScreen } from "./use-narrow-screen";
import { useCompactReadiness } from "./use-compact-readiness";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { SessionMenu } from "@/components/session/session-menu";
import { SearchButton } from "@/components/search/search-launcher";
import { cx } from "@/components/ui/cx";
import styles from "./chat-app.module.css";

export interface ChatAppProps {
  readonly session: SessionRecord;
  readonly nodes: readonly WireNode[];
  readonly model: ModelInfo;
  readonly account: AccountMenuProps;
  /** Opened at this node (a search result): the transcript scrolls to it. */
  readonly focusId?: NodeId | null;
  /**
   * HEAD before the page moved it to the branch of `focusId` (a search hit on a dead
   * branch): the page offers to compare the two branches.
   */
  readonly movedFrom?: NodeId | null;
}

export function ChatApp(props: ChatAppProps) {
  return (
    <SessionStoreProvider session={props.session} nodes={props.nodes} model={props.model}>
      <ShortcutsProvider>
        <WithCompare>
          <ChatLayout account={props.account} movedFrom={props.movedFrom ?? null} />
        </WithCompare>
      </ShortcutsProvider>
      {props.focusId && <SearchFocus nodeId={props.focusId} />}
    </SessionStoreProvider>
  );
}

/** The compare view of the page (issue 20); "Continue from here" checks out. */
function WithCompare({ children }: { readonly children: ReactNode }) {
  const actions = useSessionActions();
  const checkout = useCallback((id: NodeId) => void actions.checkout(id), [actions]);
  return <CompareProvider onContinue={checkout}>{children}</CompareProvider>;
}

function ChatLayout({
  account,
  movedFrom,
}: {
  account: AccountMenuProps;
  movedFrom: NodeId | null;
}) {
  const actions = useSessionActions();
  useSessionEvents(actions.catchUp);
  const title = useSession((s) => s.session.title);
  const sessionId = useSession((s) => s.session.id);
  const headId = useSession((s) => s.session.headId);
  const setSession = useSession((s) => s.setSession);
  const systemPrompt = useSession((s) =>
    s.session.rootId ? (s.nodes[s.session.rootId]?.content ?? "") : "",
  );
  const sessionModel = useSession((s) => s.session.meta.settings?.model);
  const model = useSession((s) => s.model);
  const error = useSession((s) => s.error);
  const notice = useSession((s) => s.notice);
  const busy = useSession((s) => s.busy);
  const streaming = useSession(selectStreaming);
  const compactable = useCompactReadiness();
  const setError = useSession((s) => s.setError);
  const setNotice = useSession((s) => s.setNotice);
  const narrow = useNarrowScreen();
  // Wide screens show the graph beside the transcript unless hidden; narrow ones keep it in
  // a drawer that opens on demand.
  const [paneOpen, setPaneOpen] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const graphOpen = narrow ? drawerOpen : paneOpen;
  const toggleGraph = () => (narrow ? setDrawerOpen((v) => !v) : setPaneOpen((v) => !v));
  useEffect(() => {
    if (!narrow || !drawerOpen) return;
    const close = (e: KeyboardEvent) => {
      // An Escape another control used (the search field, an open dialog) is not for us.
      if (e.key !== "Escape" || e.defaultPrevented) return;
      if (document.querySelector("dialog[open]")) return;
      setDrawerOpen(false);
    };
    window.addEventListener("keydown", close);
    return () => window.removeEventListener("keydown", close);
  }, [narrow, drawerOpen]);
  // "What did it read?" on a narrow screen opens the graph that answers it.
  const store = useSessionStoreApi();
  useEffect(() => {
    if (!narrow) return;
    return store.subscribe((s, prev) => {
      if (s.viewRequest !== prev.viewRequest && s.viewRequest?.kind === "reads") {
        setDrawerOpen(true);
      }
    });
  }, [narrow, store]);
  const checkout = useCallback((id: NodeId) => void actions.checkout(id), [actions]);

  return (
    <div
      className={cx(
        "chat",
        styles.chat,
        graphOpen && "with-graph",
        narrow && "narrow",
        drawerOpen && cx("drawer-open", styles.drawerOpen),
      )}
    >
      <header className={styles.header}>
        <Link href="/" className="back-link" aria-label="All sessions">
          ← Sessions
        </Link>
        <h1 className={styles.title}>{title}</h1>
        <SessionMenu
          sessionId={sessionId}
          title={title}
          headId={headId}
          onRenamed={setSession}
          systemPrompt={systemPrompt}
        />
        <span
          className={cx("badge", styles.badge)}
          title={model.offline ? "No language model is configured" : "Model"}
        >
          {sessionModel ?? model.label}
        </span>
        {model.notice && (
          <span className={cx("badge badge-warn", styles.badge)} title={model.notice}>
            window guessed
          </span>
        )}
        <ContextMeter />
        <button
          className="btn"
          // Not disabled outright when there is nothing to compact: the reason stays
          // reachable (a tooltip, and a tap on a phone shows it) without asking the server.
          onClick={() =>
            compactable.ready ? void actions.compact() : setNotice(compactable.reason)
          }
          disabled={busy !== null || streaming}
          aria-disabled={!compactable.ready || undefined}
          title={
            streaming
              ? "Wait for the reply to finish"
              : (compactable.reason ?? "Summarise everything before the latest exchange now")
          }
        >
          {busy === "compact" ? "Compacting…" : "Compact"}
        </button>
        <SettingsPanel />
        <button
          className="btn"
          onClick={toggleGraph}
          aria-pressed={graphOpen}
          aria-controls="graph-pane"
        >
          {graphOpen ? "Hide graph" : "Show graph"}
        </button>
        <SearchButton compact />
        <ThemeToggle />
        <AccountMenu {...account} compact />
      </header>
      <main className={styles.main}>
        <section className={cx("chat-pane", styles.chatPane)}>
          {movedFrom !== null && <BranchSwitchBar from={movedFrom} />}
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
          <HeadBar actions={actions} />
          <Composer actions={actions} />
        </section>
        {narrow && drawerOpen && (
          <div
            className={styles.backdrop}
            aria-hidden="true"
            onClick={() => setDrawerOpen(false)}
          />
        )}
        {graphOpen && (
          <aside
            id="graph-pane"
            className={cx("graph-pane", styles.graphPane)}
            aria-label="Conversation graph"
            role={narrow ? "dialog" : undefined}
          >
            {narrow && (
              <button
                className={cx("icon-btn", styles.drawerClose)}
                aria-label="Close graph"
                onClick={() => setDrawerOpen(false)}
              >
                ×
              </button>
            )}
            <SessionGraph onCheckout={checkout} />
          </aside>
        )}
      </main>
    </div>
  );
}

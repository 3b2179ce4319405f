"use client";

import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { NodeId } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import type { AttachmentCaps } from "@/lib/files/limits";
import { SessionGraph } from "@/components/graph/session-graph";
import {
  selectStreaming,
  SessionStoreProvider,
  useSession,
  useSessionStoreApi,
} from "@/components/session/session-context";
import type { LedgerRest, ModelInfo } from "@/components/session/session-store";
import { unpackLedger, type PackedLedger } from "@/lib/engine/packed-ledger";
import { SearchFocus } from "@/components/search/search-focus";
import { CompareProvider } from "@/components/compare/compare-context";
import { ShortcutsProvider } from "@/components/shortcuts/shortcuts-provider";
import { AccountMenu, signOut, type AccountMenuProps } from "@/components/account/account-menu";
import { Composer } from "./composer";
import { DropCue } from "./attachment-tray";
import { useAttachmentDraft } from "./use-attachment-draft";
import { useFileDrop } from "./use-file-drop";
import { pageDrafts } from "./drafts";
import { HeadBar } from "./head-bar";
import { WaitingForRest } from "./waiting-for-rest";
import { BranchSwitchBar } from "./branch-switch-bar";
import { SettingsPanel, type SettingsHandle } from "./settings-panel";
import { ContextMeter } from "./context-meter";
import { ModelPicker } from "./model-picker";
import { useSeveralModels } from "./several-models";
import { loadModels } from "./model-catalogue";
import { Transcript } from "./transcript";
import { useSessionActions } from "./use-session-actions";
import { useSessionEvents } from "./use-session-events";
import { useHeaderLayout, useNarrowScreen } from "./use-narrow-screen";
import { SessionsSidebar } from "./sessions-sidebar";
import { takeFirstMessage, useNewChatShortcut, useSidebarPinned } from "./use-sidebar";
import { useCompactReadiness } from "./use-compact-readiness";
import { ThemeToggle, useThemeSwitch } from "@/components/theme/theme-toggle";
import { SessionMenu, type MenuExtra } from "@/components/session/session-menu";
import { SearchButton, useOpenSearch } from "@/components/search/search-launcher";
import { cx } from "@/components/ui/cx";
import { useEscapeKey } from "@/components/ui/use-escape-key";
import styles from "./chat-app.module.css";

/** A near-first page's fill starts this long after the page runs, with the graph hidden. */
const FILL_WITHOUT_GRAPH_MS = 300;
/** …and at the latest this long after, with the graph open (which starts it when shown). */
const FILL_LATEST_MS = 5000;

export interface ChatAppProps {
  readonly session: SessionRecord;
  /** The ledger the server rendered the page with, in columns ([R293]). */
  readonly nodes: PackedLedger;
  /** What a big session's page was rendered without ([R294]); null: `nodes` is all of it. */
  readonly rest?: LedgerRest | null;
  readonly model: ModelInfo;
  readonly account: AccountMenuProps;
  /** The attachment caps the server enforces, checked before an upload (issue 24). */
  readonly caps: AttachmentCaps;
  /** Opened at this node (a search result): the transcript scrolls to it. */
  readonly focusId?: NodeId | null;
  /**
   * HEAD before the page moved it to the branch of `focusId` (a search hit on a dead
   * branch): the page offers to compare the two branches.
   */
  readonly movedFrom?: NodeId | null;
}

export function ChatApp(props: ChatAppProps) {
  // Read once: the store holds the nodes from here on (the page is keyed by the session).
  const [nodes] = useState(() => unpackLedger(props.nodes));
  return (
    <SessionStoreProvider
      session={props.session}
      nodes={nodes}
      rest={props.rest ?? null}
      model={props.model}
    >
      <ShortcutsProvider>
        <WithCompare>
          <ChatLayout
            account={props.account}
            caps={props.caps}
            movedFrom={props.movedFrom ?? null}
          />
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
  caps,
  movedFrom,
}: {
  account: AccountMenuProps;
  caps: AttachmentCaps;
  movedFrom: NodeId | null;
}) {
  const actions = useSessionActions();
  useSessionEvents(actions.catchUp);
  const several = useSeveralModels();
  const title = useSession((s) => s.session.title);
  const sessionId = useSession((s) => s.session.id);
  const headId = useSession((s) => s.session.headId);
  const setSession = useSession((s) => s.setSession);
  const systemPrompt = useSession((s) =>
    s.session.rootId ? (s.nodes.get(s.session.rootId)?.content ?? "") : "",
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
  // The sessions sidebar as a drawer on a phone (below).
  const [sidebarDrawer, setSidebarDrawer] = useState(false);
  const graphOpen = narrow ? drawerOpen : paneOpen;
  const toggleGraph = () => (narrow ? setDrawerOpen((v) => !v) : setPaneOpen((v) => !v));
  useEscapeKey(narrow && drawerOpen, () => setDrawerOpen(false));
  // The models' prices and windows, for the replies' cost lines and the picker.
  useEffect(loadModels, []);
  // A near-first page's rest ([R294]): the graph starts it once it shows; without the graph
  // (hidden, or a phone's closed drawer) shortly after the page runs, and in any case
  // within a few seconds.
  const store = useSessionStoreApi();
  useEffect(() => {
    const timer = setTimeout(
      () => void store.getState().whenComplete(),
      graphOpen ? FILL_LATEST_MS : FILL_WITHOUT_GRAPH_MS,
    );
    return () => clearTimeout(timer);
  }, [graphOpen, store]);
  // Esc stops this tab's streaming reply (issue 21) — unless a dialog, the graph drawer or
  // another control used the key.
  useEscapeKey(busy === "turn" && !drawerOpen && !sidebarDrawer, (e) => {
    e.preventDefault();
    actions.stop();
  });
  // "What did it read?" on a narrow screen opens the graph that answers it.
  useEffect(() => {
    if (!narrow) return;
    return store.subscribe((s, prev) => {
      if (s.viewRequest !== prev.viewRequest && s.viewRequest?.kind === "reads") {
        setDrawerOpen(true);
      }
    });
  }, [narrow, store]);
  const checkout = useCallback((id: NodeId) => void actions.checkout(id), [actions]);
  // The capsules show their summaries' latest audits (issue 22).
  useEffect(() => {
    void actions.loadAudits();
  }, [actions, sessionId]);

  // The sessions sidebar (issue 21): pinned open or not on wide screens (remembered), a
  // drawer on phones; Ctrl/⌘-Shift-O starts a new chat.
  useNewChatShortcut();
  const [pinned, setPinned] = useSidebarPinned();
  useEscapeKey(sidebarDrawer, () => setSidebarDrawer(false));
  // A chat started on the new-chat page: its first message is sent here, once. Refused (the
  // error banner says why), it is put back in the box rather than lost.
  // The message's files (issue 24): the composer's chips; a drop anywhere on the chat pane
  // adds to them.
  const files = useAttachmentDraft(sessionId, caps);
  const drop = useFileDrop(files.add);
  const send = actions.send;
  useEffect(() => {
    const first = takeFirstMessage(sessionId);
    if (!first) return;
    const attachments = first.attachments.map((a) => a.id);
    void send(first.text, { attachments }).then((ok) => {
      if (ok) return;
      pageDrafts.restore(sessionId, first.text);
      files.restore(first.attachments);
    });
  }, [sessionId, send, files]);

  // One header row at every width (issue 21): what does not fit moves into the session
  // menu — Search, the theme and the account below 1360 px, and on a phone also Compact,
  // Settings and the graph. CSS hides the same controls before hydration.
  const layout = useHeaderLayout();
  const phone = layout === "phone";
  const sidebarOpen = phone ? sidebarDrawer : pinned;
  const toggleSidebar = () => (phone ? setSidebarDrawer((v) => !v) : setPinned(!pinned));
  const router = useRouter();
  const openSearch = useOpenSearch();
  const theme = useThemeSwitch();
  const settingsRef = useRef<SettingsHandle>(null);
  const openSettings = useCallback(() => settingsRef.current?.open(), []);
  const compactTitle = streaming
    ? "Wait for the reply to finish"
    : (compactable.reason ?? "Summarise everything before the latest exchange now");
  const compact = () =>
    compactable.ready ? void actions.compact() : setNotice(compactable.reason);
  const phoneItems: readonly MenuExtra[] = [
    {
      label: busy === "compact" ? "Compacting…" : "Compact",
      onSelect: busy !== null || streaming ? () => setNotice(compactTitle) : compact,
      disabled: !compactable.ready || busy !== null || streaming,
      title: compactTitle,
    },
    { label: "Settings…", onSelect: openSettings },
    { label: graphOpen ? "Hide graph" : "Show graph", onSelect: toggleGraph },
  ];
  const accountItems: readonly MenuExtra[] = account.accounts
    ? [
        { label: `Account (${account.name})`, href: "/account" },
        { label: "Sign out", onSelect: () => void signOut(router) },
      ]
    : [];
  const crowdedItems: readonly MenuExtra[] = [
    ...(openSearch ? [{ label: "Search…", onSelect: openSearch }] : []),
    { label: theme.label, onSelect: theme.toggle },
    ...accountItems,
  ];
  const extraItems = [
    ...(layout === "phone" ? phoneItems : []),
    ...(layout === "wide" ? [] : crowdedItems),
  ];

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
        <button
          type="button"
          className={cx("btn icon-only", styles.sidebarToggle)}
          aria-label={sidebarOpen ? "Hide sessions" : "Show sessions"}
          title={sidebarOpen ? "Hide sessions" : "Show sessions"}
          aria-expanded={sidebarOpen}
          aria-controls="sessions-sidebar"
          onClick={toggleSidebar}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Link href="/" className={cx("back-link", styles.back)} aria-label="All sessions">
          ← <span className={styles.backText}>Sessions</span>
        </Link>
        <h1 className={styles.title} title={title}>
          {title}
        </h1>
        <SessionMenu
          sessionId={sessionId}
          title={title}
          headId={headId}
          onRenamed={setSession}
          systemPrompt={systemPrompt}
          extraItems={extraItems}
        />
        <ModelPicker
          trigger={
            <>
              <span className={styles.badgeText}>{sessionModel ?? model.label}</span>
              <span aria-hidden="true"> ▾</span>
            </>
          }
          triggerClassName={cx("badge", styles.badge, styles.modelBadge)}
          triggerLabel={
            model.offline
              ? `Model: ${model.label} (no language model is configured). Choose another`
              : `Model: ${sessionModel ?? model.label}. Choose another for this session`
          }
          heading="Model for this session's next turns"
          current={sessionModel ?? null}
          onPick={(name) => void actions.setModel(name)}
          {...(model.offline
            ? {}
            : {
                more: {
                  label: "Ask several models…",
                  title:
                    "Send the next message to several models at once and see their replies side by side",
                  run: () => several.show(sessionModel ?? model.name),
                },
              })}
        />
        {model.notice && (
          <span
            className={cx("badge badge-warn", styles.badge, styles.notPhone)}
            title={model.notice}
          >
            window guessed
          </span>
        )}
        <ContextMeter />
        <button
          className={cx("btn", styles.notPhone)}
          // Not disabled outright when there is nothing to compact: the reason stays
          // reachable (a tooltip, and a tap on a phone shows it) without asking the server.
          onClick={compact}
          disabled={busy !== null || streaming}
          aria-disabled={!compactable.ready || undefined}
          title={compactTitle}
        >
          {busy === "compact" ? "Compacting…" : "Compact"}
        </button>
        <SettingsPanel handle={settingsRef} buttonClassName={styles.notPhone} />
        <button
          className={cx("btn", styles.notPhone)}
          onClick={toggleGraph}
          aria-pressed={graphOpen}
          aria-controls="graph-pane"
        >
          {graphOpen ? "Hide graph" : "Show graph"}
        </button>
        {layout === "wide" && (
          <>
            <SearchButton compact className={styles.wideOnly} />
            <ThemeToggle className={styles.wideOnly} />
            <AccountMenu {...account} compact className={styles.wideOnly} />
          </>
        )}
      </header>
      <main className={styles.main}>
        {sidebarOpen && (
          <div className={cx(styles.sidebarPane, phone && styles.sidebarDrawer)}>
            <SessionsSidebar currentId={sessionId} onNavigate={() => setSidebarDrawer(false)} />
          </div>
        )}
        {phone && sidebarDrawer && (
          <div
            className={styles.backdrop}
            aria-hidden="true"
            onClick={() => setSidebarDrawer(false)}
          />
        )}
        <section className={cx("chat-pane", styles.chatPane)} {...drop.handlers}>
          {drop.dragging && <DropCue />}
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
          <WaitingForRest />
          {busy === "task" && <div className="banner banner-notice">Sub-agent task running…</div>}
          {busy === "send" && (
            <div className="banner banner-notice">Sending to the other session…</div>
          )}
          <HeadBar actions={actions} />
          <Composer actions={actions} files={files} caps={caps} several={several} />
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

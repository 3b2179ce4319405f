"use client";

import { useCallback, useMemo } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import { childIds } from "@/components/session/ledger-merge";
import type { SessionState } from "@/components/session/session-store";
import { CompareView, type CompareColumn } from "./compare-view";
import { replyFigures } from "./reply-figures";
import styles from "./compare.module.css";

const selectNodes = (s: SessionState) => s.nodes;
const selectChildren = (s: SessionState) => s.children;
const selectLive = (s: SessionState) => s.live;
const selectHead = (s: SessionState) => s.session.headId;

/**
 * The replies to one message side by side (issue 22): a reply and its replays, or the
 * answers of several models asked at once. `first` leads (the others are diffed against it);
 * each column says which model wrote it, its tokens and timings, and whether it was made
 * without the summary; "Continue from here" checks it out. Replies still streaming fill in
 * as they arrive.
 */
export function RepliesCompare({
  parentId,
  first,
  onContinue,
}: {
  readonly parentId: NodeId;
  readonly first: NodeId | null;
  readonly onContinue: (id: NodeId) => void;
}) {
  const store = useSessionStoreApi();
  const nodes = useSession(selectNodes);
  const children = useSession(selectChildren);
  const live = useSession(selectLive);
  const headId = useSession(selectHead);
  const lookup = useCallback((id: NodeId) => live[id] ?? nodes.get(id), [nodes, live]);
  const ensureFull = useCallback(
    (ids: readonly NodeId[]) => void store.getState().ensureFull(ids),
    [store],
  );

  const replies = useMemo(() => {
    const ids = childIds(children.get(parentId)).filter(
      (id) => nodes.get(id)?.kind === "assistant",
    );
    const at = first === null ? -1 : ids.indexOf(first);
    return at > 0 ? [ids[at] as NodeId, ...ids.filter((id) => id !== first)] : ids;
  }, [children, nodes, parentId, first]);

  const columns = useMemo(
    (): CompareColumn[] =>
      replies.map((id) => {
        const node = live[id] ?? nodes.get(id);
        const model = typeof node?.metadata.model === "string" ? node.metadata.model : "Reply";
        const replay = typeof node?.metadata["replay_of"] === "string";
        const figures = node ? replyFigures(node.metadata) : [];
        if (node?.status === "streaming") figures.push("streaming…");
        const here = id === headId;
        return {
          key: id,
          title: `${replay ? "Replay" : "Reply"} · ${model}`,
          note: [...figures, ...(here ? ["you are here"] : [])].join(" · "),
          rows: [id],
          action: {
            label: here ? "You are here" : "Continue from here",
            title: "Check out this reply: HEAD moves there and the conversation goes on from it",
            run: () => onContinue(id),
            disabled: here || node?.status === "streaming",
          },
        };
      }),
    [replies, nodes, live, headId, onContinue],
  );

  if (replies.length < 2) {
    return <p className={styles.status}>Waiting for the other replies…</p>;
  }
  return (
    <CompareView
      columns={columns}
      nodeOf={lookup}
      ensureFull={ensureFull}
      label="Replies side by side"
    />
  );
}

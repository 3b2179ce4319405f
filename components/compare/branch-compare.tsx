"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import type { WireNode } from "@/lib/engine/wire-node";
import type { BranchComparison } from "@/lib/engine/compare-branches";
import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import { versionCount, versionTitle } from "@/components/session/versions";
import type { SessionState } from "@/components/session/session-store";
import { errorOf } from "@/components/ui/api-error";
import { readAnswer } from "@/components/ui/read-answer";
import { comparisonSchema } from "@/lib/http/answers";
import { CompareView, type CompareColumn } from "./compare-view";
import styles from "./compare.module.css";

type Loaded =
  | { readonly status: "loading" }
  | { readonly status: "error"; readonly message: string }
  | { readonly status: "ready"; readonly data: BranchComparison<WireNode> };

const selectNodes = (s: SessionState) => s.nodes;
const selectChildren = (s: SessionState) => s.children;
const selectLeftOut = (s: SessionState) => s.leftOut;
const selectLive = (s: SessionState) => s.live;
const selectHead = (s: SessionState) => s.session.headId;
const selectSessionId = (s: SessionState) => s.session.id;

async function fetchComparison(
  sessionId: string,
  a: NodeId,
  b: NodeId,
  signal: AbortSignal,
): Promise<BranchComparison<WireNode>> {
  const query = new URLSearchParams({ a, b });
  const res = await fetch(`/api/sessions/${sessionId}/compare?${query}`, { signal });
  if (!res.ok) throw new Error(await errorOf(res, `Could not compare (${res.status}).`));
  return readAnswer(res, comparisonSchema);
}

/**
 * Two branches side by side from their fork point (issue 20): the server lines them up
 * (`GET .../compare`), the columns show each turn with a word-level diff of the replies
 * that differ, and either column can be continued — "Continue from here" checks out its
 * end, HEAD moves there and the transcript follows.
 */
export function BranchCompare({
  a,
  b,
  onContinue,
}: {
  readonly a: NodeId;
  readonly b: NodeId;
  readonly onContinue: (id: NodeId) => void;
}) {
  const store = useSessionStoreApi();
  const sessionId = useSession(selectSessionId);
  const headId = useSession(selectHead);
  const nodes = useSession(selectNodes);
  const children = useSession(selectChildren);
  const leftOut = useSession(selectLeftOut);
  const live = useSession(selectLive);
  // The answer for the pair it was asked for: a new pair shows as loading until its own.
  const pairKey = `${a}:${b}`;
  const [answer, setAnswer] = useState<{ key: string; loaded: Loaded } | null>(null);
  const loaded = useMemo(
    (): Loaded =>
      a === b
        ? { status: "error", message: "Pick two different messages to compare." }
        : answer?.key === pairKey
          ? answer.loaded
          : { status: "loading" },
    [a, b, answer, pairKey],
  );

  useEffect(() => {
    if (a === b) return;
    const controller = new AbortController();
    const key = `${a}:${b}`;
    fetchComparison(sessionId, a, b, controller.signal).then(
      (data) => {
        // The columns' labels and metadata, held like any other copy (never regress).
        store.getState().merge([...data.a, ...data.b]);
        setAnswer({ key, loaded: { status: "ready", data } });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        const message = e instanceof Error ? e.message : String(e);
        setAnswer({ key, loaded: { status: "error", message } });
      },
    );
    return () => controller.abort();
  }, [a, b, sessionId, store]);

  // A streaming reply's live text first, as everywhere else in the page.
  const lookup = useCallback((id: NodeId) => live[id] ?? nodes.get(id), [nodes, live]);
  const ensureFull = useCallback(
    (ids: readonly NodeId[]) => void store.getState().ensureFull(ids),
    [store],
  );

  const columns = useMemo((): CompareColumn[] => {
    if (loaded.status !== "ready") return [];
    const { data } = loaded;
    const column = (key: "a" | "b", list: readonly WireNode[], end: NodeId): CompareColumn => {
      const first = list[0];
      // Where the branch's first message stands among the fork's versions — counting those
      // a near-first page has not brought yet ([R294]); [0, 1] when it is none of them.
      const [at, count] =
        first === undefined ? [0, 1] : versionCount({ nodes, children, leftOut }, first);
      const here = end === headId || list.some((n) => n.id === headId);
      const title =
        count > 1 ? versionTitle(at, count) : key === "a" ? "First branch" : "Second branch";
      return {
        key,
        title,
        note: `${list.length} ${list.length === 1 ? "turn" : "turns"} after the fork${here ? " · you are here" : ""}`,
        rows: list.map((n) => n.id),
        action: {
          label: end === headId ? "You are here" : "Continue from here",
          title: "Check out the end of this branch: HEAD moves there and the transcript shows it",
          run: () => onContinue(end),
          disabled: end === headId,
        },
      };
    };
    return [column("a", data.a, a), column("b", data.b, b)];
  }, [loaded, nodes, children, leftOut, headId, a, b, onContinue]);

  if (loaded.status === "loading") return <p className={styles.status}>Lining up the branches…</p>;
  if (loaded.status === "error") {
    return (
      <p className={styles.error} role="alert">
        {loaded.message}
      </p>
    );
  }
  const fork = nodes.get(loaded.data.forkId);
  return (
    <>
      <p className={styles.forkNote} style={{ margin: "8px 16px 0" }}>
        They part after {fork === undefined ? "the same turns" : `“${fork.content.slice(0, 80)}”`}
        {loaded.data.a.length === 0 || loaded.data.b.length === 0
          ? " — one continues the other: the same branch, further on."
          : "."}
      </p>
      <CompareView
        columns={columns}
        nodeOf={lookup}
        ensureFull={ensureFull}
        label="Branches side by side"
      />
    </>
  );
}

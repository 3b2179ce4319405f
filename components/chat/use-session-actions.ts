"use client";

import { useMemo, useRef } from "react";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode, SessionRecord } from "@/lib/engine/types";
import { useSessionStoreApi } from "@/components/session/session-context";
import { branchTip, versionsUnder } from "@/lib/engine/branch-tip";
import { readSse } from "./sse-client";
import { unwrap } from "@/components/session/unwrap";
import {
  compactAction,
  deleteBranchAction,
  moveHeadAction,
  sendToAction,
  taskAction,
  updateSessionAction,
} from "@/app/s/[id]/actions";

interface ApiError {
  error?: { code?: string; message?: string };
}

async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as ApiError;
    return body.error?.message ?? `Request failed (${res.status}).`;
  } catch {
    return `Request failed (${res.status}).`;
  }
}

/** A read of the HTTP API (writes go through server actions or the streaming turn). */
async function api<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(await errorOf(res));
  return (await res.json()) as T;
}

export interface TurnRequest {
  readonly mode: "send" | "retry" | "edit";
  readonly content?: string;
  readonly parentId?: NodeId;
  readonly targetId?: NodeId;
}

/**
 * Every server operation the page performs: reads and the streaming turn over the HTTP API,
 * every other write through a server action. Results land in the one session store; the
 * transcript and the graph re-render from it.
 */
export function useSessionActions() {
  const store = useSessionStoreApi();
  const abort = useRef<AbortController | null>(null);

  return useMemo(() => {
    const sessionId = () => store.getState().session.id;
    const sessionUrl = () => `/api/sessions/${sessionId()}`;
    const fail = (e: unknown) =>
      store.getState().setError(e instanceof Error ? e.message : String(e));

    const refresh = async () => {
      const [session, { nodes }] = await Promise.all([
        api<SessionRecord>(sessionUrl()),
        api<{ nodes: LedgerNode[] }>(`${sessionUrl()}/nodes`),
      ]);
      store.getState().hydrate(session, nodes);
    };

    /** Runs one request at a time; resolves false when it failed (the error is shown). */
    const guarded = async (
      busy: "turn" | "compact" | "task" | "send",
      fn: () => Promise<void>,
    ): Promise<boolean> => {
      const s = store.getState();
      if (s.busy) return false;
      s.setBusy(busy);
      s.setError(null);
      s.setNotice(null);
      try {
        await fn();
        return true;
      } catch (e) {
        if ((e as Error).name === "AbortError") return true;
        fail(e);
        return false;
      } finally {
        store.getState().setBusy(null);
        store.getState().setOwnStream(null);
        abort.current = null;
      }
    };

    const turn = (req: TurnRequest) =>
      guarded("turn", async () => {
        const controller = new AbortController();
        abort.current = controller;
        const res = await fetch(`${sessionUrl()}/turns`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(req),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(await errorOf(res));
        try {
          for await (const msg of readSse(res.body)) {
            const s = store.getState();
            const data: unknown = JSON.parse(msg.data);
            if (msg.event === "node") {
              const node = data as LedgerNode;
              s.upsertNode(node);
              s.setHead(node.id);
              if (node.status === "streaming") s.setOwnStream(node.id);
            } else if (msg.event === "delta") {
              const d = data as { id: NodeId; text: string; offset: number };
              s.appendDelta(d.id, d.text, d.offset);
            } else if (msg.event === "done") {
              s.upsertNode((data as { node: LedgerNode }).node);
            } else if (msg.event === "error") {
              const e = data as { message: string; node?: LedgerNode };
              if (e.node) s.upsertNode(e.node);
              s.setError(e.message);
            }
          }
        } catch (e) {
          if ((e as Error).name !== "AbortError") throw e;
          // Stop: the server seals the reply `interrupted`; wait until the seal is visible.
          for (let i = 0; i < 40; i++) {
            await refresh();
            const own = store.getState().ownStreamId;
            if (!own || store.getState().nodes[own]?.status !== "streaming") break;
            await new Promise((r) => setTimeout(r, 150));
          }
          return;
        }
        await refresh();
      });

    return {
      refresh,
      send: (content: string, parentId?: NodeId) =>
        turn({ mode: "send", content, ...(parentId ? { parentId } : {}) }),
      retry: (targetId: NodeId) => turn({ mode: "retry", targetId }),
      edit: (targetId: NodeId, content: string) => turn({ mode: "edit", targetId, content }),
      stop: () => abort.current?.abort(),
      checkout: async (nodeId: NodeId) => {
        try {
          store
            .getState()
            .setSession(unwrap(await moveHeadAction(sessionId(), { nodeId, move: "checkout" })));
        } catch (e) {
          fail(e);
        }
      },
      compact: () =>
        guarded("compact", async () => {
          let result = await compactAction(sessionId());
          // Another tab's compaction landed while this one was summarising: plan once more
          // against the new summary (it may now find nothing to do).
          if (!result.ok && result.error.code === "compaction_conflict") {
            result = await compactAction(sessionId());
          }
          const r = unwrap(result);
          await refresh();
          store
            .getState()
            .setNotice(
              r.notice ??
                `Compacted ${r.coveredCount} turns: context ${r.tokensBefore.toLocaleString("en")} → ${r.tokensAfter.toLocaleString("en")} tokens.`,
            );
        }),
      task: (prompt: string) =>
        guarded("task", async () => {
          unwrap(await taskAction(sessionId(), { prompt }));
          await refresh();
        }),
      sendTo: (targetSessionId: string, content: string) =>
        guarded("send", async () => {
          unwrap(await sendToAction(sessionId(), { targetSessionId, content }));
          store.getState().setNotice(`Sent to session ${targetSessionId}.`);
        }),
      setModel: async (model: string): Promise<boolean> => {
        try {
          store
            .getState()
            .setSession(unwrap(await updateSessionAction(sessionId(), { settings: { model } })));
          store.getState().setNotice(`Model set to ${model} for this session.`);
          return true;
        } catch (e) {
          fail(e);
          return false;
        }
      },
      deleteBranch: async (tipId: NodeId) => {
        try {
          const after = unwrap(await deleteBranchAction(sessionId(), tipId));
          await refresh();
          // HEAD fell back to the fork point; show the surviving version's latest turn there,
          // as a user expects after deleting one of two versions.
          const { nodes } = store.getState();
          const childrenOf = (id: NodeId) =>
            Object.values(nodes)
              .filter((n) => n.predecessorId === id)
              .sort((x, y) => x.seq - y.seq);
          const head = after.headId ? nodes[after.headId] : undefined;
          const versions = head ? versionsUnder(head, childrenOf) : [];
          const latest = versions.at(-1);
          if (latest) {
            const nodeId = branchTip(latest, childrenOf);
            store
              .getState()
              .setSession(unwrap(await moveHeadAction(sessionId(), { nodeId, move: "checkout" })));
          }
        } catch (e) {
          fail(e);
        }
      },
    };
  }, [store]);
}

export type SessionActions = ReturnType<typeof useSessionActions>;

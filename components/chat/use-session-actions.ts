"use client";

import { useMemo, useRef } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { selectHeadView, useSessionStoreApi } from "@/components/session/session-context";
import type { SessionState } from "@/components/session/session-store";
import { auditCreatedSchema, auditListSchema, sessionBodySchema } from "@/lib/http/answers";
import { readAnswer } from "@/components/ui/read-answer";
import { landBranchDeleted } from "@/components/session/land-delete";
import { versionTip, versionsBelow } from "@/components/session/versions";
import { readTurnStream } from "./sse-client";
import type { TurnStreamEvent } from "@/lib/engine/turn-stream";
import { unwrap } from "@/components/session/unwrap";
import { errorOf } from "@/components/ui/api-error";
import {
  compactAction,
  deleteBranchAction,
  moveHeadAction,
  sendToAction,
  taskAction,
  updateSessionAction,
} from "@/app/s/[id]/actions";

/** How long Stop waits for the reply's seal on the channel before one catch-up instead. */
const STOP_WAIT_MS = 4000;

/** HEAD's spine nodes this tab holds only as skeletons: their text is fetched whole. */
function skeletonSpine(s: SessionState): NodeId[] {
  return selectHeadView(s)
    .spine.filter((n) => s.nodes.get(n.id)?.partial === "skeleton")
    .map((n) => n.id);
}

/**
 * Lands a reply's `delta`, `done` or `error` event — alike for a turn and a replay — and
 * answers an `error`'s message (null otherwise); a `node` event is the caller's to land.
 */
function landReplyEvent(s: SessionState, msg: TurnStreamEvent): string | null {
  switch (msg.event) {
    case "delta":
      s.appendDelta(msg.data.id, msg.data.text, msg.data.offset);
      return null;
    case "done":
      s.upsertNode(msg.data.node);
      return null;
    case "error":
      if (msg.data.node) s.upsertNode(msg.data.node);
      return msg.data.message;
    case "node":
      return null;
  }
}

export interface TurnRequest {
  readonly mode: "send" | "retry" | "edit";
  readonly content?: string;
  readonly parentId?: NodeId;
  readonly targetId?: NodeId;
  /** This turn's model (Retry with…, [R203]); the session's otherwise. */
  readonly model?: string;
  /** Several models at once (2–4): one reply each, HEAD on the first. */
  readonly models?: readonly string[];
  /** Uploads sent with the message (their ids), issue 24. */
  readonly attachments?: readonly string[];
}

/** What a new message carries besides its text. */
export interface SendOptions {
  readonly parentId?: NodeId;
  /** Ids of uploads to send with it; a message may be only files. */
  readonly attachments?: readonly string[];
}

/** A replay's choices (issue 22): another model, and whether summaries are expanded. */
export interface ReplayRequest {
  readonly model?: string;
  readonly expand?: "all";
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

    // Catch-up, never a refetch of the whole ledger (docs/big-sessions.md).
    const catchUp = () => store.getState().catchUp();
    const checkedOut = () => {
      const missing = skeletonSpine(store.getState());
      if (missing.length > 0) void store.getState().ensureFull(missing);
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

    /** `onUser` hears of the turn's user node as soon as the server has written it. */
    const turn = (req: TurnRequest, onUser?: (id: NodeId) => void) =>
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
        // From here the message is in the ledger: a broken stream or a failed catch-up is
        // shown, but the turn counts as sent, so the composer never puts the message back
        // as a draft (a reload during the catch-up aborts it, and the page, still alive,
        // would save the draft again as it unloads).
        try {
          for await (const msg of readTurnStream(res.body)) {
            const s = store.getState();
            if (msg.event === "node") {
              const node = msg.data;
              s.upsertNode(node);
              // Several replies: HEAD is the first model's, which the session answers below.
              if (!req.models || node.kind === "user") s.setHead(node.id);
              if (node.status === "streaming") s.setOwnStream(node.id);
              if (node.kind === "user") onUser?.(node.id);
            }
            const error = landReplyEvent(s, msg);
            if (error !== null) s.setError(error);
          }
          await catchUp();
          if (req.models) await refreshSession();
        } catch (e) {
          if ((e as Error).name !== "AbortError") {
            fail(e);
            return;
          }
          // Stop: the server seals the reply `interrupted`; its `turn_finished` comes on the
          // session channel (a reply stopped before it appeared: one catch-up).
          await store.getState().awaitSeal(store.getState().ownStreamId, STOP_WAIT_MS);
        }
      });

    const refreshSession = async () => {
      const res = await fetch(sessionUrl());
      if (res.ok) store.getState().setSession(await readAnswer(res, sessionBodySchema));
    };

    return {
      catchUp,
      send: (content: string, options: SendOptions = {}) =>
        turn({
          mode: "send",
          content,
          ...(options.parentId ? { parentId: options.parentId } : {}),
          ...(options.attachments?.length ? { attachments: options.attachments } : {}),
        }),
      /** A sibling reply; with `model`, written by that model for this one retry. */
      retry: (targetId: NodeId, model?: string) =>
        turn({ mode: "retry", targetId, ...(model ? { model } : {}) }),
      /**
       * One message to several models: `onUser` is told the user node's id as soon as it is
       * written, while the replies stream (the page opens them side by side at once).
       */
      sendToModels: (
        content: string,
        models: readonly string[],
        attachments: readonly string[],
        onUser: (id: NodeId) => void,
      ) =>
        turn(
          {
            mode: "send",
            content,
            models,
            ...(attachments.length > 0 ? { attachments } : {}),
          },
          onUser,
        ),
      /**
       * Replays a reply (its recorded prompt sent again): resolves once the new reply exists,
       * with its id; the stream goes on in the background and lands through the channel.
       */
      replay: async (nodeId: NodeId, req: ReplayRequest): Promise<NodeId | null> => {
        try {
          const res = await fetch(`${sessionUrl()}/replays`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ nodeId, ...req }),
          });
          if (!res.ok || !res.body) throw new Error(await errorOf(res));
          const events = readTurnStream(res.body);
          const first = await events.next();
          if (first.done) return null;
          // A replay's stream opens with its new reply.
          if (first.value.event === "error") throw new Error(first.value.data.message);
          if (first.value.event !== "node") {
            throw new Error(
              `The replay's stream opened with "${first.value.event}", not its reply.`,
            );
          }
          const node = first.value.data;
          store.getState().upsertNode(node);
          void (async () => {
            for await (const msg of events) {
              const error = landReplyEvent(store.getState(), msg);
              if (error !== null) fail(new Error(error));
            }
          })().catch(fail);
          return node.id;
        } catch (e) {
          fail(e);
          return null;
        }
      },
      /** Audits a summary (issue 22) and records the result for the capsule. */
      audit: async (summaryId: NodeId): Promise<boolean> => {
        try {
          const res = await fetch(`${sessionUrl()}/audits`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ summaryId }),
          });
          if (!res.ok) throw new Error(await errorOf(res));
          const { audit } = auditCreatedSchema.parse(await res.json());
          store.getState().setAudits([audit]);
          return true;
        } catch (e) {
          fail(e);
          return false;
        }
      },
      /**
       * The session's stored audits, for the capsules. Never rejects: without them (the
       * server unreachable or refusing) the capsules just show no audit, as before one ran.
       */
      loadAudits: async () => {
        try {
          const res = await fetch(`${sessionUrl()}/audits`);
          if (!res.ok) return;
          const { audits } = auditListSchema.parse(await res.json());
          store.getState().setAudits(audits);
        } catch {
          // No audits shown; the next visit asks again.
        }
      },
      /** A new reply under one of your messages (a retry of it, [R180]). */
      generate: (userId: NodeId) => turn({ mode: "retry", targetId: userId }),
      edit: (targetId: NodeId, content: string) => turn({ mode: "edit", targetId, content }),
      stop: () => abort.current?.abort(),
      checkout: async (nodeId: NodeId) => {
        try {
          store
            .getState()
            .setSession(unwrap(await moveHeadAction(sessionId(), { nodeId, move: "checkout" })));
          checkedOut();
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
          await catchUp();
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
          await catchUp();
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
          const after = landBranchDeleted(
            store,
            unwrap(await deleteBranchAction(sessionId(), tipId)),
          );
          await catchUp();
          // The surviving version's tip may lie past what a near-first page holds ([R294]).
          await store.getState().whenComplete();
          // HEAD fell back to the fork point; show the surviving version's latest turn there,
          // as a user expects after deleting one of two versions.
          const state = store.getState();
          const head = after.headId ? state.nodes.get(after.headId) : undefined;
          const latest = head ? versionsBelow(state, head).at(-1) : undefined;
          if (latest) {
            const nodeId = versionTip(state, latest);
            store
              .getState()
              .setSession(unwrap(await moveHeadAction(sessionId(), { nodeId, move: "checkout" })));
          }
          checkedOut();
        } catch (e) {
          fail(e);
        }
      },
    };
  }, [store]);
}

export type SessionActions = ReturnType<typeof useSessionActions>;

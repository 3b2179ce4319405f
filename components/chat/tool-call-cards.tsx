"use client";

import { useCallback, useEffect } from "react";
import { useShallow } from "zustand/react/shallow";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode, ToolCall } from "@/lib/engine/types";
import {
  childrenLookup,
  useSession,
  useSessionStoreApi,
} from "@/components/session/session-context";
import { withWholeLedger, type SessionState } from "@/components/session/session-store";
import { firstLine, type WireNode } from "@/lib/engine/wire-node";
import { versionTip } from "@/components/session/versions";
import { Markdown } from "./markdown";
import { cx } from "@/components/ui/cx";
import msgStyles from "./message-view.module.css";
import styles from "./tool-call-cards.module.css";

function argsOf(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function describe(call: ToolCall): { title: string; text: string } {
  const args = argsOf(call);
  if (call.name === "task") {
    return {
      title: "Sub-agent",
      text: typeof args["prompt"] === "string" ? args["prompt"] : call.arguments,
    };
  }
  if (call.name === "send_message") {
    const target = typeof args["session_id"] === "string" ? args["session_id"] : "?";
    const content = typeof args["content"] === "string" ? args["content"] : "";
    return { title: `Message to session ${target}`, text: content };
  }
  return { title: `Tool ${call.name}`, text: call.arguments };
}

interface CallState {
  readonly result: WireNode | undefined;
  readonly branch: WireNode | undefined;
}

/** A node's text matches `text`; a skeleton's content is the label of its text (`firstLine`). */
export function sameText(node: WireNode, text: string): boolean {
  if (node.partial !== "skeleton") return node.content === text;
  return node.content !== "" && firstLine(text) === node.content;
}

/**
 * Each call's result — the `tool` nodes chained under the caller answer its calls in order —
 * and, for a sub-agent, the root of its branch (a user node under the caller that carries
 * the caller as `callerId`; equal prompts are told apart by order). Walks the children
 * index: the caller's own neighbourhood, never the whole ledger.
 */
function callStates(s: SessionState, caller: LedgerNode): CallState[] {
  const calls = caller.metadata.tool_calls ?? [];
  const kids = childrenLookup(s);
  const results = new Map<string, WireNode>();
  let at = caller.id;
  for (;;) {
    const next = kids(at).find(
      (n) => n.kind === "tool" && calls.some((c) => c.id === n.metadata.tool_call_id),
    );
    if (!next?.metadata.tool_call_id || results.has(next.metadata.tool_call_id)) break;
    results.set(next.metadata.tool_call_id, next);
    at = next.id;
  }
  const roots = kids(caller.id).filter((n) => n.kind === "user" && n.callerId === caller.id);
  const taken = new Set<string>();
  return calls.map((call) => {
    const prompt = describe(call).text;
    const branch =
      call.name === "task" ? roots.find((r) => !taken.has(r.id) && sameText(r, prompt)) : undefined;
    if (branch) taken.add(branch.id);
    return { result: results.get(call.id), branch };
  });
}

/**
 * The calls an assistant made, one card each: what was asked, whether it is still running,
 * its result folded underneath, and — for a sub-agent — a button that checks out its branch
 * (the side conversation it had, which the graph also shows).
 */
export function ToolCallCards({
  caller,
  onCheckout,
}: {
  caller: LedgerNode;
  onCheckout: (id: NodeId) => void;
}) {
  const calls = caller.metadata.tool_calls ?? [];
  // Flattened to node references so the cards re-render only when a result or a branch
  // appears or changes, not on every streamed token elsewhere.
  const states = useSession(
    useShallow((s) => callStates(s, caller).flatMap((c) => [c.result, c.branch])),
  );
  const store = useSessionStoreApi();
  // A result held as a skeleton (a long session's first load) is fetched whole once shown.
  const skeletons = states
    .filter((n) => n?.partial === "skeleton")
    .map((n) => n?.id)
    .join(",");
  useEffect(() => {
    if (skeletons) void store.getState().ensureFull(skeletons.split(",") as NodeId[]);
  }, [skeletons, store]);
  const open = useCallback(
    (branch: LedgerNode) =>
      withWholeLedger(store, "Opening the tool's branch", (s) => onCheckout(versionTip(s, branch))),
    [store, onCheckout],
  );
  return (
    <ul className={styles.cards} aria-label="Tool calls">
      {calls.map((call, i) => {
        const { title, text } = describe(call);
        const result = states[2 * i];
        const branch = states[2 * i + 1];
        const status = result
          ? result.content.startsWith("Not run")
            ? "not run"
            : "done"
          : "no result yet";
        return (
          <li key={call.id} className={cx("tool-card", styles.card)}>
            <div className={styles.head}>
              <strong>{title}</strong>
              <span
                className={cx(
                  "msg-status",
                  msgStyles.status,
                  !result && cx("streaming", msgStyles.streaming),
                )}
              >
                {status}
              </span>
              {branch && (
                <button type="button" className="link-btn" onClick={() => open(branch)}>
                  Open its branch
                </button>
              )}
            </div>
            <p className={styles.text}>{text}</p>
            {result && (
              <details className={msgStyles.tool}>
                <summary>Result</summary>
                {result.partial === "skeleton" ? (
                  <p className={msgStyles.loading} aria-busy="true">
                    loading…
                  </p>
                ) : (
                  <Markdown text={result.content} />
                )}
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

"use client";

import { useCallback } from "react";
import { useShallow } from "zustand/react/shallow";
import type { NodeId } from "@/lib/engine/ids";
import type { LedgerNode, ToolCall } from "@/lib/engine/types";
import { useSession } from "@/components/session/session-context";
import { branchTip } from "./branch-tip";
import { Markdown } from "./markdown";

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
  // The caller's children: its first tool result and the sub-agents' branch roots.
  const children = useSession(
    useShallow((s) =>
      Object.values(s.nodes).filter(
        (n) => n.predecessorId === caller.id || n.callerId === caller.id,
      ),
    ),
  );
  const nodes = useSession((s) => s.nodes);
  const childrenOf = useCallback(
    (id: NodeId) =>
      Object.values(nodes)
        .filter((n) => n.predecessorId === id)
        .sort((a, b) => a.seq - b.seq),
    [nodes],
  );
  return (
    <ul className="tool-cards" aria-label="Tool calls">
      {calls.map((call) => {
        const { title, text } = describe(call);
        const result = children.find(
          (n) => n.kind === "tool" && n.metadata.tool_call_id === call.id,
        );
        const branch =
          call.name === "task"
            ? children.find(
                (n) => n.kind === "user" && n.predecessorId === caller.id && n.content === text,
              )
            : undefined;
        return (
          <li key={call.id} className="tool-card">
            <div className="tool-card-head">
              <strong>{title}</strong>
              <span className={`msg-status ${result ? "" : "streaming"}`}>
                {result ? "done" : caller.status === "complete" ? "running…" : "not run"}
              </span>
              {branch && (
                <button
                  type="button"
                  className="link-btn"
                  onClick={() => onCheckout(branchTip(branch, childrenOf))}
                >
                  Open its branch
                </button>
              )}
            </div>
            <p className="tool-card-text">{text}</p>
            {result && (
              <details className="msg-tool">
                <summary>Result</summary>
                <Markdown text={result.content} />
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

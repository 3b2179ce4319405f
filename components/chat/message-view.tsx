"use client";

import { memo, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { attachmentsOf, type LedgerNode } from "@/lib/engine/types";
import type { WireNode } from "@/lib/engine/wire-node";
import { Markdown } from "./markdown";
import { ToolCallCards } from "./tool-call-cards";
import { ModelPicker } from "./model-picker";
import { costOf, entryOf, formatCost, useModels } from "./model-catalogue";
import { cx } from "@/components/ui/cx";
import { usageText } from "./usage-text";
import { ReplayForm } from "./replay-form";
import { MessageFiles } from "./message-files";
import type { ReplayRequest } from "./use-session-actions";
import styles from "./message-view.module.css";

export interface MessageViewProps {
  readonly node: WireNode;
  readonly siblingIndex: number;
  readonly siblingCount: number;
  /** A summary stands in for this turn in what the model reads. */
  readonly covered: boolean;
  readonly busy: boolean;
  readonly selected: boolean;
  /** A sibling reply; with a model, written by that model (Retry with…). */
  readonly onRetry: (id: NodeId, model?: string) => void;
  readonly onEdit: (id: NodeId, content: string) => void;
  readonly onSibling: (node: LedgerNode, delta: -1 | 1) => void;
  /** Opens the versions' branches side by side. */
  readonly onCompare: (node: LedgerNode) => void;
  readonly onSelect: (id: NodeId) => void;
  /** HEAD's tip, when another branch exists to fall back to: it can be deleted. */
  readonly deletable: boolean;
  readonly onDeleteBranch: (id: NodeId) => void;
  /** Checks out a node (a sub-agent's branch, from its tool-call card). */
  readonly onCheckout: (id: NodeId) => void;
  /** Sends this reply's prompt again (issue 22). */
  readonly onReplay: (node: LedgerNode, req: ReplayRequest) => void;
  /** Shows the replies to the same message side by side. */
  readonly onSideBySide: (node: LedgerNode) => void;
}

const ROLE_LABEL: Record<LedgerNode["kind"], string> = {
  root: "System",
  user: "You",
  assistant: "Assistant",
  tool: "Tool result",
  summary: "Summary",
  notice: "Notice",
};

/** One turn of the transcript: content, status, and the branch controls on it. */
export const MessageView = memo(function MessageView(props: MessageViewProps) {
  const { node } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(node.content);
  const [copied, setCopied] = useState(false);
  const [replaying, setReplaying] = useState(false);
  // The manual `/task` run writes its own caller node: a user act, not a model reply.
  const manualTask = node.kind === "assistant" && node.metadata["manual"] === true;
  const error = node.metadata.error;
  // A skeleton holds only the card label, not the message: it shows as loading ([R123]).
  const skeleton = node.partial === "skeleton";
  const usage = node.kind === "assistant" ? usageText(node.metadata.usage) : null;
  const files = attachmentsOf(node);

  const classes = cx(
    "msg",
    styles.msg,
    `msg-${node.kind}`,
    node.kind === "user" && styles.user,
    node.kind === "tool" && styles.tool,
    props.covered && cx("msg-covered", styles.covered),
    props.selected && cx("msg-selected", styles.selected),
  );

  return (
    <article
      className={classes}
      data-node-id={node.id}
      data-kind={node.kind}
      aria-label={ROLE_LABEL[node.kind]}
    >
      <header className={styles.head}>
        <span className={styles.role}>{manualTask ? "Task" : ROLE_LABEL[node.kind]}</span>
        {node.kind === "assistant" && !manualTask && node.status !== "streaming" && (
          <ReplyFacts node={node} />
        )}
        {node.status === "streaming" && (
          <span className={cx("msg-status streaming", styles.status, styles.streaming)}>
            streaming…
          </span>
        )}
        {node.status === "interrupted" && (
          <span className={cx("msg-status interrupted", styles.status, styles.interrupted)}>
            stopped
          </span>
        )}
        {node.status === "error" && (
          <span className={cx("msg-status error", styles.status, styles.failed)}>error</span>
        )}
        {usage && (
          <span className={cx("msg-usage", styles.usage)} title={usage.title}>
            {usage.text}
          </span>
        )}
        {props.covered && (
          <span
            className={cx("msg-status covered", styles.status)}
            title="The model reads the summary instead of this turn"
          >
            summarised
          </span>
        )}
        {props.siblingCount > 1 && (
          <span className={styles.siblings} aria-label="Versions">
            <button
              className="icon-btn"
              aria-label="Previous version"
              disabled={props.busy || props.siblingIndex === 0}
              onClick={() => props.onSibling(node, -1)}
            >
              ‹
            </button>
            <span className={cx("siblings-count", styles.siblingsCount)}>
              {props.siblingIndex + 1}/{props.siblingCount}
            </span>
            <button
              className="icon-btn"
              aria-label="Next version"
              disabled={props.busy || props.siblingIndex >= props.siblingCount - 1}
              onClick={() => props.onSibling(node, 1)}
            >
              ›
            </button>
            <button
              className={cx("link-btn", styles.compare)}
              onClick={() => props.onCompare(node)}
              title="This version's branch and the one beside it, from where they part, turn by turn"
            >
              Compare branches
            </button>
            {node.kind === "assistant" && (
              <button
                className={cx("link-btn", styles.compare)}
                onClick={() => props.onSideBySide(node)}
                title="Every reply to the same message side by side, with their models, tokens and timings"
              >
                Compare replies
              </button>
            )}
          </span>
        )}
      </header>

      {skeleton ? (
        <p className={cx("msg-loading", styles.loading)} aria-busy="true">
          <span className={styles.loadingLabel}>{node.content}</span>
          <span className={styles.loadingNote}>loading…</span>
        </p>
      ) : editing ? (
        <form
          className={styles.edit}
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim() === "") return;
            setEditing(false);
            props.onEdit(node.id, draft);
          }}
        >
          {files.length > 0 && (
            <p className={styles.editNote}>
              An edit carries text only: the new version is sent without this message&apos;s files.
            </p>
          )}
          <textarea
            className="field"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-label="Edit message"
            rows={Math.min(12, Math.max(2, draft.split("\n").length))}
            autoFocus
            // The caret at the end of the message, as in every editor: typing adds to what
            // was written rather than going in front of it.
            onFocus={(e) => {
              const end = e.currentTarget.value.length;
              if (e.currentTarget.selectionStart === 0 && e.currentTarget.selectionEnd === 0) {
                e.currentTarget.setSelectionRange(end, end);
              }
            }}
          />
          <div className={styles.editActions}>
            <button type="button" className="btn" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={props.busy}>
              Save &amp; submit
            </button>
          </div>
        </form>
      ) : node.kind === "assistant" && (node.metadata.tool_calls?.length ?? 0) > 0 ? (
        <>
          {node.content && (
            <div className="msg-body">
              <Markdown text={node.content} streaming={node.status === "streaming"} />
            </div>
          )}
          <ToolCallCards caller={node} onCheckout={props.onCheckout} />
        </>
      ) : node.kind === "user" ? (
        <>
          <MessageFiles sessionId={node.sessionId} files={files} />
          {(node.content !== "" || files.length === 0) && (
            <div className={cx("msg-body", styles.plain)}>{node.content}</div>
          )}
        </>
      ) : node.kind === "tool" ? (
        <details className={styles.tool}>
          <summary>Result ({node.content.length.toLocaleString("en")} characters)</summary>
          <Markdown text={node.content} />
        </details>
      ) : (
        <div className="msg-body">
          {node.content ? (
            <Markdown text={node.content} streaming={node.status === "streaming"} />
          ) : node.status === "streaming" ? (
            <span className={cx("cursor", styles.cursor)} />
          ) : null}
        </div>
      )}

      {error && (
        <p className={styles.errorLine} role="alert">
          {error.message}
        </p>
      )}

      {replaying && (
        <ReplayForm
          model={typeof node.metadata.model === "string" ? node.metadata.model : undefined}
          nodeId={node.id}
          busy={props.busy}
          onCancel={() => setReplaying(false)}
          onReplay={(req) => {
            setReplaying(false);
            props.onReplay(node, req);
          }}
        />
      )}

      {!editing && !skeleton && !replaying && (
        <footer className={styles.actions}>
          {node.kind === "user" && (
            <button
              className="link-btn"
              disabled={props.busy}
              onClick={() => {
                // The draft starts from the text now held (a row can mount as a skeleton).
                setDraft(node.content);
                setEditing(true);
              }}
            >
              Edit
            </button>
          )}
          {node.kind === "assistant" && !manualTask && node.status !== "streaming" && (
            <>
              <button
                className="link-btn"
                disabled={props.busy}
                onClick={() => props.onRetry(node.id)}
              >
                Retry
              </button>
              <ModelPicker
                trigger="Retry with…"
                triggerClassName="link-btn"
                triggerLabel="Retry with another model"
                heading="Retry this reply with"
                current={node.metadata.model ?? null}
                disabled={props.busy}
                onPick={(model) => props.onRetry(node.id, model)}
              />
            </>
          )}
          {node.kind === "assistant" && !manualTask && node.status !== "streaming" && (
            <button
              className="link-btn"
              disabled={props.busy}
              onClick={() => setReplaying(true)}
              title="Send the exact prompt this reply was made from again: to another model, or without its summaries"
            >
              Replay…
            </button>
          )}
          {node.content && (
            <button
              className="link-btn"
              onClick={() => {
                void navigator.clipboard?.writeText(node.content).then(() => setCopied(true));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
          )}
          {node.kind === "assistant" && (
            <button className="link-btn" onClick={() => props.onSelect(node.id)}>
              What did it read?
            </button>
          )}
          {props.deletable && (
            <button
              className="link-btn link-danger"
              disabled={props.busy}
              onClick={() => {
                if (
                  window.confirm(
                    "Delete this branch? The turns only it holds are removed for good.",
                  )
                ) {
                  props.onDeleteBranch(node.id);
                }
              }}
            >
              Delete branch
            </button>
          )}
        </footer>
      )}
    </article>
  );
});

/**
 * Which model wrote a reply, and its cost when the model registry knows the model's list
 * price (issue 21); its tokens are the usage line beside it ([R254]).
 */
function ReplyFacts({ node }: { node: WireNode }) {
  const models = useModels();
  const { model, usage } = node.metadata;
  if (!model) return null;
  const price = entryOf(models, model)?.price ?? null;
  const cost = usage && price ? ` · ${formatCost(costOf(price, usage))}` : "";
  return (
    <span
      className={cx("reply-facts", styles.facts)}
      title={
        cost
          ? "The model that wrote this reply, and its list-price cost"
          : "The model that wrote this reply"
      }
    >
      {model}
      {cost}
    </span>
  );
}

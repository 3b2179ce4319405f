"use client";

import { useCallback } from "react";
import { firstLine } from "@/lib/engine/wire-node";
import { selectStreaming, useSession } from "@/components/session/session-context";
import { versionCountBelow } from "@/components/session/versions";
import type { SessionState } from "@/components/session/session-store";
import type { SessionActions } from "./use-session-actions";
import styles from "./head-bar.module.css";

/** HEAD's node when it is one of your messages (a checkout of a user turn); else null. */
const selectUserHead = (s: SessionState) => {
  const id = s.session.headId;
  const node = id === null ? undefined : s.nodes.get(id);
  return node?.kind === "user" && node.status !== "streaming" ? node : null;
};

/**
 * What a checked-out message of yours means (issue 20): the conversation continues from it,
 * so the next reply can be generated right here — "Generate a reply" writes one under it —
 * and the bar says that sending instead adds a further message after it. Nothing silently
 * puts two of your messages in a row.
 */
export function HeadBar({ actions }: { actions: SessionActions }) {
  const head = useSession(selectUserHead);
  const replies = useSession(
    useCallback((s: SessionState) => (head === null ? 0 : versionCountBelow(s, head)), [head]),
  );
  const busy = useSession((s) => s.busy !== null || selectStreaming(s));
  if (head === null) return null;
  const text = firstLine(head.content, 60);
  return (
    <div className={styles.bar} role="status" aria-label="Where you are">
      <p className={styles.text}>
        <strong>You are at your message “{text}”.</strong>{" "}
        {replies === 0
          ? "It has no reply yet. Generate a reply here"
          : // The replies hang right below it (HEAD stops before them), not on another branch.
            `It already has ${replies === 1 ? "a reply" : `${replies} replies`} below it (open ${replies === 1 ? "it" : "one"} in the graph to continue there). Generate another reply here`}
        , or send a message to add it after this one.
      </p>
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        onClick={() => void actions.generate(head.id)}
        title="A new reply to this message (a retry under it); HEAD follows it"
      >
        Generate a reply
      </button>
    </div>
  );
}

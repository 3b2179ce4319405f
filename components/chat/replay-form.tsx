"use client";

import { useEffect, useId, useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import { readsASummary } from "./reads-summary";
import type { ReplayRequest } from "./use-session-actions";
import { useModelNames } from "./use-model-names";
import styles from "./message-view.module.css";

/**
 * "Replay…" on a reply (issue 22): the same prompt sent again — to the model named here
 * (blank: the one that wrote it), and, ticked, without its summaries (their original turns
 * in their place) — offered when the reply read a summary, which its reads tell (fetched
 * whole here when the page holds only a lean copy).
 */
export function ReplayForm(props: {
  readonly model: string | undefined;
  /** The reply replayed. */
  readonly nodeId: NodeId;
  readonly busy: boolean;
  readonly onReplay: (req: ReplayRequest) => void;
  readonly onCancel: () => void;
}) {
  const [model, setModel] = useState("");
  const [expand, setExpand] = useState(false);
  const names = useModelNames(true);
  const store = useSessionStoreApi();
  useEffect(() => {
    void store.getState().ensureFull([props.nodeId]);
  }, [props.nodeId, store]);
  const readsSummary = useSession((s) => readsASummary(s.nodes.get(props.nodeId), s.nodes));
  const listId = useId();
  return (
    <form
      className={styles.replay}
      aria-label="Replay this reply"
      onSubmit={(e) => {
        e.preventDefault();
        const name = model.trim();
        props.onReplay({
          ...(name === "" ? {} : { model: name }),
          ...(expand ? { expand: "all" } : {}),
        });
      }}
    >
      <label className={styles.replayField}>
        <span>Model</span>
        <input
          className="field"
          list={listId}
          value={model}
          placeholder={props.model ?? "the same model"}
          onChange={(e) => setModel(e.target.value)}
          aria-label="Replay on model"
          autoFocus
        />
        <datalist id={listId}>
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </label>
      <label
        className={styles.replayCheck}
        title={
          readsSummary === null
            ? "Finding out what this reply read…"
            : readsSummary
              ? "Send the original turns in place of the summaries this reply read"
              : "This reply read no summary: its prompt is the same either way"
        }
      >
        <input
          type="checkbox"
          checked={expand}
          disabled={readsSummary !== true}
          onChange={(e) => setExpand(e.target.checked)}
        />
        Without summaries
      </label>
      <div className={styles.editActions}>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={props.busy}>
          Replay
        </button>
      </div>
    </form>
  );
}

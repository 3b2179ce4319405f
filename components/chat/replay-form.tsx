"use client";

import { useId, useState } from "react";
import type { ReplayRequest } from "./use-session-actions";
import { useModelNames } from "./use-model-names";
import styles from "./message-view.module.css";

/**
 * "Replay…" on a reply (issue 22): the same prompt sent again — to the model named here
 * (blank: the one that wrote it), and, ticked, without its summaries (their original turns
 * in their place).
 */
export function ReplayForm(props: {
  readonly model: string | undefined;
  readonly readsSummary: boolean;
  readonly busy: boolean;
  readonly onReplay: (req: ReplayRequest) => void;
  readonly onCancel: () => void;
}) {
  const [model, setModel] = useState("");
  const [expand, setExpand] = useState(false);
  const names = useModelNames(true);
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
          props.readsSummary
            ? "Send the original turns in place of the summaries this reply read"
            : "This reply read no summary: its prompt is the same either way"
        }
      >
        <input
          type="checkbox"
          checked={expand}
          disabled={!props.readsSummary}
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

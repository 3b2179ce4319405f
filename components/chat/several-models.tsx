"use client";

import { useState } from "react";
import { useModelNames } from "./use-model-names";
import styles from "./composer.module.css";

/** At most this many models answer one message (the API's limit). */
export const MAX_MODELS = 4;

/**
 * "Ask several models" (issue 22): the models the next message goes to, picked from the
 * provider's list or typed. With two or more, the message is answered by each, side by side.
 */
export function SeveralModels(props: {
  readonly chosen: readonly string[];
  readonly onChange: (models: readonly string[]) => void;
  readonly current: string;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const listed = useModelNames(open);
  const names = [...new Set([props.current, ...listed, ...props.chosen])].filter((n) => n);
  const toggle = (name: string, on: boolean) =>
    props.onChange(
      on ? [...props.chosen, name].slice(0, MAX_MODELS) : props.chosen.filter((n) => n !== name),
    );
  return (
    <div className={styles.models}>
      <button
        type="button"
        className="btn"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        title="Send the next message to several models at once and see their replies side by side"
      >
        {props.chosen.length >= 2 ? `${props.chosen.length} models` : "Ask several models"}
      </button>
      {open && (
        <fieldset className={styles.modelsPanel} aria-label="Models to ask">
          <legend>Ask 2–{MAX_MODELS} models at once</legend>
          {names.map((name) => (
            <label key={name} className={styles.modelRow}>
              <input
                type="checkbox"
                checked={props.chosen.includes(name)}
                disabled={!props.chosen.includes(name) && props.chosen.length >= MAX_MODELS}
                onChange={(e) => toggle(name, e.target.checked)}
              />
              {name}
              {name === props.current && <span className={styles.modelNote}> (this chat’s)</span>}
            </label>
          ))}
          <div className={styles.modelRow}>
            <input
              className="field"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="Another model’s name"
              aria-label="Another model"
            />
            <button
              type="button"
              className="btn"
              disabled={typed.trim() === "" || props.chosen.length >= MAX_MODELS}
              onClick={() => {
                const name = typed.trim();
                if (!props.chosen.includes(name)) toggle(name, true);
                setTyped("");
              }}
            >
              Add
            </button>
          </div>
          <div className={styles.modelRow}>
            <button type="button" className="btn" onClick={() => props.onChange([])}>
              Just this chat’s model
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}

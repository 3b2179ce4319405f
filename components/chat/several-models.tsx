"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useModelNames } from "./use-model-names";
import styles from "./composer.module.css";

/** At most this many models answer one message (the API's limit). */
export const MAX_MODELS = 4;

/** The models the next message goes to, and whether their panel is open. */
export interface SeveralModelsState {
  readonly chosen: readonly string[];
  readonly setChosen: (models: readonly string[]) => void;
  readonly open: boolean;
  /** Opens the panel; with nothing chosen yet, `current` (this chat's model) starts ticked. */
  readonly show: (current: string) => void;
  readonly hide: () => void;
}

/**
 * Held by the chat page, so the header's model picker ("Ask several models…") and the
 * composer's button open the same panel.
 */
export function useSeveralModels(): SeveralModelsState {
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [open, setOpen] = useState(false);
  return useMemo(
    () => ({
      chosen,
      setChosen,
      open,
      show: (current: string) => {
        setOpen(true);
        if (current !== "") setChosen((c) => (c.length === 0 ? [current] : c));
      },
      hide: () => setOpen(false),
    }),
    [chosen, open],
  );
}

/**
 * "Ask several models" (issue 22): the models the next message goes to, picked from the
 * provider's list or typed. With two or more, the message is answered by each, side by side.
 */
export function SeveralModels(props: {
  readonly state: SeveralModelsState;
  readonly current: string;
}) {
  const { chosen, open } = props.state;
  const onChange = props.state.setChosen;
  const panel = useRef<HTMLFieldSetElement>(null);
  // Opened from the header too: the panel comes into view with its first box focused.
  useEffect(() => {
    if (!open) return;
    panel.current?.scrollIntoView({ block: "nearest" });
    panel.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, [open]);
  const [typed, setTyped] = useState("");
  const listed = useModelNames(open);
  const names = [...new Set([props.current, ...listed, ...chosen])].filter((n) => n);
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...chosen, name].slice(0, MAX_MODELS) : chosen.filter((n) => n !== name));
  return (
    <div className={styles.models}>
      <button
        type="button"
        className="btn"
        aria-expanded={open}
        onClick={() => (open ? props.state.hide() : props.state.show(props.current))}
        title="Send the next message to several models at once and see their replies side by side"
      >
        {chosen.length >= 2 ? `${chosen.length} models` : "Ask several models"}
      </button>
      {open && (
        <fieldset ref={panel} className={styles.modelsPanel} aria-label="Models to ask">
          <legend>Ask 2–{MAX_MODELS} models at once</legend>
          {names.map((name) => (
            <label key={name} className={styles.modelRow}>
              <input
                type="checkbox"
                checked={chosen.includes(name)}
                disabled={!chosen.includes(name) && chosen.length >= MAX_MODELS}
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
              disabled={typed.trim() === "" || chosen.length >= MAX_MODELS}
              onClick={() => {
                const name = typed.trim();
                if (!chosen.includes(name)) toggle(name, true);
                setTyped("");
              }}
            >
              Add
            </button>
          </div>
          <div className={styles.modelRow}>
            <button type="button" className="btn" onClick={() => onChange([])}>
              Just this chat’s model
            </button>
            <button type="button" className="btn btn-primary" onClick={props.state.hide}>
              Done
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}

"use client";

import { useId, useState, type ReactNode } from "react";
import { FloatingPortal } from "@floating-ui/react";
import { cx } from "@/components/ui/cx";
import { usePopover } from "@/components/ui/use-popover";
import { formatWindow, loadModels, modelsOf, useModels, whyUnlisted } from "./model-catalogue";
import styles from "./model-picker.module.css";

export interface ModelPickerProps {
  /** What the trigger shows (the model's name, or "Retry with…"). */
  readonly trigger: ReactNode;
  readonly triggerClassName?: string | undefined;
  /** The trigger's accessible name and tooltip. */
  readonly triggerLabel: string;
  /** The popover's heading, also its accessible name. */
  readonly heading: string;
  /** The model in use, marked in the list. */
  readonly current: string | null;
  readonly disabled?: boolean;
  readonly onPick: (model: string) => void;
  /** A further action under the list (the header's "Ask several models…"). */
  readonly more?: { readonly label: string; readonly title: string; readonly run: () => void };
}

/**
 * The provider's models (`GET /api/models`) in a popover that stays inside the viewport:
 * searchable, each with its context window and whether it calls tools (issue 21). A name
 * the provider does not list can still be used, and the picker says it is not listed.
 */
export function ModelPicker(props: ModelPickerProps) {
  const { open, setOpen, trigger, panel, triggerRef, floatingStyles } = usePopover({
    placement: "bottom-start",
    gap: 6,
    minHeight: 160,
  });
  const [query, setQuery] = useState("");
  const models = useModels();
  const headingId = useId();
  const listId = useId();

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };
  const pick = (model: string) => {
    setOpen(false);
    props.onPick(model);
  };

  const list = modelsOf(models);
  const unlistedWhy = whyUnlisted(models);
  const wanted = query.trim();
  const shown = list.filter((m) => m.id.toLowerCase().includes(wanted.toLowerCase()));
  const unlisted = wanted !== "" && !list.some((m) => m.id === wanted);

  return (
    <span className={styles.wrap}>
      <button
        ref={trigger}
        type="button"
        className={props.triggerClassName}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={props.triggerLabel}
        title={props.triggerLabel}
        disabled={props.disabled}
        onClick={() => {
          if (!open) {
            setQuery("");
            loadModels();
          }
          setOpen(!open);
        }}
      >
        {props.trigger}
      </button>
      {/* In the body, not under the trigger: a transcript row is transformed (virtualised),
          which would make it the panel's containing block and let the scroller clip it. */}
      {open && (
        <FloatingPortal>
          <div
            ref={panel}
            role="dialog"
            aria-labelledby={headingId}
            className={styles.panel}
            style={floatingStyles}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                close();
              }
            }}
          >
            <h2 id={headingId} className={styles.heading}>
              {props.heading}
            </h2>
            <input
              type="search"
              className={styles.search}
              placeholder="Search models"
              aria-label="Search models"
              aria-controls={listId}
              value={query}
              autoFocus
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  const only = shown.length === 1 ? shown[0] : undefined;
                  if (only && !unlisted) pick(only.id);
                  else if (wanted !== "") pick(wanted);
                }
              }}
            />
            {models.status === "loading" && <p className={styles.note}>Listing models…</p>}
            {unlistedWhy !== null && <p className={styles.warn}>{unlistedWhy}</p>}
            <ul id={listId} className={styles.list} aria-label="Models">
              {shown.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    className={cx(styles.option, m.id === props.current && styles.current)}
                    aria-current={m.id === props.current || undefined}
                    onClick={() => pick(m.id)}
                  >
                    <span className={styles.name}>{m.id}</span>
                    <span className={styles.facts}>
                      {formatWindow(m.contextWindow)} window{m.known ? "" : " (guessed)"} ·{" "}
                      {m.tools ? "calls tools" : "no tools"}
                      {m.price && ` · $${m.price.input}/$${m.price.output} per M tokens`}
                    </span>
                  </button>
                </li>
              ))}
              {unlisted && (
                <li>
                  <button type="button" className={styles.option} onClick={() => pick(wanted)}>
                    <span className={styles.name}>Use “{wanted}”</span>
                    <span className={styles.warn}>
                      Not listed by the provider: a turn with it may fail with the provider’s error.
                    </span>
                  </button>
                </li>
              )}
              {models.status === "ready" && shown.length === 0 && !unlisted && (
                <li className={styles.note}>No models listed.</li>
              )}
            </ul>
            {props.more && (
              <button
                type="button"
                className={styles.more}
                title={props.more.title}
                onClick={() => {
                  setOpen(false);
                  props.more?.run();
                }}
              >
                {props.more.label}
              </button>
            )}
          </div>
        </FloatingPortal>
      )}
    </span>
  );
}

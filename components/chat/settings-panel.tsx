"use client";

import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { updateSessionAction } from "@/app/s/[id]/actions";
import { useSession } from "@/components/session/session-context";
import { PolicyField } from "@/components/session/policy-field";
import { useEscapeKey } from "@/components/ui/use-escape-key";
import { useOutsidePress } from "@/components/ui/use-outside-press";
import type { SummaryPolicy } from "@/lib/engine/types";
import { loadModels, modelsOf, useModels, whyUnlisted } from "./model-catalogue";
import styles from "./settings-panel.module.css";

/**
 * Per-session settings (meta.settings): model, window, kept tail, auto-compaction, how
 * compaction keeps its summaries, tools, images.
 */
export interface SettingsHandle {
  /** Opens the panel (from the session menu, when the header has no room for the button). */
  open: () => void;
}

export function SettingsPanel({
  handle,
  buttonClassName,
}: {
  handle?: Ref<SettingsHandle>;
  buttonClassName?: string | undefined;
}) {
  const session = useSession((s) => s.session);
  const setSession = useSession((s) => s.setSession);
  const defaults = useSession((s) => s.model);
  const settings = session.meta.settings ?? {};
  const [open, setOpen] = useState(false);
  // Why the last save was refused, shown in the panel beside the fields (the page's status
  // line is far from them, and it kept the error after a later save went through).
  const [refused, setRefused] = useState<string | null>(null);
  const catalogue = useModels();
  const [model, setModel] = useState(settings.model ?? "");
  const [window, setWindow] = useState(settings.contextWindow?.toString() ?? "");
  const [keep, setKeep] = useState(settings.keepRecentTokens?.toString() ?? "");
  const [auto, setAuto] = useState(settings.autoCompact ?? true);
  const [tools, setTools] = useState(toolsChoice(settings.tools));
  const [vision, setVision] = useState(toolsChoice(settings.vision));
  const [policy, setPolicy] = useState<SummaryPolicy>(settings.policy ?? "rolling-single");

  // The page's one catalogue (shared with the model picker); a list the provider did not
  // give is asked for again each time the panel opens.
  useEffect(() => {
    if (open) loadModels();
  }, [open]);
  const models = modelsOf(catalogue);
  const modelsError = whyUnlisted(catalogue);

  // Re-read the session's settings each time the panel opens (a /model may have changed them).
  const openPanel = () => {
    setModel(settings.model ?? "");
    setWindow(settings.contextWindow?.toString() ?? "");
    setKeep(settings.keepRecentTokens?.toString() ?? "");
    setAuto(settings.autoCompact ?? true);
    setTools(toolsChoice(settings.tools));
    setVision(toolsChoice(settings.vision));
    setPolicy(settings.policy ?? "rolling-single");
    setRefused(null);
    setOpen(true);
  };
  useImperativeHandle(handle, () => ({ open: openPanel }));

  // Closed like the page's other popovers: Escape anywhere (focus back on its button), or a
  // press outside it. What was typed and not saved is dropped: the panel re-reads the
  // session's settings each time it opens.
  const root = useRef<HTMLDivElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);
  useEscapeKey(open, (e) => {
    e.preventDefault();
    setOpen(false);
    button.current?.focus();
  });
  useOutsidePress(open, [root], () => setOpen(false));

  const save = async () => {
    // An empty field clears the override: the server-wide default applies again.
    const next = {
      autoCompact: auto,
      model: model.trim() || null,
      contextWindow: window.trim() ? Number(window) : null,
      keepRecentTokens: keep.trim() ? Number(keep) : null,
      tools: tools === "default" ? null : tools === "on",
      vision: vision === "default" ? null : vision === "on",
      // The default needs no override; switching rewrites nothing (compaction.md §7).
      policy: policy === "rolling-single" ? null : policy,
    };
    const result = await updateSessionAction(session.id, { settings: next });
    if (!result.ok) return setRefused(withoutPath(result.error.message));
    setRefused(null);
    setSession(result.value);
    setOpen(false);
  };

  return (
    <div className={styles.settings} ref={root}>
      <button
        ref={button}
        className={buttonClassName ? `btn ${buttonClassName}` : "btn"}
        onClick={() => (open ? setOpen(false) : openPanel())}
        aria-expanded={open}
      >
        Settings
      </button>
      {open && (
        <form
          className={styles.panel}
          aria-label="Session settings"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label>
            Model
            <input
              list="spindle-models"
              value={model}
              onChange={(e) => setModel(e.target.value)}
              placeholder={`${defaults.label} (default)`}
            />
            <datalist id="spindle-models">
              {models.map((m) => (
                <option key={m.id} value={m.id} />
              ))}
            </datalist>
          </label>
          {modelsError && (
            <p className={styles.error} role="alert">
              {modelsError}
            </p>
          )}
          <TokenField
            label="Context window (tokens)"
            value={window}
            onChange={setWindow}
            fallback={defaults.window}
          />
          <TokenField
            label="Keep recent (tokens)"
            value={keep}
            onChange={setKeep}
            fallback={defaults.keepRecentTokens}
          />
          <label className={styles.check}>
            <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.target.checked)} />
            Compact automatically at 80%
          </label>
          <PolicyField
            value={policy}
            onChange={setPolicy}
            after="Takes effect at the next compaction."
            hintClassName={styles.hint}
          />
          <label>
            Tools the model may call (sub-agents, sending to other chats)
            <select
              value={tools}
              onChange={(e) => setTools(e.target.value as ToolsChoice)}
              disabled={defaults.offline}
            >
              <option value="default">As the model supports (default)</option>
              <option value="on">On</option>
              <option value="off">Off</option>
            </select>
          </label>
          <label>
            Images (send attached images to the model)
            <select
              value={vision}
              onChange={(e) => setVision(e.target.value as ToolsChoice)}
              disabled={defaults.offline}
            >
              <option value="default">As the model supports (default)</option>
              <option value="on">On: the model reads images</option>
              <option value="off">Off</option>
            </select>
          </label>
          {refused && (
            <p className={styles.error} role="alert">
              {refused}
            </p>
          )}
          <div className={styles.actions}>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary">
              Save
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/**
 * A refusal's message without the field's path: the server names the field it refused
 * (`settings.contextWindow: The context window must be …`) and its words already say which.
 */
function withoutPath(message: string): string {
  return message.replace(/^settings\.\w+: /, "");
}

/** A switch the session may override: the model's default, on or off (tools, images). */
type ToolsChoice = "default" | "on" | "off";

function toolsChoice(setting: boolean | undefined): ToolsChoice {
  return setting === undefined ? "default" : setting ? "on" : "off";
}

/** A whole number of tokens; empty means "the default" (shown as the placeholder, marked). */
function TokenField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  fallback: number;
}) {
  return (
    <label>
      {props.label}
      <input
        inputMode="numeric"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ""))}
        placeholder={`${props.fallback} (default)`}
      />
    </label>
  );
}

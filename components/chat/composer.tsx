"use client";

import { useState } from "react";
import { selectStreaming, useSession } from "@/components/session/session-context";
import { useDraft } from "./drafts";
import { useCompare } from "@/components/compare/compare-context";
import { SeveralModels } from "./several-models";
import { parseComposer, SLASH_HELP } from "./slash-command";
import type { SessionActions } from "./use-session-actions";
import { waitReason } from "./wait-reason";
import styles from "./composer.module.css";

/**
 * The message box: Enter sends, Shift+Enter breaks the line, `/` opens the commands. Its
 * draft is kept per session in local storage until sent (issue 21, `useDraft`): the server
 * renders an empty box; once hydrated the box shows the saved draft.
 */
export function Composer({ actions }: { actions: SessionActions }) {
  const sessionId = useSession((s) => s.session.id);
  // Every edit is the draft; sending empties the box, which forgets it.
  const [text, setText] = useDraft(sessionId);
  const busy = useSession((s) => s.busy);
  // Another tab's reply streaming in this session also holds the turn.
  const streaming = useSession(selectStreaming);
  const setError = useSession((s) => s.setError);
  const setNotice = useSession((s) => s.setNotice);
  const wait = waitReason(busy, streaming);
  const model = useSession((s) => s.model);
  const sessionModel = useSession((s) => s.session.meta.settings?.model);
  const [models, setModels] = useState<readonly string[]>([]);
  const compare = useCompare();

  const submit = async () => {
    if (text.trim() === "") return;
    // Enter while the turn is held says why nothing was sent; the draft stays in the box.
    if (wait !== null) {
      setNotice(wait);
      return;
    }
    const cmd = parseComposer(text);
    if (cmd.kind === "invalid") {
      setError(cmd.message);
      return;
    }
    const draft = text;
    // Cleared at once so the box is ready; put back if the server refused the request.
    setText("");
    let ok = true;
    switch (cmd.kind) {
      case "message":
        if (models.length >= 2) {
          const userId = await actions.sendToModels(cmd.text, models);
          ok = userId !== null;
          if (userId !== null) compare.openReplies(userId);
        } else ok = await actions.send(cmd.text);
        break;
      case "compact":
        ok = await actions.compact();
        break;
      case "task":
        ok = await actions.task(cmd.prompt);
        break;
      case "send":
        ok = await actions.sendTo(cmd.sessionId, cmd.text);
        break;
      case "model":
        ok = await actions.setModel(cmd.name);
        break;
    }
    if (!ok) setText((current) => (current === "" ? draft : current));
  };

  const showHelp = text.startsWith("/") && !text.includes(" ");
  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {showHelp && (
        <ul className={styles.slashHelp} aria-label="Commands">
          {SLASH_HELP.filter((h) => h.usage.startsWith(text.split(" ")[0] ?? "")).map((h) => (
            <li key={h.usage}>
              <code>{h.usage}</code> {h.what}
            </li>
          ))}
        </ul>
      )}
      {!model.offline && (
        <SeveralModels chosen={models} onChange={setModels} current={sessionModel ?? model.name} />
      )}
      {models.length >= 2 && (
        <span className={styles.asking} role="status">
          Asking {models.join(", ")}
        </span>
      )}
      <textarea
        className="field"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        placeholder="Message, or / for commands"
        aria-label="Message"
        rows={Math.min(8, Math.max(1, text.split("\n").length))}
      />
      {busy === "turn" ? (
        <button type="button" className="btn" onClick={actions.stop} aria-label="Stop">
          Stop
        </button>
      ) : (
        <button
          type="submit"
          className="btn btn-primary"
          disabled={wait !== null || text.trim() === ""}
          title={wait ?? undefined}
        >
          Send
        </button>
      )}
    </form>
  );
}

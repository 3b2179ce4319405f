"use client";

import { useState } from "react";
import { selectStreaming, useSession } from "@/components/session/session-context";
import { parseComposer, SLASH_HELP } from "./slash-command";
import type { SessionActions } from "./use-session-actions";
import styles from "./composer.module.css";

/** The message box: Enter sends, Shift+Enter breaks the line, `/` opens the commands. */
export function Composer({ actions }: { actions: SessionActions }) {
  const [text, setText] = useState("");
  const busy = useSession((s) => s.busy);
  // Another tab's reply streaming in this session also holds the turn.
  const streaming = useSession(selectStreaming);
  const setError = useSession((s) => s.setError);

  const submit = async () => {
    if (busy || streaming || text.trim() === "") return;
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
        ok = await actions.send(cmd.text);
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
          disabled={busy !== null || text.trim() === ""}
        >
          Send
        </button>
      )}
    </form>
  );
}
